# The one option parser (src/cli/opt.c, issue 37): every command's options
# from its table, so --help, the man page and the completion name them
# all; src/cli kept to short functions; and the parser's words for bad
# options, as each command said them before it had a table.  About 5 s.

R="$(dirname "$0")/.."

# --- Short functions -----------------------------------------------------
# Every command converted (issue 37; run last, branch runopts): nothing
# may pass 80.  PENDING names a function still allowed to, while it is.
PENDING=""

t "funclen.sh measures: braces and 79 lines between them are 81"
{ echo 'static int f(void)'; echo '{'; i=0; while [ $i -lt 79 ]; do echo '	g();'; i=$((i + 1)); done
  echo '}'; } >"$T/long.c"
got=$(sh "$R/tools/funclen.sh" "$T/long.c")
[ "$got" = "81 $T/long.c:1 f" ] && ok || bad "got '$got'"

t "src/cli: no function over 80 lines"
sh "$R/tools/funclen.sh" "$R"/src/cli/*.c >"$T/funcs"
long=$(awk -v p=" $PENDING " '$1 > 80 && index(p, " " $3 " ") == 0' "$T/funcs")
n=$(wc -l <"$T/funcs")
[ "$n" -ge 100 ] && [ -z "$long" ] && ok || bad "$n functions measured; over 80: $(echo "$long" | tr '\n' ';')"

# --- Every option of every table in --help, the man page, the completion --
sh "$R/tools/genman.sh" "$P" "$T/man" && sh "$R/tools/gencompletion.sh" "$P" "$T/compl" ||
	bad "genman.sh or gencompletion.sh failed"
# words FILE: its words, one a line (split at blanks, commas, slashes,
# brackets and quotes),
# roff's \- read as -.
words() { sed 's/\\-/-/g' "$1" | tr ' ,/()"\t' '\n\n\n\n\n\n\n' | grep -v '^$' | sort -u; }

t "every table option in --help, the man page and completion"
msg=
ncmd=0 nopt=0
for c in $($P --dump-options | awk -F '\t' '$1 == "arg" { print $2 }'); do
	$P --dump-options "$c" >"$T/dump"
	grep -q '^option' "$T/dump" || continue
	ncmd=$((ncmd + 1))
	$P "$c" --help >"$T/help.txt"
	awk -v c="$c" '/^\.SS / { on = ($0 == ".SS pagelab " c); next } on' "$T/man/pagelab.1" >"$T/man.txt"
	grep "^	$c)" "$T/compl/pagelab.bash" >"$T/bash.txt"
	grep "^	$c)" "$T/compl/_pagelab" >"$T/zsh.txt"
	for f in help man bash zsh; do words "$T/$f.txt" >"$T/$f.words"; done
	for o in $(awk -F '\t' '$1 == "option" { print $2; if ($3 != "-") print $3 }' "$T/dump"); do
		nopt=$((nopt + 1))
		for f in help man bash zsh; do
			grep -qxF -- "$o" "$T/$f.words" || msg="$msg $c $o not in $f;"
		done
	done
done
[ -z "$msg" ] && [ $ncmd -ge 10 ] && [ $nopt -ge 60 ] && ok || bad "$ncmd commands, $nopt options:$msg"

# A name twice in a command's table (its groups included): the parser
# would take the first and the second could never be given.
t "no option name or alias twice in a command's table"
msg=
for c in $($P --dump-options | awk -F '\t' '$1 == "arg" { print $2 }'); do
	d=$($P --dump-options "$c" | awk -F '\t' '$1 == "option" { print $2; if ($3 != "-") print $3 }' | sort | uniq -d)
	[ -z "$d" ] || msg="$msg $c: $d;"
done
[ -z "$msg" ] && ok || bad "$msg"

t "--dump-options of an unknown command: exit 2, one line"
$P --dump-options bogus >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "pagelab: unknown command 'bogus' (try pagelab --help)" ] &&
	ok || bad "rc $rc: $(cat "$T/err")"

t "sweep --help rows from its table: -j, --jobs; -o, --output"
$P sweep --help >"$T/h"
grep -q '^  -j, --jobs N        run N cells in parallel' "$T/h" && grep -q '^  -o, --output FILE   append results' "$T/h" &&
	grep -q '^  --progress / --no-progress  progress and ETA' "$T/h" && ok || bad "$(grep -e jobs -e output "$T/h")"

# --- The parser's words, as before the tables ----------------------------
# COMMAND ARGS | the stderr line; each exits 2.
t "bad options: the same line and exit 2 as before the tables"
msg=
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	$P $args >/dev/null 2>"$T/err" </dev/null; rc=$?
	got=$(cat "$T/err")
	[ $rc -eq 2 ] && [ "$got" = "pagelab: $want" ] || msg="$msg [$args] rc $rc '$got';"
done <<'END'
sweep --jobs|option --jobs needs a value
sweep -j 0 -- usemem|bad --jobs '0' (1..256)
sweep --seeds 100001|bad --seeds '100001' (1..100000)
sweep --shard 3/2|bad --shard '3/2' (I/N with 1 <= I <= N)
sweep --max-time 0|bad --max-time '0'
sweep --ram 1M --ram 2M -- usemem|sweep: --ram given twice
sweep --set x|--set wants NAME=LIST, got 'x'
sweep --set seed=1|--set seed: use --seed
sweep foo -- usemem|unknown option 'foo' (see pagelab sweep --help)
reproduce --only 6|bad --only '6' (1..5)
reproduce --html|option --html needs a file name
reproduce --print-file|option --print-file needs an experiment number
reproduce --max-time x|bad --max-time 'x' (a duration: 30, 7200s, 500ms)
reproduce a b|unknown option 'b' (see pagelab reproduce --help)
kernel --memcg 1M usemem|--memcg 1M: a limit below 16 MiB leaves no room for the program itself
kernel --swap 10K usemem|--swap 10K: a swapfile needs at least 1 MiB (or 0 for none)
kernel --repeat 1001 usemem|bad --repeat '1001' (1..1000)
kernel --timeout 0 usemem|bad --timeout '0' (seconds)
kernel -- usemem|unknown option '--' (see pagelab kernel --help)
mrc --shards-rate 0 t|mrc: bad --shards-rate '0' (0 < R <= 1)
mrc --shards-size 0 t|mrc: bad --shards-size '0' (pages, 1..4294967295)
mrc --jobs|option --jobs needs a value
mrc --format|mrc: --format needs a value
mrc --sizes 1p --sizes 2p t|mrc: --sizes given twice
mrc a b|mrc: expected exactly one TRACE (see pagelab mrc --help)
record -o|record: -o needs a file name
record foo|record: unexpected 'foo' (the program comes after --; see pagelab record --help)
compare --baseline|option --baseline needs a value
compare --bogus r|unknown option '--bogus' (see pagelab compare --help)
trace info --format x t|trace: unknown format 'x' (text, lackey, csv, txt, oracle, vscsi, block, bin)
trace info --bogus t|trace: unknown option '--bogus' (see pagelab trace --help)
END
[ -z "$msg" ] && ok || bad "$msg"

t "reproduce --print-file 3 --bogus: prints at once, exit 0"
$P reproduce --print-file 3 --bogus >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && grep -q . "$T/out" && ok || bad "rc $rc: $(head -1 "$T/err")"

# Bug (main before this branch): reproduce --help and its message gave
# "30, 10m, 2h" as durations --max-time takes, and 10m and 2h were refused
# (parse_duration_ns() reads ns, us, ms, s or plain seconds).  Every
# example the message gives must be taken.
t "reproduce --max-time: every example its message gives is taken"
$P reproduce --max-time x 2>"$T/err"
ex=$(sed -n 's/.*(a duration: \(.*\))$/\1/p' "$T/err" | tr -d ',')
msg=
for d in $ex; do
	$P reproduce --max-time "$d" --print-file 3 >/dev/null 2>"$T/err" || msg="$msg $d: $(cat "$T/err");"
done
[ -n "$ex" ] && [ -z "$msg" ] && ok || bad "examples '$ex':$msg"
