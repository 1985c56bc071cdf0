#!/bin/sh
# make htmlcheck: write the `pagelab reproduce --html` report and open it in
# headless Chromium (Debian's chromium package).  Checks that the page loads
# (Chromium exits 0 and dumps the whole DOM), that the console stayed silent
# (the page has no script, so any console message is an error), that it is
# self-contained (no script, no external URL), and that the plots are there:
# as many <svg> and <polyline> elements in the rendered DOM as the report
# wrote, and at least one of each.
#   PAGELAB     the binary (default ./pagelab)
#   CHROMIUM    the browser (default /usr/bin/chromium)
#   REPRODUCE   extra arguments for pagelab reproduce (e.g. "--only 5")
set -u
P=${PAGELAB:-./pagelab}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
passed=0
failed=0
t() { printf '%-60s' "$1"; }
ok() { echo ok; passed=$((passed + 1)); }
bad() { echo "FAILED: $1"; fail=1; failed=$((failed + 1)); }

if [ ! -x "$CHROMIUM" ]; then
	echo "htmlcheck: $CHROMIUM not found (apt-get install chromium)"
	exit 1
fi

t "pagelab reproduce --html writes the report"
if $P reproduce --no-progress ${REPRODUCE:-} --html "$dir/report.html" >"$dir/report.txt" 2>"$dir/pagelab.err" &&
   [ -s "$dir/report.html" ]; then ok; else bad "$(cat "$dir/pagelab.err")"; fi

t "the report is self-contained (no script, no external URL)"
ext=$(sed 's#xmlns="http://www.w3.org/2000/svg"##g' "$dir/report.html" | grep -ciE '<script|src=|href="(https?:)?//|url\(|@import|https?://')
[ "$ext" -eq 0 ] && ok || bad "$ext lines refer to something outside the file"

t "headless Chromium loads it"
mkdir -p "$dir/profile"
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$dir/profile" \
	--enable-logging=stderr --v=0 --dump-dom "file://$dir/report.html" >"$dir/dom.html" 2>"$dir/chromium.log"
rc=$?
if [ $rc -eq 0 ] && grep -q '</html>' "$dir/dom.html" && grep -q '<h1>pagelab reproduce</h1>' "$dir/dom.html"; then
	ok
else
	bad "chromium exited $rc; $(tail -3 "$dir/chromium.log")"
fi

t "no console messages"
if grep -q 'CONSOLE' "$dir/chromium.log"; then bad "$(grep CONSOLE "$dir/chromium.log" | head -3)"; else ok; fi

t "the plots are in the rendered DOM"
want_svg=$(grep -o '<svg' "$dir/report.html" | wc -l)
want_line=$(grep -o '<polyline' "$dir/report.html" | wc -l)
got_svg=$(grep -o '<svg' "$dir/dom.html" | wc -l)
got_line=$(grep -o '<polyline' "$dir/dom.html" | wc -l)
if [ "$got_svg" -gt 0 ] && [ "$got_line" -gt 0 ] && [ "$got_svg" -eq "$want_svg" ] && [ "$got_line" -eq "$want_line" ]; then
	ok
else
	bad "svg $got_svg of $want_svg, polyline $got_line of $want_line"
fi
echo "htmlcheck: $got_svg plots, $got_line lines"

t "the comparison bars: tolerance band, thread and pagelab per ratio"
msg=
for c in band pub sim; do
	want=$(grep -o "<rect class=\"$c\"" "$dir/report.html" | wc -l)
	got=$(grep -o "<rect class=\"$c\"" "$dir/dom.html" | wc -l)
	[ "$want" -gt 0 ] && [ "$got" -eq "$want" ] || msg="$msg $c $got of $want;"
done
nratio=$(grep -c 'thread  .* = .*  (' "$dir/report.txt")
[ "$(grep -o '<rect class="band"' "$dir/dom.html" | wc -l)" -eq "$nratio" ] || msg="$msg bands != $nratio ratio verdicts;"
[ -z "$msg" ] && ok || bad "$msg"

t "the summary tally and the provenance header come first"
if grep -q '<p class="prov">pagelab .* mode .*UTC<br><code>pagelab reproduce' "$dir/dom.html" &&
   [ "$(grep -o '<svg class="tallybar"' "$dir/dom.html" | wc -l)" -eq "$(grep -c '^== Experiment' "$dir/report.txt")" ]; then
	ok
else
	bad "no provenance line or tally"
fi

# A picture for a person to look at: what a reader sees first.
shot=${SCREENSHOT:-build/reproduce-report.png}
mkdir -p "$(dirname "$shot")"
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$dir/profile" \
	--hide-scrollbars --window-size=1280,1600 --screenshot="$shot" "file://$dir/report.html" >/dev/null 2>&1 &&
	echo "htmlcheck: screenshot in $shot"

t "every experiment has its section"
n=$(grep -o '<section id="exp-[0-9]*">' "$dir/dom.html" | wc -l)
[ "$n" -eq "$(grep -c '^== Experiment' "$dir/report.txt")" ] && [ "$n" -gt 0 ] && ok || bad "$n sections"

echo "$passed passed, $failed failed"
exit $fail
