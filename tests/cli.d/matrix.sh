# Issue 3's must-show: every policy passes --check on every workload of the
# suite (small sizes; opt needs a lone trace and is covered in core.sh).
# One pagelab sweep per workload runs the policies on the engine's own
# pool of jobs (--jobs: the CPUs); a cell whose --check broke says so in
# its record ("check_failed": true) and makes sweep exit 1.
# Under the sanitizers (make sancheck, ~5x slower) the textbook policies
# and dbench (the longest run) are left to make check.
t "--check: every policy x every workload"
msg=""
# Two passes over 5000 pages (16M holds 4096): the first faults every page
# in and swaps out, the second swaps every page back in; the same pages
# are written in each pass (5000 is a multiple of 4), so a third and a
# fourth pass (20000 references, 18 of the matrix's 47 s of CPU) only
# repeated the second.
awk 'BEGIN { for (i = 0; i < 10000; i++) print (i * 7919) % 5000, (i % 4 == 0 ? "w" : "r") }' >"$T/matrix.trace"
pols="fifo,clock,lru,linux22,vhand,riel24,aa24,linux26,splitlru,workingset,linux6,mglru"
dbench="dbench 1"
if [ -n "${PAGELAB_SANITIZED:-}" ]; then
	pols="linux22,vhand,riel24,aa24,linux26,splitlru,workingset,linux6,mglru"
	dbench="usemem -m 4"
fi
npol=$(echo "$pols" | tr ',' '\n' | wc -l)
while IFS= read -r w; do
	[ "$w" = dbench ] && w=$dbench
	rm -f "$T/matrix.jsonl"
	# shellcheck disable=SC2086
	$P sweep --no-progress --check --machine vmm-2008 --ram 16M --swap 32M --policy $pols \
		-o "$T/matrix.jsonl" -- $w >"$T/out" 2>"$T/err"
	rc=$?
	cells=$(grep -c '"check_failed": false' "$T/matrix.jsonl" 2>/dev/null)
	if [ $rc -ne 0 ] || [ "${cells:-0}" -ne "$npol" ]; then
		broke=$(grep '"check_failed": true' "$T/matrix.jsonl" 2>/dev/null | sed 's/.*"design": "\([^"]*\)".*/\1/' | tr '\n' ' ')
		msg="$msg $w: exit $rc, $cells of $npol cells sound${broke:+, --check broke: $broke}: $(grep -v '^pagelab: simulated' "$T/err" | head -1);"
	fi
done <<EOF2
usemem -m 20 -r 2
fileio -c -w -r 2 /f 8M
qsbench -p 2 -m 4
mtest01 -b 8M -w
memeater -n 2
workingset -m 4 -n 2 -t 100 + dd if=/dev/sda bs=1M count=24
dbench
mmap001 -m 2000
bonnie -s 4
kbuild -j 2 --units 4 --headers 24 --cc1 1
innodb --pool 4 --data 32M --transactions 50 --scan --warm
trace $T/matrix.trace
EOF2
[ -z "$msg" ] && ok || bad "$msg"
