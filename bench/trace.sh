#!/bin/sh
# make bench, trace part: how fast the readers and the streaming replay go,
# and the host memory a long replay holds.  Printed, never asserted.
# PAGELAB and GENTRACE name the binaries; BENCH_TRACE_REFS the length of
# the long replay (default 100 M references).
set -u
P=${PAGELAB:-./pagelab}
GENTRACE=${GENTRACE:-build/bench/gentrace}
N=${BENCH_TRACE_REFS:-100000000}
T=$(mktemp -d "${TMPDIR:-/tmp}/pagelab-bench-trace.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
# A trap that did not exit would let the script go on after ^C or a kill.
trap 'exit 130' INT
trap 'exit 143' TERM
[ -x /usr/bin/time ] || { echo "== trace: /usr/bin/time (Debian's time) is needed for these figures"; exit 0; }

# cpu_of FILE: user + system seconds of a /usr/bin/time -f '%U %S %M' line
cpu_of() { awk '{ s = $1 + $2; if (s <= 0) s = 0.005; print s }' "$1"; }
rss_of() { awk '{ print $3 }' "$1"; }

echo "== trace: streaming replay of random references over 10^6 pages (a pipe)"
echo "   gentrace 1000000 N 1 |"
echo "   pagelab run --machine ideal --ram 1048576p --policy clock trace -"
for n in $((N / 10)) "$N"; do
	$GENTRACE 1000000 "$n" 1 | /usr/bin/time -f '%U %S %M' -o "$T/t1" \
		$P run --machine ideal --ram 1048576p --policy clock trace - >"$T/o1" 2>&1
	s=$(cpu_of "$T/t1")
	rss=$(rss_of "$T/t1")
	sed -n 's/^trace: replay held \(.*\) of host memory /replay held \1 /p' "$T/o1" | sed "s/^/   N=$n: /"
	awk -v n="$n" -v s="$s" -v r="$rss" 'BEGIN {
		printf "   N=%d: %.2f M references/s (%.1f s of CPU),\n", n, n / s / 1e6, s
		printf "   max RSS %d KiB: %.2f host bytes per reference\n", r, r * 1024 / n }'
done
echo "   (the same max RSS for N/10 and N references: the replay holds no trace; the"
echo "   RSS is the machine's 1 M frames and PTEs and the 16-byte-slot page map)"

M=20000000
echo "== trace: $M references, text vs pagelab binary (convert once, replay"
echo "   at memory speed)"
$GENTRACE 1048576 $M 2 >"$T/z.trace"
/usr/bin/time -f '%U %S %M' -o "$T/tc" $P trace convert "$T/z.trace" "$T/z.pgtrace" 2>/dev/null
/usr/bin/time -f '%U %S %M' -o "$T/ti" $P trace info "$T/z.trace" >/dev/null
/usr/bin/time -f '%U %S %M' -o "$T/tb" $P trace info "$T/z.pgtrace" >/dev/null
for k in ti tb tc; do
	case $k in ti) what="read text (trace info)";; tb) what="read binary (trace info)";; tc) what="convert text -> binary";; esac
	awk -v n=$M -v w="$what" '{ s = $1 + $2; if (s <= 0) s = 0.005; printf "   %-25s %6.1f M refs/s, max RSS %d KiB\n", w, n / s / 1e6, $3 }' "$T/$k"
done
for f in z.trace z.pgtrace; do
	/usr/bin/time -f '%U %S %M' -o "$T/tr" $P run --machine ideal --ram 1048576p --policy lru trace "$T/$f" >"$T/or" 2>&1
	awk -v n=$M -v f="$f" -v faults="$(awk '$1 == "pgfault" { print $2 }' "$T/or")" '{ s = $1 + $2; if (s <= 0) s = 0.005;
		printf "   replay %-9s lru, 1 M frames: %5.2f M refs/s, %s faults,\n", f, n / s / 1e6, faults
		printf "   %-17s max RSS %d KiB\n", "", $3 }' "$T/tr"
done
