"""The cache-only replay from Python (pagelab_cache_replay): a trace
through one cache, no machine around it, as `pagelab run --machine ideal
--ram FRAMESp --policy P trace TRACE` takes it (docs/trace-format.md).
A pagelab.Policy class runs here too, through the same plugin adapter
as on the full machine, with the same miss counts and less of the
simulator around each reference (docs/python.md, "Speed")."""
import ctypes

from . import _lib


class CacheResult(ctypes.Structure):
    """struct pagelab_cache_result."""
    _fields_ = [(n, ctypes.c_uint64) for n in
                ("refs", "misses", "major", "evictions", "writebacks",
                 "pages")]


def _declared():
    L = _lib.lib()
    fn = L.pagelab_cache_replay
    if fn.restype is not ctypes.c_int or fn.argtypes is None:
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_char_p, ctypes.c_uint64, ctypes.c_char_p,
                       ctypes.c_void_p, ctypes.POINTER(CacheResult),
                       ctypes.c_char_p, ctypes.c_size_t]
    return fn


def replay(trace, frames, policy="lru"):
    """Replay TRACE through a cache of FRAMES frames under POLICY (a cache
    policy's name, or a pagelab.Policy class): a dict of refs, misses,
    major (misses of evicted pages), evictions, writebacks and pages
    (distinct).  PagelabError with the library's line when it cannot
    run; PolicyError after the run when a hook raised."""
    fn = _declared()
    out = CacheResult()
    err = ctypes.create_string_buffer(512)
    name, struct = None, None
    if isinstance(policy, str):
        name = policy.encode()
    else:
        from .policy import _struct_for
        struct = _struct_for(policy)
    rc = fn(str(trace).encode(), int(frames), name, struct,
            ctypes.byref(out), err, len(err))
    if struct is not None:
        from .policy import _raise_pending
        _raise_pending(policy)
    if rc != 0:
        raise _lib.PagelabError(err.value.decode())
    return {n: getattr(out, n) for n, _ in CacheResult._fields_}
