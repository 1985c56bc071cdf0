# --swap zram:SIZE (issue 40, docs/zram.md): the compressed RAM swap
# device, its mm_stat and io_stat, and the data kinds behind them.  The
# runs stop at --max-time (exit 3) while the workload still holds its
# memory, so that mm_stat shows what is stored.  About 3 s.

TABLE="$(dirname "$0")/../src/mm/compress_table.c"

t "usemem's memset: same-filled pages, no pool memory"
$P run --memcg 512M --swap zram:1G --max-time 5 usemem -m 800 -s 100 >"$T/u" 2>"$T/u.err"
rc=$?
out=$(counter pswpout "$T/u")
same=$(counter mm_stat.same_pages "$T/u")
msg=""
[ $rc -eq 3 ] || msg="exit $rc: $(cat "$T/u.err")"
[ "$out" -gt 50000 ] || msg="$msg; pswpout $out"
[ "$same" -eq "$out" ] || msg="$msg; same_pages $same, pswpout $out"
[ "$(counter mm_stat.orig_data_size "$T/u")" -eq $((same * 4096)) ] || msg="$msg; orig_data_size"
[ "$(counter mm_stat.compr_data_size "$T/u")" -eq 0 ] || msg="$msg; compr_data_size not 0"
[ "$(counter mm_stat.mem_used_total "$T/u")" -eq 0 ] || msg="$msg; mem_used_total not 0"
[ "$(counter mm_stat.huge_pages "$T/u")" -eq 0 ] || msg="$msg; huge_pages not 0"
grep -q '^# /sys/block/zram0' "$T/u" || msg="$msg; no zram section"
[ -z "$msg" ] && ok || bad "$msg"

t "qsbench's ints: the table's sizes, over the huge threshold"
$P run --memcg 16M --swap zram:64M --max-time 0.6 qsbench -m 24 >"$T/q" 2>&1
stored=$(($(counter mm_stat.orig_data_size "$T/q") / 4096))
huge=$(counter mm_stat.huge_pages "$T/q")
# the table: every ints page compresses to more than huge_class_size
# (3625 with 8-page zspages), so each is stored whole
min=$(awk '/\/\* ints \*\//{getline; gsub(/[{},]/, " "); print $3; exit}' "$TABLE")
[ "$stored" -gt 1000 ] && [ "$huge" -eq "$stored" ] && [ "$min" -gt 3625 ] &&
	[ "$(counter mm_stat.compr_data_size "$T/q")" -eq $((stored * 4096)) ] &&
	[ "$(counter mm_stat.mem_used_total "$T/q")" -eq $((stored * 4096)) ] &&
	[ "$(counter mm_stat.same_pages "$T/q")" -eq 0 ] && ok ||
	bad "stored $stored huge $huge min $min: $(grep mm_stat "$T/q" | tr '\n' ' ')"

t "kbuild's text: in the table's lz4 range; the pool rounds up"
$P run --memcg 12M --swap zram:256M --max-time 3.5 kbuild -j 4 --units 16 >"$T/k" 2>&1
stored=$(($(counter mm_stat.orig_data_size "$T/k") / 4096))
compr=$(counter mm_stat.compr_data_size "$T/k")
used=$(counter mm_stat.mem_used_total "$T/k")
set -- $(awk '/\/\* text \*\//{getline; gsub(/[{},]/, " "); print $3, $19; exit}' "$TABLE")
[ "$stored" -gt 100 ] && [ "$compr" -ge $((stored * $1)) ] && [ "$compr" -le $((stored * $2)) ] &&
	[ "$used" -ge "$compr" ] && [ $((used % 4096)) -eq 0 ] && ok ||
	bad "stored $stored compr $compr used $used (table $1..$2)"

t "zstd packs kbuild's text tighter than lz4, same pages"
$P run --memcg 12M --swap zram:256M,algo=zstd --max-time 3.5 kbuild -j 4 --units 16 >"$T/kz" 2>&1
[ "$(counter mm_stat.orig_data_size "$T/kz")" -gt 0 ] &&
	[ "$(counter mm_stat.compr_data_size "$T/kz")" -lt "$compr" ] && ok ||
	bad "$(grep mm_stat "$T/kz" | tr '\n' ' ')"

t "zram: the same run twice, byte-identical"
$P run --memcg 16M --swap zram:64M qsbench -m 24 >"$T/a" 2>&1
$P run --memcg 16M --swap zram:64M qsbench -m 24 >"$T/b" 2>&1
cmp -s "$T/a" "$T/b" && [ "$(counter pswpin "$T/a")" -gt 0 ] && ok || bad "differs"

t "zram swap-in: synchronous, no readahead (disk swap reads ahead)"
$P run --memcg 16M --swap 64M qsbench -m 24 >"$T/disk" 2>&1
# every swap-in a fault of its own: pgmajfault = pswpin, no swap_ra;
# no disk wait: qsbench's elapsed time is its CPU time
[ "$(counter swap_ra "$T/a")" -eq 0 ] && [ "$(counter swap_ra "$T/disk")" -gt 0 ] &&
	[ "$(counter pgmajfault "$T/a")" -eq "$(counter pswpin "$T/a")" ] &&
	grep -q '^qsbench -m 24 .* 100% cpu' "$T/a" && ok ||
	bad "swap_ra $(counter swap_ra "$T/a"): $(grep '% cpu' "$T/a")"

t "--json: a zram object; plain --swap SIZE has none"
$P run --memcg 16M --swap zram:64M --json --max-time 0.6 qsbench -m 24 >"$T/j" 2>&1
$P run --memcg 16M --swap 64M --max-time 0.6 qsbench -m 24 >"$T/d" 2>&1
grep -q '"zram": {"mm_stat.orig_data_size": [1-9]' "$T/j" && ! grep -q 'mm_stat' "$T/d" && ok ||
	bad "$(grep -o '"zram": {[^}]*' "$T/j" | head -c 200)"

t "--set swap=zram:SIZE is --swap zram:SIZE"
$P run --set swap=zram:64M --memcg 16M --max-time 0.6 qsbench -m 24 >"$T/s" 2>&1
[ "$(counter mm_stat.huge_pages "$T/s")" -eq "$(counter mm_stat.huge_pages "$T/q")" ] && ok || bad "differs"

t "a trace: zram.trace_ratio=200 stores halves, 0 whole pages"
TR="$(dirname "$0")/data/cloudPhysicsIO.txt.zst"
if needs codec:zstd; then
	$P run --full-machine --ram 64M --swap zram:1G --set zram.trace_ratio=200 trace "$TR" >"$T/t2" 2>&1
	$P run --full-machine --ram 64M --swap zram:1G trace "$TR" >"$T/t0" 2>&1
	[ "$(counter pswpout "$T/t2")" -gt 0 ] && [ "$(counter mm_stat.huge_pages_since "$T/t2")" -eq 0 ] &&
		[ "$(counter pswpout "$T/t0")" -gt 0 ] &&
		[ "$(counter mm_stat.huge_pages_since "$T/t0")" -eq "$(counter pswpout "$T/t0")" ] && ok ||
		bad "$(grep -e pswpout -e huge "$T/t2" "$T/t0" | tr '\n' ' ')"
fi

for args in "--machine ideal --swap zram:1G" "--swap zram:1G,algo=lz5" "--swap zram:x" "--swap zram:1G,level=3" "--swap zram:" \
	    "--set swap=zram:1G,algo=lz5"; do
	t "bad input: run $args"
	# shellcheck disable=SC2086
	$P run $args usemem -m 4 >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done
