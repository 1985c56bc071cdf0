# hostile.sh - hostile input and first-hour items (issues 35 and 36): each
# bad input is one line on stderr and exit 2, never a host running out of
# memory or a silently wrong figure.
command -v skip >/dev/null 2>&1 || skip() { echo "ok (skipped: $1)"; }

# $1 = expected exit status, $2 = the exact stderr line (a grep -x
# pattern), the command after: nothing on stdout.
refused() {
	want_rc=$1 want_err=$2
	shift 2
	"$@" >"$T/h_out" 2>"$T/h_err"
	h_rc=$?
	if [ $h_rc -eq "$want_rc" ] && [ ! -s "$T/h_out" ] && [ "$(wc -l <"$T/h_err")" -eq 1 ] &&
		grep -qx -- "$want_err" "$T/h_err"; then
		ok
	else
		bad "rc $h_rc, stderr: $(head -c 300 "$T/h_err")"
	fi
}

# Without the sanitizers a limit on the address space turns a regression
# (the host's memory growing with one row) into a failure, not an outage.
hlimit() {
	if [ -n "${PAGELAB_SANITIZED:-}" ]; then
		"$@"
	else
		(ulimit -v 1000000; "$@")
	fi
}

# 1. One record's pages are bounded (--max-request).
printf '1,web,0,Read,0,18446744073709551615,1\n' >"$T/huge.block"
t "hostile: a block row of 2^64-1 bytes is refused"
refused 2 "pagelab: $T/huge.block:1: request of 4503599627370496 pages is larger than 262144 (--max-request)" \
	hlimit $P trace info "$T/huge.block"
printf '==1== x\n L 1000,99999999999\n' >"$T/huge.lackey"
t "hostile: a lackey access of 10^11 bytes is refused (mrc)"
refused 2 "pagelab: $T/huge.lackey:2: request of 24414063 pages is larger than 262144 (--max-request)" \
	hlimit $P mrc "$T/huge.lackey"
t "hostile: the trace workload takes --max-request"
printf '0,h,0,Read,0,65536,1\n' >"$T/req16.block"
refused 2 "pagelab: $T/req16.block:1: request of 16 pages is larger than 15 (--max-request)" \
	$P run --machine ideal --ram 16p trace --max-request 15p "$T/req16.block"
t "hostile: --max-request raises the bound (300000 pages)"
printf '0,h,0,Read,0,1228800000,1\n' >"$T/big.block"
$P trace info --max-request 2G "$T/big.block" >"$T/h_out" 2>"$T/h_err" &&
	grep -qx 'references  300000' "$T/h_out" && ok || bad "$(cat "$T/h_err")"
t "hostile: a bad --max-request is one line, exit 2"
refused 2 "pagelab: trace: bad --max-request '0' (a size of at least 1p: 4096p, 16M)" \
	$P trace convert --max-request 0 "$T/big.block" "$T/big.pgtrace"

# 2. aa24's DEF_PRIORITY: 2.4's shrink_cache() shifts by 10 - priority.
t "hostile: aa24 DEF_PRIORITY=11 is refused"
refused 2 "pagelab: bad value '11' for DEF_PRIORITY (a whole number 1..10)" \
	$P run --ram 32M --swap 64M --policy aa24 --set DEF_PRIORITY=11 usemem -m 8
t "hostile: aa24 DEF_PRIORITY=10 runs under --check"
$P run --ram 32M --swap 64M --policy aa24 --set DEF_PRIORITY=10 --check usemem -m 40 >"$T/h_out" 2>"$T/h_err" &&
	grep -q '^pswpout' "$T/h_out" && ok || bad "rc $?: $(head -c 300 "$T/h_err")"

# 3. A cut binary trace: exit 2 with everything freed first (a sanitizer
# build's leak check used to find count_dense()'s buffer and exit 1;
# valgrind, when it is there, counts what is still in use at the exit).
printf '1 r\n2 w\n3 r\n1 r\n' >"$T/four.trace"
$P trace convert "$T/four.trace" "$T/four.pgtrace" 2>/dev/null
head -c 84 "$T/four.pgtrace" >"$T/cut.pgtrace"
t "hostile: trace info of a cut binary trace: exit 2"
refused 2 "pagelab: $T/cut.pgtrace:3: truncated record" $P trace info "$T/cut.pgtrace"
for f in cut.pgtrace four.trace; do
	t "hostile: trace info of $f frees everything (valgrind)"
	if [ -n "${PAGELAB_SANITIZED:-}" ] || ! command -v valgrind >/dev/null 2>&1; then
		skip "no valgrind, or a sanitizer build (whose leak check the exit status shows)"
		continue
	fi
	valgrind $P trace info "$T/$f" >/dev/null 2>"$T/h_err"
	h_rc=$?
	if [ $f = four.trace ]; then want=0; else want=2; fi
	[ $h_rc -eq $want ] && grep -q 'in use at exit: 0 bytes in 0 blocks' "$T/h_err" && ok ||
		bad "rc $h_rc: $(grep 'in use at exit' "$T/h_err")"
done

# 7. An empty trace is bad input for all four commands alike.
printf '# nothing\n' >"$T/empty.trace"
for cmd in "trace info" "trace convert" mrc run; do
	t "hostile: $cmd refuses an empty trace"
	case $cmd in
	"trace convert") set -- trace convert "$T/empty.trace" "$T/empty.pgtrace" ;;
	run) set -- run --machine ideal --ram 4p trace "$T/empty.trace" ;;
	*) set -- $cmd "$T/empty.trace" ;;
	esac
	refused 2 "pagelab: trace '$T/empty.trace' holds no references" $P "$@"
done
t "hostile: trace convert of an empty trace writes no file"
[ ! -e "$T/empty.pgtrace" ] && ok || bad "$T/empty.pgtrace exists"

# 5. run --html with a small --vmstat: a timeline holds at most 600
# points, taken one in N as the samples are read back.
t "hostile: run --html --vmstat 0.001 draws one sample in 2"
$P run --ram 32M --swap 64M --vmstat 0.001 --html "$T/v.html" usemem -m 60 >"$T/h_out" 2>"$T/h_err"
h_rc=$?
n=$(sed -n 's/.*vmstat every 0.001 s of simulated time, \([0-9]*\) samples.*/\1/p' "$T/v.html")
n=${n:-0}
pts=$(grep -o 'class="series[^"]*" fill="none"[^>]*points="[^"]*"' "$T/v.html" |
	awk -F'points="' '{ k = split($2, a, " "); if (k > m) m = k } END { print m + 0 }')
if [ $h_rc -eq 0 ] && [ "$n" -gt 600 ] &&
	grep -q "vmstat every 0.001 s of simulated time, $n samples, one in 2 drawn ($(((n + 1) / 2)) points a line)" "$T/v.html" &&
	[ "$pts" -eq $(((n + 1) / 2)) ] && [ "$(grep -c '<svg' "$T/v.html")" -ge 5 ] && grep -q '>usemem -m 60<' "$T/v.html"; then
	ok
else
	bad "rc $h_rc, $n samples, longest line $pts points: $(grep -o 'vmstat every[^<]*' "$T/v.html")"
fi

# 6. An experiment file's workload lines and machine settings go through
# the parsers their runs will use when the file is read.
for case in '7|  wl ""|empty workload line' \
	"7|  wl \"usemem -m 30 -Q\"|workload 'usemem -m 30 -Q': usemem: option '-Q' is not modeled (see pagelab workloads usemem --help)" \
	"7|  wl \"nosuch -x\"|no workload named 'nosuch' (see pagelab workloads)" \
	"8|  wl \"usemem -m 3\"\\n  delayed 0 \"qsbench -m {M:99999}\"|workload 'qsbench -m {M:99999}': qsbench: bad value '99999' for -m" \
	"8|  wl \"usemem -m 3\"\\n  machine-set \"ram={M:99999999999999999999}\"|machine-set 'ram={M:99999999999999999999}': bad value '100000000000000000000' for ram"; do
	line=${case%%|*} rest=${case#*|}
	body=${rest%%|*} msg=${rest#*|}
	printf 'experiment 9 t\ntitle "t"\nmachine vmm-2008\nquick-scale 0.5\ndesign clock clock thread\nrun a "a"\n%b\n' "$body" >"$T/bad.exp"
	t "hostile: experiment file refused: $(printf '%b' "$body" | tail -1 | cut -c3-31)"
	refused 2 "pagelab: $T/bad.exp:$line: $msg" $P reproduce "$T/bad.exp"
done

# 8. compare of a trace sweep: the misses by default, and one warning
# that its seeds changed nothing.
awk 'BEGIN { for (i = 0; i < 600; i++) printf "%d r\n", (i * 7919) % 97 }' >"$T/cmp.trace"
$P sweep --machine ideal --policy lru,fifo --ram 32p,64p --seeds 2 -o "$T/cmp.jsonl" -- trace "$T/cmp.trace" 2>/dev/null
t "hostile: compare of a trace sweep shows misses, warns once"
$P compare "$T/cmp.jsonl" >"$T/h_out" 2>"$T/h_err"
h_rc=$?
rows=$(grep -E '^(Amean|Stddev) ' "$T/h_out" | awk '{ print $1 "_" $2 }' | sort -u | tr '\n' ' ')
if [ $h_rc -eq 0 ] && [ "$rows" = "Amean_pgfault Amean_pgmajfault Stddev_pgfault Stddev_pgmajfault " ] &&
	[ "$(wc -l <"$T/h_err")" -eq 1 ] &&
	grep -qx "pagelab: compare: every seed of '--machine ideal --ram 32p trace $T/cmp.trace' gave the same figures (nothing in it is random, as in a trace replay): one seed is enough, and no difference can be significant" "$T/h_err"; then
	ok
else
	bad "rc $h_rc, rows '$rows', stderr: $(cat "$T/h_err")"
fi
t "hostile: compare --metric still picks the figures of a trace sweep"
$P compare --metric elapsed_s "$T/cmp.jsonl" >"$T/h_out" 2>/dev/null &&
	[ "$(grep -c '^Amean elapsed_s ' "$T/h_out")" -eq 2 ] && ! grep -q pgfault "$T/h_out" && ok || bad "$(head -5 "$T/h_out")"

# 9. Cache sizes as a share of a trace's distinct pages: 97 pages here,
# so 10% is 10 pages (9.7 rounded) in run, sweep and mrc alike.
t "hostile: run --ram 10% is --ram 10p on a trace of 97 pages"
$P run --machine ideal --ram 10% --policy lru trace "$T/cmp.trace" >"$T/share.out" 2>"$T/h_err" &&
	$P run --machine ideal --ram 10p --policy lru trace "$T/cmp.trace" >"$T/pages.out" 2>>"$T/h_err" &&
	grep -q '(10 pages for the page allocator)' "$T/share.out" && cmp -s "$T/share.out" "$T/pages.out" && ok ||
	bad "$(head -3 "$T/share.out") $(cat "$T/h_err")"
t "hostile: run --ram 10% on the full machine path too (--json)"
a=$($P run --machine ideal --ram 10% --json trace "$T/cmp.trace" 2>/dev/null | grep -o '"pgfault": [0-9]*')
b=$($P run --machine ideal --ram 10p --json trace "$T/cmp.trace" 2>/dev/null | grep -o '"pgfault": [0-9]*')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "'$a' vs '$b'"
t "hostile: mrc --sizes 10%,1%:4%:x2 = 10p,1p,2p,4p"
$P mrc --csv --sizes 10%,1%:4%:x2 "$T/cmp.trace" >"$T/share.csv" 2>"$T/h_err" &&
	$P mrc --csv --sizes 10p,1p,2p,4p "$T/cmp.trace" >"$T/pages.csv" 2>>"$T/h_err" &&
	cmp -s "$T/share.csv" "$T/pages.csv" && [ "$(wc -l <"$T/share.csv")" -eq 5 ] && ok ||
	bad "$(cat "$T/share.csv" "$T/h_err")"
t "hostile: sweep --ram 10%,50%: configs by share, cells as run"
$P sweep --machine ideal --policy lru --ram 10%,50% -o "$T/share.jsonl" -- trace "$T/cmp.trace" 2>"$T/h_err"
h_rc=$?
c1=$(grep -c "\"cmd\": \"pagelab run --machine ideal --ram 10% --policy lru --seed 1 trace $T/cmp.trace\"" "$T/share.jsonl")
c2=$(grep -c '"config": "--machine ideal --ram 50% trace' "$T/share.jsonl")
f=$(grep -- '--ram 10%' "$T/share.jsonl" | grep -o '"pgfault": [0-9]*')
b=$($P run --machine ideal --ram 10p --policy lru --json trace "$T/cmp.trace" 2>/dev/null | grep -o '"pgfault": [0-9]*')
[ $h_rc -eq 0 ] && [ "$c1" -eq 1 ] && [ "$c2" -eq 1 ] && [ -n "$f" ] && [ "$f" = "$b" ] && ok ||
	bad "rc $h_rc, $c1 $c2, '$f' vs '$b': $(cat "$T/h_err")"
t "hostile: --ram 10% without a trace replay: one line, exit 2"
refused 2 "pagelab: --ram 10%: a share of a trace's distinct pages applies to one trace replay alone (... trace FILE); give a size (64M, 4096p)" \
	$P run --ram 10% usemem -m 1
t "hostile: sweep --ram 10% without a trace replay: one line, exit 2"
refused 2 "pagelab: sweep: --ram 10%: a share of a trace's distinct pages applies to one trace replay alone (... trace FILE); give a size (64M, 4096p)" \
	$P sweep --ram 10% -- usemem -m 1
t "hostile: --ram 10% of a trace on stdin: one line, exit 2"
refused 2 "pagelab: --ram 10%: a share of a trace's distinct pages needs a trace file: standard input cannot be read twice" \
	$P run --machine ideal --ram 10% trace - <"$T/cmp.trace"
t "hostile: --ram 0%: one line, exit 2"
refused 2 "pagelab: bad size '0%' for --ram (a share of a trace's pages is N%, 0 < N <= 100)" \
	$P run --machine ideal --ram 0% trace "$T/cmp.trace"
t "hostile: mrc --sizes 101%: one line, exit 2"
refused 2 "pagelab: mrc: --sizes: bad size '101%' (a share of a trace's pages is N%, 0 < N <= 100)" \
	$P mrc --sizes 101% "$T/cmp.trace"
