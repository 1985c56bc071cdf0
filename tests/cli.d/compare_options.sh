# compare -- WORKLOAD's options from a table (src/cli/compare_kernel.c,
# compare_kernel_cmd): --dump-options compare lists them after a `form`
# line, so that the man page and completion (tools/genman.sh,
# gencompletion.sh) have them as options, not as words of a text; the
# messages of bad input as before.  Nothing runs: every case stops at its
# options.

t "compare -- WORKLOAD: its options in --dump-options, man, completion"
R=$(cd "$(dirname "$0")/.." && pwd)
$P --dump-options compare >"$T/dump"
sh "$R/tools/genman.sh" "$P" "$T/man" >/dev/null 2>&1
sh "$R/tools/gencompletion.sh" "$P" "$T/compl" >/dev/null 2>&1
second=$(awk -F '\t' '$1 == "form" { f = 1; next } f && $1 == "option" { print $2 }' "$T/dump" | tr '\n' ' ')
msg=
[ "$second" = "--memcg --swap --policy --repeat --seeds --tolerance --floor --jobs --html --matrix --seed --timeout --fit-cpu --fit-profile --kernel-cache --sim-cache --machine --cpus --ram --disk --cgroup --set " ] ||
	msg="second form: $second"
grep -q '^\.B \\-\\-kernel\\-cache DIR$' "$T/man/pagelab.1" || msg="$msg; no --kernel-cache entry in the man page"
line=$(grep '^	compare)' "$T/compl/pagelab.bash")
case $line in *" --kernel-cache "*) ;; *) msg="$msg; no --kernel-cache in completion" ;; esac
# Words of the text that are other commands' options are not compare's.
for o in --tlb-cost --executor --make-inputs; do
	case $line in *" $o "*) msg="$msg; completion offers $o" ;; esac
done
[ -z "$msg" ] && ok || bad "$msg"

t "compare -- WORKLOAD --help: the tail of compare --help"
$P compare --help >"$T/all"
$P compare --help -- usemem >"$T/kern"
n=$(wc -l <"$T/kern")
[ "$n" -gt 40 ] && tail -n "$n" "$T/all" | cmp -s - "$T/kern" && head -1 "$T/kern" |
	grep -qx 'usage: pagelab compare \[OPTIONS\] -- WORKLOAD \[ARGS\]' && ok || bad "$n lines"

t "compare -- WORKLOAD: bad options, one line, exit 2"
msg=
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	$P compare $args >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(cat "$T/e")" = "pagelab: $want" ] || msg="$msg [$args: rc $rc $(cat "$T/e")]"
done <<'L'
--memcg -- usemem|compare: option --memcg needs a value
--repeat 0 -- usemem|compare: bad --repeat '0' (1..100)
--jobs 65 -- usemem|compare: bad --jobs '65' (1..64)
--seed 18446744073709551516 -- usemem|compare: bad --seed '18446744073709551516' (0..18446744073709551515)
--tolerance 1001 -- usemem|compare: bad --tolerance '1001' (percent, 0..1000)
--floor -1 -- usemem|compare: bad --floor '-1'
--timeout 0 -- usemem|compare: bad --timeout '0'
--ram x -- usemem|compare: bad size 'x' for --ram
--fit-cpu 0 -- usemem|compare: bad size '0' for --fit-cpu
--sim-cache /nonexistent -- usemem|compare: --sim-cache /nonexistent is not a directory
--bogus -- usemem|compare: unknown option '--bogus' (see pagelab compare --help)
--policy lru --|compare: no workload after '--' (see pagelab compare --help)
L
[ -z "$msg" ] && ok || bad "$msg"
