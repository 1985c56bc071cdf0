# Terminal-friendly output (issues 15, 35): reproduce fits 80 columns.
# (The listings' widths are checked in install.sh, quick reproduce's in
# report.sh, which runs it.)  About 5 s.

t "every command's --help fits 80 columns"
msg=
for c in "" run policies workloads machines reproduce sweep merge mrc compare kernel record trace \
	"trace convert" "trace info"; do
	# shellcheck disable=SC2086
	$P $c --help >"$T/help" 2>&1
	w=$(awk 'length > 80 { print NR ": " length }' "$T/help" | head -1)
	[ -n "$w" ] && msg="$msg '$c' line $w;"
done
[ -z "$msg" ] && ok || bad "$msg"

# --full prints the threads' sizes (longer figures: 1:35:18 builds, GB of
# swap); experiment 3 is the one cheap enough here (about 4 s of CPU).
# --json is for programs (a run per line) and is not held to 80 columns.
t "reproduce --full (experiment 3): no line wider than 80 columns"
$P reproduce --full --only 3 --no-progress >"$T/repro_full" 2>"$T/err"; rc=$?
w=$(awk 'length > 80 { print NR ": " length ": " $0 }' "$T/repro_full" | head -2)
if [ $rc -eq 0 ] && [ -z "$w" ] && grep -q '^experiment 3: ' "$T/repro_full"; then ok; else bad "rc $rc: $w $(head -2 "$T/err")"; fi

# The host-time lines (--progress, and every --full run) go to stderr.
t "reproduce --progress: the host-time lines fit 80 columns"
$P reproduce --only 3 --progress >/dev/null 2>"$T/err"; rc=$?
w=$(tr '\r' '\n' <"$T/err" | awk 'length > 80 { print length ": " $0 }' | head -2)
if [ $rc -eq 0 ] && [ -z "$w" ] && grep -q 'experiment 3 done at' "$T/err"; then ok; else bad "rc $rc: $w"; fi
