# tests/fidelity.sh with FIDELITY_CASES that match no case: nothing runs
# (no kernel, no simulator), every table is kept as docs/fidelity.md has
# it, and the header says what was run again and quotes the old one
# (about 1 s; needs root, as fidelity.sh does, and measures the host's
# TLB flush cost with pagelab kernel: only when asked, tests/kernel_lib.sh).
. "$(dirname "$0")/kernel_lib.sh"

t "fidelity.sh: the cases not selected keep their tables"
if [ -n "$kernel_skip" ]; then
	skip "$kernel_skip"
else
	mkdir -p "$T/fk/kc"
	echo 276126972 >"$T/fk/kc/disk_bandwidth"
	cp docs/fidelity.md "$T/fk/doc.md"
	PAGELAB=$P FIDELITY_KERNEL_CACHE="$T/fk/kc" FIDELITY_SIM_CACHE="$T/fk/sc" FIDELITY_CASES='no such case|nor this' \
		sh tests/fidelity.sh "$T/fk/doc.md" 2>"$T/fk/err"
	rc=$?
	msg=""
	[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/fk/err")"
	# Everything from the summary on is the same; the header quotes the
	# old one.
	sed -n '/^#### Summary/,$p' docs/fidelity.md >"$T/fk/old"
	sed -n '/^#### Summary/,$p' "$T/fk/doc.md" >"$T/fk/new"
	cmp -s "$T/fk/old" "$T/fk/new" || msg="$msg; the kept tables differ"
	tr '\n' ' ' <"$T/fk/doc.md" |
		grep -q 'Run again in this regeneration, on the pagelab above: the cases whose title contains "no such case" or "nor this"; the other' ||
		msg="$msg; no line naming the cases run again"
	# The old header paragraph, every line of it quoted.
	awk '/^<!-- fidelity:begin -->$/ { p = 1; next } p && /^$/ && n { exit } p && NF { n++; print "> " $0 }' \
		docs/fidelity.md >"$T/fk/hdr"
	[ -s "$T/fk/hdr" ] && grep -Fxf "$T/fk/hdr" "$T/fk/doc.md" >"$T/fk/found" && cmp -s "$T/fk/hdr" "$T/fk/found" ||
		msg="$msg; the old header is not quoted"
	[ -z "$msg" ] && ok || bad "$msg"
fi
