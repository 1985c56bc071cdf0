#!/bin/sh
# genman.sh PAGELAB OUTDIR - write pagelab.1 and pagelab-policies.7 from
# the binary's own option tables (pagelab --dump-options CMD: src/cli/opt.h)
# and listings, so that the manual lists every command, option, workload,
# machine, policy and tunable the build has and cannot drift from it.
set -eu
P=$1
out=$2
mkdir -p "$out"
version=$("$P" --version | awk '{ print $2; exit }')

# roff-safe text: backslashes, leading dots and quotes, hyphens.
esc() { sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/' -e 's/-/\\-/g'; }
# A --help text as a no-fill block.
block() { echo '.nf'; echo '.ft CR'; esc; echo '.ft R'; echo '.fi'; }
# The commands: the rows of pagelab's own table.
commands() { "$P" --dump-options | awk -F '\t' '$1 == "arg" { print $2 }'; }
# A command from its table: the usage text, each option as a tagged
# paragraph ("--jobs, -j N"; an option without help shares the row
# before it: --progress, --no-progress), the headings and the text after.
command_page() {
	"$P" --dump-options "$1" >"$out/.dump"
	# roff requests are written as @@.XX, so that esc leaves them alone.
	awk -F '\t' '
	function flush() { if (tag != "") { print "@@.TP"; print "@@.B " tag; print help; tag = "" } }
	function text(s) { if (!nf) { print "@@.nf"; print "@@.ft CR"; nf = 1 } print s }
	function fill() { if (nf) { print "@@.ft R"; print "@@.fi"; nf = 0 } }
	$1 == "usage" || $1 == "after" { flush(); text($2); next }
	$1 == "section" { flush(); fill(); print "@@.PP"; print $2; next }
	$1 == "option" || $1 == "arg" {
		fill()
		name = $2; if ($1 == "option" && $3 != "-") name = name ", " $3
		if ($1 == "option" && $4 != "-") name = name " " $4
		if ($1 == "option" && $5 == "" && tag != "") { tag = tag " / " name; next }
		flush(); tag = name; help = ($1 == "arg" ? $3 : $5); next }
	END { flush(); fill() }' "$out/.dump" | esc | sed 's/^@@//'
	rm -f "$out/.dump"
}
# The names of a registry, one a line (the listing's text wraps).
names() { "$P" "$@" --names; }

# EXAMPLES: a command and what it does, one a line; tests/cli.d/report.sh
# checks that every option here is in its command's --help.
examples() {
	cat <<'END'
pagelab reproduce|the five threads' experiments in quick mode (under a minute): each thread's figures beside pagelab's, a verdict per comparison, and at the end where the expected verdicts and the cause of every disagreement are written down (reproduce.md)
pagelab reproduce --only 4 --html report.html|experiment 4 only, also as a self-contained HTML report: the verdicts with both ratios as bars, then timelines of every design
pagelab reproduce --full --jobs 2|the threads' own machine and workload sizes (minutes, and about 2.2 GB of memory at its peak)
pagelab run --machine vmm-2008 --policy clock --vmstat 1 usemem -m 1000|one run: a vmstat line a second, then time(1)'s figures and /proc/vmstat's counters
pagelab run --machine vmm-2008 --policy mglru --html run.html usemem -m 1000|the same run under MGLRU, with its timelines in run.html
pagelab run --machine vmm-2008 --ram 512M --policy splitlru dd if=/dev/sda bs=1M count=2048 + workingset -m 200|two workloads on one machine: a streaming read beside a working set
pagelab sweep --policy clock,lru,mglru --ram 48M,96M --seeds 3 -o r.jsonl -- usemem -m 80|three designs on two machine sizes over three seeds, into a results file
pagelab compare r.jsonl|that results file's designs side by side: % change and significance
pagelab policies --tunables mglru|a policy's tunables, for --set NAME=VALUE
pagelab machines --show vmm-2008|every parameter of a machine profile and where its value comes from
END
}

{
	echo ".TH PAGELAB 1 \"\" \"pagelab $version\" \"pagelab manual\""
	echo '.SH NAME'
	echo 'pagelab \- a laboratory for Linux page reclaim'
	echo '.SH SYNOPSIS'
	for c in $(commands); do
		echo ".B pagelab $c"
		echo '.RI [ OPTIONS "] ..."'
		echo '.br'
	done
	echo '.B pagelab \-\-version'
	echo '.SH DESCRIPTION'
	"$P" --help | awk '/^Commands:/ { exit } /^usage:/ || /^ / { next } { print }' | esc
	echo '.SH COMMANDS'
	for c in $(commands); do
		echo ".SS pagelab $c"
		command_page "$c"
	done
	echo '.SH WORKLOADS'
	echo 'Each workload takes its own options after its name;'
	echo 'several join with a lone'
	echo '.BR + .'
	for w in $(names workloads); do
		echo ".SS $w"
		"$P" workloads "$w" --help | block
	done
	echo '.SH MACHINES'
	echo 'Profiles for'
	echo '.BR \-\-machine ;'
	echo 'each parameter is settable with'
	echo '.BR "\-\-set NAME=VALUE" .'
	"$P" machines | block
	for m in $(names machines); do
		case $m in disk*) continue ;; esac
		echo ".SS $m"
		"$P" machines --show "$m" | block
	done
	echo '.SH POLICIES'
	echo 'The reclaim designs, and their tunables, are listed in'
	echo '.BR pagelab\-policies (7).'
	"$P" policies | block
	echo '.SH EXAMPLES'
	examples | while IFS='|' read -r cmd what; do
		echo '.TP'
		printf '.B %s\n' "$(echo "$cmd" | esc)"
		echo "$what" | esc
	done
	echo '.SH EXIT STATUS'
	echo '.TP'
	echo '.B 0'
	echo 'success'
	echo '.TP'
	echo '.B 1'
	echo 'a broken invariant under \-\-check, or an output that could not be written'
	echo '.TP'
	echo '.B 2'
	echo 'bad input: one line on standard error says what'
	echo '.TP'
	echo '.B 3'
	echo 'a run stopped at \-\-max\-time before its workloads finished'
	echo '.SH ENVIRONMENT'
	echo '.TP'
	echo '.B NO_COLOR'
	echo 'pagelab never writes colour or other terminal escapes, so there is nothing'
	echo 'to turn off; progress lines go to standard error only when it is a terminal'
	echo '(or with \-\-progress), never into the output.'
	echo '.SH FILES'
	echo 'The documentation is installed in'
	echo '.IR share/doc/pagelab/ :'
	echo 'architecture.md (read it first), design.md, machines.md, workloads.md,'
	echo 'reproduce.md and the others.'
	echo '.SH SEE ALSO'
	echo '.BR pagelab\-policies (7)'
} > "$out/pagelab.1"

{
	echo ".TH PAGELAB-POLICIES 7 \"\" \"pagelab $version\" \"pagelab manual\""
	echo '.SH NAME'
	echo 'pagelab\-policies \- the reclaim designs of pagelab and their tunables'
	echo '.SH DESCRIPTION'
	echo 'A policy is chosen with'
	echo '.BR "pagelab run \-\-policy NAME" ;'
	echo 'a tunable is set with'
	echo '.BR "\-\-set NAME=VALUE" .'
	echo '.SH POLICIES'
	for p in $(names policies); do
		echo ".SS $p"
		"$P" policies | awk -v p="$p" '
			$1 == p { on = 1; sub(/^[a-z0-9_-]+ +/, ""); print; next }
			on && /^ / { sub(/^ +/, ""); print; next }
			{ on = 0 }' | esc
		echo '.PP'
		"$P" policies --tunables "$p" | block
	done
	echo '.SH SEE ALSO'
	echo '.BR pagelab (1)'
} > "$out/pagelab-policies.7"
