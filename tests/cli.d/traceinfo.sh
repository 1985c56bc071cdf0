# traceinfo.sh - pagelab trace info's analyses (src/mrc/tinfo.c): reuse
# distances, the Zipf fit, the working set and the shares, on strings
# worked out by hand; text = binary; JSON; bad input.

# 1 2 1 1 3 2: 1 and 2 first; 1 at distance 2 (2 between), 1 at 1, 3
# first, 2 at 3 (1 and 3 between).  Buckets [1] 1, [2-3] 2; first 3.
# Windows of 2: {1 2} {1} {3 2}.  2 writes of 6; anon 3, file 2, 1 unknown.
cat >"$T/h.trace" <<'TR'
1 w anon
2 r file
1 r anon
1 w anon
3 r
2 r file
TR
t "trace info: reuse buckets, working set, shares by hand"
$P trace info --window 2 "$T/h.trace" >"$T/h.out" 2>&1
got=$(awk '/^first reference/ { f = $3 } /^1 / && r { b1 = $2 } /^2-3 / { b2 = $2 }
	/^# reuse/ { r = 1 } /^# working/ { w = 1; r = 0; next } w && /^[0-9]/ { ws = ws $3 " " }
	END { print f, b1, b2, "|", ws }' "$T/h.out")
[ "$got" = "3 1 2 | 2 1 2 " ] &&
	grep -q '^reads       4 (66.7%), writes 2 (33.3%)$' "$T/h.out" &&
	grep -q '^kinds       anon 50.0%, file 33.3%, unknown 16.7%$' "$T/h.out" && ok || bad "got '$got': $(cat "$T/h.out")"

# Counts 12 6 4 3 at ranks 1-4: f(r) = 12 / r, so ln f = ln 12 - ln r
# exactly: alpha 1, R^2 1.
awk 'BEGIN { for (p = 1; p <= 4; p++) for (i = 0; i < 12 / p; i++) print p " r" }' >"$T/z.trace"
t "trace info: Zipf alpha of f(r) = 12/r is 1, R^2 1"
$P trace info --json "$T/z.trace" >"$T/z.json" 2>&1 &&
	grep -q '"zipf": {"alpha": 1.000000, "r2": 1.000000, "pages": 4},' "$T/z.json" &&
	grep -q '"top_page_references": 12,' "$T/z.json" && ok || bad "$(cat "$T/z.json")"

t "trace info: one page has no Zipf fit (null)"
printf '5 r\n5 r\n' >"$T/one.trace"
$P trace info --json "$T/one.trace" >"$T/one.json" 2>&1 && grep -q '"zipf": null,' "$T/one.json" &&
	grep -q '"reuse": {"first": 1, "log2_buckets": \[1\]},' "$T/one.json" && ok || bad "$(cat "$T/one.json")"

# The CloudPhysics sample, text and binary: the same figures, 80 columns;
# the buckets' cumulative share at 4095 pages and the LRU curve agree
# (hits at distance <= C are an LRU cache's hits: 113872 - 94816 at 1024).
t "trace info: CloudPhysics text = binary, fits 80 columns, = LRU"
if needs codec:zstd; then
	D="$(dirname "$0")/data"
	$P trace info "$D/cloudPhysicsIO.txt.zst" >"$T/cpt" 2>&1 && $P trace info "$D/cloudPhysicsIO.oracleGeneral.bin.zst" >"$T/cpb" 2>&1
	rc=$?
	hits=$(awk '/^# reuse/ { r = 1 } /^# working/ { r = 0 } r && /^[0-9]/ { split($1, a, "-"); if ((a[2] ? a[2] : a[1]) <= 1024) s += $2 } END { print s }' "$T/cpt")
	[ $rc -eq 0 ] && [ "$(sed 1,5d "$T/cpt")" = "$(sed 1,5d "$T/cpb")" ] && [ "$hits" = $((113872 - 94816)) ] &&
		[ "$(awk 'length > 80' "$T/cpt" | wc -l)" -eq 0 ] && grep -q '^popularity  Zipf alpha 0.5464 ' "$T/cpt" &&
		ok || bad "rc $rc, hits $hits: $(head -12 "$T/cpt")"
fi

t "trace info: bad --window is one line, exit 2"
msg=""
for args in "--window 0" "--window x" "--json --bogus"; do
	# shellcheck disable=SC2086
	$P trace info $args "$T/h.trace" >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ ! -s "$T/o" ] || msg="$msg '$args': exit $rc;"
done
[ -z "$msg" ] && ok || bad "$msg"
