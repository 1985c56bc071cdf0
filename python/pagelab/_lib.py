"""Finding and loading libpagelab.so (include/pagelab.h) through ctypes.

Where the library is looked for, first found wins:
  1. $PAGELAB_LIB, a path to libpagelab.so (or libpagelab.so.1);
  2. the copy `pip install ./python` (or `make python`) bundled into the
     package (pagelab/_bundled/);
  3. the source tree's build/libpagelab.so when the package is used from
     the tree (python/pagelab/../../build/), as the tests do;
  4. the system's, installed by `make install` (ctypes.util.find_library).
"""
import ctypes
import ctypes.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = os.path.join(HERE, "_bundled")
TREE_BUILD = os.path.normpath(os.path.join(HERE, "..", "..", "build"))


class PagelabError(Exception):
    """A call into pagelab failed: the library's or the CLI's one line."""


def candidates():
    """The paths tried for libpagelab.so, in order."""
    env = os.environ.get("PAGELAB_LIB")
    if env:
        return [env]
    out = [os.path.join(BUNDLED, "libpagelab.so.1"),
           os.path.join(TREE_BUILD, "libpagelab.so")]
    found = ctypes.util.find_library("pagelab")
    if found:
        out.append(found)
    return out


class Times(ctypes.Structure):
    """struct pagelab_times."""
    _fields_ = [("user", ctypes.c_double), ("sys", ctypes.c_double),
                ("elapsed", ctypes.c_double),
                ("major_faults", ctypes.c_uint64),
                ("minor_faults", ctypes.c_uint64), ("killed", ctypes.c_int)]


def _declare(lib):
    """The prototypes of pagelab.h and of what pagelab_policy.h lets a
    policy call."""
    P, S, I = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    U64, PFN = ctypes.c_uint64, ctypes.c_uint32
    sigs = {
        "pagelab_api_version": (I, []),
        "pagelab_version_string": (S, []),
        "pagelab_new": (P, [S]),
        "pagelab_free": (None, [P]),
        "pagelab_error": (S, [P]),
        "pagelab_set": (I, [P, S, S]),
        "pagelab_set_policy": (I, [P, S]),
        "pagelab_set_policy_struct": (I, [P, P]),
        "pagelab_set_seed": (I, [P, U64]),
        "pagelab_set_check": (I, [P, I]),
        "pagelab_set_max_time": (I, [P, ctypes.c_double]),
        "pagelab_add_workload": (I, [P, I, ctypes.POINTER(S)]),
        "pagelab_run": (I, [P]),
        "pagelab_counter": (I, [P, S, ctypes.POINTER(U64)]),
        "pagelab_counter_name": (S, [I]),
        "pagelab_nr_workloads": (I, [P]),
        "pagelab_workload_times": (I, [P, I, ctypes.POINTER(Times)]),
        "pagelab_event": (I, [P, I, ctypes.POINTER(ctypes.c_double),
                              ctypes.POINTER(I), ctypes.POINTER(S)]),
        "pagelab_report": (I, [P, P, I]),
        "pagelab_lru_register": (I, [P, S]),
        "pagelab_lru_add_head": (None, [P, I, PFN]),
        "pagelab_lru_add_tail": (None, [P, I, PFN]),
        "pagelab_lru_del": (None, [P, PFN]),
        "pagelab_lru_tail": (PFN, [P, I]),
        "pagelab_lru_count": (U64, [P, I]),
        "pagelab_nr_frames": (U64, [P]),
        "pagelab_evict": (I, [P, P, PFN]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args


_lib = None


def lib():
    """The loaded library (loaded once), or PagelabError saying where it
    was looked for."""
    global _lib
    if _lib is None:
        tried = []
        for path in candidates():
            if not os.path.exists(path) and os.sep in path:
                tried.append(path)
                continue
            try:
                handle = ctypes.CDLL(path)
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            _declare(handle)
            _lib = handle
            break
        else:
            raise PagelabError("libpagelab.so not found (tried %s): run "
                               "`make lib` or set PAGELAB_LIB"
                               % ", ".join(tried))
    return _lib
