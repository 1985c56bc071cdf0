# memory.low / memory.min and memory.high wired into the --cgroup tree
# (issue 39 part 2; src/mm/memcg_hooks.c, docs/cgroups.md).  The issue's
# example scaled down: a 15M working set in /a beside a stream of 8x RAM
# in /b, with and without /a's memory.low, under lru (one LRU: the
# stream pushes the set out unless protection stops it).  Some seconds.

ws() {
	$P run --ram 64M --swap 64M --policy lru --make-inputs "$@" \
		--cgroup /b:max=2G workingset -m 15 -t 2000 -n 5 @/a \
		+ dd if=big of=/dev/null bs=1M count=512 @/b
}
# cgroup /a's row of the memory.stat table: field n (7 = pgmajfault)
arow() { awk -v n="$2" '/^# cgroups: memory.stat/ { s = 1 } s && $1 == "/a" { print $n; exit }' "$1"; }
# cgroup /a's memory.events low (the first table's 6th field)
alow() { awk '$1 == "/a" { print $6; exit }' "$1"; }

t "low=16M: /a never faults back, events low 0, --check"
ws --check --cgroup /a:low=16M >"$T/low" 2>&1
rc=$?
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(tail -3 "$T/low")"
[ "$(arow "$T/low" 8)" = 0 ] || msg="$msg; /a pgmajfault $(arow "$T/low" 8)"
[ "$(arow "$T/low" 5)" = 0 ] || msg="$msg; /a pgsteal $(arow "$T/low" 5)"
[ "$(alow "$T/low")" = 0 ] || msg="$msg; memory.events low $(alow "$T/low")"
grep -q '^workingset: .* 0 major faults' "$T/low" || msg="$msg; $(grep '^workingset:' "$T/low")"
[ -z "$msg" ] && ok || bad "$msg"

t "without low: the stream pushes /a out (major faults)"
ws --cgroup /a >"$T/nolow" 2>&1
msg=""
[ "$(arow "$T/nolow" 8)" -gt 0 ] || msg="/a pgmajfault $(arow "$T/nolow" 8)"
[ "$(arow "$T/nolow" 5)" -gt 0 ] || msg="$msg; /a pgsteal $(arow "$T/nolow" 5)"
[ "$(alow "$T/nolow")" = 0 ] || msg="$msg; memory.events low $(alow "$T/nolow")"
[ -z "$msg" ] && ok || bad "$msg"

t "low the limit cannot leave: the low retry, events low"
$P run --ram 64M --swap 64M --policy linux6 --check --cgroup /p:max=16M \
	--cgroup /p/a:low=16M usemem -m 20 @/p/a >"$T/retry" 2>&1
rc=$?
lo=$(awk '$1 == "/p/a" { print $6; exit }' "$T/retry")
[ $rc -eq 0 ] && [ "$lo" -gt 0 ] && [ "$(counter pswpout "$T/retry")" -ge 1024 ] \
	&& ! grep -q 'Killed process' "$T/retry" && ok || bad "rc $rc, low $lo"

t "min=16M is never broken: the limit's OOM kill instead"
$P run --ram 64M --swap 64M --policy linux6 --cgroup /p:max=16M \
	--cgroup /p/a:min=16M usemem -m 20 @/p/a >"$T/min" 2>&1
grep -q 'Memory cgroup out of memory: Killed process' "$T/min" && ok || bad "$(tail -3 "$T/min")"

# usemem's elapsed time ("... N.NNN total"), in ms
elapsed_ms() { awk '/^usemem .* total$/ { t = $(NF - 1); n = split(t, a, ":");
	s = n == 2 ? a[1] * 60 + a[2] : a[1]; printf "%d\n", s * 1000; exit }' "$1"; }

t "high below the set: events high, usage held, slower"
$P run --ram 64M --swap 64M --policy linux6 --check --cgroup /h usemem -m 16 @/h >"$T/h0" 2>&1
$P run --ram 64M --swap 64M --policy linux6 --check --cgroup /h:high=8M usemem -m 16 @/h >"$T/h1" 2>&1
rc=$?
hi=$(awk '$1 == "/h" { print $7; exit }' "$T/h1")
hi0=$(awk '$1 == "/h" { print $7; exit }' "$T/h0")
peak=$(awk '$1 == "/h" { print $3; exit }' "$T/h1")
msg=""
[ $rc -eq 0 ] || msg="exit $rc"
[ "$hi0" = 0 ] || msg="$msg; events high $hi0 without high"
[ "$hi" -gt 0 ] || msg="$msg; events high $hi"
[ "$peak" -lt 16384 ] || msg="$msg; peak $peak kB"
[ "$(elapsed_ms "$T/h1")" -gt "$(elapsed_ms "$T/h0")" ] \
	|| msg="$msg; elapsed $(elapsed_ms "$T/h1") ms, not above $(elapsed_ms "$T/h0")"
[ -z "$msg" ] && ok || bad "$msg"

t "high with swap.max=0: penalty sleeps in elapsed"
$P run --ram 64M --policy linux6 --cgroup /h:high=8M,swap.max=0 usemem -m 16 @/h >"$T/h2" 2>&1
[ "$(elapsed_ms "$T/h2")" -ge 2000 ] && ok || bad "elapsed $(elapsed_ms "$T/h2") ms"

# some's total (us) in cgroup $2's memory.pressure rows of report $1
psome() { awk -v g="$2" '/^# cgroups: memory.pressure/ { s = 1; next } s && $1 == g && $2 == "some" {
	sub("total=", "", $6); print $6; exit }' "$1"; }

t "psi=1: memory.pressure per cgroup, stalls up the tree"
$P run --ram 64M --policy linux6 --set psi=1 --cgroup /h:high=8M,swap.max=0 --cgroup /q \
	usemem -m 12 @/h + usemem -m 2 @/q >"$T/p" 2>&1
h=$(psome "$T/p" /h)
q=$(psome "$T/p" /q)
r=$(psome "$T/p" /)
[ -n "$h" ] && [ "$h" -gt 0 ] && [ "$q" = 0 ] && [ "$r" -ge "$h" ] \
	&& [ "$(grep -c '^              full avg10=' "$T/p")" -eq 3 ] && ok || bad "/h $h, /q $q, / $r"

t "psi=1 --json: memory.pressure per cgroup; none without"
$P run --ram 64M --json --set psi=1 --cgroup /a usemem -m 4 @/a >"$T/pj" 2>&1
$P run --ram 64M --json --cgroup /a usemem -m 4 @/a >"$T/pj0" 2>&1
[ "$(grep -o '"memory.pressure": {"some": {"avg10": [0-9.]*, "avg60": [0-9.]*, "avg300": [0-9.]*, "total": [0-9]*}, "full"' "$T/pj" | wc -l)" -eq 2 ] \
	&& ! grep -q 'memory.pressure' "$T/pj0" && ok || bad "$(grep -o '"cgroups.*' "$T/pj" | head -c 300)"

t "linux6: /p/a above its low scanned less than /p/b"
$P run --ram 128M --swap 128M --policy linux6 --check --cgroup /p:max=32M --cgroup /p/a:low=8M \
	--cgroup /p/b usemem -m 20 -r 3 @/p/a + usemem -m 20 -r 3 @/p/b >"$T/prop" 2>&1
rc=$?
# field n of cgroup $1's memory.stat row
pst() { awk -v g="$1" -v n="$2" '/^# cgroups: memory.stat/ { s = 1 } s && $1 == g { print $n; exit }' "$T/prop"; }
[ $rc -eq 0 ] && [ "$(pst /p/a 4)" -lt "$(pst /p/b 4)" ] && [ "$(pst /p/a 5)" -lt "$(pst /p/b 5)" ] \
	&& ok || bad "rc $rc; pgscan /p/a $(pst /p/a 4), /p/b $(pst /p/b 4)"
