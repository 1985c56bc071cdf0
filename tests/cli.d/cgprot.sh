# memory_recursiveprot (--set memory_recursiveprot=1, the cgroup2 mount
# option; 6.x mm/page_counter.c effective_protection()'s recursive
# branch; docs/cgroups.md "Protection").  /p has memory.low, its child
# /p/a none: only with recursiveprot does /p's protection reach /p/a's
# working set, which a stream in /b pushes out otherwise.  About 1.5 s.

rp() {
	$P run --ram 32M --swap 32M --policy lru --make-inputs --check \
		--cgroup /p:low=10M --cgroup /p/a --cgroup /b:max=2G "$@" \
		workingset -m 8 -t 1000 -n 3 @/p/a \
		+ dd if=big of=/dev/null bs=1M count=128 @/b
}
majflt() { sed -n 's/^workingset: .* \([0-9]*\) major faults.*/\1/p' "$1"; }

t "recursiveprot=1: /p's low protects /p/a (0 major faults)"
rp --set memory_recursiveprot=1 >"$T/on" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(majflt "$T/on")" = 0 ] && ok ||
	bad "exit $rc, major faults '$(majflt "$T/on")': $(tail -2 "$T/on")"

t "recursiveprot off (the default, and =0): /p/a is reclaimed"
rp >"$T/off" 2>&1
rc=$?
rp --set memory_recursiveprot=0 >"$T/off0" 2>&1
n=$(majflt "$T/off")
[ $rc -eq 0 ] && [ "${n:-0}" -gt 0 ] && cmp -s "$T/off" "$T/off0" && ok ||
	bad "exit $rc, major faults '$n'; =0 differs: $(cmp "$T/off" "$T/off0")"

t "bad input: memory_recursiveprot=2, or without a --cgroup tree"
$P run --ram 16M --cgroup /a --set memory_recursiveprot=2 usemem -m 1 >"$T/b1" 2>&1
r1=$?
$P run --ram 16M --set memory_recursiveprot=1 usemem -m 1 >"$T/b2" 2>&1
r2=$?
[ $r1 -eq 2 ] && [ $r2 -eq 2 ] && [ "$(wc -l <"$T/b1")" -eq 1 ] &&
	[ "$(wc -l <"$T/b2")" -eq 1 ] && grep -q "0 or 1" "$T/b1" &&
	grep -q "needs a --cgroup" "$T/b2" && ok ||
	bad "exit $r1/$r2: $(cat "$T/b1" "$T/b2")"

t "sweep --set memory_recursiveprot=0,1: the runs' figures"
if needs python3; then
	$P sweep --policy lru --ram 32M --swap 32M --set make-inputs=1 \
		--cgroup /p:low=10M --cgroup /p/a --cgroup /b:max=2G \
		--set memory_recursiveprot=0,1 -- workingset -m 8 -t 1000 -n 3 @/p/a \
		+ dd if=big of=/dev/null bs=1M count=128 @/b >"$T/sw" 2>"$T/err"
	got=$(python3 -c 'import json,sys
for l in sys.stdin:
    r = json.loads(l)
    f = [c["memory.stat.pgmajfault"] for c in r["cgroups"] if c["path"] == "/p/a"][0]
    print(r["params"].get("memory_recursiveprot", "?"), f)' <"$T/sw" 2>&1)
	off=$(majflt "$T/off")
	[ "$(echo "$got" | tr '\n' ' ')" = "0 $off 1 0 " ] && ok || bad "$got; $(cat "$T/err")"
fi
