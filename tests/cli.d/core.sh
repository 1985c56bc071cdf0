# The core of the CLI tests: the issue's Must-show runs, determinism,
# --check on small machines, traces, every bad input (exit 2, one line),
# --help everywhere, the listings.

# --- The Must-show runs -------------------------------------------------
for pol in clock fifo lru; do
	t "vmm-2008 $pol usemem -m 1000: swaps, time lines, vmstat"
	$P run --machine vmm-2008 --policy $pol --vmstat 1 usemem -m 1000 >"$T/out" 2>"$T/err"
	rc=$?
	msg=""
	[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/err")"
	grep -Eq "$ZSH_RE" "$T/out" || msg="$msg; no zsh time line"
	grep -Eq "$GNU_RE" "$T/out" || msg="$msg; no GNU time line"
	grep -q '^ r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa$' "$T/out" || msg="$msg; no vmstat header"
	w=$(vmstat_near_watermarks "$T/out") || msg="$msg; $w"
	[ "$(counter pswpout "$T/out")" -gt 0 ] || msg="$msg; pswpout not > 0"
	[ "$(counter oom_kill "$T/out")" -eq 0 ] || msg="$msg; OOM kill"
	grep -q 'did not finish' "$T/out" && msg="$msg; did not finish"
	[ -z "$msg" ] && ok || bad "$msg"
done

t "vmm-2008 usemem -m 500 fits in RAM: no swapping"
$P run --machine vmm-2008 usemem -m 500 >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(counter pswpout "$T/out")" -eq 0 ] && [ "$(counter pgmajfault "$T/out")" -eq 0 ] \
	&& [ "$(counter pgfault "$T/out")" -eq 128000 ] && grep -Eq "$ZSH_RE" "$T/out" && ok || bad "$(cat "$T/out")"

t "--swap 64M usemem -m 2000: Out of memory, simulator reports"
$P run --machine vmm-2008 --swap 64M usemem -m 2000 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q 'Out of memory: Killed process [0-9]* (usemem)' "$T/out" \
	&& grep -q '^zsh: killed     usemem -m 2000$' "$T/out" && grep -Eq "$ZSH_RE" "$T/out" \
	&& [ "$(counter oom_kill "$T/out")" -eq 1 ] && grep -q '^# /proc/vmstat$' "$T/out" \
	&& [ "$(counter nr_anon_pages "$T/out")" -eq 0 ] && ok || bad "exit $rc: $(cat "$T/out" "$T/err")"

# --- Determinism --------------------------------------------------------
t "--check: a long mlock() beside another task (chunked mlock)"
out=$($P run --machine vmm-2008 --ram 24M --check usemem -m 12 -M + usemem -m 12 2>&1) && \
	! echo "$out" | grep -q '^check:' && echo "$out" | grep -q '^usemem -m 12 -M ' && ok || bad "$(echo "$out" | head -3)"

t "same command twice: byte-identical output"
$P run --machine vmm-2008 --policy clock --vmstat 1 usemem -m 1000 >"$T/a" 2>&1
$P run --machine vmm-2008 --policy clock --vmstat 1 usemem -m 1000 >"$T/b" 2>&1
cmp -s "$T/a" "$T/b" && ok || bad "outputs differ"

t "same command twice with --json: byte-identical output"
$P run --json --ram 128M --swap 256M --vmstat 0.5 --policy lru usemem -R -n 2 -m 60 + usemem -m 100 >"$T/a" 2>&1
$P run --json --ram 128M --swap 256M --vmstat 0.5 --policy lru usemem -R -n 2 -m 60 + usemem -m 100 >"$T/b" 2>&1
cmp -s "$T/a" "$T/b" && grep -q '"pswpout": [1-9]' "$T/a" && ok || bad "outputs differ or no swapping"

t "another seed changes a random run"
$P run --seed 2 --json --ram 128M --swap 256M --vmstat 0.5 --policy lru usemem -R -n 2 -m 60 + usemem -m 100 >"$T/c" 2>&1
cmp -s "$T/a" "$T/c" && bad "seed 2 gave the same output as seed 1" || ok

# --- --check on ---------------------------------------------------------
for pol in clock fifo lru; do
	t "--check $pol: swapping usemem on a 32M machine"
	$P run --machine vmm-2008 --ram 32M --swap 64M --check --vmstat 0.1 --policy $pol usemem -m 40 >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(counter pswpout "$T/out")" -gt 0 ] && grep -Eq "$ZSH_RE" "$T/out" \
		&& vmstat_near_watermarks "$T/out" >/dev/null && ok || bad "exit $rc: $(cat "$T/err")"
done

t "--check: random, repeated, read-only, mlocked usemem at once"
$P run --machine vmm-2008 --ram 12M --swap 8M --check usemem -R -r 2 -m 3 + usemem -o -m 2 + usemem -M -m 1 + usemem -n 2 -m 1 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c ' total$' "$T/out")" -eq 4 ] && [ "$(counter pswpin "$T/out")" -gt 0 ] \
	&& ok || bad "exit $rc: $(cat "$T/err")"

t "--check: OOM kill on a 32M machine with 8M of swap"
$P run --machine vmm-2008 --ram 32M --swap 8M --check usemem -m 80 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q 'Out of memory' "$T/out" && ok || bad "exit $rc: $(cat "$T/err")"

t "--check: every machine profile boots and runs"
msg=""
for mach in p133-1997 athlon-2001 osdl4way-2001 vmm-2008 pe1950-2008 modern; do
	$P run --machine $mach --ram 48M --swap 32M --check usemem -m 40 >"$T/out" 2>"$T/err" || msg="$msg $mach: $(cat "$T/err")"
done
[ -z "$msg" ] && ok || bad "$msg"

# --- Traces -------------------------------------------------------------
printf '%s\n' '# Belady 1969' 1 2 3 4 1 2 5 1 2 3 4 5 | sed 's/^\([0-9]\)/\1 r/' >"$T/belady.trace"
t "trace: Belady's anomaly through the CLI (fifo 9 vs 10, opt 7)"
f3=$($P run --machine ideal --ram 3p --check --policy fifo trace "$T/belady.trace" | awk '$1 == "pgfault" { print $2 }')
f4=$($P run --machine ideal --ram 4p --check --policy fifo trace "$T/belady.trace" | awk '$1 == "pgfault" { print $2 }')
o3=$($P run --machine ideal --ram 3p --check --policy opt trace "$T/belady.trace" | awk '$1 == "pgfault" { print $2 }')
[ "$f3" = 9 ] && [ "$f4" = 10 ] && [ "$o3" = 7 ] && ok || bad "fifo $f3/$f4 opt $o3"

t "trace on a timed machine: major faults and swap-ins"
awk 'BEGIN { for (r = 0; r < 3; r++) for (i = 0; i < 3000; i++) print i, (i % 3 ? "r" : "w") }' >"$T/loop.trace"
$P run --machine vmm-2008 --ram 20M --swap 32M --check trace "$T/loop.trace" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ "$(counter pgmajfault "$T/out")" -gt 0 ] && grep -q '^trace: 9000 references to 3000 distinct pages$' "$T/out" \
	&& ok || bad "exit $rc: $(cat "$T/err")"

# --- Bad input: exit 2, nothing on stdout, one line on stderr -----------
printf '1 r\n2 w\nthree r\n' >"$T/bad.trace"
: >"$T/empty.trace"
t "bad input: exit 2 with a one-line message"
msg=""
while IFS= read -r args; do
	# shellcheck disable=SC2086
	eval "set -- $args"
	$P "$@" >"$T/out" 2>"$T/err"
	rc=$?
	nl=$(wc -l <"$T/err")
	if [ $rc -ne 2 ] || [ -s "$T/out" ] || [ "$nl" -ne 1 ] || ! grep -q '^pagelab: ' "$T/err"; then
		msg="$msg
  pagelab $args: exit $rc, $nl line(s): $(head -c 300 "$T/err")"
	fi
done <<EOF2
run --policy nosuch usemem -m 1
run nosuch
run --bogus usemem -m 1
run -x usemem -m 1
run --machine nosuch usemem -m 1
run --ram 0 usemem -m 1
run --ram 0p usemem -m 1
run --ram 99999999T usemem -m 1
run --ram 16777216T usemem -m 1
run --ram 12Q usemem -m 1
run --ram 1.5G usemem -m 1
run --ram -1 usemem -m 1
run --ram '' usemem -m 1
run --ram 1KiB usemem -m 1
run --swap abc usemem -m 1
run --ram
run --ram 8M usemem -m 1
run --machine p133-1997 --ram 1M usemem -m 1
run --ram 15T usemem -m 1
run --swap 17T usemem -m 1
run --policy opt usemem -m 1
run --policy opt trace $T/belady.trace + usemem -m 1
run --cpus 0 usemem -m 1
run --cpus x usemem -m 1
run --disk nosuch usemem -m 1
run --set nosuch=1 usemem -m 1
run --set ram=abc usemem -m 1
run --set disk.kind=tape usemem -m 1
run --set cpus=0 usemem -m 1
run --set noequals usemem -m 1
run --seed -1 usemem -m 1
run --vmstat 0 usemem -m 1
run --vmstat x usemem -m 1
run --max-time 0 usemem -m 1
run
run --check
run usemem
run usemem -m 0
run usemem -m abc
run usemem -m
run usemem 0
run usemem -t 2 -m 1
run usemem -f /tmp/x -m 1
run usemem -n 0 -m 1
run usemem -j 4 -m 1
run usemem -s nan -m 1
run usemem -m 1 +
run usemem -m 1 + + usemem -m 1
run usemem -m 1 + nosuch
run trace
run trace /nonexistent/pagelab.trace
run trace $T/bad.trace
run trace $T/empty.trace
run trace $T/belady.trace extra
nosuchcommand
policies --tunables nosuch
policies --tunables
policies extra
workloads nosuch
workloads usemem extra
machines --show nosuch
machines extra
EOF2
[ -z "$msg" ] && ok || bad "$msg"

t "bad trace: the message names file and line"
$P run trace "$T/bad.trace" 2>&1 | grep -q "bad.trace:3: bad page number" && ok || bad "$($P run trace "$T/bad.trace" 2>&1)"

t "opt without a trace: says why"
$P run --policy opt usemem -m 1 2>&1 | grep -q 'needs the whole reference string' && ok || bad "no reason given"

t "host memory: says so"
$P run --ram 15T usemem -m 1 2>&1 | grep -q 'host memory' && ok || bad "$($P run --ram 15T usemem -m 1 2>&1)"

t "no arguments: usage on stderr, exit 2"
$P >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q '^usage: pagelab' "$T/err" && ok || bad "exit $rc"

# --- --help everywhere --------------------------------------------------
t "--help on every command exits 0 with usage on stdout"
msg=""
while IFS= read -r args; do
	# shellcheck disable=SC2086
	$P $args >"$T/out" 2>"$T/err"
	rc=$?
	{ [ $rc -eq 0 ] && grep -qi 'usage' "$T/out" && [ ! -s "$T/err" ]; } || msg="$msg [pagelab $args: exit $rc]"
done <<EOF2
--help
-h
help
run --help
run -h
run --machine modern --help
policies --help
workloads --help
machines --help
workloads usemem --help
workloads usemem
workloads trace --help
run usemem --help
run trace --help
run usemem -m 1 + usemem --help
EOF2
[ -z "$msg" ] && ok || bad "$msg"

# --- Listings -----------------------------------------------------------
t "policies: fifo, clock, lru and opt, each with a summary"
$P policies >"$T/out" 2>&1
msg=""
for pol in fifo clock lru opt; do
	awk -v p=$pol '$1 == p && NF >= 4 { f = 1 } END { exit !f }' "$T/out" || msg="$msg $pol"
done
[ -z "$msg" ] && ok || bad "missing or without summary:$msg"

t "policies --tunables: a policy without tunables says so"
[ "$($P policies --tunables fifo)" = "fifo has no tunables" ] && ok || bad "$($P policies --tunables fifo)"

t "workloads: usemem and trace; machines: the four of the issue"
$P workloads >"$T/w" && $P machines >"$T/m"
msg=""
for w in usemem trace; do grep -q "^$w " "$T/w" || msg="$msg $w"; done
for mach in p133-1997 vmm-2008 pe1950-2008 modern ideal; do grep -q "^$mach " "$T/m" || msg="$msg $mach"; done
[ -z "$msg" ] && ok || bad "missing:$msg"

# --names: the registries for scripts, whatever the listing's text wraps
# or starts with (2q was missed by a /^[a-z]/ pattern: issue 36).
t "policies, workloads, machines --names: each name a line, known"
msg=""
np=$($P policies | awk 'NR > 1 && /^[^ ]/' | wc -l)
[ "$($P policies --names 2>/dev/null | wc -l)" -eq "$np" ] || msg="$msg not $np policies;"
$P policies --names 2>/dev/null | grep -qx 2q || msg="$msg no 2q;"
for n in $($P policies --names 2>/dev/null); do $P policies --tunables "$n" >/dev/null 2>&1 || msg="$msg policy $n;"; done
for n in $($P workloads --names 2>/dev/null); do $P workloads "$n" --help >/dev/null 2>&1 || msg="$msg workload $n;"; done
for n in $($P machines --names 2>/dev/null); do $P machines --show "$n" >/dev/null 2>&1 || msg="$msg machine $n;"; done
[ "$($P workloads --names 2>/dev/null | wc -l)" -eq "$($P workloads | awk 'NR > 1 && /^[^ ]/' | wc -l)" ] || msg="$msg workloads count;"
[ "$($P machines --names 2>/dev/null | wc -l)" -eq "$($P machines | awk 'NR > 1 && NF > 1 && !/^disk/' | wc -l)" ] || msg="$msg machines count;"
[ -z "$msg" ] && ok || bad "$msg"

t "machines --show vmm-2008: 2 CPUs, 900M RAM"
$P machines --show vmm-2008 >"$T/out"
grep -Eq '^cpus +2 ' "$T/out" && grep -Eq '^ram +900M ' "$T/out" && ok || bad "$(cat "$T/out")"

# An unset rate is 0 (disk.write_bandwidth 0: the read rate), not "0M".
t "machines --show: an unset disk.write_bandwidth is 0"
$P machines --show modern >"$T/out"
grep -Eq '^disk\.write_bandwidth +0 +#' "$T/out" && grep -Eq '^disk\.bandwidth +2500M ' "$T/out" && ok ||
	bad "$(grep bandwidth "$T/out")"

t "--set and --ram/--cpus/--disk override the profile"
$P run --machine vmm-2008 --ram 256M --cpus 4 --disk nvme --set swap=1G --set disk.bandwidth=1G usemem -m 8 >"$T/out" 2>&1
grep -q '^pagelab: machine vmm-2008: 4 CPUs, 256 MiB RAM .* 1024 MiB swap, disk nvme;' "$T/out" && ok || bad "$(head -2 "$T/out")"

