# fastpath: ARC's shrink on pages under I/O, the cache-only replay of
# --machine ideal, OPT's streamed next uses.

# ARC's pass used to go round and round T1 when all of it was under I/O
# (qsbench's just-faulted pages): 2 * (|T1| + |T2|) scans per pass, 5x
# clock's host time on make bench's qsbench.  The rounds are now counted,
# not walked: the figures must be those the walking code printed (before
# commit "arc: count the rounds..."), 66 M pages scanned, system time
# included.  About 0.7 s (3 s before).
t "arc: a pass over busy pages counts its scans, figures unchanged"
$P run --machine vmm-2008 --ram 64M --policy arc qsbench -p 4 -m 16 >"$T/arc.out" 2>&1
got="$(counter pgscan_kswapd "$T/arc.out") $(counter pgscan_direct "$T/arc.out") $(counter pgsteal_kswapd "$T/arc.out") $(counter pswpout "$T/arc.out") $(counter pgmajfault "$T/arc.out")"
tl=$(grep ' total$' "$T/arc.out")
[ "$got" = "46130598 19954428 24729 19839 5962" ] &&
	[ "$tl" = "qsbench -p 4 -m 16  1.95s user 4.24s system 18% cpu 34.324 total" ] && ok || bad "got $got; $tl"
