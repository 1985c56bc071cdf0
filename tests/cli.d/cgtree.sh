# --cgroup: a tree of memory cgroups, workloads placed with @PATH (issue
# 39; docs/cgroups.md).  A few seconds.

t "/a, /b of 16M, 20M in /a, 10M in /b: limit reclaim, --check"
$P run --ram 128M --policy linux6 --check --cgroup /a:max=16M --cgroup /b:max=16M \
	usemem -m 20 @/a + usemem -m 10 @/b >"$T/ab" 2>"$T/ab.err"
rc=$?
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(head -3 "$T/ab.err")"
[ "$(counter pgscan_kswapd "$T/ab")" -eq 0 ] || msg="$msg; pgscan_kswapd not 0"
[ "$(counter pswpout "$T/ab")" -ge 1024 ] || msg="$msg; pswpout below the 4M over /a's max"
grep -q 'killed' "$T/ab" && msg="$msg; a task was killed"
[ -z "$msg" ] && ok || bad "$msg"

t "--cgroup: same output twice"
$P run --ram 128M --policy linux6 --check --cgroup /a:max=16M --cgroup /b:max=16M \
	usemem -m 20 @/a + usemem -m 10 @/b >"$T/ab2" 2>&1
grep -v elapsed "$T/ab" >"$T/x1"
grep -v elapsed "$T/ab2" >"$T/x2"
cmp -s "$T/x1" "$T/x2" && ok || bad "the two runs differ"

t "--cgroup /g:max=8M,oom.group=1: both tasks of /g killed"
$P run --ram 64M --swap 4K --cgroup /g:max=8M,oom.group=1 usemem -m 6 @/g + usemem -m 6 @/g >"$T/g" 2>&1
[ "$(grep -c 'Memory cgroup out of memory: Killed process' "$T/g")" -eq 2 ] \
	&& grep -q '^\[ *[0-9.]*\] memory: usage 8192kB, limit 8192kB, failcnt [0-9]* (/g)' "$T/g" \
	&& ok || bad "$(grep -i -e kill -e memory: "$T/g")"

t "--set cgroup= is --cgroup; @/a/b with /a implied"
$P run --ram 64M --check --set cgroup=/a/b:max=4M usemem -m 6 @/a/b >"$T/s" 2>&1 \
	&& [ "$(counter pswpout "$T/s")" -ge 512 ] && ok || bad "$(tail -3 "$T/s")"

for args in "--cgroup / usemem -m 4" "--cgroup a usemem -m 4" "--cgroup /a:max=x usemem -m 4" \
	    "--cgroup /a:bogus=1 usemem -m 4" "--cgroup /a --cgroup /a usemem -m 4" \
	    "--cgroup /a usemem -m 4 @/b" "--cgroup /a --memcg 8M usemem -m 4" \
	    "--cgroup /a --policy riel24 usemem -m 4" "--cgroup /a:oom.group=2 usemem -m 4" \
	    "usemem -m 4 @/a"; do
	t "bad input: run $args"
	# shellcheck disable=SC2086
	$P run $args >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done

t "text report: the cgroups' tables, within 80 columns"
sed -n '/^# cgroups: memory.current/,/^# reclaim work/p' "$T/ab" | sed '$d' >"$T/tab"
msg=""
grep -q '^/a  *[0-9]*  *16384  *16384 ' "$T/tab" || msg="no /a row peaking at its max"
grep -q '^/b  *[0-9]*  *10240  *16384 ' "$T/tab" || msg="$msg; no /b row peaking at 10M"
grep -q '^# cgroups: memory.stat' "$T/tab" || msg="$msg; no memory.stat table"
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$T/tab" || msg="$msg; a line over 80 columns"
[ -z "$msg" ] && ok || bad "$msg: $(cat "$T/tab")"

t "--json: cgroups with memory.current, peak, events, stat"
$P run --ram 64M --json --cgroup /a:max=4M usemem -m 6 @/a >"$T/j" 2>&1
grep -q '"cgroups": \[{"path": "/", "memory.max": "max"' "$T/j" \
	&& grep -q '{"path": "/a", "memory.max": 4194304, "memory.current": 0, "memory.peak": 4194304' "$T/j" \
	&& grep -q '"memory.events.oom_kill": 0, "memory.stat.anon": 0, "memory.stat.file": 0, "memory.stat.pgscan": [1-9]' "$T/j" \
	&& ok || bad "$(grep -o '"cgroups.*' "$T/j" | head -c 400)"

t "sweep --cgroup: the tree in every cell and in its records"
$P sweep --ram 64M --policy clock,linux6 --cgroup /a:max=4M -o "$T/sw.jsonl" -- usemem -m 6 @/a >"$T/sw.out" 2>&1
[ "$(grep -c '"cmd": "pagelab run --machine vmm-2008 --cgroup /a:max=4M --ram 64M' "$T/sw.jsonl")" -eq 2 ] \
	&& [ "$(grep -c '"path": "/a", "memory.max": 4194304' "$T/sw.jsonl")" -eq 2 ] && ok || bad "$(head -c 300 "$T/sw.jsonl")"

t "sweep: a bad --cgroup or @PATH is one line, exit 2"
$P sweep --cgroup /a:max=1M,bogus=2 -- usemem -m 2 @/a >"$T/o" 2>"$T/e"
rc1=$?
n1=$(wc -l <"$T/e")
$P sweep --cgroup /a -- usemem -m 2 @/z >"$T/o" 2>"$T/e"
rc2=$?
[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ "$n1" -eq 1 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc1 $rc2"

t "experiment file: machine-set cgroup=, wl \"... @/a\""
cat >"$T/cg.exp" <<'EXP'
experiment 9 cgtree
title "usemem in a cgroup of 8M"
machine vmm-2008
machine-set "ram=64M swap=64M cgroup=/a:max=8M"
design A clock thread
design B linux6 thread
run u "usemem in /a"
  wl "usemem -m 12 @/a"
metric so u 0 counter:pswpout lower "pages swapped out"
published A so 1024 "1024 pages" notes.txt:1
published B so 1024 "1024 pages" notes.txt:2
compare so A B ratio 0.25 0.03 0 notes.txt:1-2
EXP
$P reproduce "$T/cg.exp" >"$T/x" 2>&1 && grep -q '^experiment 9: 1 agree' "$T/x" && ok || bad "$(tail -3 "$T/x")"

t "swappiness=0 in a cgroup: linux6's limit reclaim never swaps"
# get_scan_count(): cgroup reclaim with swappiness 0 scans file only
# ("memcg users disable swapping this way"); 200 in the same run swaps.
for sw in 0 200; do
	$P run --ram 128M --policy linux6 --cgroup /a:max=16M,swappiness=$sw \
		dd if=/dev/zero of=f bs=1M count=12 @/a + usemem -m 12 @/a >"$T/sw$sw" 2>&1
done
[ "$(counter pswpout "$T/sw0")" -eq 0 ] && [ "$(counter pswpout "$T/sw200")" -gt 0 ] \
	&& [ "$(counter pgsteal_file "$T/sw0")" -gt 0 ] && ok \
	|| bad "pswpout $(counter pswpout "$T/sw0") / $(counter pswpout "$T/sw200")"

t "sweep --executor kernel --cgroup: pagelab kernel's tree (--list)"
$P sweep --executor kernel --list --ram 64M --cgroup /a:max=8M,swappiness=30 --cgroup /b/c \
	--set cgroup./b.high=4M -- usemem -m 2 @/a + usemem -m 1 @/b/c >"$T/o" 2>"$T/e"
[ $? -eq 0 ] && [ "$(cat "$T/o")" = "pagelab kernel --memcg 64M --swap 2G --cgroup /a:max=8M,swappiness=30 \
--cgroup /b:high=4M --cgroup /b/c --seed 1 --timeout 600 usemem -m 2 @/a + usemem -m 1 @/b/c # run 1, executor 7" ] &&
	ok || bad "$(cat "$T/o" "$T/e")"

t "trace @/a on ideal, --ram 50%: the full machine, not the cache"
seq 1 50 | sed 's/$/ w/' >"$T/t50"
$P run --machine ideal --ram 50% --cgroup /a:max=8p trace "$T/t50" @/a >"$T/tr" 2>&1 \
	&& grep -q '^/a  *0  *32  *32 ' "$T/tr" && ok || bad "$(tail -2 "$T/tr")"

t "/a, /b of 64M; usemem 80M in /a, 40M in /b: /a reclaims 16M"
$P run --ram 512M --policy linux6 --cgroup /a:max=64M --cgroup /b:max=64M \
	usemem -m 80 @/a + usemem -m 40 @/b >"$T/big" 2>&1
msg=""
grep -q '^/a  *[0-9]*  *65536  *65536 ' "$T/big" || msg="/a did not peak at its max"
grep -q '^/b  *0  *40960  *65536  *0  *0  *0  *0  *0  *0$' "$T/big" || msg="$msg; /b not untouched"
# 4102: linux6's pass is plugged (src/mm/plug.c), so the pages a pass
# writes are freed by later passes, and a charge reclaims on while they
# are written rather than waiting for them (memcg.c): 6 more than the
# 4096 over the max.
grep -q '^/a  *[0-9]*  *0  *[0-9]*  *4102 ' "$T/big" || msg="$msg; /a's pgsteal not the 16M over its max + 6"
[ -z "$msg" ] && ok || bad "$msg"
