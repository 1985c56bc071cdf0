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
