# Terminal-friendly output (issue 15): quick reproduce fits 80 columns.
# (The listings' widths are checked in install.sh.)  About 15 s.

t "quick reproduce: no line wider than 80 columns"
$P reproduce --no-progress >"$T/repro" 2>"$T/err"; rc=$?
w=$(awk 'length > 80 { print NR ": " length ": " $0 }' "$T/repro" | head -2)
if [ $rc -eq 0 ] && [ -z "$w" ] && grep -q '^summary: ' "$T/repro"; then ok; else bad "rc $rc: $w $(head -2 "$T/err")"; fi
