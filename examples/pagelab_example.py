# pagelab from Python (docs/python.md): a run, a 3 x 3 sweep, miss-ratio
# curves and a cache policy written in Python, with matplotlib's plots.
# The same code as examples/pagelab.ipynb (tools/py2nb.py makes the
# notebook from this file; make check runs one or the other).  From the
# examples folder:  PYTHONPATH=../python python3 pagelab_example.py
# Plots go to $PAGELAB_EXAMPLE_OUT (default: this folder).

# %%
import collections
import os
import re
import sys
import time

TREE = os.environ.get("PAGELAB_TREE", os.path.abspath(".."))
try:
    import pagelab
except ImportError:          # not installed: the tree's copy
    sys.path.insert(0, os.path.join(TREE, "python"))
    import pagelab
import matplotlib
if "ipykernel" not in sys.modules:      # a script: files, no display
    matplotlib.use("Agg")
import matplotlib.pyplot as plt

OUT = os.environ.get("PAGELAB_EXAMPLE_OUT", ".")
TRACE = os.path.join(TREE, "tests", "data",
                     "cloudPhysicsIO.oracleGeneral.bin.zst")
print("libpagelab", pagelab.version())

# %% [markdown]
# ## One run through the library
# `pagelab.run` is `pagelab run`: the machine, its parameters and the
# workloads' words.

# %%
r = pagelab.run("usemem -m 24", ram="16M", swap="32M", policy="clock")
print("pgfault", r["pgfault"], "pswpout", r["pswpout"])
print(r.workloads)

# %% [markdown]
# ## A 3 x 3 sweep through `pagelab sweep`
# Three cache policies by three cache sizes on the CloudPhysics sample of
# the tests, one row per cell; pgfault counts the misses (libCacheSim's
# exactly: tests/cli.d/policies.sh).

# %%
df = pagelab.sweep(["trace", TRACE], machine="ideal",
                   policy=["lru", "fifo", "arc"],
                   ram=["490p", "1224p", "4897p"])
print(df[["design", "ram", "pgfault", "pgmajfault"]])
fig, ax = plt.subplots()
for design, rows in df.groupby("design", sort=False):
    ax.plot(rows["ram"], rows["pgfault"], marker="o", label=design)
ax.set_xlabel("cache size")
ax.set_ylabel("misses (pgfault)")
ax.set_title("CloudPhysics sample: misses by policy and size")
ax.legend()
fig.savefig(os.path.join(OUT, "sweep.png"))

# %% [markdown]
# ## Miss-ratio curves through `pagelab mrc`
# The CloudPhysics sample of the tests: exact LRU from stack distances,
# FIFO and ARC simulated at each size.

# %%
m = pagelab.mrc(TRACE, policy=["lru", "fifo", "arc"],
                sizes="256p:32768p:x2")
fig, ax = plt.subplots()
for curve, rows in m.groupby("curve", sort=False):
    ax.plot(rows["pages"], rows["miss_ratio"], marker=".", label=curve)
ax.set_xscale("log", base=2)
ax.set_xlabel("cache size (pages)")
ax.set_ylabel("miss ratio")
ax.set_title("CloudPhysics sample")
ax.legend()
fig.savefig(os.path.join(OUT, "mrc.png"))

# %% [markdown]
# ## A cache policy written in Python
# The hooks of a cache (libCacheSim's plugin cache): init, access (a hit,
# and the reference after a miss), insert (a miss), evict (choose the
# victim), remove.  pagelab runs it through its plugin interface as
# ctypes callbacks; its misses must be the C lru's exactly.

# %%
class LRU(pagelab.Policy):
    name = "pylru"

    def init(self, frames):
        self.order = collections.OrderedDict()

    def insert(self, frame):
        self.order[frame] = None

    def access(self, frame, write):
        self.order.move_to_end(frame)

    def evict(self):
        return self.order.popitem(last=False)[0]

    def remove(self, frame):
        self.order.pop(frame, None)


def timed(policy, frames):
    t = time.process_time()
    res = pagelab.run_trace(TRACE, frames, policy=policy)
    return res, time.process_time() - t


rows = []
for frames in (490, 4897):
    c, tc = timed("lru", frames)
    py, tpy = timed(LRU, frames)
    assert py["pgfault"] == c["pgfault"], (py["pgfault"], c["pgfault"])
    refs = int(re.search(r"^trace: (\d+) references", py.report(),
                         re.M).group(1))
    rows.append({"frames": frames, "misses": py["pgfault"],
                 "c_refs_per_s": refs / tc, "py_refs_per_s": refs / tpy})
    print("%5d frames: %d misses (C lru %d); %.0f refs/s in Python, "
          "%.0f in C (%.1fx)" % (frames, py["pgfault"], c["pgfault"],
                                 refs / tpy, refs / tc, tpy / tc))
fig, ax = plt.subplots()
ax.bar(["C lru", "Python LRU"],
       [rows[-1]["c_refs_per_s"], rows[-1]["py_refs_per_s"]])
ax.set_ylabel("references per second (CPU time)")
ax.set_title("the same misses, %d frames" % rows[-1]["frames"])
fig.savefig(os.path.join(OUT, "speed.png"))
