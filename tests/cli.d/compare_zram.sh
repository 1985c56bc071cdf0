# pagelab compare --swap zram:SIZE[,algo=NAME]: the kernel's runs on a
# zram device of their own (pagelab kernel --swap zram:..., named so in
# their records), its mm_stat and io_stat rows after the counters, with
# the simulator's beside them (its own zram of the same algorithm, at
# its fullest, from its records' "zram" object).  Hand-written records of kernel runs,
# no kernel run (about 1 s).

# zram_report DIR N ORIG: run N's record (its device stored ORIG bytes),
# appended to DIR/kernel.jsonl.
zram_report() {
	kernel_record "$2" "--memcg 64M --swap zram:128M,algo=lz4 --seed 1 --timeout 600 usemem -m 80" \
		c:pswpout=5000 m:pgfault=20490 |
		sed "s/}}}\$/}, \"zram\": {\"algorithm\": \"lz4\", \"disksize\": 134217728, \"mm_stat.orig_data_size\": $3, \"mm_stat.compr_data_size\": 10240000, \"mm_stat.mem_used_total\": 10485760, \"mm_stat.mem_limit\": 0, \"mm_stat.mem_used_max\": 11534336, \"mm_stat.same_pages\": 7, \"mm_stat.pages_compacted\": 0, \"mm_stat.huge_pages\": 0, \"mm_stat.huge_pages_since\": 0, \"io_stat.failed_reads\": 0, \"io_stat.failed_writes\": 0, \"io_stat.invalid_io\": 0, \"io_stat.notify_free\": 5000}}}/" \
		>>"$1/kernel.jsonl"
}

t "compare zram: the device's rows, the simulator's zram beside them"
mkdir -p "$T/kz"
zram_report "$T/kz" 1 20480000
zram_report "$T/kz" 2 20889600
$P compare --repeat 2 --kernel-cache "$T/kz" --memcg 64M --swap zram:128M,algo=lz4 --policy linux6 \
	-- usemem -m 80 >"$T/z1" 2>"$T/z1.err"
rc=$?
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/z1.err")"
grep -q '^memcg 64M, swap zram:128M,algo=lz4; kernel: 2 runs of pagelab kernel (cached)' "$T/z1" ||
	msg="$msg; setup line: $(sed -n 2p "$T/z1")"
grep -q "no zram simulated" "$T/z1" && msg="$msg; an old note"
# A zram device is not rotational, whatever the swapfile's disk is.
grep -q 'swap_rotational' "$T/z1" && msg="$msg; vm.swap_rotational set for zram"
# Bytes in KiB: 20000 and 20400, their median 20200.
# usemem's 4 111 pages swapped out, same-filled (usemem memsets): 16 444
# KiB stored at the fullest, nothing compressed.
grep -Eq '^zram\.orig_data_size KiB +20200 \(20000\.\.20400\) +16444 +0\.81 +yes$' "$T/z1" ||
	msg="$msg; orig_data_size: $(grep orig_data "$T/z1")"
grep -Eq '^zram\.same_pages +7 \(7\.\.7\) +4111 +>99 +no$' "$T/z1" || msg="$msg; same_pages"
grep -Eq '^zram\.notify_free +5000 \(5000\.\.5000\) +4111 +0\.82 +yes$' "$T/z1" || msg="$msg; notify_free"
[ "$(grep -c '^zram\.' "$T/z1")" -eq 13 ] || msg="$msg; $(grep -c '^zram\.' "$T/z1") zram rows"
awk 'length > 80 { exit 1 }' "$T/z1" || msg="$msg; a line over 80 columns"
[ -z "$msg" ] && ok || bad "$msg"

t "compare --swap SIZE: no zram rows, no note"
mkdir -p "$T/kp"
kernel_record 1 "--memcg 64M --swap 128M --seed 1 --timeout 600 usemem -m 80" c:pswpout=5000 >>"$T/kp/kernel.jsonl"
$P compare --repeat 1 --kernel-cache "$T/kp" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 80 >"$T/z2" 2>"$T/z2.err"
rc=$?
[ $rc -eq 0 ] && ! grep -q '^zram\.\|no zram' "$T/z2" && grep -q '^pswpout ' "$T/z2" &&
	ok || bad "exit $rc: $(cat "$T/z2.err")"

t "compare --swap zram: a bad spec exits 2 with one line"
msg=""
for spec in "zram:" "zram:1x" "zram:64M,algo=LZ4" "zram:64M,level=1"; do
	$P compare --swap "$spec" -- usemem -m 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -q -- "^pagelab: compare: --swap $spec: " "$T/err" || msg="$msg '$spec': exit $rc, $(cat "$T/err");"
done
[ -z "$msg" ] && ok || bad "$msg"
