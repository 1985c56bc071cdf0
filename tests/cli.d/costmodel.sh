# The cost model (issue 38, docs/cost.md): pagelab kernel --calibrate
# measures this host's costs into a machine profile file, and --machine
# FILE (a name with a '/') runs on it.  The figures are the host's, so
# only their shape and sanity are checked, never their values.

t "kernel --calibrate FILE: every figure measured and plausible"
$P kernel --calibrate-user "$T/host.profile" >"$T/cal.txt" 2>"$T/cal.err"; rc=$?
# zero_page, copy_page, free_page, scan: 10 ns..100 us a page; fault
# 50 ns..1 ms; chase 1 ns..10 us; lock_pair 0.1 ns..10 us; rmap above
# nine chases; MEDIAN within MIN..MAX.
if [ $rc -eq 0 ] && [ ! -s "$T/cal.err" ] &&
   awk '$1 ~ /^(zero_page|copy_page|free_page|scan)$/ { lo[$1] = 10; hi[$1] = 1e5 }
	$1 == "fault" { lo[$1] = 50; hi[$1] = 1e6 }
	$1 == "chase" { lo[$1] = 1; hi[$1] = 1e4; chase = $2 }
	$1 == "lock_pair" { lo[$1] = 0.1; hi[$1] = 1e4 }
	$1 == "rmap" { lo[$1] = 0; hi[$1] = 1e6; rmap = $2 }
	$1 in lo { n++; if (!($2 > lo[$1] && $2 < hi[$1] && $3 <= $2 && $2 <= $4)) bad = bad " " $1 }
	END { if (rmap < 9 * chase) bad = bad " rmap"; exit n != 8 || bad != "" }' "$T/cal.txt" &&
   awk 'length > 80 { bad = 1 } END { exit bad }' "$T/cal.txt" &&
   grep -qx "wrote $T/host.profile" "$T/cal.txt" &&
   grep -qx "run on it: --machine $T/host.profile" "$T/cal.txt"; then ok
else bad "exit $rc: $(head -2 "$T/cal.err") $(cat "$T/cal.txt")"; fi

t "kernel --calibrate: each parameter under a line saying its source"
# The comment before each setting names it and says bench or default.
if awk '/^machine = modern$/ { base = 1; next }
	/^# cost\.[a-z_]+: (bench|default)/ { split($2, a, ":"); said = a[1]; next }
	/^#/ { next }
	/ = / { n++; if ($1 != said || !base) bad = 1; said = "" }
	END { exit bad || n < 12 }' "$T/host.profile" &&
   [ "$(grep -c '^cost\.[a-z_]* = ' "$T/host.profile")" -eq "$(grep -c '^# cost\.[a-z_]*: ' "$T/host.profile")" ] &&
   grep -q '^# cost\.zero_page: bench zero_page, median of 11 rounds' "$T/host.profile" &&
   grep -q '^# cost\.ref: default, modern' "$T/host.profile" &&
   awk 'length > 80 { bad = 1 } END { exit bad }' "$T/host.profile"; then ok
else bad "$(head -8 "$T/host.profile")"; fi

t "kernel --calibrate: the profile reads back as written"
z=$(sed -n 's/^cost\.zero_page = //p' "$T/host.profile")
r=$(sed -n 's/^cost\.rmap = //p' "$T/host.profile")
$P machines --show "$T/host.profile" >"$T/show" 2>&1; rc=$?
if [ $rc -eq 0 ] && [ -n "$z" ] && grep -Eq "^cost\.zero_page +$z " "$T/show" &&
   grep -Eq "^cost\.rmap +$r " "$T/show" && grep -q "^# $T/host.profile: a profile file" "$T/show"; then ok
else bad "exit $rc, zero_page '$z': $(grep -E 'zero_page|^pagelab' "$T/show")"; fi

t "kernel --calibrate FILE: a file it cannot write, exit 2"
$P kernel --calibrate "$T/no/such/dir/x" >"$T/o" 2>"$T/e"; rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && grep -q 'cannot write' "$T/e" && [ ! -s "$T/o" ]; then ok
else bad "exit $rc: $(cat "$T/e")"; fi

RUN="--ram 64M --policy linux6 usemem -m 80"
t "--machine FILE: the run of its preset with its settings, byte for byte"
cat >"$T/hand.profile" <<'PROF'
# a profile by hand
machine = modern      # the preset
cost.zero_page = 900ns   # bench (made up for the test)
cost.rmap 2us
PROF
# shellcheck disable=SC2086
$P run --machine "$T/hand.profile" $RUN >"$T/f1" 2>"$T/f1.err"; rc1=$?
# shellcheck disable=SC2086
$P run --machine "$T/hand.profile" $RUN >"$T/f2" 2>/dev/null
# shellcheck disable=SC2086
$P run --machine modern --set cost.zero_page=900ns --set cost.rmap=2us $RUN >"$T/s1" 2>/dev/null
# shellcheck disable=SC2086
$P run --machine modern $RUN >"$T/m1" 2>/dev/null
# The first line names the machine: the file, or modern.
for f in f1 f2 s1 m1; do tail -n +2 "$T/$f" >"$T/$f.body"; done
if [ $rc1 -eq 0 ] && cmp -s "$T/f1" "$T/f2" && cmp -s "$T/f1.body" "$T/s1.body" &&
   ! cmp -s "$T/f1.body" "$T/m1.body" && grep -q '^pswpout [1-9]' "$T/f1" &&
   head -1 "$T/f1" | grep -q "^pagelab: machine $T/hand.profile: 4 CPUs"; then ok
else bad "exit $rc1: $(diff "$T/f1.body" "$T/s1.body" | head -3) $(head -1 "$T/f1")"; fi

t "--machine FILE: the calibrated profile runs"
# shellcheck disable=SC2086
$P run --machine "$T/host.profile" $RUN >"$T/h1" 2>"$T/h1.err"; rc=$?
if [ $rc -eq 0 ] && grep -q '^pswpout [1-9]' "$T/h1"; then ok
else bad "exit $rc: $(head -2 "$T/h1.err")"; fi

t "--machine FILE: bad files, one line and exit 2"
printf 'cpus = 2\n' >"$T/b1.profile"
printf 'machine = nosuch\n' >"$T/b2.profile"
printf 'machine = modern\ncost.nosuch = 1ns\n' >"$T/b3.profile"
printf 'machine = modern\ncost.rmap = fast\n' >"$T/b4.profile"
printf 'machine = modern\ncost.rmap\n' >"$T/b5.profile"
printf '# nothing\n' >"$T/b6.profile"
# a comment of 1100 bytes whose end reads like a setting
{ echo 'machine = modern'; printf '# %01090d cost.rmap = 1ns\n' 0; } >"$T/b7.profile"
res=""
for f in b1 b2 b3 b4 b5 b6 b7 missing; do
	# shellcheck disable=SC2086
	$P run --machine "$T/$f.profile" $RUN >"$T/o" 2>"$T/e"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ ! -s "$T/o" ] || res="$res $f:$rc"
done
grep -q "b5.profile:2: 'cost.rmap' has no value" "$T/e" 2>/dev/null
$P run --machine "$T/b3.profile" $RUN 2>"$T/e3" >/dev/null
$P run --machine "$T/b1.profile" $RUN 2>"$T/e1" >/dev/null
$P run --machine "$T/b7.profile" $RUN 2>"$T/e7" >/dev/null
if [ -z "$res" ] && grep -q "b7.profile:2: a line longer than 1022 bytes" "$T/e7" &&
   grep -q "b3.profile:2: unknown machine parameter 'cost.nosuch'" "$T/e3" &&
   grep -q "b1.profile:1: the first setting must be 'machine = PRESET', not 'cpus'" "$T/e1"; then ok
else bad "$res: $(cat "$T/e3" "$T/e1")"; fi

# compare --fit-cpu's fitted costs as a profile file: the kernel runs'
# records written by hand into the cache (no kernel run, no root): the
# fit's run has 2.00 s of user and 0.40 s of system time three times.
mkdir -p "$T/kf"
for n in 1 2 3; do
	kernel_record "$n" "--memcg 256M --swap 128M --seed 1 --timeout 600 usemem -m 200 -r 8" \
		user=2.00 sys=0.40 c:pswpout=0 >>"$T/kf/kernel.jsonl"
	kernel_record "$n" "--memcg 128M --swap 128M --seed 1 --timeout 600 usemem -m 200 -r 8" \
		user=0.50 sys=0.20 c:pswpout=30000 >>"$T/kf/kernel.jsonl"
done
FIT="--repeat 3 --kernel-cache $T/kf --memcg 128M --swap 128M --policy linux6 --fit-cpu 256M"

t "compare --fit-profile FILE: the fitted machine, runs as compare's"
# shellcheck disable=SC2086
$P compare $FIT --set cost.rmap=90ns --fit-profile "$T/fit.profile" -- usemem -m 200 -r 8 >"$T/fc" 2>"$T/fc.err"
rc=$?
# The simulated side's --set costs, from the header: a run with them on
# modern and one on the profile are the same run.
sets=$(sed -n '2,/^CPU fitted/p' "$T/fc" | tr '\n' ' ' | grep -o 'cost\.[a-z_]*=[0-9]*[pnu]*s' |
	sed 's/^/--set /' | tr '\n' ' ')
# shellcheck disable=SC2086
$P run --machine modern $sets $RUN 2>/dev/null | tail -n +2 >"$T/fs"
# shellcheck disable=SC2086
$P run --machine "$T/fit.profile" $RUN 2>/dev/null | tail -n +2 >"$T/ff"
if [ $rc -eq 0 ] && [ "$(echo "$sets" | grep -o -- '--set' | wc -l)" -ge 9 ] && cmp -s "$T/fs" "$T/ff" &&
   grep -q '^cost\.rmap = 90ns$' "$T/fit.profile" &&
   grep -q '^# cost\.rmap: set, --set cost\.rmap=90ns' "$T/fit.profile" &&
   grep -q "^# cost\.fault: fit, modern's 700ns x " "$T/fit.profile" &&
   grep -q "^# cost\.syscall: default, modern's" "$T/fit.profile" &&
   awk 'length > 80 { bad = 1 } END { exit bad }' "$T/fit.profile"; then ok
else bad "exit $rc: $(head -2 "$T/fc.err") sets: $sets $(diff "$T/fs" "$T/ff" | head -3)"; fi

t "compare --fit-profile: without --fit-cpu, or to a --machine FILE: exit 2"
# shellcheck disable=SC2086
$P compare --fit-profile "$T/x" -- usemem -m 200 -r 8 >"$T/o1" 2>"$T/e1"; rc1=$?
# shellcheck disable=SC2086
$P compare $FIT --machine "$T/hand.profile" --fit-profile "$T/x" -- usemem -m 200 -r 8 >"$T/o2" 2>"$T/e2"; rc2=$?
if [ $rc1 -eq 2 ] && grep -q 'needs --fit-cpu' "$T/e1" && [ $rc2 -eq 2 ] && grep -q 'is a profile file' "$T/e2" &&
   [ ! -e "$T/x" ] && [ "$(wc -l <"$T/e2")" -eq 1 ]; then ok
else bad "exit $rc1 $rc2: $(cat "$T/e1" "$T/e2")"; fi

t "--machine FILE in a sweep: the same cells on 1 and 2 threads"
$P sweep --jobs 1 --machine "$T/hand.profile,modern" --ram 64M,48M -- usemem -m 60 >"$T/sw1" 2>/dev/null; rc1=$?
$P sweep --jobs 2 --machine "$T/hand.profile,modern" --ram 64M,48M -- usemem -m 60 >"$T/sw2" 2>/dev/null; rc2=$?
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s "$T/sw1" "$T/sw2" &&
   [ "$(grep -c "\"machine\": \"$T/hand.profile\"" "$T/sw1")" -eq 2 ] &&
   [ "$(grep -c '"cost.zero_page": "900ns"' "$T/sw1")" -eq 2 ]; then ok
else bad "exit $rc1 $rc2: $(head -c 300 "$T/sw1")"; fi
