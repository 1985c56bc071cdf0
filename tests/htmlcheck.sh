#!/bin/sh
# make htmlcheck: write the `pagelab reproduce --html` report, and the
# --html pages of run, sweep and compare, and open each in headless
# Chromium (Debian's chromium package); a screenshot of each goes to the
# build directory (reproduce-report.png, run-report.png, ...).  Checks that the page loads
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
dom=$dir/dom.html
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
nratio=$(grep -c '^ *thread  [^ ]* / [^ ]* = ' "$dir/report.txt")
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

# A report, not a log: in each section the verdicts with the thread's
# figures against pagelab's come first, then the timelines, and the text
# report's tables are folded away in a <details> after them.
t "each section: verdicts, then timelines, then the folded output"
msg=$(awk '/<section id="exp-/ { s++; ln = 0 }
	s { ln++ }
	/<table class="verdicts cmp">/ && !cmp[s] { cmp[s] = ln }
	/<svg class="plot"/ && !plot[s] { plot[s] = ln }
	/<details class="output">/ && !det[s] { det[s] = ln }
	/<pre/ && !/<pre class="head">/ && !pre[s] { pre[s] = ln }
	END {
		for (i = 1; i <= s; i++)
			if (!(cmp[i] && plot[i] > cmp[i] && det[i] > plot[i] && pre[i] > det[i]))
				printf "section %d: verdicts at %d, first plot %d, details %d, output %d; ", i, cmp[i], plot[i], det[i], pre[i]
		if (!s) print "no section"
	}' "$dom")
[ -z "$msg" ] && ok || bad "$msg"

# Swap in and swap out have their own value axes (a shared one hid swap
# in), in the reproduce report (one pair per run) and on the run page.
t "swap in and swap out each have a chart of their own"
runs=$(grep -c '^<h4>' "$dom")
si=$(grep -c '^<text class="lbl" [^>]*>swap in (KB/s)</text>' "$dom")
so=$(grep -c '^<text class="lbl" [^>]*>swap out (KB/s)</text>' "$dom")
[ "$runs" -gt 0 ] && [ "$si" -eq "$runs" ] && [ "$so" -eq "$runs" ] && ok || bad "$runs runs, $si swap-in and $so swap-out charts"

# The pages of run, sweep and compare: each loads, stays silent, holds
# what it wrote (plots, lines, bars, legend entries, markers) in the
# rendered DOM, and leaves a screenshot beside the reproduce one.
shotdir=$(dirname "$shot")
page() {  # page NAME FILE H1 MUST: MUST is an element the page must have
	t "$1 --html: loads, self-contained, every element rendered"
	msg=
	ext=$(sed 's#xmlns="http://www.w3.org/2000/svg"##g' "$2" | grep -ciE '<script|src=|href="(https?:)?//|url\(|@import|https?://')
	[ "$ext" -eq 0 ] || msg="$ext outside references;"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$dir/profile" \
		--enable-logging=stderr --v=0 --dump-dom "file://$2" >"$dir/$1.dom" 2>"$dir/$1.log" || msg="$msg chromium failed;"
	grep -q "<h1>$3</h1>" "$dir/$1.dom" || msg="$msg no <h1>$3</h1>;"
	! grep -q CONSOLE "$dir/$1.log" || msg="$msg console: $(grep CONSOLE "$dir/$1.log" | head -1);"
	counts=
	for e in '<svg' '<polyline' '<rect class="bar"' '<line class="ci"' 'class="legend-entry"' \
		 'class="mark-oom"' 'class="mark-maxtime"' 'class="mark-sig"'; do
		want=$(grep -o "$e" "$2" | wc -l)
		got=$(grep -o "$e" "$dir/$1.dom" | wc -l)
		[ "$got" -eq "$want" ] || msg="$msg $e $got of $want;"
		counts="$counts $(echo "$e" | sed 's/.*class="//; s/"//; s/<//') $got"
	done
	[ "$(grep -o '<svg' "$dir/$1.dom" | wc -l)" -gt 0 ] || msg="$msg no plot;"
	[ "$(grep -o "$4" "$dir/$1.dom" | wc -l)" -gt 0 ] || msg="$msg no $4;"
	[ -z "$msg" ] && ok || bad "$msg"
	echo "htmlcheck: $1:$counts"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$dir/profile" \
		--hide-scrollbars --window-size=1280,1600 --screenshot="$shotdir/$1-report.png" "file://$2" \
		>/dev/null 2>&1 && echo "htmlcheck: screenshot in $shotdir/$1-report.png"
}

# A run with an OOM kill (64 MB + 32 MB swap cannot hold 120 MB).
$P run --ram 64M --swap 32M --html "$dir/run.html" usemem -m 120 + usemem -m 30 >/dev/null 2>&1
page run "$dir/run.html" "pagelab run" '<path class="mark-oom"'
t "run --html: swap in and swap out on charts of their own"
grep -q '>swap in (KB/s)</text>' "$dir/run.dom" && grep -q '>swap out (KB/s)</text>' "$dir/run.dom" && ok ||
	bad "no separate swap in / swap out charts"
# A sweep whose smallest machine OOM-kills usemem, 2 seeds.
$P sweep --no-progress --policy clock,lru,mglru --ram 48M,96M,192M --swap 24M --seeds 2 --jobs 2 \
	--html "$dir/sweep.html" -- usemem -m 80 >/dev/null 2>&1
page sweep "$dir/sweep.html" "pagelab sweep" '<path class="mark-oom"'
# qsbench over 5 seeds, three designs compared.
$P sweep --no-progress --policy splitlru,workingset,mglru --ram 10M --seeds 5 --jobs 2 -o "$dir/cmp.jsonl" \
	-- qsbench -p 2 -m 2 >/dev/null 2>&1
$P compare --html "$dir/compare.html" "$dir/cmp.jsonl" >/dev/null 2>&1
page compare "$dir/compare.html" "pagelab compare" '<text class="mark-sig"'

echo "$passed passed, $failed failed"
exit $fail
