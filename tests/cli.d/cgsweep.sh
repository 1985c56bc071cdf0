# One key of a --cgroup as a sweep axis: --set cgroup.PATH.KEY=LIST
# (src/engine/cgspec.c cgspec_set(); issue 39 items 1 and 5): each cell's
# record carries every cgroup's memory.events, memory.current/peak and,
# with psi=1, memory.pressure, the figures pagelab run --json gives the
# same tree with the key in the --cgroup spec.  Small: 64M, 20M workloads.

sw() {
	$P sweep --policy linux6 --ram 64M --swap 64M --set psi=1 --cgroup /a:max=24M --cgroup /b "$@" \
		-- usemem -m 20 @/a + usemem -m 20 @/b
}
# The "cgroups" of a JSON record or report (one line of it) as one line.
cgs() { python3 -c 'import json,sys; [print(json.dumps(json.loads(l)["cgroups"], sort_keys=True)) for l in sys.stdin if l.strip()]'; }

t "cgsweep: --set cgroup./b.high=LIST: cells with run's figures"
if needs python3; then
	sw --set cgroup./b.high=8M,16M >"$T/sw" 2>"$T/err"
	rc=$?
	msg=""
	[ $rc -eq 0 ] && [ "$(wc -l <"$T/sw")" -eq 2 ] || msg="exit $rc, $(wc -l <"$T/sw") records: $(cat "$T/err")"
	for h in 8M 16M; do
		$P run --json --policy linux6 --ram 64M --swap 64M --set psi=1 --cgroup /a:max=24M --cgroup /b:high=$h \
			usemem -m 20 @/a + usemem -m 20 @/b | tr -d '\n' | cgs >"$T/run$h"
		grep "\"cgroup./b.high\": \"$h\"" "$T/sw" | cgs >"$T/rec$h"
		cmp -s "$T/run$h" "$T/rec$h" || msg="$msg; high=$h: the record's cgroups differ from run's"
		# /b over its high: events high and pressure; /a below its max: none.
		python3 -c 'import json,sys
a, b = [c for c in json.loads(sys.stdin.read()) if c["path"] in ("/a", "/b")]
assert b["memory.events.high"] > 0 and b["memory.pressure"]["some"]["total"] > 0, b
assert a["memory.events.high"] == 0 and a["memory.pressure"]["some"]["total"] == 0, a' <"$T/rec$h" 2>"$T/py" ||
			msg="$msg; high=$h: $(tail -1 "$T/py")"
	done
	# The record's command line runs the cell again: the same figures.
	cmd=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["cmd"])' <"$T/sw")
	case $cmd in
	*"--set cgroup./b.high=8M"*) ;;
	*) msg="$msg; cmd: $cmd" ;;
	esac
	[ -z "$msg" ] && ok || bad "$msg"
fi

t "cgsweep: bad key, undeclared cgroup: one line, exit 2"
msg=""
for set in "cgroup./c.high=8M" "cgroup./b.nosuch=1" "cgroup./b.high=lots" "cgroup./b.low=max"; do
	sw --set "$set" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg '$set': exit $rc $(cat "$T/err");"
	$P run --ram 64M --cgroup /b --set "$set" usemem -m 1 @/b >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg run '$set': exit $rc $(cat "$T/err");"
done
[ -z "$msg" ] && ok || bad "$msg"

t "cgsweep: --html: each cgroup's figures that are not all 0"
sw --set cgroup./b.high=8M,16M -o "$T/h.jsonl" --html "$T/h.html" >/dev/null 2>"$T/err"
rc=$?
# The charts (their titles) under each cgroup's heading, one line each.
awk '/<h3>cgroup / { sub(/.*<h3>cgroup /, ""); sub(/<\/h3>.*/, ""); cg = $0 }
	cg != "" { while (match($0, /<title>cgroup\.[^<]*<\/title>/)) {
		print cg, substr($0, RSTART + 7, RLENGTH - 15); $0 = substr($0, RSTART + RLENGTH) } }' "$T/h.html" >"$T/charts"
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/err")"
for want in "/b cgroup./b.memory.events.high" "/b cgroup./b.memory.pressure.some.total" \
	"/b cgroup./b.memory.pressure.full.total" "/a cgroup./a.memory.peak"; do
	grep -qx "$want" "$T/charts" || msg="$msg; no $want"
done
# /a stays below its max: no events, no pressure, so no such charts.
grep -q '^/a cgroup./a.memory.\(events\|pressure\)' "$T/charts" && msg="$msg; /a: $(grep '^/a' "$T/charts" | tr '\n' ' ')"
[ -z "$msg" ] && ok || bad "$msg"

t "cgsweep: run --html: memory.current per cgroup over time"
$P run --html "$T/r.html" --ram 64M --swap 64M --policy linux6 --cgroup /a:max=24M --cgroup /b \
	usemem -m 20 -r 10 @/a + usemem -m 30 -r 10 @/b >/dev/null 2>"$T/err"
rc=$?
$P run --html "$T/r0.html" --ram 64M --swap 64M --policy linux6 usemem -m 20 -r 10 >/dev/null 2>&1
# The chart's part of the page: its series' legend, /a's first point's y
# and the y of the gridline labelled 20 (MB): /a holds its 20M at first.
sed -n '/memory.current per cgroup (MB)<\/title>/,/<\/svg>/p' "$T/r.html" >"$T/cg.svg"
legend=$(grep -o 'fill="#222">/[a-z]*<' "$T/cg.svg" | sed 's/.*>\(.*\)</\1/' | tr '\n' ' ')
y20=$(grep -o 'y="[0-9.]*" font-size="10" fill="#555" text-anchor="end">20<' "$T/cg.svg" | sed 's/y="\([0-9.]*\)".*/\1/')
ya=$(grep 'polyline' "$T/cg.svg" | sed -n 2p | sed 's/.*points="[0-9.]*,\([0-9.]*\) .*/\1/')
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/err")"
[ "$legend" = "/ /a /b " ] || msg="$msg; legend '$legend'"
[ -n "$y20" ] && [ "$(awk -v y="$y20" 'BEGIN { printf "%.1f", y - 3 }')" = "$ya" ] ||
	msg="$msg; /a at y $ya, the label 20 (MB) at $y20 (3 below its line)"
grep -q 'memory.current per cgroup' "$T/r0.html" && msg="$msg; a chart without --cgroup"
[ -z "$msg" ] && ok || bad "$msg"
