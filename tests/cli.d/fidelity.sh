# make fidelity's matrix (tools/fidelity.sh, tools/fidelity_cases.awk,
# pagelab compare --matrix: src/cli/compare_matrix.c, src/engine/
# kmatrix.c): the cases it generates, and the report it writes from a tiny
# committed cache (tests/data/fidelity: two cases of usemem -m 80 in 64M,
# their kernel runs written by hand) with no kernel run and no root; the
# simulator side is 12 runs of usemem -m 80 (about 3 s in all).

R=$(dirname "$0")/..
D=$R/tests/data/fidelity

# levels FILE A B: "name=count " of each factor level in FILE's case
# names, and the wanted list with A of each 3-level factor's levels and B
# of each 2-level one's: "ok" when they are the same.
levels() {
	got=$(cut -f1 "$1" | tr '-' '\n' | sort | uniq -c | awk '{ printf "%s=%d ", $2, $1 }')
	want="anon=$3 c1=$3 c3=$3 file=$3 st0=$2 st1=$2 st3=$2 sw10=$2 sw150=$2 sw60=$2 w0.5=$3 w1=$3 ws0.5=$2 ws0.9=$2 ws1.3=$2 "
	[ "$got" = "$want" ] && echo ok || echo "levels $got"
}

t "fidelity cases: 24, balanced on every factor, the same every time"
awk -f "$R/tools/fidelity_cases.awk" >"$T/c1"
awk -f "$R/tools/fidelity_cases.awk" >"$T/c2"
awk -v SEED=39 -f "$R/tools/fidelity_cases.awk" >"$T/c3"
msg=
[ "$(wc -l <"$T/c1")" -eq 24 ] || msg="$(wc -l <"$T/c1") cases"
# every level of a 3-level factor 8 times, of a 2-level one 12 times
l=$(levels "$T/c1" 8 12) && [ "$l" = ok ] || msg="$msg; $l"
cmp -s "$T/c1" "$T/c2" || msg="$msg; two runs differ"
cmp -s "$T/c1" "$T/c3" && msg="$msg; another seed picked the same"
[ "$(cut -f1 "$T/c1" | sort -u | wc -l)" -eq 24 ] || msg="$msg; names repeat"
# the families' commands: the limit, the swappiness on both sides, at
# most 4 workloads (EXP_MAX_WL), the stream as dd beside the set
grep -q '^ws1.3-st0-sw10-c1-anon-w1	--memcg 256M --swap 512M --set swappiness=10 -- usemem -n 1 -r 2 333m$' \
	"$T/c1" || msg="$msg; no ws1.3-st0-sw10-c1-anon-w1"
awk -F'\t' '{ n = split($2, w, " + "); if (n > 4) exit 1 }' "$T/c1" || msg="$msg; over 4 workloads"
[ -z "$msg" ] && ok || bad "$msg"

t "fidelity cases: 48 keep the 24 and stay balanced"
awk -v N=48 -f "$R/tools/fidelity_cases.awk" >"$T/c48"
msg=
[ "$(sort -u "$T/c48" | wc -l)" -eq 48 ] || msg="$(sort -u "$T/c48" | wc -l) distinct cases"
l=$(levels "$T/c48" 16 24) && [ "$l" = ok ] || msg="$msg; $l"
[ "$(grep -Fxcf "$T/c1" "$T/c48")" -eq 24 ] || msg="$msg; the 24 are not all there"
[ -z "$msg" ] && ok || bad "$msg"

# fid DIR DOC: tools/fidelity.sh on a copy of the tiny cache in DIR.
fid() {
	PAGELAB=$P FIDELITY_DATA=$1 FIDELITY_SIM_CACHE=$1/sim FIDELITY_CASES=$D/cases.txt FIDELITY_JOBS=2 \
		sh "$R/tools/fidelity.sh" "$2" >"$1/out" 2>"$1/err"
}
newdoc() { printf '# doc\n\n<!-- fidelity-matrix:begin -->\nold\n<!-- fidelity-matrix:end -->\ntail\n' >"$1"; }

t "make fidelity from a committed cache: the strict count, no kernel run"
mkdir -p "$T/m1" && cp "$D"/* "$T/m1/" && newdoc "$T/doc1.md"
fid "$T/m1" "$T/doc1.md"
rc=$?
msg=
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/m1/err")"
# Each design: pgfault (20 480 against 20 492), pswpout and pgsteal_anon
# (about 4 100 against 4 100 and 4 000) within, pgscan_anon (against a
# million) not; pgmajfault and pswpin under 100 on both sides: apart.
for p in linux6 mglru; do
	grep -Eq "^$p +6/8 +75\.0% +4 +0/2 +0/2$" "$T/doc1.md" || msg="$msg; $p's headline"
done
grep -Eq '^pgscan_anon +0/2 +- +0/2 +-$' "$T/doc1.md" || msg="$msg; pgscan_anon's row"
grep -Eq '^pgfault +2/2 +- +2/2 +-$' "$T/doc1.md" || msg="$msg; pgfault's row"
# b's runs 1-3 spread 1 000..6 000 (over 1.5): run to 5 from the cache
grep -Eq '^a-sw60 +3 +3\.0 +3/4 +3/4$' "$T/doc1.md" || msg="$msg; case a"
grep -Eq '^b-sw150 +5 +7\.0 +3/4 +3/4$' "$T/doc1.md" || msg="$msg; case b not widened"
grep -q '^pagelab compare --matrix: 2 cases; kernel: 3-5 runs a case (1 widened to 5: a$' "$T/doc1.md" ||
	msg="$msg; header"
grep -q "ends, the cases' medians:\$" "$T/doc1.md" && grep -q '^5\.0 (3\.0\.\.7\.0); times were taken on a loaded host$' \
	"$T/doc1.md" || msg="$msg; the load"
# the rest of the page as it was
[ "$(sed -n '1,3p;$p' "$T/doc1.md" | tr '\n' '|')" = "# doc||<!-- fidelity-matrix:begin -->|tail|" ] ||
	msg="$msg; outside the markers"
grep -q '^old$' "$T/doc1.md" && msg="$msg; the old block kept"
awk 'length($0) > 80 { exit 1 }' "$T/doc1.md" || msg="$msg; over 80 columns"
[ -z "$msg" ] && ok || bad "$msg"

# The same runs at load 0.5..1.5 (the runs' own tasks on the 2 CPUs):
# the load is printed, not called loaded.
t "make fidelity: runs on an idle host are not called loaded"
mkdir -p "$T/m0" && cp "$D"/* "$T/m0/" && newdoc "$T/doc0.md"
sed 's/"loadavg": \([0-9]\)\.0/"loadavg": 0.\15/' "$D/kernel.jsonl" >"$T/m0/kernel.jsonl"
fid "$T/m0" "$T/doc0.md"
rc=$?
msg=
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/m0/err")"
grep -q "ends, the cases' medians:\$" "$T/doc0.md" && grep -q '^0\.[0-9] (0\.[0-9]\.\.0\.[0-9])$' "$T/doc0.md" ||
	msg="$msg; the load: $(grep -A1 'medians' "$T/doc0.md" | tr '\n' '|')"
grep -q 'loaded host' "$T/doc0.md" && msg="$msg; called loaded"
[ -z "$msg" ] && ok || bad "$msg"

t "make fidelity's heat map: a table per design, cells coloured by class"
f=$T/m1/heatmap.html
msg=
[ "$(grep -c '<table class="t heat">' "$f")" -eq 2 ] || msg="tables: $(grep -c '<table' "$f")"
grep -q '<h2>linux6: page cells 6 of 8 (75.0%), 4 both under the floor; elapsed 0 of 2' "$f" || msg="$msg; heading"
# per design and case: three cells within (green), pgscan_anon below
# (blue, under 1/8: the darkest), pgmajfault and pswpin apart (grey)
[ "$(grep -o 'background:#b8e0b0" title' "$f" | wc -l)" -eq 12 ] || msg="$msg; within cells"
[ "$(grep -o '<td class="hs"' "$f" | wc -l)" -eq 8 ] || msg="$msg; small cells"
grep -q 'background:rgb(85,85,255)" title="kernel 1e+06' "$f" || msg="$msg; pgscan_anon's cell"
[ -z "$msg" ] && ok || bad "$msg"

t "make fidelity again: the same report (the simulator side cached)"
newdoc "$T/doc2.md"
fid "$T/m1" "$T/doc2.md" && cmp -s "$T/doc1.md" "$T/doc2.md" && ok || bad "$(diff "$T/doc1.md" "$T/doc2.md" | head -5)"

t "make fidelity: a page without the markers is refused"
printf '# doc\n' >"$T/doc3.md"
fid "$T/m1" "$T/doc3.md"
rc=$?
[ $rc -eq 2 ] && grep -q 'no fidelity-matrix:begin/end markers' "$T/m1/err" && ok || bad "rc $rc"

t "make fidelity: FIDELITY_RETAKE=1 without root: one line, exit 2, nothing moved"
# (as root it moves the records and host figures aside and measures them
# all again on the kernel: not in a test)
mkdir -p "$T/m4" && cp "$D"/* "$T/m4/" && newdoc "$T/doc4.md"
ls "$T/m4" >"$T/m4.before"
chmod -R a+rwX "$T/m4" && chmod a+rw "$T/doc4.md"
unprivileged env PAGELAB=$P FIDELITY_DATA="$T/m4" FIDELITY_SIM_CACHE="$T/m4/sim" FIDELITY_RETAKE=1 \
	sh "$R/tools/fidelity.sh" "$T/doc4.md" >"$T/m4.out" 2>"$T/m4.err"
rc=$urc
if [ "$rc" = skip ]; then
	skip "root without setpriv"
else
	ls "$T/m4" >"$T/m4.after"
	[ "$rc" -eq 2 ] && [ ! -s "$T/m4.out" ] && [ "$(wc -l <"$T/m4.err")" -eq 1 ] &&
		grep -q '^fidelity: FIDELITY_RETAKE=1 needs root' "$T/m4.err" && cmp -s "$T/m4.before" "$T/m4.after" &&
		grep -qx old "$T/doc4.md" && ok || bad "rc $rc: $(cat "$T/m4.err")"
fi

t "make fidelity: FIDELITY_CAL_RUNS not a count: one line, exit 2, doc kept"
mkdir -p "$T/m5" && cp "$D"/* "$T/m5/" && newdoc "$T/doc5.md"
FIDELITY_CAL_RUNS=x fid "$T/m5" "$T/doc5.md"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$T/m5/err")" -eq 1 ] && grep -q "FIDELITY_CAL_RUNS must be a count" "$T/m5/err" &&
	grep -qx old "$T/doc5.md" && ok || bad "rc $rc: $(cat "$T/m5/err")"

printf 'a b -- usemem -m 4\n' >"$T/notab"
printf 'a\t--html x.html --memcg 64M -- usemem -m 4\n' >"$T/html"
printf '# nothing\n\n' >"$T/none"
for args in "--matrix $T/nosuch" "--matrix $T/notab" "--matrix $T/html" "--matrix $T/none" \
	    "--matrix $D/cases.txt -- usemem -m 4" "--matrix $D/cases.txt --fit-cpu 1G"; do
	t "bad input: compare $(echo "$args" | sed "s|$T|T|; s|$D|D|")"
	# shellcheck disable=SC2086
	$P compare --kernel-cache "$T/m1" --sim-cache "$T/m1/sim" $args >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done
