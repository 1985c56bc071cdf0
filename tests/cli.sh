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

exit $fail
