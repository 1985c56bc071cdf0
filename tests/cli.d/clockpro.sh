# clockpro.sh - CLOCK-Pro's cold hand through the CLI (sourced by
# tests/cli.sh; a fraction of a second).

# Two sorters in 3 MB (244 frames) on athlon-2001: the few cold pages are
# under swap I/O much of the time and refused, so a cold hand stepping one
# entry at a time spent its whole budget (four rounds of the clock) on
# nearly every one of its 8 816 reclaim calls: 9.09 M steps, where the hand
# that jumps to the next resident cold page through the clock's index
# (src/policy/clock_index.h) looks at 204 K entries (measured with a
# counter printed at exit, not kept).  The counts are the stepping hand's
# (commit d2d5e2b's binary): the jump must make its choices.  --check walks the clock against the index
# (order, resident cold marks) after every step (the small swap area
# keeps its walk of the slots short).
t "clockpro: the jumping cold hand chooses as the stepping one did"
$P run --check --machine athlon-2001 --ram 3M --swap 8M --policy clockpro qsbench -p 2 -n 230000 >"$T/cp.out" 2>&1
rc=$?
got=
for c in pgfault pgmajfault pswpin pswpout allocstall pgscan_anon pgsteal_anon; do
	got="$got $c=$(counter $c "$T/cp.out")"
done
want=" pgfault=1980 pgmajfault=869 pswpin=3062 pswpout=1523 allocstall=553 pgscan_anon=386198 pgsteal_anon=3209"
[ $rc -eq 0 ] && [ "$got" = "$want" ] && ok || bad "exit $rc:$got, expected$want $(grep check: "$T/cp.out" | head -1)"
