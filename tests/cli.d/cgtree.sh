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
