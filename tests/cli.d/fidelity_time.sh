# compare --matrix's TIME MISSES (src/engine/kmatrix_time.c): each case
# missing on a time split into the longest workload's CPU (work) and wait
# on both sides.  The tiny committed cache (tests/data/fidelity, two cases
# of usemem -m 80 in 64M, kernel runs written by hand: 101-103 s elapsed,
# 51-53 s of system time) with and without workload figures; the
# simulator side is 12 runs of usemem -m 80 (about 3 s).

R=$(dirname "$0")/..
D=$R/tests/data/fidelity

# tmat DIR: tools/fidelity.sh on DIR, its block in DIR/doc.md
tmat() {
	printf '# doc\n\n<!-- fidelity-matrix:begin -->\n<!-- fidelity-matrix:end -->\n' >"$1/doc.md"
	PAGELAB=$P FIDELITY_DATA=$1 FIDELITY_SIM_CACHE=$1/sim FIDELITY_CASES=$D/cases.txt FIDELITY_JOBS=2 \
		sh "$R/tools/fidelity.sh" "$1/doc.md" >"$1/out" 2>"$1/err"
}

t "fidelity time misses: records without workload figures are unsplit"
mkdir -p "$T/u" && cp "$D"/* "$T/u/"
tmat "$T/u"
msg=
grep -q '^TIME MISSES: kernel>pagelab medians' "$T/u/doc.md" || msg="no section: $(cat "$T/u/err")"
grep -q '^  work 0, waits 0, both 0, neither 0, unsplit 2; system misses 2$' "$T/u/doc.md" || msg="$msg; counts"
grep -Eq '^a-sw60 +102>0\.[0-9]+ +- +- +52\.0>0\.[0-9]+ +\?$' "$T/u/doc.md" || msg="$msg; case a's row"
awk 'length($0) > 80 { exit 1 }' "$T/u/doc.md" || msg="$msg; over 80 columns"
[ -z "$msg" ] && ok || bad "$msg"

t "fidelity time misses: the kernel's 51 s of CPU and 50 s of wait both miss"
mkdir -p "$T/w" && cp "$D"/* "$T/w/"
# each kernel run: one workload of the record's elapsed and system time,
# 0.01 s of user time: CPU = system + 0.01, wait = the rest (about 50 s)
awk '{ match($0, /"elapsed_s": [0-9.]+/); el = substr($0, RSTART + 13, RLENGTH - 13)
       match($0, /"sys_s": [0-9.]+/); sy = substr($0, RSTART + 9, RLENGTH - 9)
       sub(/"counters":/, "\"workloads\": [{\"elapsed_s\": " el ", \"user_s\": 0.01, \"sys_s\": " sy "}], \"counters\":")
       print }' "$D/kernel.jsonl" >"$T/w/kernel.jsonl"
tmat "$T/w"
msg=
grep -q '^  work 0, waits 0, both 2, neither 0, unsplit 0; system misses 2$' "$T/w/doc.md" ||
	msg="counts: $(grep -A1 '^linux6: ' "$T/w/doc.md" | tr '\n' '|') $(cat "$T/w/err")"
grep -Eq '^a-sw60 +102>0\.[0-9]+ +52\.0>0\.[0-9]+ +50\.0>0\.[0-9]+ +52\.0>0\.[0-9]+ +both$' "$T/w/doc.md" ||
	msg="$msg; case a's row"
[ -z "$msg" ] && ok || bad "$msg"
