# Reclaim's work, counted (src/mm/work.h, docs/cost.md): the table at the
# end of pagelab run's text, "reclaim_work" in --json and in sweep
# records, the HTML table; each design's own rows and no other's.

# The row NAME of the reclaim-work table of FILE, column COL (2 = kswapd,
# 3 = direct, 4 = memcg, 5 = aging, 6 = other); -1 if absent.
work() {
	awk -v n="$1" -v c="$3" 'f && $1 == n && NF == 6 { print $c; x = 1 }
		/^# reclaim work/ { f = 1 } END { if (!x) print -1 }' "$2"
}

t "run --memcg: linux6 isolates in batches, all of it limit reclaim's"
$P run --memcg 64M --policy linux6 usemem -m 80 >"$T/l6" 2>&1
msg=""
iso=$(work isolate_lru_folios "$T/l6" 4)
bat=$(work isolate_batches "$T/l6" 4)
put=$(work putback_batches "$T/l6" 4)
lock=$(work lru_lock "$T/l6" 4)
steal=$(counter pgsteal_anon "$T/l6")
moved=$(work move_folios_to_lru "$T/l6" 4)
[ "$iso" -gt 0 ] || msg="isolated $iso"
[ "$iso" -eq $((steal + moved)) ] || msg="$msg; isolated $iso != pgsteal $steal + put back $moved"
[ "$lock" -eq $((bat + put)) ] || msg="$msg; lru_lock $lock != $bat + $put"
[ "$(work isolate_lru_folios "$T/l6" 2)" = 0 ] || msg="$msg; kswapd isolated"
[ "$(work isolate_folios "$T/l6" 4)" = -1 ] || msg="$msg; MGLRU's row in linux6's table"
[ "$(work pageout "$T/l6" 4)" = "$(counter pswpout "$T/l6")" ] || msg="$msg; pageout != pswpout"
[ -z "$msg" ] && ok || bad "$msg"

t "run --memcg: mglru's page-table walks, none of linux6's rows"
$P run --memcg 64M --policy mglru usemem -m 80 >"$T/mg" 2>&1
msg=""
[ "$(work walk_mm "$T/mg" 4)" -gt 0 ] || msg="walk_mm $(work walk_mm "$T/mg" 4)"
[ "$(work walk_pte_range "$T/mg" 4)" -ge "$(work walk_pte_range_young "$T/mg" 4)" ] || msg="$msg; young > walked"
[ "$(work isolate_lru_folios "$T/mg" 4)" = -1 ] || msg="$msg; linux6's row in mglru's table"
[ "$(work isolate_folios "$T/mg" 4)" = "$(counter pgscan_anon "$T/mg")" ] || msg="$msg; isolate_folios != pgscan_anon"
[ -z "$msg" ] && ok || bad "$msg"

t "run: the table fits 80 columns and the run is the same twice"
$P run --memcg 64M --policy mglru usemem -m 80 >"$T/mg2" 2>&1
w=$(sed -n '/^# reclaim work/,$p' "$T/mg" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
[ "$w" -le 80 ] && cmp -s "$T/mg" "$T/mg2" && ok || bad "width $w, or the runs differ"

t "run --json and sweep -o: reclaim_work by reclaimer, with a total"
$P run --json --memcg 64M --policy linux6 usemem -m 80 >"$T/j" 2>&1
$P sweep --policy linux6,mglru --memcg 64M -o "$T/sw.jsonl" -- usemem -m 80 >/dev/null 2>&1
msg=""
grep -q '"reclaim_work": {"kswapd": {"isolate_lru_folios": 0,' "$T/j" || msg="no reclaim_work in --json"
grep -q "\"total\": {\"isolate_lru_folios\": $iso," "$T/j" || msg="$msg; --json's total is not the text's $iso"
n=$(grep -c '"reclaim_work": {"kswapd"' "$T/sw.jsonl")
[ "$n" -eq 2 ] || msg="$msg; $n of 2 records with reclaim_work"
grep '"design": "mglru"' "$T/sw.jsonl" | grep -q '"walk_pte_range": ' || msg="$msg; mglru's record lacks walk_pte_range"
[ -z "$msg" ] && ok || bad "$msg"

t "run --html: the reclaim work table, rows that moved"
$P run --memcg 64M --policy mglru --html "$T/r.html" usemem -m 80 >/dev/null 2>&1
grep -q '<h2>Reclaim work</h2>' "$T/r.html" && grep -q '<td>walk_pte_range</td>' "$T/r.html" &&
	! grep -q '<td>lru_gen_look_around_ptes</td><td class="n">0</td><td class="n">0</td><td class="n">0</td><td class="n">0</td><td class="n">0</td>' "$T/r.html" &&
	ok || bad "no table, or a row of zeros"

# docs/cost.md's side-by-side table is what the binary prints: each row's
# figure under linux6 and mglru (memcg column; clear_page_bytes: other).
t "docs/cost.md: linux6 against mglru, usemem -m 1000 in --memcg 900M"
doc=$(dirname "$0")/../docs/cost.md
$P run --memcg 900M --policy linux6 usemem -m 1000 >"$T/d6" 2>&1
$P run --memcg 900M --policy mglru usemem -m 1000 >"$T/dm" 2>&1
msg=""
rows=$(sed -n '/^| operation | linux6 | mglru |/,/^$/p' "$doc" | sed -n '3,$p' | grep '^|')
[ -n "$rows" ] || msg="no table in $doc"
echo "$rows" | while IFS='|' read -r _ op a b _; do
	name=$(echo "$op" | awk '{ print $1 }')
	col=4
	[ "$name" = clear_page_bytes ] && col=6
	for d in 6 m; do
		want=$( [ $d = 6 ] && echo "$a" || echo "$b")
		want=$(echo "$want" | tr -d ' ')
		f="$T/d$d"
		got=$(work "$name" "$f" $col)
		[ "$name" = isolate_lru_folios ] && [ $d = m ] && got=$(work isolate_folios "$f" $col)
		[ "$got" = -1 ] && got=-
		[ "$got" = "$want" ] || echo "$name under $d: doc $want, run $got"
	done
done >"$T/docdiff"
[ -s "$T/docdiff" ] && msg="$msg; $(head -3 "$T/docdiff" | tr '\n' ';')"
[ -z "$msg" ] && ok || bad "$msg"

t "compare --metric: a work row's total per design, absent ones as -"
$P compare --metric walk_pte_range,lru_lock "$T/sw.jsonl" >"$T/cmp" 2>/dev/null
awk '$1 == "Amean" && $2 == "walk_pte_range" && $3 == "-" && $4 > 0 { w = 1 }
	$1 == "Amean" && $2 == "lru_lock" && $3 > 0 && $4 > 0 { l = 1 } END { exit !(w && l) }' "$T/cmp" &&
	ok || bad "$(grep Amean "$T/cmp" | tr '\n' ';')"
