# outputs.sh - the files commands write (issue 36): every one goes through
# src/lib/output.c, so for every command that writes a file, a FIFO, a
# device or a symbolic link named as its output keeps its type (a FIFO or
# device written in place, or refused where a regular file is needed; a
# link's target replaced, never the link), a link to nothing is refused,
# and no temporary file is left after a write error (ulimit -f) or a
# signal.  Checks at the end fail when a write to a file appears in src/
# outside output.c and the allow-list below, or a new caller of output.c
# that no command here covers.  Also: results files read
# with a bound (a line that never ends), duplicate records in compare,
# one line for a stdout write error, reproduce --html interrupted.
# Sourced by tests/cli.sh: uses P, T, t, ok, bad, skip.  Cost: about 40 s
# (11 s of CPU: the rest waits for signals to land).

command -v skip >/dev/null 2>&1 || skip() { echo "skipped: $1"; }
O="$T/outputs"
mkdir -p "$O"
SRC="$(dirname "$0")/../src"
[ -d "$SRC/lib" ] || SRC=src

# Inputs: a results file of two cells, a trace of 2000 references.
$P sweep --policy lru,fifo --ram 16M -o "$O/res" -- usemem -m 4 >/dev/null 2>&1
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "%#x %s\n", i % 300, i % 3 ? "r" : "w" }' >"$O/trace"

# Every command that writes a file, as NAME:KIND (KIND "regular" where the
# output must be a regular file: a binary trace is rewritten at its end, a
# results file is read back when a sweep resumes), and out_NAME OUT runs
# it writing OUT.  Not here: compare -- WORKLOAD --html (the host kernel's
# runs, root and cgroups: tests/cli.d/kernel.sh), which uses atomic_open
# like compare --html.
OUT_CMDS="run:any reproduce:any sweep-html:any sweep-o:regular merge:any compare-html:any mrc-html:any
	mrc-svg:any trace-convert:regular record:any calibrate:any ablate-html:any ablate-o:regular"
out_run() { $P run --ram 16M --html "$1" usemem -m 4; }
out_reproduce() { $P reproduce --only 3 --jobs 1 --html "$1"; }
out_sweep_html() { $P sweep --policy lru --ram 16M --html "$1" -- usemem -m 4; }
out_sweep_o() { $P sweep --policy lru --ram 16M -o "$1" -- usemem -m 4; }
out_merge() { $P merge "$1" "$O/res"; }
out_compare_html() { $P compare --html "$1" "$O/res"; }
out_mrc_html() { $P mrc --html "$1" "$O/trace"; }
out_mrc_svg() { $P mrc --svg "$1" "$O/trace"; }
out_ablate_html() { $P ablate --policy clock --seeds 2 --ram 16M --html "$1" -- usemem -m 4; }
out_ablate_o() { $P ablate --policy clock --seeds 2 --ram 16M -o "$1" -- usemem -m 4; }
out_trace_convert() { $P trace convert "$O/trace" "$1"; }
out_record() { $P record -o "$1" -- /bin/true; }
out_calibrate() { $P kernel --calibrate-user "$1"; }
have_valgrind=false
command -v valgrind >/dev/null 2>&1 && have_valgrind=true

# Temporary files left in $O (FILE.tmp.PID[.N]).
out_temps() { for x in "$O"/*.tmp.*; do [ -e "$x" ] && printf '%s ' "${x##*/}"; done; }

# Run out_$1 with $2 as OUT, a FIFO: fd 9 holds it open for reading and
# writing, so that opening it to write never blocks, and a cat drains it.
out_to_fifo() {
	rm -f "$2"
	mkfifo "$2"
	exec 9<>"$2"
	cat <&9 >/dev/null &
	drain=$!
	out_$1 "$2" >/dev/null 2>"$O/err"
	rc=$?
	# SIGKILL: a TERM that reaches the forked shell before it execs cat
	# is taken by the area's trap and deferred, and cat then lives on
	# (a make check once waited 14 minutes here).
	kill -KILL $drain 2>/dev/null
	wait $drain 2>/dev/null
	exec 9<&-
	return $rc
}

# The device: a node of our own in $O (the null device, mknod as root),
# never the host's /dev/full: a command that renamed over it would
# replace the host's device (issue 36).  sweep -o /dev/zero and /dev/full
# below are refused before anything is opened.
can_mknod=false
mknod "$O/probe" c 1 3 2>/dev/null && can_mknod=true && rm -f "$O/probe"

for oc in $OUT_CMDS; do
	name=${oc%%:*} kind=${oc#*:}
	fn=$(echo "$name" | tr - _)
	if [ "$name" = record ] && ! $have_valgrind; then
		t "outputs: $name"; skip "no valgrind"
		continue
	fi
	# want RC: the exit status for a device or FIFO (0 written in place,
	# 2 refused).
	want=0
	[ "$kind" = regular ] && want=2
	rm -f "$O"/*.tmp.* # a check fails for its own temporary files only
	t "outputs: $name: FIFO OUT stays a FIFO (exit $want)"
	out_to_fifo $fn "$O/fifo"
	rc=$?
	[ $rc -eq $want ] && [ -p "$O/fifo" ] && [ -z "$(out_temps)" ] \
		&& { [ $want -eq 0 ] || grep -q "^pagelab: .*$O/fifo: not a regular file$" "$O/err"; } \
		&& ok || bad "exit $rc, $(stat -c %F "$O/fifo"), temps: $(out_temps) $(head -2 "$O/err")"

	t "outputs: $name: device OUT stays a device (exit $want)"
	if $can_mknod; then
		rm -f "$O/dev"
		mknod "$O/dev" c 1 3
		out_$fn "$O/dev" >/dev/null 2>"$O/err"
		rc=$?
		[ $rc -eq $want ] && [ -c "$O/dev" ] && [ -z "$(out_temps)" ] && ok \
			|| bad "exit $rc, $(stat -c %F "$O/dev"), temps: $(out_temps) $(head -2 "$O/err")"
	else
		skip "mknod not permitted"
	fi

	t "outputs: $name: link OUT stays a link, target replaced"
	rm -f "$O/link" "$O/target"
	: >"$O/target"
	ln -s target "$O/link"
	out_$fn "$O/link" >/dev/null 2>"$O/err"
	rc=$?
	[ $rc -eq 0 ] && [ -L "$O/link" ] && [ -s "$O/target" ] && [ -z "$(out_temps)" ] && ok \
		|| bad "exit $rc, $(stat -c %F "$O/link"), temps: $(out_temps) $(head -2 "$O/err")"

	t "outputs: $name: link to nothing as OUT: exit 2"
	rm -f "$O/dangling"
	ln -s missing "$O/dangling"
	out_$fn "$O/dangling" >/dev/null 2>"$O/err"
	rc=$?
	[ $rc -eq 2 ] && [ -L "$O/dangling" ] && [ ! -e "$O/missing" ] \
		&& grep -q "^pagelab: .*$O/dangling: a symbolic link to a missing file$" "$O/err" && ok \
		|| bad "exit $rc, $(stat -c %F "$O/dangling"), $(head -2 "$O/err")"

	# ulimit -f 2: 1 or 2 KiB (the shell's unit), less than every output
	# here; the limit is SIGXFSZ, which must not kill pagelab.
	t "outputs: $name: ulimit -f: exit 1, no temp, old kept"
	rm -f "$O/old"
	[ "$kind" = regular ] || echo old >"$O/old"
	(ulimit -f 2; out_$fn "$O/old") >/dev/null 2>"$O/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "^pagelab: .*: File too large$" "$O/err" && [ -z "$(out_temps)" ] \
		&& { [ "$kind" = regular ] || [ "$(cat "$O/old")" = old ]; } && ok \
		|| bad "exit $rc, temps: $(out_temps) $(head -2 "$O/err")"
done

# Signals: each command is stopped while its temporary file exists (it
# waits on an input FIFO held open, or runs a long simulation), then
# signalled; its temporary file must be gone.  out_wait_tmp waits for
# the temporary file (at most 300 s: then the check fails).
out_wait_tmp() {
	n=0
	while ! ls "$1".tmp.* >/dev/null 2>&1; do
		[ $n -lt 3000 ] || return 1
		sleep 0.1
		n=$((n + 1))
	done
}
# out_reap PID: wait for PID, at most 300 s (then it is killed, and the
# check fails with its exit 137): a command that ignores the signal would
# wait on its FIFO forever.  The shell reaps it during a foreground sleep
# (stderr closed: no "Hangup" or "Terminated" from the shell).
out_reap() {
	n=0
	while kill -0 $1 && [ $n -lt 3000 ]; do
		sleep 0.1
		n=$((n + 1))
	done 2>/dev/null
	kill -KILL $1 2>/dev/null
	{ wait $1; } 2>/dev/null
}
# out_signal NAME SIG WANT_RC CMD...: run CMD (writing $O/sig.out) in the
# background, signal it mid-write, check its exit status and that no
# temporary file is left and an old $O/sig.out is kept (or replaced whole
# when WANT_RC is "written").
out_signal() {
	name=$1 sig=$2 want=$3
	shift 3
	t "outputs: $name: SIG$sig mid-write: no temp file left"
	echo old >"$O/sig.out"
	rm -f "$O/in.fifo" "$O"/*.tmp.*
	mkfifo "$O/in.fifo"
	exec 8<>"$O/in.fifo"
	"$@" >/dev/null 2>"$O/err" &
	pid=$!
	if out_wait_tmp "$O/sig.out"; then
		kill -$sig $pid
		# mrc polls for the signal only between passes: a second one
		# kills it, the temporary file removed all the same.
		[ "$want" = any ] && kill -$sig $pid 2>/dev/null
	else
		kill -KILL $pid
	fi
	out_reap $pid
	rc=$?
	exec 8<&-
	kept=$(cat "$O/sig.out" 2>/dev/null)
	{ [ "$want" = any ] || [ "$want" = written ] || [ $rc -eq $want ]; } && [ -z "$(out_temps)" ] \
		&& { [ "$want" = written ] || [ "$kept" = old ]; } && ok \
		|| bad "exit $rc, temps: $(out_temps), out: $(echo "$kept" | head -c 40) $(head -2 "$O/err")"
}
out_signal run TERM written $P run --ram 16M --swap 64M --html "$O/sig.out" usemem -m 20 -r 100000
out_signal reproduce TERM 143 $P reproduce --only 1 --jobs 1 --html "$O/sig.out"
# A background job of a script starts with SIGINT ignored (and pagelab
# keeps an ignored signal ignored, as nohup wants): env gives it back.
if env --default-signal=INT true 2>/dev/null; then
	out_signal sweep-html INT 130 env --default-signal=INT \
		$P sweep --ram 16M --swap 64M --html "$O/sig.out" -- usemem -m 20 -r 100000
else
	t "outputs: sweep-html: SIGINT mid-write"; skip "no env --default-signal"
fi
out_signal sweep-html TERM 143 $P sweep --ram 16M --swap 64M --html "$O/sig.out" -- usemem -m 20 -r 100000
out_signal merge TERM 143 $P merge "$O/sig.out" "$O/in.fifo"
# A runner started with SIGHUP ignored (nohup, some CI runners) passes
# it on ignored, and pagelab keeps it ignored (POSIX): nothing to test.
# (stderr closed: no "Hangup" from the shell when it is not ignored.)
{ hup=$(sh -c 'kill -HUP $$; echo alive'); } 2>/dev/null
if [ "$hup" = alive ]; then
	t "outputs: merge: SIGHUP mid-write: no temp file left"
	skip "SIGHUP is ignored here (started under nohup?)"
else
	out_signal merge HUP 129 $P merge "$O/sig.out" "$O/in.fifo"
fi
out_signal compare-html TERM 143 $P compare --html "$O/sig.out" "$O/in.fifo"
out_signal mrc-html TERM any $P mrc --html "$O/sig.out" "$O/in.fifo"
out_signal mrc-svg TERM any $P mrc --svg "$O/sig.out" "$O/in.fifo"
# trace convert opens OUT once the input's first megabytes are read:
# 3 MB go into the FIFO first (from a background writer, the FIFO
# holding 64 KiB), the input then waits for more.
out_convert() {
	# without fd 8 (a reader of the FIFO): once the test closes its
	# own, a writer still blocked gets SIGPIPE instead of waiting forever
	cat "$O/trace.3m" 8<&- >"$O/in.fifo" &
	exec $P trace convert "$O/in.fifo" "$O/sig.out"
}
i=0
while [ $i -lt 1500 ]; do cat "$O/trace"; i=$((i + 1)); done | head -c 3000000 >"$O/trace.3m"
out_signal trace-convert TERM 143 out_convert
rm -f "$O/trace.3m"
if $have_valgrind; then
	# cat under valgrind waits on the FIFO; without fd 8 it holds no
	# writer of it, so it ends once the test closes its own.
	out_record_cat() { exec $P record -o "$O/sig.out" -- cat "$O/in.fifo" 8<&-; }
	out_signal record TERM 143 out_record_cat
else
	t "outputs: record: SIGTERM mid-write"; skip "no valgrind"
fi
rm -f "$O/in.fifo"

# Issue 35: reproduce --html interrupted once an experiment has finished:
# the old report stays (README: it survives an interrupted run), not a
# page of the finished experiments that would read as the whole report.
t "outputs: reproduce --html, SIGINT after exp. 1: old page kept"
echo old >"$O/r.html"
rm -f "$O"/*.tmp.*
$P reproduce --json --jobs 1 --html "$O/r.html" >"$O/out" 2>"$O/err" &
pid=$!
n=0 # experiment 1's object is printed (and flushed) once it finished
while ! grep -qs '{"id": 1, ' "$O/out" && [ $n -lt 3000 ]; do sleep 0.1; n=$((n + 1)); done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && [ "$(cat "$O/r.html")" = old ] && [ -z "$(out_temps)" ] \
	&& grep -q "^pagelab: $O/r.html not written (interrupted): left as it was$" "$O/err" \
	&& grep -q '^pagelab: interrupted by SIGINT: [1-9][0-9]* of [0-9]* experiments finished' "$O/err" && ok \
	|| bad "exit $rc, $(head -c 40 "$O/r.html"), $(cat "$O/err")"

# Results files are read with the trace readers' line limit, a read error
# is no end of file, and sweep -o takes only a regular file (or a new one).
t "outputs: merge of a line longer than 1 MiB: exit 2, FILE:LINE:"
{ head -1 "$O/res"; head -c 1100000 /dev/zero | tr '\0' x; } >"$O/long"
$P merge "$O/m" "$O/long" >/dev/null 2>"$O/err"
rc=$?
[ $rc -eq 2 ] && [ "$(cat "$O/err")" = "pagelab: $O/long:2: line longer than 1048576 bytes" ] && [ ! -e "$O/m" ] \
	&& [ -z "$(out_temps)" ] && ok || bad "exit $rc: $(cat "$O/err")"

# Reading /dev/zero without a bound takes all the host's memory: these
# run under ulimit -v when pagelab starts under it (not a sanitizer build).
can_vlimit=false
(ulimit -v 400000; $P --version) >/dev/null 2>&1 && can_vlimit=true
t "outputs: merge OUT /dev/zero under ulimit -v: exit 2, bounded"
if $can_vlimit; then
	(ulimit -v 400000; $P merge "$O/m" /dev/zero) >/dev/null 2>"$O/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(cat "$O/err")" = "pagelab: /dev/zero:1: line longer than 1048576 bytes" ] && ok \
		|| bad "exit $rc: $(cat "$O/err")"
else
	skip "pagelab does not start under ulimit -v (a sanitizer build)"
fi

t "outputs: merge of a record with a NUL byte: exit 2"
{ head -1 "$O/res" | tr -d '\n'; printf '\000x\n'; } >"$O/nul"
$P merge "$O/m" "$O/nul" >/dev/null 2>"$O/err"
rc=$?
[ $rc -eq 2 ] && [ "$(cat "$O/err")" = "pagelab: $O/nul:1: a NUL byte: not a results file" ] && ok \
	|| bad "exit $rc: $(cat "$O/err")"

t "outputs: sweep -o /dev/zero, /dev/full: exit 2 before running"
msg=""
for d in /dev/zero /dev/full; do
	(! $can_vlimit || ulimit -v 400000; $P sweep --policy lru --ram 16M -o $d -- usemem -m 4) >"$O/out" 2>"$O/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(cat "$O/err")" = "pagelab: cannot write $d: not a regular file" ] && [ ! -s "$O/out" ] \
		&& [ -c $d ] || msg="$msg $d: exit $rc $(cat "$O/err");"
done
[ -z "$msg" ] && ok || bad "$msg"

# compare: a record twice is one run, not two seeds.
t "outputs: compare of a file twice: same tables, said once"
cat "$O/res" "$O/res" >"$O/dup"
$P compare "$O/res" >"$O/want" 2>/dev/null
$P compare "$O/dup" >"$O/out" 2>"$O/err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$O/want" "$O/out" && grep -q '^2 designs, 2 runs' "$O/out" \
	&& [ "$(cat "$O/err")" = "pagelab compare: 2 records repeated (the same command line), counted once" ] \
	&& ok || bad "exit $rc: $(grep runs "$O/out") $(cat "$O/err")"

t "outputs: compare, records of two versions: a note"
sed '1s/"version": "[^"]*"/"version": "0.0-other"/' "$O/res" >"$O/mixed"
$P compare "$O/mixed" >"$O/out" 2>"$O/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^pagelab compare: note: the records come from different pagelab versions (0.0-other, ' "$O/err" \
	&& ok || bad "exit $rc: $(cat "$O/err")"

t "outputs: sweep, compare: stdout write error: 1 line, exit 1"
msg=""
if [ -w /dev/full ]; then
	$P compare "$O/res" >/dev/full 2>"$O/err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(cat "$O/err")" = "pagelab: cannot write standard output: No space left on device" ] \
		|| msg="$msg compare: exit $rc $(cat "$O/err");"
	# sweep flushes each record as it comes: the reason may be gone by
	# the end, but it is one line.
	$P sweep --policy lru --ram 16M -- usemem -m 4 >/dev/full 2>"$O/err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$O/err")" -eq 1 ] && grep -q '^pagelab: cannot write standard output: ' "$O/err" \
		|| msg="$msg sweep: exit $rc $(cat "$O/err");"
	[ -z "$msg" ] && ok || bad "$msg"
else
	skip "no /dev/full"
fi

# Every write to a file in src/ goes through src/lib/output.c, but these
# (FILE COUNT WHY; COUNT: the lines the grep below finds in FILE).  A new
# one fails here: route it through output.c, or add it with its reason.
OUT_ALLOWED="
src/cachesim/nextuse.c 2 a scratch file in TMPDIR, unlinked once created
src/mrc/mrc.c 1 a private directory for the trace's binary copy (written by bintrace, removed after)
src/native/prepare.c 3 the kernel workload's own files, in its private directory
src/native/session.c 1 a pipe to the parent (fdopen of a pipe)
src/native/swapfile.c 2 the kernel run's swapfile (O_EXCL), /dev/null for mkswap
src/native/executor.c 2 the kernel workload's own files, as the real program opens them
src/native/tracer.c 2 tracefs control files
src/native/guard.c 3 /dev/null, the kernel runs' lock file, their private directory
src/native/cgroup.c 1 cgroupfs control files
src/native/zram.c 1 the swap header of the kernel run's own zram device
src/native/calib_paths.c 1 kernel --calibrate's own 32 MiB file, in its private directory
src/native/calib_write.c 1 kernel --calibrate's own write-path file (unlinked at once), in its private directory
src/native/diskprobe.c 1 kernel --disk-probe's own 128 MiB file (unlinked after), in the run's private directory
"
t "outputs: no file write outside src/lib/output.c but allowed"
found=$(grep -rnE 'fopen\([^)]*"[wa]|fdopen\([^)]*"[wa]|freopen\(|(^|[^a-z_])open\([^;]*(O_WRONLY|O_RDWR|O_CREAT|, 0[0-7]{3}\))|(^|[^a-z_])rename\(|mkstemp\(|mkdtemp\(|(^|[^a-z_])creat\(' \
	"$SRC" --include='*.c' | grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/\*|\*)' | sed "s|^$SRC/|src/|" \
	| grep -v '^src/lib/output.c:' | cut -d: -f1 | sort | uniq -c | awk '{ print $2, $1 }')
msg=$(echo "$found" | awk -v allowed="$OUT_ALLOWED" '
	BEGIN { n = split(allowed, l, "\n"); for (i = 1; i <= n; i++) if (split(l[i], w, " ") >= 2) want[w[1]] = w[2] }
	NF == 2 && want[$1] != $2 { printf " %s: %d write(s) (allowed: %d);", $1, $2, want[$1] }')
[ -n "$found" ] && [ -z "$msg" ] && ok || bad "route through src/lib/output.c or allow in outputs.sh:$msg"

# The list of commands above, derived the other way: every file of src/
# that opens an output through output.c (or bintrace_create) is one of the
# commands checked here, or says why not ("-").  A new caller fails here
# until its command joins OUT_CMDS.
OUT_CALLERS="
src/cli/run_spec.c run
src/cli/reproduce.c reproduce
src/cli/sweep.c sweep-html
src/engine/sweep.c sweep-o
src/cli/merge.c merge
src/cli/compare_results.c compare-html
src/cli/mrc.c mrc-html
src/cli/trace_cmd.c trace-convert
src/trace/fmt_bin.c trace-convert
src/cli/record.c record
src/native/calibrate_profile.c calibrate
src/cli/ablate.c ablate-html
src/cli/compare_matrix.c - compare --matrix --html, the fidelity matrix from its caches (fidelity.sh)
src/mrc/mrc.c - mrc's binary copy of a trace, in its private directory
src/cli/compare_kernel.c - compare -- WORKLOAD --html, the kernel cache: host kernel runs (kernel.sh)
src/engine/kcompare_host.c - the TLB cost kept in compare -- WORKLOAD's kernel cache (compare_host.sh)
"
t "outputs: every caller of output.c is a command checked here"
msg=""
for file in $(grep -rlE '(atomic_open|output_open|output_append|output_regular_or_new|bintrace_create)\(' "$SRC" \
		--include='*.c' | sed "s|^$SRC/|src/|" | grep -v '^src/lib/output.c$' | sort); do
	cmd=$(echo "$OUT_CALLERS" | awk -v f="$file" '$1 == f { print $2 }')
	case " $OUT_CMDS - " in
	*[[:space:]]"$cmd"[:[:space:]]*) [ -n "$cmd" ] || msg="$msg $file: not in OUT_CALLERS;" ;;
	*) msg="$msg $file: ${cmd:-not in OUT_CALLERS};" ;;
	esac
done
[ -z "$msg" ] && ok || bad "add the command to OUT_CMDS and OUT_CALLERS:$msg"

# mrc blocked reading a FIFO whose writer never writes: SIGINT is an
# interruption (130, one line), not a read error (it exited 2).
t "outputs: mrc blocked on a FIFO, SIGINT: exit 130, one line"
mkfifo "$T/mrc-fifo"
sleep 30 >"$T/mrc-fifo" &
holder=$!
$P mrc --sizes 4p "$T/mrc-fifo" >/dev/null 2>"$T/mrc-err" &
mp=$!
sleep 1
kill -INT $mp
wait $mp
rc=$?
kill $holder 2>/dev/null
wait $holder 2>/dev/null
[ $rc -eq 130 ] && [ "$(wc -l <"$T/mrc-err")" -eq 1 ] && ok || bad "exit $rc: $(cat "$T/mrc-err")"
