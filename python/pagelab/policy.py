"""Cache policies written in Python, run by libpagelab through its plugin
interface (include/pagelab_policy.h) as a struct of ctypes callbacks
(pagelab_set_policy_struct).

A policy is a class with the hooks of a cache, as libCacheSim's plugin
cache has them; the adapter here does the list keeping pagelab_policy.h
asks of a plugin (every page on one list, a victim taken off it before
pagelab_evict), so the class only decides:

    class LRU(pagelab.Policy):
        name = "pylru"
        def init(self, frames):   self.order = collections.OrderedDict()
        def insert(self, frame):  self.order[frame] = None     # a miss
        def access(self, frame, write): self.order.move_to_end(frame)
        def evict(self):          return self.order.popitem(last=False)[0]
        def remove(self, frame):  self.order.pop(frame, None)

pagelab.run_trace(TRACE, 4897, policy=LRU).  access() is called on every
reference (PAGELAB_POLICY_ACCESS_HOOK: an idealized MMU, as the built-in
lru has it), after insert() on a miss; a class without access() is not
told of hits.  Frames are ints below the machine's frame count.
Tunables: a dict {name: (default, min, max, help)}; their values are in
self.params (a dict) when init() runs, set as any tunable
(run(..., NAME=VALUE)).

An exception in a hook (or evict() returning a page the policy does not
hold) does not stop the run at once - a Python error must not unwind
through the simulator - the adapter finishes it evicting oldest-first,
then run() raises PolicyError from the exception (a KeyboardInterrupt
as itself, once the run has ended: Ctrl-C does not cut a run short).
Each class takes one of the 8 plugin places of the process (registered
on its first run).
"""
import ctypes

from . import _lib

PFN = ctypes.c_uint32
EVICT_GONE, EVICT_CULLED, EVICT_REFUSED, EVICT_NOSWAP = range(4)
ACCESS_HOOK = 1
ABI = 1


class PolicyError(_lib.PagelabError):
    """A Python policy's hook raised, or broke a rule; __cause__ holds
    the exception."""


class Scan(ctypes.Structure):
    """struct pagelab_scan."""
    _fields_ = [("nr_to_reclaim", ctypes.c_uint64), ("priority", ctypes.c_int),
                ("who", ctypes.c_int), ("may_swap", ctypes.c_bool),
                ("may_writepage", ctypes.c_bool),
                ("nr_scanned", ctypes.c_uint64),
                ("nr_reclaimed", ctypes.c_uint64),
                ("nr_rotated", ctypes.c_uint64),
                ("nr_activated", ctypes.c_uint64), ("core", ctypes.c_void_p)]


class Tunable(ctypes.Structure):
    """struct pagelab_tunable."""
    _fields_ = [("name", ctypes.c_char_p), ("kernel_name", ctypes.c_char_p),
                ("default", ctypes.c_double), ("min", ctypes.c_double),
                ("max", ctypes.c_double), ("help", ctypes.c_char_p)]


INIT = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p,
                        ctypes.POINTER(ctypes.c_double))
DESTROY = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
ADD = ctypes.CFUNCTYPE(None, ctypes.c_void_p, PFN, ctypes.c_int)
REMOVE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, PFN)
ACCESS = ctypes.CFUNCTYPE(None, ctypes.c_void_p, PFN, ctypes.c_bool)
SHRINK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(Scan))


class Struct(ctypes.Structure):
    """struct pagelab_policy."""
    _fields_ = [("abi", ctypes.c_int), ("name", ctypes.c_char_p),
                ("summary", ctypes.c_char_p),
                ("tunables", ctypes.POINTER(Tunable)),
                ("flags", ctypes.c_uint), ("init", INIT),
                ("destroy", DESTROY), ("add", ADD), ("remove", REMOVE),
                ("mark_accessed", ctypes.c_void_p), ("access", ACCESS),
                ("shrink", SHRINK), ("check", ctypes.c_void_p)]


class Policy:
    """Base class of a policy in Python: override init, insert, evict,
    remove and (for hits) access.  See the module's text."""
    name = "python"
    summary = "a cache policy written in Python"
    tunables = {}

    def init(self, frames):
        pass

    def insert(self, frame):
        raise NotImplementedError

    def evict(self):
        raise NotImplementedError

    def remove(self, frame):
        raise NotImplementedError


class _Instance:
    """One run's policy object and what the adapter keeps beside it."""

    def __init__(self, obj, mm, nr):
        self.obj, self.mm, self.nr = obj, mm, nr
        self.held = bytearray(nr)     # held[frame]: on our list
        self.count = 0
        self.failed = False


_live = {}        # handle -> _Instance
_next_handle = [1]
_structs = {}     # class -> (Struct, the callbacks kept alive)
_pending = []     # the first exception of a run's hooks


def _fail(inst, exc):
    if not inst.failed:
        inst.failed = True
        _pending.append(exc)


def _init(cls):
    def init(mm, tun):
        L = _lib.lib()
        obj = cls()
        obj.params = {n: tun[i] for i, n in enumerate(cls.tunables)}
        inst = _Instance(obj, mm, L.pagelab_nr_frames(mm))
        inst.list = L.pagelab_lru_register(mm, cls.name.encode())
        handle = _next_handle[0]
        _next_handle[0] += 1
        _live[handle] = inst
        try:
            obj.init(inst.nr)
        except BaseException as e:      # the run goes on oldest-first
            _fail(inst, e)
        return handle
    return init


def _destroy(p):
    _live.pop(p, None)


def _add(p, frame, why):
    inst = _live[p]
    L = _lib.lib()
    if not inst.held[frame]:
        L.pagelab_lru_add_head(inst.mm, inst.list, frame)
        inst.held[frame] = 1
        inst.count += 1
    if not inst.failed:
        try:
            inst.obj.insert(frame)
        except BaseException as e:
            _fail(inst, e)


def _remove(p, frame):
    inst = _live[p]
    if inst.held[frame]:
        _lib.lib().pagelab_lru_del(inst.mm, frame)
        inst.held[frame] = 0
        inst.count -= 1
    if not inst.failed:
        try:
            inst.obj.remove(frame)
        except BaseException as e:
            _fail(inst, e)


def _access(p, frame, write):
    inst = _live[p]
    if not inst.failed:
        try:
            inst.obj.access(frame, write)
        except BaseException as e:
            _fail(inst, e)


def _victim(inst):
    """The policy's choice, checked; after a failure the oldest page."""
    if not inst.failed:
        try:
            f = inst.obj.evict()
            if type(f) is int and 0 <= f < inst.nr and inst.held[f]:
                return f
            raise PolicyError("%s.evict() returned %r: not a frame the "
                              "policy holds" % (type(inst.obj).__name__, f))
        except BaseException as e:
            _fail(inst, e)
    return _lib.lib().pagelab_lru_tail(inst.mm, inst.list)


def _shrink(p, scp):
    """src/policy/lru.c's pass: at most one look at each page; a page
    that cannot go now is put back (and inserted again)."""
    inst = _live[p]
    L = _lib.lib()
    sc = scp.contents
    budget = inst.count
    while sc.nr_reclaimed < sc.nr_to_reclaim and budget > 0:
        budget -= 1
        f = _victim(inst)
        L.pagelab_lru_del(inst.mm, f)
        inst.held[f] = 0
        inst.count -= 1
        r = L.pagelab_evict(inst.mm, scp, f)
        if r in (EVICT_REFUSED, EVICT_NOSWAP):
            _add(p, f, 0)


def _struct_for(policy):
    """The struct pagelab_policy of a Policy class (or instance's class),
    made once per class."""
    cls = policy if isinstance(policy, type) else type(policy)
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        raise TypeError("policy must be a name or a pagelab.Policy class")
    if cls not in _structs:
        keep = [INIT(_init(cls)), DESTROY(_destroy), ADD(_add),
                REMOVE(_remove), ACCESS(_access), SHRINK(_shrink)]
        tun = (Tunable * (len(cls.tunables) + 1))()
        for i, (n, (d, lo, hi, h)) in enumerate(cls.tunables.items()):
            tun[i] = Tunable(n.encode(), b"(Python)", d, lo, hi, h.encode())
        has_access = getattr(cls, "access", None) is not None
        s = Struct(ABI, cls.name.encode(), cls.summary.encode(),
                   ctypes.cast(tun, ctypes.POINTER(Tunable)),
                   ACCESS_HOOK if has_access else 0, keep[0], keep[1],
                   keep[2], keep[3], None,
                   keep[4] if has_access else ACCESS(), keep[5], None)
        _structs[cls] = (s, keep, tun)
    return ctypes.byref(_structs[cls][0])


def _raise_pending(policy):
    """After a run: the first exception a hook raised, as PolicyError."""
    if _pending:
        e = _pending[0]
        del _pending[:]
        if isinstance(e, (PolicyError, KeyboardInterrupt)):
            raise e
        raise PolicyError("%s: %s: %s" % (getattr(policy, "__name__", policy),
                          type(e).__name__, e)) from e
