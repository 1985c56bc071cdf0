# The write path's rows (src/mm/work.h, docs/cost.md): write_begin,
# generic_perform_write, folio_mark_dirty and writepages in the text
# report, and their costs in a profile file, charged per row.

t "run: the write path's rows of fileio -c -w -r 1 f 64p"
# The fill creates and dirties 64 pages, fsync writes them back (clean);
# the write pass finds them cached and dirties them again (no fsync).
$P run --ram 64M --policy linux6 fileio -c -w -r 1 f 64p >"$T/r" 2>&1 &&
	rows=$(awk '$1 ~ /^(write_begin|generic_perform_write|folio_mark_dirty|writepages)$/ && NF == 6 {
		printf "%s=%d ", $1, $2 + $3 + $4 + $5 + $6 }' "$T/r") &&
	[ "$rows" = "write_begin=64 generic_perform_write=128 folio_mark_dirty=128 writepages=64 " ] &&
	ok || bad "rows '$rows'"

t "run: a write() call's rows once a call, whatever its size (fileio -b 16)"
# 64 pages in calls of 16: the fill's 4 calls each extend the file and
# dirty new pages, the pass's 4 dirty the clean ones again: write_iter 8,
# write_iter_dirtied 8, write_iter_extend 4; the page rows as with -b 1.
msg=""
for b in 1 16; do
	$P run --ram 64M --policy linux6 fileio -b $b -c -w -r 1 f 64p >"$T/rb$b" 2>&1 || msg="$msg; -b $b: exit $?"
	eval "rows$b=\$(awk '\$1 ~ /^(write_begin|folio_mark_dirty|write_iter|write_iter_dirtied|write_iter_extend)\$/ &&
		NF == 6 { printf \"%s=%d \", \$1, \$2 + \$3 + \$4 + \$5 + \$6 }' \"\$T/rb$b\")"
done
[ "$rows1" = "write_begin=64 folio_mark_dirty=128 write_iter=128 write_iter_dirtied=128 write_iter_extend=64 " ] ||
	msg="$msg; -b 1: $rows1"
[ "$rows16" = "write_begin=64 folio_mark_dirty=128 write_iter=8 write_iter_dirtied=8 write_iter_extend=4 " ] ||
	msg="$msg; -b 16: $rows16"
# and charged once a call: each of the three at 1 us adds 20 us to -b 16
p0=$($P run --json --machine modern --ram 64M --policy linux6 fileio -b 16 -c -w -r 1 f 64p 2>/dev/null |
	grep -o '"system_s": [0-9.]*' | head -n 1 | awk '{ printf "%d", $2 * 1000000 + 0.5 }')
printf 'machine = modern\ncost.write_iter = 1us\ncost.write_iter_dirtied = 1us\ncost.write_iter_extend = 1us\n' \
	>"$T/wi.profile"
p1=$($P run --json --machine "$T/wi.profile" --ram 64M --policy linux6 fileio -b 16 -c -w -r 1 f 64p 2>/dev/null |
	grep -o '"system_s": [0-9.]*' | head -n 1 | awk '{ printf "%d", $2 * 1000000 + 0.5 }')
[ -n "$p0" ] && [ -n "$p1" ] && [ $((p1 - p0)) -eq 20 ] || msg="$msg; system $p0 -> $p1 us"
[ -z "$msg" ] && ok || bad "$msg"

t "run --machine FILE: cost.write_begin charged per page created"
# The same run with cost.write_begin 0, 1 and 2 us: fileio's system time
# grows by 64 us a step, to the microsecond.
msg="" prev=""
for v in 0 1 2; do
	printf 'machine = modern\ncost.write_begin = %sus\n' $v >"$T/p$v.profile"
	s=$($P run --json --machine "$T/p$v.profile" --ram 64M --policy linux6 fileio -c -w -r 1 f 64p 2>/dev/null |
		grep -o '"system_s": [0-9.]*' | head -n 1 | awk '{ printf "%d", $2 * 1000000 + 0.5 }')
	[ -n "$s" ] || msg="$msg; $v us: no system_s"
	[ -z "$prev" ] || [ $((s - prev)) -eq 64 ] || msg="$msg; $v us: $s after $prev"
	prev=$s
done
[ -z "$msg" ] && ok || bad "$msg"

t "machines --show: the write path's costs, 0 in a preset"
$P machines --show modern >"$T/m" 2>&1 &&
	grep -qE '^cost\.write_begin +0ns' "$T/m" && grep -qE '^cost\.folio_mark_dirty +0ns' "$T/m" &&
	grep -qE '^cost\.writepages +0ns' "$T/m" && grep -qE '^cost\.generic_perform_write +0ns' "$T/m" &&
	ok || bad "$(grep -E 'write|dirty' "$T/m")"
