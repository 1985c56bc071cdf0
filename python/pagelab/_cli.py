"""Running the pagelab CLI for what the library does not offer: sweeps,
miss-ratio curves and the host kernel.

The binary: $PAGELAB, else the one bundled by `pip install ./python`,
else the source tree's build/pagelab, else `pagelab` on PATH."""
import json
import os
import shutil
import subprocess

from ._lib import BUNDLED, TREE_BUILD, PagelabError


def binary():
    env = os.environ.get("PAGELAB")
    if env:
        return env
    for path in (os.path.join(BUNDLED, "pagelab"),
                 os.path.join(TREE_BUILD, "pagelab")):
        if os.access(path, os.X_OK):
            return path
    found = shutil.which("pagelab")
    if not found:
        raise PagelabError("the pagelab binary was not found: run "
                           "`make` or set PAGELAB")
    return found


def run(args):
    """stdout of `pagelab ARGS...`; PagelabError with its stderr line
    (and exit status) when it fails."""
    argv = [binary()] + [str(a) for a in args]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        err = p.stderr.strip().splitlines()
        raise PagelabError("%s: exit %d: %s" % (" ".join(argv[:2]),
                           p.returncode, err[-1] if err else ""))
    return p.stdout


def json_lines(text):
    """The JSON objects of text, one per non-empty line."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def words(workload):
    """A workload as command words: "usemem -m 100" or a list; several
    workloads run together as a list of those, joined with `+`."""
    if isinstance(workload, str):
        return workload.split()
    if workload and not isinstance(workload[0], str):
        out = []
        for w in workload:
            out += (["+"] if out else []) + words(w)
        return out
    return [str(w) for w in workload]
