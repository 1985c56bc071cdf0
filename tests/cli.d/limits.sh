# limits: bench/limit/<policy>.c, the least code of each research policy
# (make bench's "limit" column, bench/limits.sh), must make the same
# choices as pagelab's policy: the same misses on a trace with hot and
# cold pages, at three sizes.  Each built here with $CC (about 0.1 s);
# 9 policies x 3 sizes of 40000 references, about 2.5 s.
LIMDIR="$(dirname "$0")/../bench/limit"
t "bench/limit: each limit's misses = pagelab's (9 policies x 3 sizes)"
if needs ${CC:-cc}; then
	# A deterministic mix: 3 in 4 references to 200 hot pages, the rest
	# to 4000 (an LCG), so ghosts, promotions and frequencies all matter.
	awk 'BEGIN { x = 12345; for (i = 0; i < 40000; i++) {
		x = (x * 1103515245 + 12345) % 2147483648
		r = int(x / 65536)
		print (r % 4 ? r % 200 : 200 + r % 4000) } }' >"$T/mix.txt"
	$P trace convert "$T/mix.txt" "$T/mix.pgtrace" >"$T/conv.out" 2>&1 || bad "convert: $(cat "$T/conv.out")"
	msg=""
	for pol in sieve arc twoq s3fifo lfu opt lruk lirs clockpro; do
		if ! ${CC:-cc} -std=c11 -O1 -o "$T/lim-$pol" "$LIMDIR/$pol.c" 2>"$T/cc.out"; then
			msg="$msg $pol: $(head -1 "$T/cc.out")"
			continue
		fi
		name=$pol
		[ $pol = twoq ] && name=2q
		for f in 10 150 900; do
			$P run --machine ideal --ram ${f}p --policy $name trace "$T/mix.pgtrace" >"$T/p.out" 2>&1
			pm=$(counter pgfault "$T/p.out")
			lm=$("$T/lim-$pol" "$T/mix.pgtrace" $f | sed -n 's/^misses //p')
			[ "$pm" = "$lm" ] && [ "$pm" -gt 200 ] || msg="$msg $pol@$f: pagelab $pm, limit $lm;"
		done
	done
	[ -z "$msg" ] && ok || bad "$msg"
fi

t "bench/limit: bad input is one line, exit 2"
if needs ${CC:-cc} && ${CC:-cc} -std=c11 -O1 -o "$T/lim-sieve" "$LIMDIR/sieve.c" 2>/dev/null; then
	"$T/lim-sieve" "$T/mix.txt" 10 >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$T/e")" = 1 ] && grep -q 'not a pagelab binary trace' "$T/e" && ok ||
		bad "rc $rc: $(cat "$T/e")"
fi
