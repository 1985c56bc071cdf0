# Trace readers, conversion and replay (issue 12; the long-line case of
# issue 9).  Sourced by tests/cli.sh: uses P, T, t, ok, bad, counter.
# Cost: about 2 s (four replays of the 113872-request samples, one convert).

D="$(dirname "$0")/data"

t "trace: 4 libCacheSim samples, detected: one fault count"
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

t "trace: convert, info; the binary replays the same"
$P trace convert "$D/cloudPhysicsIO.txt.zst" "$T/cp.pgtrace" 2>"$T/err" &&
	$P trace info "$T/cp.pgtrace" >"$T/info" &&
	$P run --machine ideal --ram 4897p --policy lru trace "$T/cp.pgtrace" >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^format      bin$' "$T/info" && grep -q '^references  113872$' "$T/info" &&
	grep -q '^distinct    48974 pages$' "$T/info" && [ "$(counter pgfault "$T/out")" = "$1" ] &&
	[ "$(wc -c <"$T/cp.pgtrace")" -eq $((64 + 8 * 113872)) ] && ok || bad "rc $rc $(cat "$T/err")"

t "trace: stdin and gzip input"
zstd -dc "$D/cloudPhysicsIO.txt.zst" | gzip -1 >"$T/cp.gz"
gzip -dc "$T/cp.gz" | $P run --machine ideal --ram 4897p --policy lru trace --format txt - >"$T/out" 2>&1 &&
	[ "$(counter pgfault "$T/out")" = "$1" ] &&
	$P run --machine ideal --ram 4897p --policy lru trace --format txt "$T/cp.gz" >"$T/out" 2>&1 &&
	[ "$(counter pgfault "$T/out")" = "$1" ] && ok || bad "$(tail -3 "$T/out")"

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
