# pagelab run --make-inputs (src/cli/run.c, the walk of src/native/
# prepare.c): a file a workload reads and none writes is made on the
# simulated disk, uncached, as large as it is read; and pagelab compare
# uses it for the kernel side's input (a cached kernel report, no root).

t "run --make-inputs: dd reads a 64 MB input from the disk, no more"
$P run --machine modern --memcg 256M --make-inputs dd if=big bs=1M count=64 >"$T/mi" 2>"$T/mi.err"
rc=$?
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(head -1 "$T/mi.err")"
grep -qx 'pagelab: made big, 16384 pages, on the disk and uncached' "$T/mi.err" || msg="$msg; no 'made' line"
# Every page read from the disk once, and readahead stops at the end of
# the file (the raw disk, /dev/sda, reads on past what dd asked for).
grep -qx 'pgpgin 65536' "$T/mi" || msg="$msg; $(grep '^pgpgin' "$T/mi")"
[ -z "$msg" ] && ok || bad "$msg"

t "run without --make-inputs: the missing input is bad input"
$P run --machine modern dd if=big bs=1M count=4 >"$T/o" 2>"$T/e"
rc=$?
[ $rc -eq 2 ] && grep -qx 'pagelab: workload dd opens big, which does not exist' "$T/e" && ok || bad "rc $rc: $(cat "$T/e")"

t "run --make-inputs: the larger of two reads; nothing for a written file or /dev/sda"
$P run --machine modern --make-inputs dd if=a bs=1M count=8 + dd if=a bs=1M count=16 \
	+ dd if=/dev/zero of=w bs=1M count=2 + dd if=w bs=1M count=2 + dd if=/dev/sda bs=1M count=1 >/dev/null 2>"$T/e2"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^pagelab: made' "$T/e2")" -eq 1 ] &&
	grep -qx 'pagelab: made a, 4096 pages, on the disk and uncached' "$T/e2" && ok || bad "rc $rc: $(cat "$T/e2")"

t "compare makes the input on the simulator side too"
mkdir -p "$T/mkc" "$T/msc"
kernel_record 1 "--memcg 64M --swap 128M --seed 1 --timeout 600 dd if=in bs=1M count=8" c:pgpgin=8192 \
	>"$T/mkc/kernel.jsonl"
$P compare --repeat 1 --kernel-cache "$T/mkc" --sim-cache "$T/msc" --memcg 64M --swap 128M \
	--policy linux6 -- dd if=in bs=1M count=8 >"$T/cmp" 2>"$T/cmp.err"
rc=$?
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(head -1 "$T/cmp.err")"
grep -Eq "^pgpgin +8192 \(8192\.\.8192\) +8192 +1\.00  yes$" "$T/cmp" || msg="$msg; $(grep '^pgpgin' "$T/cmp")"
grep -rqs -- '--make-inputs dd if=in bs=1M count=8' "$T/msc" || msg="$msg; no --make-inputs in the simulator's command"
[ -z "$msg" ] && ok || bad "$msg"
