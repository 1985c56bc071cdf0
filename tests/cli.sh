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

t "reproduce: tables, verdicts and a summary"
out=$($P reproduce --no-progress --only 5 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^== Experiment 5:' && echo "$out" | grep -q '^summary: 1 experiment, ' &&
	echo "$out" | grep -q 'thread    usemem -m 1000  0.10s user 10.27s system 62% cpu 16.567 total' && ok || bad "$out"

t "reproduce: same output for any --jobs"
a=$($P reproduce --no-progress --only 5 --jobs 1 --json 2>&1)
b=$($P reproduce --no-progress --only 5 --jobs 3 --json 2>&1)
[ "$a" = "$b" ] && echo "$a" | grep -q '"summary": {"agree": ' && ok || bad "outputs differ"

t "reproduce: bad input exits 2"
msg=""
for args in "--only 0" "--only 9" "--jobs 0" "--bogus" "--html" "--html /nonexistent/dir/r.html" "--only"; do
	$P reproduce --no-progress $args >/dev/null 2>&1; rc=$?
	[ $rc -eq 2 ] || msg="$msg pagelab reproduce $args exited $rc;"
done
[ -z "$msg" ] && ok || bad "$msg"

exit $fail
