#!/bin/sh
# End-to-end runs of the pagelab command.  PAGELAB names the binary.
set -u
P=${PAGELAB:-./pagelab}
fail=0
t() { printf '%-60s' "$1"; }
ok() { echo ok; }
bad() { echo "FAILED: $1"; fail=1; }

t "usemem fits in RAM: no swapping"
out=$($P run --machine vmm-2008 --check usemem -m 64 2>&1)
echo "$out" | grep -q '^pswpout 0$' && echo "$out" | grep -q '^pgmajfault 0$' && ok || bad "$out"

t "bad input exits 2"
for args in "--ram 0 usemem -m 1" "--ram 99999999T usemem -m 1" "--policy nosuch usemem -m 1" "nosuch" "--bogus usemem -m 1"; do
	$P run $args >/dev/null 2>&1; rc=$?
	[ $rc -eq 2 ] || { bad "pagelab run $args exited $rc"; continue 2; }
done
ok

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

exit $fail
