# Trace readers, conversion and replay (issue 12; the long-line case of
# issue 9).  Sourced by tests/cli.sh: uses P, T, t, ok, bad, counter.
# Cost: about 2 s (four replays of the 113872-request samples, one convert).

D="$(dirname "$0")/data"

t "trace: 4 libCacheSim samples, detected: one fault count"
if needs codec:zstd; then
	msg=""
	faults=""
	for f in cloudPhysicsIO.csv cloudPhysicsIO.txt cloudPhysicsIO.oracleGeneral.bin cloudPhysicsIO.vscsi; do
		$P run --machine ideal --ram 4897p --policy lru trace "$D/$f.zst" >"$T/out" 2>"$T/err" ||
			msg="$msg $f: exit $? $(head -1 "$T/err");"
		grep -q '^trace: 113872 references to 48974 distinct pages$' "$T/out" || msg="$msg $f: counts;"
		faults="$faults $(counter pgfault "$T/out")"
	done
	set -- $faults
	[ -z "$msg" ] && [ $# -eq 4 ] && [ "$1" -gt 48974 ] && [ "$1" = "$2" ] && [ "$1" = "$3" ] && [ "$1" = "$4" ] &&
		ok || bad "$msg faults:$faults"
fi

t "trace: convert, info; the binary replays the same"
if needs codec:zstd; then
	$P trace convert "$D/cloudPhysicsIO.txt.zst" "$T/cp.pgtrace" 2>"$T/err" &&
		$P trace info "$T/cp.pgtrace" >"$T/info" &&
		$P run --machine ideal --ram 4897p --policy lru trace "$T/cp.pgtrace" >"$T/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q '^format      bin$' "$T/info" && grep -q '^references  113872$' "$T/info" &&
		grep -q '^distinct    48974 pages$' "$T/info" && [ "$(counter pgfault "$T/out")" = "$1" ] &&
		[ "$(wc -c <"$T/cp.pgtrace")" -eq $((64 + 8 * 113872)) ] && ok || bad "rc $rc $(cat "$T/err")"
fi

t "trace info: a binary trace counts what its text counts"
# info reads a binary trace by its dense ids (trace_next_dense), a text one
# through the reader and page map: the same references, pages and writes.
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%d %s\n", (i * 7919) % 1237, i % 3 ? "r" : "w" }' >"$T/rw.trace"
$P trace convert "$T/rw.trace" "$T/rw.pgtrace" 2>"$T/err" &&
	$P trace info "$T/rw.trace" >"$T/info_t" 2>>"$T/err" &&
	$P trace info "$T/rw.pgtrace" >"$T/info_b" 2>>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ "$(sed -n 2,4p "$T/info_t")" = "$(sed -n 2,4p "$T/info_b")" ] &&
	grep -q '^references  5000$' "$T/info_b" && grep -q '^distinct    1237 pages$' "$T/info_b" &&
	grep -q '^writes      1667$' "$T/info_b" && ok || bad "rc $rc $(cat "$T/err" "$T/info_b")"

t "trace: stdin and gzip input"
if needs zstd gzip codec:zstd codec:zlib; then
	zstd -dc "$D/cloudPhysicsIO.txt.zst" | gzip -1 >"$T/cp.gz"
	gzip -dc "$T/cp.gz" | $P run --machine ideal --ram 4897p --policy lru trace --format txt - >"$T/out" 2>&1 &&
		[ "$(counter pgfault "$T/out")" = "$1" ] &&
		$P run --machine ideal --ram 4897p --policy lru trace --format txt "$T/cp.gz" >"$T/out" 2>&1 &&
		[ "$(counter pgfault "$T/out")" = "$1" ] && ok || bad "$(tail -3 "$T/out")"
fi

# Issue 9: a 5-reference trace whose 2.2 GB comment line could not be
# allocated replayed as 2 references, exit 0.  A line longer than the
# reader's 1 MiB limit is now an error naming it; one under it is read.
t "trace: too long a line is an error; a long comment is read"
{ printf '1 r\n2 w\n#'; head -c 2000000 /dev/zero | tr '\0' x; printf '\n3 r\n4 w\n5 r\n'; } >"$T/long.trace"
{ printf '1 r\n2 w\n#'; head -c 1000000 /dev/zero | tr '\0' x; printf '\n3 r\n4 w\n5 r\n'; } >"$T/ok.trace"
$P run --machine ideal --ram 8p trace "$T/long.trace" >"$T/out" 2>"$T/err"
rc=$?
$P run --machine ideal --ram 8p trace "$T/ok.trace" >"$T/out2" 2>&1
rc2=$?
[ $rc -eq 2 ] && [ "$(cat "$T/err")" = "pagelab: $T/long.trace:3: line longer than 1048576 bytes" ] &&
	[ $rc2 -eq 0 ] && grep -q '^trace: 5 references to 5 distinct pages$' "$T/out2" &&
	ok || bad "rc $rc $(cat "$T/err"); rc2 $rc2"

# Issue 12 item 6: lackey under valgrind through a pipe, written as it
# goes; then replayed.  About 1-2 s (valgrind starting /bin/true).
t "record: /bin/true under lackey, written with its pid, replays"
if needs valgrind; then
	$P record -o "$T/true.trace" -- /bin/true 2>"$T/err"
	rc=$?
	$P run --machine ideal --ram 64p --check trace "$T/true.trace" >"$T/out" 2>&1
	rc2=$?
	n=$(awk '/^trace: [0-9]+ references/ { print $2 }' "$T/out")
	pid=$(sed -n 's/^pagelab: recorded [0-9]* references of pid \([0-9]*\) to .*/\1/p' "$T/err")
	[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ "${n:-0}" -gt 10000 ] && [ -n "$pid" ] &&
		[ "$(grep -c " pid=$pid\$" "$T/true.trace")" -eq "$n" ] &&
		grep -q '^0x[0-9a-f]* w pid=' "$T/true.trace" && ok || bad "rc $rc/$rc2 n=$n pid=$pid $(cat "$T/err")"
fi

t "record: no valgrind, no program: exit 2 with a reason"
PATH=/nonexistent $P record -- /bin/true >/dev/null 2>"$T/err"
rc=$?
$P record 2>"$T/err2"
rc2=$?
[ $rc -eq 2 ] && grep -q "cannot run valgrind" "$T/err" && [ $rc2 -eq 2 ] && grep -q "no program to run" "$T/err2" &&
	ok || bad "rc $rc $(cat "$T/err"); rc2 $rc2"

t "trace: a bad record in any format is FILE:RECORD, exit 2"
msg=""
printf '1 r\n2 r pid=0\n' >"$T/b.trace"
printf '==1== x\n L 10,4\n L zz,4\n' >"$T/b.lackey"
printf 'time,lbn,op\n1,2,r\n2,3,delete\n' >"$T/b.csv"
printf '1\n2\n99999999999999999999\n' >"$T/b.txt"
head -c 53 /dev/zero >"$T/b.oracleGeneral"
printf '1,hm,1,Read,0,4096,1\n2,hm,1,Read,zz,4096,1\n' >"$T/b.block"
for c in "b.trace:2: bad pid (1 to 4294967295)" "b.lackey:3: bad address" \
	"b.csv:3: unknown op 'delete'" "b.txt:3: object id overflows 64 bits" \
	"b.oracleGeneral:3: truncated record (5 of 24 bytes)" "b.block:2: bad offset 'zz'"; do
	f=${c%%:*}
	$P run --machine ideal --ram 8p trace "$T/$f" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF "pagelab: $T/$c" "$T/err" || msg="$msg $f: rc $rc $(cat "$T/err");"
done
$P run --machine ideal --ram 8p trace --format nope "$T/b.txt" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "unknown format 'nope'" "$T/err" || msg="$msg --format: rc $rc;"
$P trace convert "$T/b.txt" - 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "OUT must be a file" "$T/err" || msg="$msg convert -: rc $rc;"
[ -z "$msg" ] && ok || bad "$msg"

t "trace: --help of trace, record and the trace workload"
$P trace --help | grep -q '^usage: pagelab trace convert' && $P record --help | grep -q '^usage: pagelab record' &&
	$P run trace --help | grep -q '^usage: trace \[--format F\]' && ok || bad "no usage"
