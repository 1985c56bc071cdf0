#!/bin/sh
# cli_area.sh FILE: run one area file of CLI tests (tests/cli.d/*.sh) in a
# shell of its own, with the library (tests/cli_lib.sh: P, T, t / ok / bad
# / skip, counter, ...).  Exits 1 if a check failed.  tests/cli.sh runs
# every area through it; alone:
#   PAGELAB=build/pagelab sh tests/cli_area.sh tests/cli.d/trace.sh
set -u
. "$(dirname "$0")/cli_lib.sh"
. "$1"
exit $fail
