# The workloads through the CLI: fileio, qsbench, usemem, mtest01,
# memeater, workingset, innodb; --help and bad arguments of every one.

t "fileio: a file streamed past a small RAM, --check"
out=$($P run --machine vmm-2008 --ram 24M --check --vmstat 1 fileio -c -r 2 /f 40M 2>&1)
echo "$out" | grep -q '^pgpgin 81920$' && echo "$out" | grep -q '^pswpout 0$' && ok || bad "$out"

t "fileio: same command, same output"
a=$($P run --machine vmm-2008 --ram 24M fileio -w -R -r 2 /f 30M + usemem 8M 2>&1)
b=$($P run --machine vmm-2008 --ram 24M fileio -w -R -r 2 /f 30M + usemem 8M 2>&1)
[ "$a" = "$b" ] && ok || bad "outputs differ"

t "vmstat shows buff for the raw disk"
out=$($P run --machine vmm-2008 --vmstat 0.05 fileio -r 2 /dev/sda 8M 2>&1)
echo "$out" | awk '$5 ~ /^[0-9]+$/ && $5 > 0 { f = 1 } END { exit !f }' && ok || bad "$out"

t "fileio and vm sysctls: bad input exits 2"
for args in "fileio" "fileio F 0" "fileio -x F 1M" "fileio -r 0 F 1M" "fileio -m -d F 1M" "fileio F 1M extra" "--set vm.dirty_ratio=101 fileio F 1M" "--set vm.page_cluster=x fileio F 1M" "fileio nosuchfile 1M"; do
	$P run $args >/dev/null 2>&1; rc=$?
	[ $rc -eq 2 ] || { bad "pagelab run $args exited $rc"; continue 2; }
done
ok

t "qsbench runs under --check and prints time lines"
out=$($P run --machine vmm-2008 --ram 24M --swap 16M --check qsbench -p 2 -m 2 2>&1)
echo "$out" | grep -Eq '^qsbench -p 2 -m 2  [0-9.]+s user [0-9.]+s system [0-9]+% cpu [0-9:.]+ total$' &&
echo "$out" | grep -Eq '^[0-9.]+user [0-9.]+system [0-9:.]+elapsed [0-9]+%CPU \([0-9]+major\+[0-9]+minor\)pagefaults [0-9]+swaps$' && ok || bad "$out"

t "qsbench swaps on a small machine, verified"
out=$($P run --machine vmm-2008 --ram 14M --swap 16M --check qsbench -p 2 -m 4 -v 2>&1)
echo "$out" | grep -q '^verify... done.$' && ! echo "$out" | grep -q '^pswpout 0$' &&
! echo "$out" | grep -q WARNING && ok || bad "$out"

t "usemem prints its own line and time lines"
out=$($P run --machine vmm-2008 --ram 24M --swap 16M --check usemem -m 8 2>&1)
echo "$out" | grep -Eq '^9437184 bytes / [0-9]+ usecs = [0-9]+ KB/s$' &&
echo "$out" | grep -Eq '^usemem -m 8  [0-9.]+s user .* total$' && ok || bad "$out"

t "mtest01 -b 16M -w prints the 2001 PASS line"
out=$($P run --machine vmm-2008 --ram 32M --swap 16M --check mtest01 -b 16M -w 2>&1)
echo "$out" | grep -q '^PASS \.\.\. 16777216 bytes allocated\.$' &&
echo "$out" | grep -q '^pgfault 3855$' && ok || bad "$out"

t "memeater: serialized children, no OOM kill with enough swap"
out=$($P run --machine vmm-2008 --ram 16M --swap 32M --check memeater -n 2 2>&1)
echo "$out" | grep -q '^memeater: 0 of 2 children OOM-killed$' && echo "$out" | grep -q '^oom_kill 0$' && ok || bad "$out"

t "memeater without swap: the OOM killer fires"
out=$($P run --machine vmm-2008 --ram 16M --swap 0 memeater -n 2 2>&1)
echo "$out" | grep -q '^memeater: 2 of 2 children OOM-killed$' && echo "$out" | grep -q 'Out of memory' && ok || bad "$out"

t "workloads joined with + each report"
out=$($P run --machine vmm-2008 --ram 24M --swap 32M --check usemem -m 8 + qsbench -m 4 + mtest01 -b 4M -w + workingset -m 8 -n 3 -t 10 2>&1)
echo "$out" | grep -q '^usemem -m 8  ' && echo "$out" | grep -q '^qsbench -m 4  ' &&
echo "$out" | grep -q '^PASS \.\.\. 4194304 bytes allocated\.$' &&
echo "$out" | grep -Eq '^workingset: 2048 pages, 3 rounds, 6144 touches, [0-9]+ major faults \([0-9.]+%\), stalled [0-9.]+ s$' && ok || bad "$out"

t "workingset pushed out by a hog: major faults and stall time"
out=$($P run --machine vmm-2008 --ram 16M --swap 64M --check workingset -m 4 -n 2 -t 100 + usemem -m 16 -r 2 2>&1)
echo "$out" | grep -Eq '^workingset: 1024 pages, 2 rounds, 2048 touches, [1-9][0-9]* major faults \([0-9.]+%\), stalled [0-9]*[1-9][0-9]*\.[0-9]+ s$' && ok || bad "$out"

t "every workload: --help, and bad arguments exit 2"
for w in $($P workloads --names); do
	$P workloads $w --help | grep -q . || { bad "$w --help"; continue 2; }
	$P run $w --bogus-option >/dev/null 2>&1; rc=$?
	[ $rc -eq 2 ] || { bad "$w --bogus-option exited $rc"; continue 2; }
done
ok

t "innodb --warm starts with the whole pool resident"
w=$($P run --machine vmm-2008 --ram 64M innodb --pool 8 --data 64M --transactions 1 --warm 2>&1 | grep -o '0major+[0-9]*minor')
c=$($P run --machine vmm-2008 --ram 64M innodb --pool 8 --data 64M --transactions 1 2>&1 | grep -o '0major+[0-9]*minor')
[ "$w" = "0major+2048minor" ] && [ "$c" != "$w" ] && ok || bad "warm: $w, cold: $c"

