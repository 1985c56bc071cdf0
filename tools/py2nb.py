#!/usr/bin/env python3
"""py2nb.py SCRIPT: the Jupyter notebook (nbformat 4) of a script cut into
cells by `# %%` lines (`# %% [markdown]`: a text cell of its `# ` lines;
the comment before the first `# %%` is text too), on stdout.
examples/pagelab.ipynb is made from examples/pagelab_example.py so the
two cannot drift: tests/cli.d/python.sh compares them.
    python3 tools/py2nb.py examples/pagelab_example.py >examples/pagelab.ipynb
"""
import json
import sys


def cells(lines):
    """(kind, lines) per cell."""
    out, kind, cur = [], "markdown", []
    for line in lines + ["# %%"]:
        if line.startswith("# %%"):
            while cur and not cur[-1].strip():
                cur.pop()
            if cur:
                out.append((kind, cur))
            kind = "markdown" if "[markdown]" in line else "code"
            cur = []
        elif kind == "markdown":
            cur.append(line[2:] if line.startswith("# ") else line.lstrip("#"))
        else:
            cur.append(line)
    return out


def cell(kind, body):
    src = [line + "\n" for line in body]
    src[-1] = src[-1].rstrip("\n")
    c = {"cell_type": kind, "metadata": {}, "source": src}
    if kind == "code":
        c.update({"execution_count": None, "outputs": []})
    return c


def main():
    with open(sys.argv[1]) as f:
        lines = f.read().splitlines()
    nb = {"cells": [cell(k, b) for k, b in cells(lines)],
          "metadata": {"kernelspec": {"display_name": "Python 3",
                                      "language": "python",
                                      "name": "python3"},
                       "language_info": {"name": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    json.dump(nb, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
