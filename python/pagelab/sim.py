"""One simulated machine through libpagelab: pagelab.run() and
pagelab.run_trace(), the library's functions (include/pagelab.h)."""
import ctypes
import os
import tempfile

from . import _lib
from ._cli import words as _words
from ._table import table

EVENT_KINDS = {0: "kernel", 1: "exit"}


class Result:
    """A finished run: status (0, 1 --check failed, 3 max time),
    counters (dict, /proc/vmstat names), workloads (each workload's time(1)
    figures) and events (kernel messages and exits, in time order) - a
    DataFrame each with pandas, lists of dicts without - and report()."""

    def __init__(self, sim, status):
        L = _lib.lib()
        self.status = status
        self.counters = {}
        i = 0
        while True:
            name = L.pagelab_counter_name(i)
            if name is None:
                break
            v = ctypes.c_uint64()
            if L.pagelab_counter(sim, name, ctypes.byref(v)) == 0:
                self.counters[name.decode()] = v.value
            i += 1
        self.workloads = table(_times(sim))
        self.events = table(_events(sim), ["t", "kind", "text"])
        self._report = {j: _report(sim, j) for j in (0, 1)}

    def report(self, json=False):
        """The report as `pagelab run` prints it (json: as --json)."""
        return self._report[1 if json else 0]

    def __getitem__(self, name):
        return self.counters[name]


def _times(sim):
    L = _lib.lib()
    rows = []
    for i in range(L.pagelab_nr_workloads(sim)):
        t = _lib.Times()
        if L.pagelab_workload_times(sim, i, ctypes.byref(t)) == 0:
            rows.append({"user": t.user, "sys": t.sys,
                         "elapsed": t.elapsed,
                         "major_faults": t.major_faults,
                         "minor_faults": t.minor_faults,
                         "killed": bool(t.killed)})
    return rows


def _events(sim):
    L = _lib.lib()
    rows, i = [], 0
    t, kind, text = ctypes.c_double(), ctypes.c_int(), ctypes.c_char_p()
    while L.pagelab_event(sim, i, ctypes.byref(t), ctypes.byref(kind),
                          ctypes.byref(text)) == 0:
        rows.append({"t": t.value, "kind": EVENT_KINDS.get(kind.value),
                     "text": text.value.decode(errors="replace")})
        i += 1
    return rows


def _report(sim, json):
    """pagelab_report() into a temporary file (it takes a FILE *)."""
    libc = ctypes.CDLL(None)
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "report")
        f = libc.fopen(path.encode(), b"w")
        if not f:
            raise _lib.PagelabError("cannot write a temporary file")
        rc = _lib.lib().pagelab_report(sim, f, json)
        libc.fclose(f)
        with open(path) as r:
            text = r.read()
    if rc != 0:
        raise _lib.PagelabError("pagelab_report failed")
    return text


def _check(sim, rc):
    if rc != 0:
        raise _lib.PagelabError(_lib.lib().pagelab_error(sim).decode())


def _configure(sim, policy, seed, check, max_time, settings):
    L = _lib.lib()
    if isinstance(policy, str):
        _check(sim, L.pagelab_set_policy(sim, policy.encode()))
    elif policy is not None:
        from .policy import _struct_for
        _check(sim, L.pagelab_set_policy_struct(sim, _struct_for(policy)))
    for name, value in settings.items():
        _check(sim, L.pagelab_set(sim, name.encode(), str(value).encode()))
    if seed is not None:
        _check(sim, L.pagelab_set_seed(sim, int(seed)))
    if check:
        _check(sim, L.pagelab_set_check(sim, 1))
    if max_time is not None:
        _check(sim, L.pagelab_set_max_time(sim, float(max_time)))


def _add_workloads(sim, workload):
    w = _words(workload)
    groups, cur = [], []
    for word in w + ["+"]:
        if word == "+":
            groups.append(cur)
            cur = []
        else:
            cur.append(word)
    for g in groups:
        argv = (ctypes.c_char_p * len(g))(*[x.encode() for x in g])
        _check(sim, _lib.lib().pagelab_add_workload(sim, len(g), argv))


def run(workload, machine="vmm-2008", policy=None, seed=None, check=False,
        max_time=None, **settings):
    """Run WORKLOAD ("usemem -m 300", a list of words, or a list of
    workloads run together) on MACHINE under POLICY (a name, a plugin's
    path, or a pagelab.Policy subclass), with machine parameters and
    tunables as keywords (ram="256M", swappiness=100; a name with a dot
    as **{"vm.dirty_ratio": 10}).  Returns a Result; PagelabError with
    the library's line when it cannot run."""
    L = _lib.lib()
    sim = L.pagelab_new(machine.encode())
    if not sim:
        raise _lib.PagelabError(L.pagelab_error(None).decode())
    try:
        _configure(sim, policy, seed, check, max_time, settings)
        _add_workloads(sim, workload)
        rc = L.pagelab_run(sim)
        from .policy import _raise_pending
        _raise_pending(policy)
        if rc < 0:
            _check(sim, rc)
        return Result(sim, rc)
    finally:
        L.pagelab_free(sim)


def run_trace(trace, frames, policy="lru", **kw):
    """Replay TRACE as a cache of FRAMES pages (--machine ideal --ram
    FRAMESp ... trace TRACE): pgfault counts the misses."""
    return run(["trace", str(trace)], machine="ideal", policy=policy,
               ram="%dp" % int(frames), **kw)


def version():
    """(API version, version string) of the loaded library."""
    L = _lib.lib()
    return L.pagelab_api_version(), L.pagelab_version_string().decode()
