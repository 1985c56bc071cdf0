# Reclaim's remote TLB flush (src/mm/reclaim.c flush_tlb_dirty): the
# costs change nothing on one CPU, and on two they add system time to the
# reclaimer and user time to the task interrupted; pagelab kernel
# --tlb-cost prints them as --set arguments.

QS="--machine modern --ram 200M --swap 256M --memcg 100M --policy linux6 qsbench -p 4 -m 28 --distinct"
TLB="--set cost.tlb_ipi=10us --set cost.tlb_ipi_recv=5us"

# The "1.75user 0.09system" figures of a run's time(1) line, as "U S".
user_sys() {
	sed -n 's/^\([0-9.]*\)user \([0-9.]*\)system .*/\1 \2/p' "$1" | head -1
}

t "cost.tlb_ipi: one CPU, the same run to the byte"
# shellcheck disable=SC2086
$P run --cpus 1 $QS >"$T/tlb1a" 2>&1
# shellcheck disable=SC2086
$P run --cpus 1 $TLB $QS >"$T/tlb1b" 2>&1
if cmp -s "$T/tlb1a" "$T/tlb1b" && grep -q '^pswpout [1-9]' "$T/tlb1a"; then ok
else bad "the runs differ, or swapped nothing: $(diff "$T/tlb1a" "$T/tlb1b" | head -3)"; fi

t "cost.tlb_ipi: two CPUs, more system and user time"
# shellcheck disable=SC2086
$P run --cpus 2 $QS >"$T/tlb2a" 2>&1
# shellcheck disable=SC2086
$P run --cpus 2 $TLB $QS >"$T/tlb2b" 2>&1
a=$(user_sys "$T/tlb2a") b=$(user_sys "$T/tlb2b")
if [ -n "$a" ] && [ -n "$b" ] && echo "$a $b" | awk '{ exit !($3 > $1 && $4 > $2) }'; then ok
else bad "without: '$a', with: '$b'"; fi

t "kernel --tlb-cost: two --set arguments"
$P kernel --tlb-cost >"$T/tlbk" 2>"$T/tlbk.err"
rc=$?
if [ $rc -eq 0 ] && grep -Eq '^--set cost\.tlb_ipi=[0-9]+ns --set cost\.tlb_ipi_recv=[0-9]+ns$' "$T/tlbk" &&
	[ "$(wc -l <"$T/tlbk")" -eq 1 ]; then ok
else bad "exit $rc: $(head -1 "$T/tlbk") $(head -1 "$T/tlbk.err")"; fi
