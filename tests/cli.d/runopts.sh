# pagelab run's options from its table (src/cli/run.c, issue 37): the
# options it takes are the ones it took, each bad one said as before the
# table, with exit 2; and the machine options group's --set keeps a NAME
# of any length.  About 2 s.

t "run's table: the options run took before it"
got=$($P --dump-options run | awk -F '\t' '$1 == "option" { print $2 }' | sort | tr '\n' ' ')
want="--cgroup --check --cpus --disk --full-machine --html --json --machine --make-inputs --max-time --memcg \
--no-progress --policy --progress --ram --seed --set --swap --vmstat --warmup --window "
[ "$got" = "$want" ] && ok || bad "got '$got'"

# ARGS | the stderr line; each exits 2 (the lines pagelab run printed
# with its own loop, before the table).
t "run: bad options, the same line and exit 2 as before the table"
msg=
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	$P run $args >/dev/null 2>"$T/err" </dev/null; rc=$?
	got=$(cat "$T/err")
	[ $rc -eq 2 ] && [ "$got" = "pagelab: $want" ] || msg="$msg [$args] rc $rc '$got';"
done <<'END'
|run: no workload given (see pagelab workloads)
--ram|option --ram needs a value
--ram 1Q usemem|bad size '1Q' for --ram
--ram 0 usemem|--ram 0: a machine needs memory
--ram 101% usemem|bad size '101%' for --ram (a share of a trace's pages is N%, 0 < N <= 100)
--ram 2000T usemem|--ram 2000T is more than 1P (1024T), the most pagelab takes
--swap x usemem|bad size 'x' for --swap
--cpus 0 usemem|bad --cpus '0' (1..1024)
--cpus 1025 usemem|bad --cpus '1025' (1..1024)
--memcg 1K usemem|--memcg 1K: a cgroup needs at least 16 pages
--memcg x usemem|bad size 'x' for --memcg
--set x usemem|--set wants NAME=VALUE, got 'x'
--set =1 usemem|--set wants NAME=VALUE, got '=1'
--set|option --set needs a value
--bogus usemem|unknown option '--bogus' (see pagelab run --help)
-x usemem|unknown option '-x' (see pagelab run --help)
--ram 64M -- usemem|unknown option '--' (see pagelab run --help)
--seed x usemem|bad --seed 'x'
--seed 18446744073709551616 usemem|bad --seed '18446744073709551616'
--max-time 0 usemem|bad --max-time '0'
--vmstat usemem|bad --vmstat 'usemem' (seconds, at least 0.001)
--vmstat|option --vmstat needs a value
--vmstat -a|option -a needs a value
--vmstat -a -a 1 usemem|bad --vmstat '-a' (seconds, at least 0.001)
--vmstat 0.0001 usemem|bad --vmstat '0.0001' (seconds, at least 0.001)
--html|option --html needs a value
--policy|option --policy needs a value
--ram 0 --bogus usemem|--ram 0: a machine needs memory
--bogus --help|unknown option '--bogus' (see pagelab run --help)
--ram 64M --set ram=32M usemem|give --ram or --set ram=, not both
--vmstat 1 --set vmstat=1 usemem|give --vmstat or --set vmstat=, not both
--make-inputs --set make-inputs=1 usemem|give --make-inputs or --set make-inputs=, not both
END
[ -z "$msg" ] && ok || bad "$msg"

t "run --vmstat -a 0.1 --vmstat 0.2: -a kept, the last interval"
$P run --ram 64M --vmstat -a 0.1 --vmstat 0.2 usemem -m 80 >"$T/out" 2>&1; rc=$?
n=$(awk 'NF == 16 && $1 ~ /^[0-9]+$/' "$T/out" | wc -l)
[ $rc -eq 0 ] && grep -q ' inact active ' "$T/out" && [ "$n" -eq 2 ] && ok || bad "rc $rc, $n lines"

# Bug (integ before this branch): the machine options group cut a --set
# NAME at 127 characters, so sweep's "unknown parameter" named another
# (run copied it whole, with its own loop).
t "--set NAME of 200 characters: named whole (run and sweep)"
long=$(printf '%0200d' 0 | tr 0 x)
msg=
for c in run sweep; do
	sep=; [ $c = sweep ] && sep=--
	$P $c --set "$long=1" $sep usemem -m 10 >/dev/null 2>"$T/err"; rc=$?
	grep -q "unknown parameter '$long'" "$T/err" && [ $rc -eq 2 ] || msg="$msg $c rc $rc: $(cut -c1-60 "$T/err");"
done
[ -z "$msg" ] && ok || bad "$msg"
