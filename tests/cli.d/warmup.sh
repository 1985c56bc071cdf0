# warmup.sh - --warmup and --window of pagelab run on the cache-only
# replay (src/cachesim/marks.c; docs/trace-format.md, "Warm-up and
# windows"): counts worked out by hand, the same for every reader path.

# 1 2 3 1 2 3 4 1 2 3 in 3 LRU frames: 1 2 3 miss, 1 2 3 hit, then 4 1 2
# 3 each evict the page referenced next: 7 misses.  A warm-up of 3 takes
# the first three misses; windows of 3 after it: 3..5 hit (0), 6..8 miss
# (3), 9 misses (1 of 1).
printf '%s\n' 1 2 3 1 2 3 4 1 2 3 >"$T/w.txt"
t "run --warmup 3 --window 3: 4 misses of 7, windows 0 3 1"
$P run --machine ideal --ram 3p --policy lru --warmup 3 --window 3 trace "$T/w.txt" >"$T/w.out" 2>&1
got=$(awk '/^cache: warm-up/ { w = $3 " " $5 } /after the warm-up/ { a = $2 " " $5 }
	/^window/ { on = 1; next } /^#/ { on = 0 } on { printf "%s/%s ", $3, $4 } END { print w, a }' "$T/w.out")
[ "$got" = "3/0 3/3 1/1 3 (3 4 7" ] && ok || bad "got '$got'"

# A fraction: floor(0.5 x 10) = 5 references (1 2 3 1 2: 3 misses), then
# 3 hits and 4 1 2 3 miss.
t "run --warmup 0.5: 5 references, then 4 misses of 5"
$P run --machine ideal --ram 3p --policy lru --warmup 0.5 trace "$T/w.txt" >"$T/w.out" 2>&1
grep -q '^cache: warm-up: 5 references (3 misses) not counted$' "$T/w.out" &&
	grep -q '^cache: 4 misses in 5 references after the warm-up (miss ratio 0.800000)$' "$T/w.out" && ok ||
	bad "$(grep '^cache' "$T/w.out")"

# The CloudPhysics sample, text and binary (the reader's memory-speed
# view), LRU and OPT (next uses streamed): the warm-up's misses and the
# counted ones add up to the run's total, the same for both files.
CPT="$(dirname "$0")/data/cloudPhysicsIO.txt.zst"
CPB="$(dirname "$0")/data/cloudPhysicsIO.oracleGeneral.bin.zst"
t "run --warmup 0.2 --window 30000: text = binary, parts add up"
if codec zstd; then
	msg=""
	for pol in lru opt; do
		for f in "$CPT" "$CPB"; do
			$P run --machine ideal --ram 4897p --policy $pol --warmup 0.2 --window 30000 trace "$f" \
				>"$T/$pol.$(basename "$f")" 2>&1 || msg="$msg $pol $f: exit $?;"
		done
		a=$(sed -n '/^cache: warm/,/^# \/proc/p' "$T/$pol.$(basename "$CPT")")
		b=$(sed -n '/^cache: warm/,/^# \/proc/p' "$T/$pol.$(basename "$CPB")")
		[ -n "$a" ] && [ "$a" = "$b" ] || msg="$msg $pol: text and binary differ;"
		printf '%s\n' "$a" | awk -v pol=$pol '/^cache: warm-up/ { m = $5; sub(/\(/, "", m); w = m }
			/after the warm-up/ { c = $2 } /^[0-9]/ { s += $4; n += $3 }
			END { if (w + c == 0 || s != c || n != 91098) print pol ": windows " s "/" n " against " c }' >"$T/sum"
		[ -s "$T/sum" ] && msg="$msg $(cat "$T/sum");"
		total=$(sed -n 's/^cache: \([0-9]*\) misses in 113872 references (miss.*/\1/p' "$T/$pol.$(basename "$CPT")")
		parts=$(printf '%s\n' "$a" | awk '/^cache: warm-up/ { m = $5; sub(/\(/, "", m); w = m }
			/after the warm-up/ { print w + $2 }')
		[ "$total" = "$parts" ] || msg="$msg $pol: total $total, warm-up + counted $parts;"
	done
	[ -z "$msg" ] && ok || bad "$msg"
else
	skip "pagelab was built without zstd"
fi

t "run --warmup/--window: bad input is one line, exit 2"
msg=""
for args in "--warmup 10" "--warmup 0.5x" "--warmup 1.5" "--warmup -1" "--window 0" \
	"--window 2 --full-machine"; do
	# shellcheck disable=SC2086
	$P run --machine ideal --ram 3p --policy lru $args trace "$T/w.txt" >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ ! -s "$T/o" ] || msg="$msg '$args': exit $rc;"
done
[ -z "$msg" ] && ok || bad "$msg"

# mrc --warmup: the exact curve (stack distances of the counted
# references, the warm-up's still moving the stack) and a cache in
# lockstep give run --warmup's counts at each size.
t "mrc --warmup 0.2: lru, arc = run --warmup at 490, 4897 pages"
if codec zstd; then
	$P mrc --warmup 0.2 --policy lru,arc --sizes 490p,4897p --csv "$CPT" >"$T/m.csv" 2>&1
	msg=""
	for pol in lru arc; do
		for s in 490 4897; do
			want=$($P run --machine ideal --ram ${s}p --policy $pol --warmup 0.2 trace "$CPT" |
				sed -n 's/^cache: \([0-9]*\) misses in 91098 references after the warm-up.*/\1/p')
			got=$(awk -F, -v c=$pol -v s=$s '$1 == c && $3 == s { print $5 }' "$T/m.csv")
			[ -n "$want" ] && [ "$got" = "$want" ] || msg="$msg $pol $s: mrc '$got', run '$want';"
		done
	done
	$P mrc --warmup 22774 --json --sizes 490p "$CPT" | grep -q '^  "warmup": 22774,$' || msg="$msg no warmup in JSON;"
	[ -z "$msg" ] && ok || bad "$msg"
else
	skip "pagelab was built without zstd"
fi

t "mrc --warmup: opt refused, too long a warm-up refused"
$P mrc --warmup 3 --policy lru,opt "$T/w.txt" >"$T/o" 2>"$T/e"; a=$?
$P mrc --warmup 10 "$T/w.txt" >"$T/o2" 2>"$T/e2"; b=$?
[ $a -eq 2 ] && [ $b -eq 2 ] && [ "$(cat "$T/e" "$T/e2" | wc -l)" -eq 2 ] && [ ! -s "$T/o" ] && [ ! -s "$T/o2" ] &&
	grep -q 'not opt' "$T/e" && ok || bad "exit $a $b: $(cat "$T/e" "$T/e2")"

# mrc --window: 1 2 3 1 2 3 4 1 2 3 at 1, 2, 3 and 5 pages, windows of 3.
# 1 2 3: first references, 3 misses everywhere.  1 2 3: distance 3 each,
# misses below 3 pages.  4 1 2: 4 first; 1 and 2 at distance 4 (3
# others between), hits at 5 only.  3: distance 4.
t "mrc --window 3: the exact curve's misses per window by hand"
$P mrc --window 3 --sizes 1p,2p,3p,5p --json "$T/w.txt" >"$T/mw.json" 2>&1 &&
	grep -q '"window_refs": \[3, 3, 3, 1\],' "$T/mw.json" &&
	grep -q '"window_misses": \[\[3, 3, 3, 3\], \[3, 3, 0, 0\], \[3, 3, 3, 1\], \[1, 1, 1, 0\]\]' "$T/mw.json" &&
	ok || bad "$(grep window "$T/mw.json")"

t "mrc --warmup 0.2 --window 30000: lru, arc = run's windows"
if codec zstd; then
	msg=""
	for pol in lru arc; do
		want=$($P run --machine ideal --ram 4897p --policy $pol --warmup 0.2 --window 30000 trace "$CPT" |
			awk '/^window/ { on = 1; next } /^#/ { on = 0 } on { printf "%s ", $4 }')
		got=$($P mrc --policy $pol --warmup 0.2 --window 30000 --sizes 4897p --json "$CPT" |
			sed -n 's/.*"window_misses": \[\(.*\)\]}.*/\1/p' | tr -d '[],' | tr -s ' ')
		[ -n "$want" ] && [ "$got " = "$want" ] || msg="$msg $pol: mrc '$got', run '$want';"
	done
	[ -z "$msg" ] && ok || bad "$msg"
else
	skip "pagelab was built without zstd"
fi

t "mrc --window without --sizes, or with opt: one line, exit 2"
msg=""
for args in "--window 3" "--window 3 --sizes 50%" "--window 3 --sizes 2p --policy opt" "--window 0 --sizes 2p"; do
	# shellcheck disable=SC2086
	$P mrc $args "$T/w.txt" >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ ! -s "$T/o" ] || msg="$msg '$args': exit $rc;"
done
[ -z "$msg" ] && ok || bad "$msg"
