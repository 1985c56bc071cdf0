#!/bin/sh
# funclen.sh FILE... - "LINES FILE:LINE NAME" for every function of the C
# files: the lines from the one after its name's line (its opening brace,
# at column 0) to its closing brace at column 0, as a reader counts a
# function's length.  tests/cli.d/optparse.sh holds src/cli to 80.
awk '
FNR == 1 { start = 0; cand = 0 }
/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { cand = FNR; line = $0 }
/^\{/ && cand { start = cand; sig = line; cand = 0 }
/^}/ && start {
	name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
	printf "%d %s:%d %s\n", FNR - start, FILENAME, start, name; start = 0
}' "$@"
