# pagelab reproduce as a newcomer reads it (issue 35): the thread files
# it cites are in the repository and every citation points inside one,
# its verdicts are the ones docs/reproduce.md says to expect, the output
# says where that is written, and the progress on a terminal never shares
# a line with the results, and all of it fits 80 columns.  About 25 s of
# CPU (one quick reproduce).

t "quick reproduce: no line wider than 80 columns"
$P reproduce --no-progress >"$T/repro" 2>"$T/err"; rc=$?
w=$(awk 'length > 80 { print NR ": " length ": " $0 }' "$T/repro" | head -2)
if [ $rc -eq 0 ] && [ -z "$w" ] && grep -q '^summary: ' "$T/repro"; then ok; else bad "rc $rc: $w $(head -2 "$T/err")"; fi

# cites FILE...: every "NNN_<16 hex>.txt[:LINES]" in the files, LINES a
# list of N and N-M; prints each one that names a file missing from
# docs/threads/ or a line outside it.
cites() {
	grep -ohE '[0-9]{3}_[0-9a-f]{16}\.txt(:[0-9][0-9,-]*)?' "$@" | sort -u | while IFS= read -r c; do
		f=docs/threads/${c%%:*}
		if [ ! -f "$f" ]; then
			echo "$c: no $f;"
			continue
		fi
		case $c in *:*) ;; *) continue ;; esac
		n=$(awk 'END { print NR }' "$f")
		echo "${c#*:}" | tr ',' '\n' | while IFS=- read -r a b; do
			[ -n "$a" ] || continue
			[ "$a" -ge 1 ] && [ "${b:-$a}" -ge "$a" ] && [ "${b:-$a}" -le "$n" ] ||
				echo "$c: lines $a-${b:-$a} of $n;"
		done
	done
}

t "reproduce: thread citations name shipped files, lines in them"
msg=$(cites experiments/*.exp "$T/repro" docs/reproduce.md)
n=$(grep -ohE '[0-9]{3}_[0-9a-f]{16}\.txt:[0-9]' experiments/*.exp "$T/repro" | wc -l)
if [ -z "$msg" ] && [ "$n" -gt 50 ]; then ok; else bad "$n citations; $(echo "$msg" | head -3 | tr '\n' ' ')"; fi

t "reproduce: the citation check sees a line past the end"
printf '%s\n' '003_0155de3220ccaa78.txt:28,62 004_508c73bd66067c88.txt:80-86 009_0000000000000000.txt' >"$T/badcite"
msg=$(cites "$T/badcite")
case $msg in
*"003_0155de3220ccaa78.txt:28,62: lines 62-62 of 61;"*"004_508c73bd66067c88.txt:80-86: lines 80-86 of 85;"*"009_0000000000000000.txt: no "*) ok ;;
*) bad "$(echo "$msg" | tr '\n' ' ')" ;;
esac

# A published figure's own text is on the line it cites: its first number
# ("645.05user" -> 645.05, "real 0m40.473s" -> 0) is there.
t "reproduce: each published figure is on the line it cites"
msg=$(grep -h '^published ' experiments/*.exp | awk '
	{
		src = $NF
		if (src !~ /^[0-9][0-9][0-9]_[0-9a-f]+\.txt:[0-9]/)
			next
		text = $0
		sub(/ [^ ]*$/, "", text)
		if (text ~ /"$/) { sub(/"$/, "", text); sub(/.*"/, "", text) } else sub(/.* /, "", text)
		if (!match(text, /[0-9][0-9.:]*/))
			next
		num = substr(text, RSTART, RLENGTH)
		sub(/[.:]$/, "", num)
		split(src, fl, ":")
		file = "docs/threads/" fl[1]
		nl = split(fl[2], parts, ",")
		found = 0
		for (i = 1; i <= nl; i++) {
			split(parts[i], ab, "-")
			lo = ab[1] + 0; hi = (ab[2] == "" ? lo : ab[2] + 0)
			ln = 0
			while ((getline line < file) > 0) {
				ln++
				if (ln >= lo && ln <= hi && index(line, num))
					found = 1
			}
			close(file)
		}
		if (!found)
			printf "%s not on %s; ", num, src
		checked++
	}
	END { if (checked < 30) printf "only %d figures checked", checked }')
[ -z "$msg" ] && ok || bad "$msg"

# docs/reproduce.md's "Quick and full side by side" is the list of the
# verdicts this version expects; quick mode must give exactly its quick
# column, comparison by comparison (names unwrapped from the output).
t "reproduce: the verdicts docs/reproduce.md expects (quick)"
awk '/^== Experiment [0-9]+:/ { e = $3 + 0 }
     /^  \[[a-z\/ ]+\] / { if (name != "") print ve " | " name " | " v
	ve = e; v = $0; sub(/^  \[/, "", v); sub(/\].*/, "", v)
	name = $0; sub(/^  \[[^]]*\] */, "", name); cont = 1; next }
     cont && /^              [^ ]/ && !/^              (thread|pagelab) / { l = $0; sub(/^ +/, "", l); name = name " " l; next }
     { cont = 0 }
     END { if (name != "") print ve " | " name " | " v }' "$T/repro" >"$T/verdicts.got"
sed -n '/^## Quick and full side by side/,/^Tallies:/p' docs/reproduce.md |
	awk -F ' [|] ' '/^\| [0-9]/ { sub(/^\| /, ""); print $1 " | " $2 " | " $3 }' >"$T/verdicts.want"
if [ -s "$T/verdicts.want" ] && cmp -s "$T/verdicts.want" "$T/verdicts.got"; then
	ok
else
	bad "$(diff "$T/verdicts.want" "$T/verdicts.got" | head -4 | tr '\n' ' ')"
fi

t "reproduce: the summary says where they are explained"
if sed -n '/^summary: /,$p' "$T/repro" | tr '\n' ' ' | tr -s ' ' |
	grep -q 'expected: these verdicts are .* docs/reproduce.md .*"Quick and full side by side".*"Why each disagreement"'; then
	ok
else
	bad "$(tail -3 "$T/repro")"
fi

# On a terminal (script(1) gives one), progress goes to stderr with \r;
# replayed as a terminal would show it, no line may hold both progress and
# an experiment's header, and none may be wider than 80 columns.
t "reproduce on a terminal: progress has a line of its own"
if ! command -v script >/dev/null 2>&1; then
	skip "no script(1)"
elif ! script -qec true /dev/null >/dev/null 2>&1; then
	# a chroot without /dev/pts (tools/freshcheck.sh's root)
	skip "script(1) cannot open a pseudo-terminal here"
else
	script -qec "$P reproduce --only 3 --progress" /dev/null >"$T/tty" 2>&1
	awk '{  # replay carriage returns and erase-to-end-of-line
		out = ""; cur = 0; s = $0; gsub(/\r$/, "", s)
		while (s != "") {
			if (substr(s, 1, 1) == "\r") { cur = 0; s = substr(s, 2); continue }
			if (substr(s, 1, 3) == "\033[K") { out = substr(out, 1, cur); s = substr(s, 4); continue }
			out = substr(out, 1, cur) substr(s, 1, 1) substr(out, cur + 2); cur++; s = substr(s, 2)
		}
		print out
	}' "$T/tty" >"$T/screen"
	w=$(awk 'length > 80 || (/runs done/ && /Experiment/) { print NR ": " $0 }' "$T/screen" | head -2)
	if [ -z "$w" ] && grep -q '^== Experiment 3:' "$T/screen" && grep -q 'runs done' "$T/screen"; then
		ok
	else
		bad "$w $(head -c 300 "$T/screen")"
	fi
fi

# The man page's EXAMPLES (tools/genman.sh) cannot drift from the binary:
# every option an example uses is in its command's --help, and the
# examples that need no file run (exit 0).
t "man page: EXAMPLES, each option in its command's --help"
msg=
if sh tools/genman.sh "$P" "$T/man" 2>"$T/genman.err"; then
	sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$T/man/pagelab.1" | sed -n 's/^\.B //p' | sed 's/\\-/-/g' >"$T/examples"
	while read -r _ cmd rest; do
		for o in $rest; do
			case $o in --) break ;; --*) $P "$cmd" --help | grep -q -- "$o" || msg="$msg $cmd $o;" ;; esac
		done
	done <"$T/examples"
	$P policies --tunables mglru >/dev/null && $P machines --show vmm-2008 >/dev/null || msg="$msg a listing failed;"
	[ "$(wc -l <"$T/examples")" -ge 8 ] || msg="$msg $(wc -l <"$T/examples") examples;"
else
	msg="genman failed: $(head -1 "$T/genman.err")"
fi
[ -z "$msg" ] && ok || bad "$msg"

# The README's run with --html: --vmstat 1 prints its lines a second
# apart (2 on this 2.8 s run), and the page's timelines sample on their
# own every 0.05 s (they had the same 2 points); the text is unchanged.
t "run --vmstat 1 --html: timelines sampled on their own"
$P run --machine vmm-2008 --policy clock --vmstat 1 --html "$T/readme.html" usemem -m 1000 >"$T/readme_h" 2>"$T/err"; rc=$?
$P run --machine vmm-2008 --policy clock --vmstat 1 usemem -m 1000 >"$T/readme_p" 2>&1
lines=$(grep -c '^ *[0-9]\+ \+[0-9]\+ \+[0-9]\+ \+[0-9]\+ \+[0-9]\+ \+[0-9]\+ \+[0-9]\+ \+[0-9]\+' "$T/readme_p")
pts=$(sed -n 's/.*Sampled every 0.05 s of simulated time, \([0-9]*\) samples.*/\1/p' "$T/readme.html")
if [ $rc -eq 0 ] && cmp -s "$T/readme_h" "$T/readme_p" && [ "$lines" -eq 2 ] && [ "${pts:-0}" -ge 50 ] &&
   [ "$(grep -o '<polyline class="series"' "$T/readme.html" | wc -l)" -eq 10 ]; then
	ok
else
	bad "rc $rc, $lines vmstat lines, ${pts:-no} timeline samples"
fi

# The reproduce page as a report (make htmlcheck renders it; this is its
# structure, cheaply, on experiment 3): the verdicts with both ratios as
# bars come before the timelines, the text report is folded in <details>,
# the page says what to expect, and the same command gives the same bytes.
t "reproduce --html: verdicts first, output folded, same bytes"
SOURCE_DATE_EPOCH=1700000000 $P reproduce --no-progress --only 3 --html "$T/r3a.html" >"$T/r3.txt" 2>"$T/err"; rc=$?
SOURCE_DATE_EPOCH=1700000000 $P reproduce --no-progress --only 3 --html "$T/r3b.html" >/dev/null 2>&1
sed 's/r3b\.html/r3a.html/' "$T/r3b.html" >"$T/r3c.html"
order=$(grep -n -m1 -e '<table class="verdicts cmp">' "$T/r3a.html" | cut -d: -f1)
plot=$(grep -n -m1 -e '<svg class="plot"' "$T/r3a.html" | cut -d: -f1)
fold=$(grep -n -m1 -e '<details class="output"><summary>' "$T/r3a.html" | cut -d: -f1)
if [ $rc -eq 0 ] && [ -n "$order" ] && [ -n "$plot" ] && [ -n "$fold" ] && [ "$order" -lt "$plot" ] &&
   [ "$plot" -lt "$fold" ] && grep -q '<p class="expect"><b>What to expect:</b> these verdicts' "$T/r3a.html" &&
   [ "$(grep -o '<rect class="pub"' "$T/r3a.html" | wc -l)" -eq 1 ] &&
   [ "$(grep -c '>swap in (KB/s)</text>' "$T/r3a.html")" -eq 1 ] &&
   grep -q 'mtest01 -b 33554432 -w' "$T/r3a.html" && cmp -s "$T/r3a.html" "$T/r3c.html"; then
	ok
else
	bad "rc $rc, verdicts at line ${order:-none}, plot ${plot:-none}, details ${fold:-none}"
fi
