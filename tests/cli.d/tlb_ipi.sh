# Reclaim's remote TLB flush (src/mm/reclaim.c flush_tlb_dirty): the
# costs change nothing on one CPU, and on two they add system time to the
# reclaimer and time to the task interrupted, in the mode it was in;
# pagelab kernel
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

t "cost.tlb_ipi_recv: counted in the mode the flush interrupted"
# dd reads a stream in the kernel while usemem's pages are swapped out:
# the flushes interrupt dd in system mode, as tick accounting counts
# them (the kernel's dd: 24 700 IPIs, 0.00 s user; machine.c
# irq_time_to_mode()).  Charged as user time, dd had 0.06 s of it here.
DD="--machine modern --cpus 2 --ram 400M --swap 256M --memcg 100M --policy linux6 --make-inputs"
DD="$DD usemem -n 1 -Z 130m + dd if=stream bs=1M count=256"
# shellcheck disable=SC2086
$P run $DD >"$T/dd0" 2>&1
# shellcheck disable=SC2086
$P run $TLB $DD >"$T/dd1" 2>&1
a=$(grep '^dd ' "$T/dd0" | sed 's/.*  \([0-9.]*\)s user \([0-9.]*\)s system.*/\1 \2/')
b=$(grep '^dd ' "$T/dd1" | sed 's/.*  \([0-9.]*\)s user \([0-9.]*\)s system.*/\1 \2/')
if [ -n "$a" ] && [ -n "$b" ] && echo "$a $b" | awk '{ exit !($1 == 0 && $3 == 0 && $4 > $2 + 0.03) }' &&
	grep -Eq '^tlb_flush_ipis +0 +0 +[1-9][0-9]{3,}' "$T/dd1"; then ok
else bad "dd without: '$a', with: '$b'"; fi

t "kernel --tlb-cost: two --set arguments"
$P kernel --tlb-cost >"$T/tlbk" 2>"$T/tlbk.err"
rc=$?
if [ $rc -eq 0 ] && grep -Eq '^--set cost\.tlb_ipi=[0-9]+ns --set cost\.tlb_ipi_recv=[0-9]+ns$' "$T/tlbk" &&
	[ "$(wc -l <"$T/tlbk")" -eq 1 ]; then ok
else bad "exit $rc: $(head -1 "$T/tlbk") $(head -1 "$T/tlbk.err")"; fi
