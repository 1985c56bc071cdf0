# memory.swap.high (--cgroup PATH:swap.high=SIZE; 6.x mm/memcontrol.c
# swap_find_max_overage() in mem_cgroup_handle_over_high(); docs/
# cgroups.md "memory.high").  usemem 16M in /a on 16M of RAM swaps; with
# swap.high=2M the task is throttled (memory.swap.events high counts)
# and takes far longer.  Under a second.

sh_run() {
	$P run --ram 16M --swap 32M --policy linux6 --check "$@" usemem -m 16 @/a
}
total() { sed -n 's/^usemem .* \([0-9.]*\) total$/\1/p' "$1"; }
# /a's memory.swap.events high
ahigh() { awk '/^# cgroups: memory.swap.high/ { s = 1 } s && $1 == "/a" { print $3; exit }' "$1"; }

t "swap.high=2M: /a throttled, memory.swap.events high counted"
sh_run --cgroup /a:swap.high=2M >"$T/on" 2>&1
rc=$?
sh_run --cgroup /a >"$T/off" 2>&1
n=$(ahigh "$T/on")
[ $rc -eq 0 ] && [ "${n:-0}" -gt 0 ] &&
	awk -v a="$(total "$T/on")" -v b="$(total "$T/off")" 'BEGIN { exit !(a > 10 * b) }' &&
	! grep -q "swap.high" "$T/off" && ok ||
	bad "exit $rc, events high '$n', total $(total "$T/on") vs $(total "$T/off")"

t "--set cgroup./a.swap.high=2M: the same run; --json has it"
sh_run --cgroup /a --set cgroup./a.swap.high=2M >"$T/set" 2>&1
sh_run --cgroup /a:swap.high=2M --json >"$T/json" 2>&1
sh_run --cgroup /a --json >"$T/json0" 2>&1
cmp -s "$T/on" "$T/set" && grep -q "\"memory.swap.events.high\": $n[,}]" "$T/json" &&
	grep -q '"memory.swap.high": 2097152' "$T/json" &&
	! grep -q "memory.swap.high" "$T/json0" && ok ||
	bad "$(cmp "$T/on" "$T/set"); $(grep -o '"memory.swap[^,]*' "$T/json" | head -4)"

t "bad input: swap.high=abc, exit 2 with one line"
$P run --ram 16M --cgroup /a:swap.high=abc usemem -m 1 @/a >"$T/bad" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$T/bad")" -eq 1 ] && grep -q "bad swap.high 'abc'" "$T/bad" && ok ||
	bad "exit $rc: $(cat "$T/bad")"
