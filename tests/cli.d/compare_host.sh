# pagelab compare runs the simulator as the host runs: sched_eevdf=1 on a
# 6.6 or later kernel (EEVDF), unless --set says otherwise, and the setup
# line says so.  A hand-written kernel run's record, no kernel run (about
# 1 s).

t "compare: the host's scheduler (sched_eevdf=1 from 6.6), --set wins"
mkdir -p "$T/kh"
kernel_record 1 "--memcg 64M --swap 128M --seed 1 --timeout 600 usemem -m 40" c:pswpout=0 >"$T/kh/kernel.jsonl"
$P compare --repeat 1 --kernel-cache "$T/kh" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 40 >"$T/h1" 2>"$T/h1.err"
rc1=$?
$P compare --repeat 1 --kernel-cache "$T/kh" --memcg 64M --swap 128M --policy linux6 \
	--set sched_eevdf=0 -- usemem -m 40 >"$T/h2" 2>"$T/h2.err"
rc2=$?
msg=""
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || msg="exit $rc1/$rc2: $(cat "$T/h1.err" "$T/h2.err")"
rel=$(uname -r)
maj=${rel%%.*} rest=${rel#*.}
min=${rest%%[!0-9]*}
setup1=$(sed -n 2,4p "$T/h1" | tr '\n' ' ')
if [ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "${min:-0}" -ge 6 ]; }; then
	echo "$setup1" | grep -q "with .*sched_eevdf=1" || msg="$msg; $rel: no sched_eevdf=1 in '$setup1'"
else
	echo "$setup1" | grep -q "sched_eevdf" && msg="$msg; $rel is before 6.6: '$setup1'"
fi
setup2=$(sed -n 2,3p "$T/h2" | tr '\n' ' ')
echo "$setup2" | grep -q "with .*sched_eevdf=0" || msg="$msg; --set sched_eevdf=0 not shown: '$setup2'"
echo "$setup2" | grep -q "sched_eevdf=1" && msg="$msg; sched_eevdf=1 beside --set sched_eevdf=0"
awk 'length > 80 { exit 1 }' "$T/h1" "$T/h2" || msg="$msg; a line over 80 columns"
[ -z "$msg" ] && ok || bad "$msg"

t "compare: a rotational swapfile device sets vm.swap_rotational=1, --set wins"
# What the host's swapfile directory (/var/tmp) sits on, read as compare
# reads it: its device's queue/rotational, or its disk's for a partition.
dev=$(stat -c '%Hd:%Ld' /var/tmp 2>/dev/null)
queue_attr() { # NAME: /var/tmp's device's queue/NAME, or its disk's
	for q in "/sys/dev/block/$dev/queue/$1" "/sys/dev/block/$dev/../queue/$1"; do
		if [ -r "$q" ]; then
			cat "$q"
			return
		fi
	done
}
compare_set() { # OUT NAME=VALUE: the cached compare with that --set, into $T/OUT
	$P compare --repeat 1 --kernel-cache "$T/kh" --memcg 64M --swap 128M --policy linux6 \
		--set "$2" -- usemem -m 40 >"$T/$1" 2>"$T/$1.err" || msg="$msg; exit $?: $(cat "$T/$1.err")"
}
rot=$(queue_attr rotational)
msg=""
compare_set h3 vm.swap_rotational=0
if [ "$rot" = 1 ]; then
	echo "$setup1" | grep -q "vm.swap_rotational=1" || msg="$msg; /var/tmp on $dev is rotational: no vm.swap_rotational=1 in '$setup1'"
else
	echo "$setup1" | grep -q "swap_rotational" && msg="$msg; /var/tmp on $dev is not rotational: '$setup1'"
fi
setup3=$(sed -n 2,3p "$T/h3" | tr '\n' ' ')
echo "$setup3" | grep -q "vm.swap_rotational=0" || msg="$msg; --set vm.swap_rotational=0 not shown: '$setup3'"
echo "$setup3" | grep -q "vm.swap_rotational=1" && msg="$msg; vm.swap_rotational=1 beside --set vm.swap_rotational=0"
awk 'length > 80 { exit 1 }' "$T/h3" || msg="$msg; a line over 80 columns"
[ -z "$msg" ] && ok || bad "$msg"

t "compare: read_ahead_kb sets vm.ra_pages=KB/4, --set wins"
# The readahead window of a file under /var/tmp is its device's
# read_ahead_kb / 4 pages (bdi->ra_pages); 128 KB is pagelab's default 32.
kb=$(queue_attr read_ahead_kb)
msg=""
compare_set h4 vm.ra_pages=7
setup1=$(sed -n 2,4p "$T/h1" | tr '\n' ' ')
if [ -n "$kb" ] && [ "$kb" != 128 ]; then
	echo "$setup1" | grep -q "vm.ra_pages=$((kb / 4))" || msg="$msg; $dev read_ahead_kb $kb: no vm.ra_pages=$((kb / 4)) in '$setup1'"
else
	echo "$setup1" | grep -q "ra_pages" && msg="$msg; $dev read_ahead_kb '$kb': '$setup1'"
fi
setup4=$(sed -n 2,4p "$T/h4" | tr '\n' ' ')
echo "$setup4" | grep -q "vm.ra_pages=7 " || msg="$msg; --set vm.ra_pages=7 not shown: '$setup4'"
[ "$(echo "$setup4" | grep -o 'vm.ra_pages=' | wc -l)" -eq 1 ] || msg="$msg; two vm.ra_pages in '$setup4'"
awk 'length > 80 { exit 1 }' "$T/h4" || msg="$msg; a line over 80 columns"
[ -z "$msg" ] && ok || bad "$msg"

t "compare: the host's remote TLB flush, kept in the kernel cache, --set wins"
# Two simulated CPUs: compare measures cost.tlb_ipi(_recv) once and keeps
# it in the kernel cache (tlb_cost), where a hand-written one is used as
# it is; --set cost.tlb_ipi=... means no measurement.
mkdir -p "$T/kt"
cp "$T/kh/kernel.jsonl" "$T/kt/kernel.jsonl"
echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$T/kt/tlb_cost"
$P compare --repeat 1 --cpus 2 --kernel-cache "$T/kt" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 40 >"$T/h5" 2>"$T/h5.err"
rc5=$?
$P compare --repeat 1 --cpus 2 --kernel-cache "$T/kt" --memcg 64M --swap 128M --policy linux6 \
	--set cost.tlb_ipi=1us --set cost.tlb_ipi_recv=1us -- usemem -m 40 >"$T/h6" 2>"$T/h6.err"
rc6=$?
$P compare --repeat 1 --cpus 1 --kernel-cache "$T/kt" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 40 >"$T/h7" 2>"$T/h7.err"
rc7=$?
msg=""
[ $rc5 -eq 0 ] && [ $rc6 -eq 0 ] && [ $rc7 -eq 0 ] || msg="exit $rc5/$rc6/$rc7: $(cat "$T/h5.err" "$T/h6.err")"
setup5=$(sed -n "2,/^kernel:/p" "$T/h5" | tr '\n' ' ')
echo "$setup5" | grep -q "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" || msg="$msg; cached cost not used: '$setup5'"
setup6=$(sed -n "2,/^kernel:/p" "$T/h6" | tr '\n' ' ')
[ "$(echo "$setup6" | grep -o 'cost.tlb_ipi=' | wc -l)" -eq 1 ] || msg="$msg; --set and a measurement: '$setup6'"
sed -n "2,/^kernel:/p" "$T/h7" | grep -q "tlb_ipi" && msg="$msg; one CPU given a TLB cost"
awk 'length > 80 { exit 1 }' "$T/h5" "$T/h6" || msg="$msg; a line over 80 columns"
[ -z "$msg" ] && ok || bad "$msg"
