"""What libpagelab does not offer, through the pagelab CLI: sweeps
(`pagelab sweep`'s JSON lines), miss-ratio curves (`pagelab mrc --csv`)
and runs on the host kernel (`pagelab kernel --json`, root only)."""
import csv
import io
import json
import os

from . import _cli
from ._lib import PagelabError
from ._table import table

SWEEP_FIGURES = ["finished", "timed_out", "check_failed", "simulated_s",
                 "elapsed_s", "user_s", "sys_s"]


def _listed(v):
    return ",".join(str(x) for x in v) if isinstance(v, (list, tuple)) else str(v)


def sweep_args(workload, policy=None, ram=None, machine=None, seeds=None,
               sets=None, jobs=None, **axes):
    """The `pagelab sweep` command line of sweep()'s arguments."""
    args = ["sweep"]
    for opt, v in (("--policy", policy), ("--ram", ram),
                   ("--machine", machine)):
        if v is not None:
            args += [opt, _listed(v)]
    for opt, v in sorted(axes.items()):        # swap=, memcg=, cpus=, disk=
        args += ["--" + opt, _listed(v)]
    for name, v in (sets or {}).items():
        args += ["--set", "%s=%s" % (name, _listed(v))]
    if seeds is not None:
        args += ["--seeds", str(seeds)]
    if jobs is not None:
        args += ["--jobs", str(jobs)]
    return args + ["--"] + _cli.words(workload)


def sweep_row(rec):
    """One cell's record, flat: cell, design, seed, its axes, the
    figures, then every counter."""
    row = {"cell": rec.get("cell"), "design": rec.get("design"),
           "seed": rec.get("seed")}
    row.update(rec.get("params", {}))
    row["available"] = rec.get("available")
    for k in SWEEP_FIGURES:
        row[k] = rec.get(k)
    row.update(rec.get("counters", {}))
    return row


def sweep(workload, policy=None, ram=None, machine=None, seeds=None,
          sets=None, jobs=None, records=False, **axes):
    """Every combination of the lists given (policy, ram, machine, and
    swap=, memcg=, cpus=, disk= as keywords; sets={"swappiness": [0,
    60]}), seeds 1..SEEDS, through `pagelab sweep`: one row per cell
    (sweep_row), in cell order.  records=True: the records as parsed."""
    args = sweep_args(workload, policy, ram, machine, seeds, sets, jobs,
                      **axes)
    recs = _cli.json_lines(_cli.run(args))
    if records:
        return recs
    return table([sweep_row(r) for r in recs])


def _number(s):
    return float(s) if "." in s or "e" in s else int(s)


def mrc(trace, policy=None, sizes=None, shards_rate=None, shards_size=None):
    """Miss-ratio curves of TRACE through `pagelab mrc --csv`: one row per
    curve and size - curve, method, pages, bytes, misses, miss_ratio.
    policy: a name or a list ("lru,arc"); sizes: a list or the CLI's
    ranges ("16p:64K:x2"; default --auto)."""
    args = ["mrc", "--csv"]
    if policy is not None:
        args += ["--policy", _listed(policy)]
    if sizes is not None:
        args += ["--sizes", _listed(sizes)]
    if shards_rate is not None:
        args += ["--shards-rate", str(shards_rate)]
    if shards_size is not None:
        args += ["--shards-size", str(shards_size)]
    rows = []
    for r in csv.DictReader(io.StringIO(_cli.run(args + [str(trace)]))):
        rows.append({k: (v if k in ("curve", "method") else _number(v))
                     for k, v in r.items()})
    return table(rows)


def kernel(workload, memcg="512M", swap="512M", repeat=None, seed=None,
           sets=None, timeout=None):
    """WORKLOAD on this host's kernel through `pagelab kernel --json`, in a
    memory cgroup and swapfile of its own (root only; one run at a time
    on the machine, docs/native.md).  The JSON object(s) it prints, as
    parsed: a dict, or a list of them with repeat."""
    if os.geteuid() != 0:
        raise PagelabError("pagelab.kernel needs root (memory cgroups, "
                           "swap)")
    args = ["kernel", "--json", "--memcg", str(memcg), "--swap", str(swap)]
    if repeat is not None:
        args += ["--repeat", str(repeat)]
    if seed is not None:
        args += ["--seed", str(seed)]
    if timeout is not None:
        args += ["--timeout", str(timeout)]
    for name, v in (sets or {}).items():
        args += ["--set", "%s=%s" % (name, v)]
    out = _cli.run(args + _cli.words(workload))
    try:
        return json.loads(out)
    except ValueError:
        return _cli.json_lines(out)
