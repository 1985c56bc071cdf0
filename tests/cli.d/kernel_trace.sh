# The trace workload read by forked copies (issue 38): pagelab kernel
# walks its stream on one copy of the generator (src/native/prepare.c),
# runs it on another and replays it for the report on a third, and run
# --make-inputs walks it on a copy before the simulation.  Each copy reads
# the whole trace, whatever its format and compression; a pipe, which
# only one process can read, is refused.  Before the fix a copy met the
# end of a text or gzip trace after the first 64 KiB (the other copy had
# moved the shared file offset there).  The runs on the host kernel are
# tests/kernel_lib.sh's: only with make check KERNEL=1 or CI.
. "$(dirname "$0")/kernel_lib.sh"

# 30 001 references to pseudo-random pages (Park-Miller, exact in awk's
# doubles): 236 KB of text, 94 KB gzipped, 106 KB with zstd, each more
# than the 64 KiB read before the first fork.
awk 'BEGIN { x = 1; for (i = 0; i < 30001; i++) { x = (x * 16807) % 2147483647; print x % 100000, (x % 3 ? "r" : "w") } }' \
	>"$T/t.trace"
want="trace: 30001 references to $(sort -u -k1,1n "$T/t.trace" | awk 'END { print NR }') distinct pages"

t "kernel_trace: run --make-inputs replays a text/gz/zst/bin trace whole"
msg=""
forms="t.trace"
if codec zlib && have gzip; then gzip -c "$T/t.trace" >"$T/t.trace.gz" && forms="$forms t.trace.gz"; fi
if codec zstd && have zstd; then zstd -q -c "$T/t.trace" >"$T/t.trace.zst" && forms="$forms t.trace.zst"; fi
$P trace convert "$T/t.trace" "$T/t.bin" 2>/dev/null && forms="$forms t.bin"
for f in $forms; do
	$P run --make-inputs --machine ideal --ram 4M trace "$T/$f" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] || msg="$msg $f: exit $rc $(head -1 "$T/err");"
	grep -qx "$want" "$T/out" || msg="$msg $f: $(grep '^trace: [0-9]' "$T/out") not '$want';"
done
case $forms in *t.bin*) ;; *) msg="$msg no t.bin;" ;; esac
[ -z "$msg" ] && ok || bad "$msg"

t "kernel_trace: a trace from a pipe is refused, one line, exit 2"
msg=""
# A file on stdin can be read at an offset of each copy's own: not refused.
$P run --make-inputs --machine ideal --ram 4M trace - <"$T/t.trace" >"$T/out" 2>"$T/err" &&
	grep -qx "$want" "$T/out" || msg="a file on stdin: $(cat "$T/err");"
# pagelab kernel refuses the pipe before it needs root or a cgroup.
for cmd in "run --make-inputs --machine ideal --ram 4M" "kernel --memcg 256M --swap 0"; do
	# shellcheck disable=SC2086
	cat "$T/t.trace" | $P $cmd trace - >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -q 'a forked process cannot read it again from its start: give the trace as a file$' "$T/err" ||
		msg="$msg $cmd: exit $rc: $(cat "$T/err");"
done
[ -z "$msg" ] && ok || bad "$msg"

t "kernel_trace: pagelab kernel replays a text and a gzip trace whole"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	msg=""
	for f in t.trace t.trace.gz; do
		[ -e "$T/$f" ] || continue
		$P kernel --memcg 256M --swap 0 --timeout 120 trace "$T/$f" >"$T/out" 2>"$T/err" &
		pid=$!
		wait $pid
		rc=$?
		[ $rc -eq 0 ] || msg="$msg $f: exit $rc: $(kernel_err "$T/err" | head -2);"
		grep -qx "$want" "$T/out" || msg="$msg $f: $(grep '^trace: [0-9]' "$T/out") not '$want';"
		left=$(kernel_leftovers $pid)
		[ -z "$left" ] || msg="$msg $f: left: $left;"
	done
	[ -z "$msg" ] && ok || bad "$msg"
fi
