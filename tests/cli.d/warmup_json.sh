# warmup_json.sh - run --warmup/--window --json on the cache-only replay
# (src/cli/run_cache.c; docs/trace-format.md, "Warm-up and windows"): the
# marks in mrc's JSON keys, counts worked out by hand.

# 1 2 3 1 2 3 4 1 2 3 in 3 LRU frames (warmup.sh works it out): 7 misses,
# a warm-up of 3 takes 3, windows of 3 after it miss 0, 3 and 1 (of 1).
printf '%s\n' 1 2 3 1 2 3 4 1 2 3 >"$T/w.txt"
t "run --warmup 3 --window 3 --json: warm-up 3/3, windows 0 3 1"
$P run --machine ideal --ram 3p --policy lru --warmup 3 --window 3 --json trace "$T/w.txt" >"$T/w.json" 2>"$T/e"
rc=$?
got=$(grep -E '"(references|misses|warmup|warmup_misses|counted_references|counted_misses|window|window_refs|window_misses)"' \
	"$T/w.json" | tr -d ' \n')
want='"references":10,"misses":7,"warmup":3,"warmup_misses":3,"counted_references":7,"counted_misses":4,'
want=$want'"window":3,"window_refs":[3,3,1],"window_misses":[0,3,1]'
[ $rc -eq 0 ] && [ ! -s "$T/e" ] && [ "$got" = "$want" ] && ok || bad "exit $rc: $got"

t "run --warmup --json: one JSON object (python3 json)"
if have python3; then
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["replay"] == "cache-only"' \
		"$T/w.json" 2>"$T/e" && ok || bad "$(cat "$T/e")"
else
	skip "no python3"
fi

# --json alone keeps the full machine's report (no "replay" key).
t "run --json without --warmup/--window: the full machine's JSON"
$P run --machine ideal --ram 3p --policy lru --json trace "$T/w.txt" >"$T/f.json" 2>&1 &&
	grep -q '"simulated_s"' "$T/f.json" && ! grep -q '"replay"' "$T/f.json" && ok || bad "$(head -3 "$T/f.json")"

# The CloudPhysics sample at 4897 LRU frames, --warmup 0.2: 22774
# references warm up (17960 misses), 73697 misses in the 91098 after
# (the text report's figures, docs/trace-format.md).
CPT="$(dirname "$0")/data/cloudPhysicsIO.txt.zst"
t "run --warmup 0.2 --window 30000 --json: CloudPhysics LRU = text"
if codec zstd; then
	$P run --machine ideal --ram 4897p --policy lru --warmup 0.2 --window 30000 --json trace "$CPT" \
		>"$T/c.json" 2>&1
	$P run --machine ideal --ram 4897p --policy lru --warmup 0.2 --window 30000 trace "$CPT" >"$T/c.txt" 2>&1
	win=$(awk '/^window/ { on = 1; next } /^#/ { on = 0 } on { printf "%s%s", s, $4; s = ", " }' "$T/c.txt")
	grep -q '^  "warmup": 22774,$' "$T/c.json" && grep -q '^  "warmup_misses": 17960,$' "$T/c.json" &&
		grep -q '^  "counted_references": 91098,$' "$T/c.json" &&
		grep -q '^  "counted_misses": 73697,$' "$T/c.json" &&
		grep -q "^  \"window_misses\": \[$win\]\$" "$T/c.json" &&
		grep -q '^  "window_refs": \[30000, 30000, 30000, 1098\],$' "$T/c.json" && ok ||
		bad "$(grep -E 'warm|counted|window' "$T/c.json" | tr -d '\n') (text: $win)"
else
	skip "pagelab was built without zstd"
fi

# sweep --warmup/--window: each cell's marks from the cache-only replay
# in its record.  1 2 3 1 2 3 4 1 2 3: at 3 LRU frames as above; at 4
# only 4 misses after the warm-up (windows 0 1 0).  The record's full
# machine faults add up to warm-up + counted misses (7 and 4).
t "sweep --warmup 3 --window 3: lru at 3p, 4p by hand"
$P sweep --machine ideal --ram 3p,4p --policy lru --warmup 3 --window 3 --no-progress -- trace "$T/w.txt" \
	>"$T/s.jsonl" 2>"$T/e"
rc=$?
got=$(sed 's/.*"pgfault": \([0-9]*\).*"warmup": \([0-9]*\), "warmup_misses": \([0-9]*\), "counted_references": \([0-9]*\), "counted_misses": \([0-9]*\), "window": 3, "window_refs": \[\([0-9, ]*\)\], "window_misses": \[\([0-9, ]*\)\]}$/\1 \2 \3 \4 \5 \6 \7/' \
	"$T/s.jsonl" | tr '\n' '/')
[ $rc -eq 0 ] && [ "$got" = "7 3 3 7 4 3, 3, 1 0, 3, 1/4 3 3 7 1 3, 3, 1 0, 1, 0/" ] && ok || bad "exit $rc: $got $(cat "$T/e")"

t "sweep --warmup: the cells' command lines say it (resume key)"
$P sweep --machine ideal --ram 3p --policy lru --warmup 3 --list -- trace "$T/w.txt" >"$T/l" 2>&1
[ "$(cat "$T/l")" = "pagelab run --warmup 3 --machine ideal --ram 3p --policy lru --seed 1 trace $T/w.txt" ] &&
	ok || bad "$(cat "$T/l")"

t "sweep --warmup --csv: warm-up and counted columns"
$P sweep --machine ideal --ram 3p,4p --policy lru --warmup 3 --no-progress --csv -- trace "$T/w.txt" >"$T/s.csv" 2>&1
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "warmup") c = i }
	{ printf "%s,%s,%s,%s,%s/", $c, $(c + 1), $(c + 2), $(c + 3), $(c + 4) }' "$T/s.csv")
[ "$got" = "warmup,warmup_misses,counted_references,counted_misses,counted_miss_ratio/3,3,7,4,0.571429/3,3,7,1,0.142857/" ] &&
	ok || bad "$got"

# The CloudPhysics sample at 4897 frames, --warmup 0.2 --window 30000:
# each cell's marks are run --warmup's (lru: 22774 warm-up references,
# 73697 misses after), and they add up to the full machine's pgfault.
t "sweep --warmup 0.2 --window 30000: CloudPhysics lru, arc = run"
if codec zstd; then
	$P sweep --machine ideal --ram 4897p --policy lru,arc --warmup 0.2 --window 30000 --no-progress -- \
		trace "$CPT" >"$T/cp.jsonl" 2>&1
	msg=""
	for pol in lru arc; do
		want=$($P run --machine ideal --ram 4897p --policy $pol --warmup 0.2 --window 30000 --json trace "$CPT" |
			grep -E '"(warmup|warmup_misses|counted_references|counted_misses|window_refs|window_misses)"' |
			tr -d ' \n' | sed 's/,$//')
		line=$(grep "\"design\": \"$pol\"" "$T/cp.jsonl")
		got=$(printf '%s\n' "$line" | sed 's/.*\("warmup": \)/\1/; s/, "window": 30000//; s/}$//' | tr -d ' ')
		sum=$(printf '%s\n' "$line" | sed 's/.*"pgfault": \([0-9]*\).*"warmup_misses": \([0-9]*\).*"counted_misses": \([0-9]*\).*/\1 \2 \3/' |
			awk '{ print ($1 == $2 + $3) }')
		[ -n "$want" ] && [ "$got" = "$want" ] && [ "$sum" = 1 ] || msg="$msg $pol: '$got' against '$want' ($sum);"
	done
	grep -q '"warmup": 22774, "warmup_misses": 17960, "counted_references": 91098, "counted_misses": 73697,' \
		"$T/cp.jsonl" || msg="$msg lru not 22774/73697;"
	[ -z "$msg" ] && ok || bad "$msg"
else
	skip "pagelab was built without zstd"
fi

t "sweep --warmup/--window off the cache-only replay: exit 2"
msg=""
for args in "--machine vmm-2008 --ram 3p --policy lru" "--machine ideal --ram 3p --policy linux6" \
	"--machine ideal --ram 3p --policy lru --max-time 5" "--machine ideal --ram 3p --policy lru --swap 1M" \
	"--machine ideal --ram 3p --policy lru --warmup 10" "--machine ideal --ram 3p --policy lru --warmup 0.5x" \
	"--machine ideal --ram 3p --policy lru --window 0"; do
	# shellcheck disable=SC2086
	$P sweep $args --window 3 --no-progress -- trace "$T/w.txt" >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ ! -s "$T/o" ] || msg="$msg '$args': exit $rc $(cat "$T/e");"
done
$P sweep --machine ideal --ram 3p --policy lru --warmup 1 --no-progress -- trace "$T/w.txt" + trace "$T/w.txt" \
	>"$T/o" 2>"$T/e"
rc=$?
[ $rc -eq 2 ] && grep -q 'lone trace' "$T/e" || msg="$msg two traces: exit $rc;"
[ -z "$msg" ] && ok || bad "$msg"
