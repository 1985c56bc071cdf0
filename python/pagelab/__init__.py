"""pagelab from Python: the simulator through libpagelab (ctypes), sweeps,
miss-ratio curves and the host kernel through the pagelab CLI, and cache
policies written in Python.  docs/python.md.

    import pagelab
    r = pagelab.run("usemem -m 300", ram="256M", policy="splitlru")
    r.counters["pswpout"]
    pagelab.sweep("usemem -m 24", policy=["fifo", "clock", "lru"],
                  ram=["12M", "16M", "20M"])       # a DataFrame
"""
from ._lib import PagelabError
from ._table import have_pandas
from .sim import Result, run, run_trace, version
from .cli import sweep, mrc, kernel
from .policy import Policy, PolicyError
from .replay import replay

__all__ = ["PagelabError", "PolicyError", "Policy", "Result", "run",
           "run_trace", "replay", "version", "sweep", "mrc", "kernel", "have_pandas"]
