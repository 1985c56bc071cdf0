# memory.reclaim and the agents (memreclaim, senpai, oomd: src/mm/
# memcg_reclaim.c, src/machine/cgops.c, src/workload/; docs/cgroups.md,
# "memory.reclaim and agents").  About 1 s.

t "memreclaim: 1M from /a, counted as pgsteal_proactive"
$P run --machine ideal --ram 1M --swap 1M --policy linux6 --cgroup /a --cgroup /b \
	usemem -s 5 400k @/a + usemem -s 5 200k @/b + memreclaim -a 1s /a 100p >"$T/mr" 2>&1
grep -qx 'memreclaim: 1 write(s) of 400 kB to /a/memory.reclaim: 400 kB reclaimed' "$T/mr" \
	&& grep -q '^# cgroups: memory.stat of memory.reclaim (pages)$' "$T/mr" \
	&& awk '$1 == "/a" && NF == 3 { a = $3 } $1 == "/b" && NF == 3 { b = $2 + $3 }
		END { exit !(a == 100 && b == 0) }' "$T/mr" && ok || bad "$(grep -A3 memory.reclaim "$T/mr")"

t "--json: pgsteal_proactive only where memory.reclaim ran"
$P run --machine ideal --ram 1M --swap 1M --policy linux6 --cgroup /a --json \
	usemem -s 5 400k @/a + memreclaim -a 1s /a 100p >"$T/j" 2>&1
$P run --machine ideal --ram 1M --swap 1M --policy linux6 --cgroup /a --json usemem -s 5 400k @/a >"$T/j0" 2>&1
grep -q '"path": "/a".*"memory.stat.pgsteal_proactive": 100' "$T/j" && ! grep -q proactive "$T/j0" \
	&& ok || bad "$(grep -o '"path": "/a"[^}]*' "$T/j" | head -1)"

t "memreclaim more than the cgroup has: EAGAIN"
$P run --machine ideal --ram 1M --swap 1M --policy linux6 --cgroup /a \
	usemem -s 5 400k @/a + memreclaim -a 1s /a 1M >"$T/ea" 2>&1
grep -qx 'memreclaim: 1 write(s) failed: Resource temporarily unavailable (EAGAIN)' "$T/ea" && ok || bad "$(grep memreclaim "$T/ea")"

t "oomd: pressure over --limit for 2 s kills /m/y"
$P run --ram 32M --swap 64M --policy linux6 --set psi=1 --cgroup /m/x --cgroup /m/y:max=8M \
	usemem -m 6 -s 20 @/m/x + usemem -m 12 -r 60 @/m/y + oomd --limit 10 --duration 2s /m >"$T/od" 2>&1
grep -q '^oomd: /m: 1 kill(s), 1 task(s); the last: /m/y at ' "$T/od" && ok || bad "$(grep oomd "$T/od")"

t "bad input: one line, exit 2"
for a in "memreclaim /b 1M" "memreclaim /a" "memreclaim /a 0" "memreclaim -w 201 /a 1M" "senpai /a" \
	"senpai --max-probe 2 /a" "oomd" "oomd --limit 100 /a" "senpai /b"; do
	# shellcheck disable=SC2086
	$P run --cgroup /a $a >"$T/o" 2>"$T/e"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] || { bad "$a: rc $rc $(cat "$T/e")"; continue 2; }
done

$P run --cgroup /a senpai /a 2>&1 | grep -qx "pagelab: senpai reads /a's memory.pressure: give --set psi=1" && ok || bad "psi message"

t "experiment file: psi=1 reaches the runs, custom:cgroup, nonzero"
cat >"$T/a.exp" <<'X'
experiment 7 agents
title "memory.reclaim in an experiment"
machine ideal
machine-set "ram=1M swap=1M psi=1 cgroup=/a"
design linux6 linux6 modern
run r "usemem in /a, memory.reclaim and senpai beside it"
  wl "usemem -s 5 400k @/a"
  wl "memreclaim -a 1s /a 100p"
  wl "senpai --min-size 0 /a"
metric st r 0 custom:cgroup:/a:memory.stat.pgsteal_proactive higher "pgsteal_proactive"
metric ev r 0 custom:cgroup:/a:memory.events.oom lower "oom"
compare st - linux6 nonzero 0 0 0 x:1 "memory.reclaim took pages"
compare ev - linux6 zero 0 0 0 x:1 "no OOM"
X
$P reproduce "$T/a.exp" >"$T/ax" 2>&1
grep -q 'linux6: pgsteal_proactive = 100$' "$T/ax" && grep -q '^experiment 7: 2 agree, 0 disagree' "$T/ax" \
	&& ok || bad "$(grep -e agree -e 'n/a' "$T/ax" | head -3)"

t "--set start.1=2s: memreclaim starts late and still hears its write"
$P run --ram 64M --swap 64M --policy linux6 --cgroup /a --set start.1=2s \
	usemem -m 16 -s 5 @/a + memreclaim /a 4M >"$T/st" 2>&1
grep -q '^memreclaim: 1 write(s) of 4096 kB to /a/memory.reclaim: [1-9][0-9]* kB reclaimed$' "$T/st" \
	&& ! grep -q '^memreclaim: 0 write' "$T/st" && ok || bad "$(grep '^memreclaim' "$T/st")"
