# --set zswap=N (issue 40, docs/zram.md): zswap in front of a disk swap
# area, its debugfs counters, the pool limit and its writeback.  Small
# machines, runs stopped at --max-time while the workloads hold their
# memory (exit 3).  About 1 s.

TABLE="$(dirname "$0")/../src/mm/compress_table.c"
Z="--ram 128M --swap 256M --set zswap=1"

t "usemem's same-filled pages: compressed (6.12+), no disk write"
$P run $Z --memcg 12M --max-time 1 usemem -m 24 -s 100 >"$T/u" 2>"$T/u.err"
rc=$?
st=$(counter stored_pages "$T/u")
# lz4 of a same-filled page: the table's (26 bytes), charged to the memcg
same=$(awk '/\/\* same \*\//{getline; gsub(/[{},]/, " "); print $3; exit}' "$TABLE")
msg=""
[ $rc -eq 3 ] || msg="exit $rc: $(cat "$T/u.err")"
[ "$st" -gt 2000 ] || msg="$msg; stored_pages $st"
[ "$(counter zswpout "$T/u")" -eq "$st" ] || msg="$msg; zswpout"
[ "$(counter pswpout "$T/u")" -eq 0 ] || msg="$msg; pswpout not 0"
[ "$(counter memory.stat.zswapped "$T/u")" -eq "$st" ] || msg="$msg; zswapped"
[ "$(counter memory.stat.zswap "$T/u")" -eq $((st * same)) ] || msg="$msg; zswap bytes not $st x $same"
[ "$(counter pool_total_size "$T/u")" -gt 0 ] || msg="$msg; no pool"
[ -z "$msg" ] && ok || bad "$msg"

t "zswap.same_filled=1 (6.8-6.11): kept as values, no pool"
$P run $Z --set zswap.same_filled=1 --memcg 12M --max-time 1 usemem -m 24 -s 100 >"$T/s" 2>&1
st=$(counter stored_pages "$T/s")
[ "$st" -gt 2000 ] && [ "$(counter same_filled_pages "$T/s")" -eq "$st" ] &&
	[ "$(counter pool_total_size "$T/s")" -eq 0 ] &&
	[ "$(counter memory.stat.zswap "$T/s")" -eq 0 ] && ok ||
	bad "$(grep -E '^(stored|same|pool_total)' "$T/s" | tr '\n' ' ')"

t "usemem -r 2: the second sweep loads from zswap, reads no disk"
$P run $Z --memcg 12M usemem -m 24 -r 2 >"$T/r" 2>&1
[ "$(counter zswpin "$T/r")" -gt 2000 ] && [ "$(counter pswpin "$T/r")" -eq 0 ] &&
	[ "$(counter stored_pages "$T/r")" -eq 0 ] && ok ||
	bad "$(grep -E '^(zswpin|pswpin|stored)' "$T/r" | tr '\n' ' ')"

t "qsbench's ints do not compress below a page: all to disk"
$P run $Z --memcg 12M --max-time 0.6 qsbench -m 24 >"$T/q" 2>&1
out=$(counter pswpout "$T/q")
[ "$out" -gt 1000 ] && [ "$(counter reject_compress_poor "$T/q")" -eq "$out" ] &&
	[ "$(counter zswpout "$T/q")" -eq 0 ] && ok ||
	bad "$(grep -E '^(pswpout|zswpout|reject_compress)' "$T/q" | tr '\n' ' ')"

t "max_pool_percent=2: the pool stops at its limit, shrink_worker writes back"
$P run $Z --set zswap.max_pool_percent=2 --memcg 12M --max-time 3.5 kbuild -j 4 --units 16 >"$T/k" 2>&1
# 2% of the allocator's pages; a store may open one zspage (8 pages) past it
pages=$(sed -n 's/.*(\([0-9]*\) pages for the page allocator).*/\1/p' "$T/k")
lim=$((pages * 2 / 100))
max=$(($(counter pool_max_size "$T/k") / 4096))
wb=$(counter zswpwb "$T/k")
[ "$(counter pool_limit_hit "$T/k")" -gt 0 ] && [ "$wb" -gt 0 ] &&
	[ "$max" -ge "$lim" ] && [ "$max" -lt $((lim + 8)) ] &&
	[ "$(counter written_back_pages "$T/k")" -eq "$wb" ] &&
	[ "$(counter pswpout "$T/k")" -ge "$wb" ] && ok ||
	bad "limit $lim max $max: $(grep -E '^(zsw|pool|pswpout)' "$T/k" | tr '\n' ' ')"

t "zswap: the same run twice, byte-identical; --json has its object"
$P run $Z --memcg 12M --max-time 1 usemem -m 24 -s 100 >"$T/u2" 2>/dev/null
$P run $Z --memcg 12M --max-time 1 --json usemem -m 24 -s 100 >"$T/j" 2>&1
cmp -s "$T/u" "$T/u2" && grep -q '"zswap": {' "$T/j" && grep -q '"zswpout": ' "$T/j" && ok ||
	bad "differs or no json object"

t "no zswap: no section"
$P run --ram 128M --swap 256M --memcg 12M --max-time 0.5 usemem -m 24 >"$T/n" 2>&1
grep -q '^# zswap' "$T/n" && bad "a zswap section" || ok

t "zswap with zram, or an unknown algorithm: exit 2, one line"
$P run --ram 128M --swap zram:64M --set zswap=1 usemem -m 8 >"$T/e1" 2>&1
rc1=$?
$P run --ram 128M --swap 64M --set zswap=4 usemem -m 8 >"$T/e2" 2>&1
rc2=$?
[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ "$(wc -l <"$T/e1")" -eq 1 ] && [ "$(wc -l <"$T/e2")" -eq 1 ] && ok ||
	bad "exit $rc1/$rc2: $(cat "$T/e1" "$T/e2")"

# Regression: a zsmalloc pool's frames are nobody's charge.  Freed, they
# were uncharged from the root cgroup of a --cgroup tree all the same,
# and --check found memory.current below the root's pages.
t "zram and zswap pools under --cgroup: --check passes"
$P run --ram 64M --cgroup /a:max=6M --swap zram:32M --check kbuild -j 2 --units 3 --headers 50 @/a >"$T/c1" 2>&1
rc1=$?
$P run --ram 64M --cgroup /a:max=6M --swap 32M --set zswap=1 --set zswap.max_pool_percent=1 --check \
	kbuild -j 2 --units 3 --headers 50 @/a >"$T/c2" 2>&1
rc2=$?
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(counter mm_stat.mem_used_max "$T/c1")" -gt 0 ] &&
	[ "$(counter zswpout "$T/c2")" -gt 0 ] && ok ||
	bad "exit $rc1/$rc2: $(grep -h 'check:' "$T/c1" "$T/c2" | head -2)"

t "--cgroup /a:zswap.max=0: every page of /a refused, to disk"
$P run --ram 64M --cgroup /a:max=6M,zswap.max=0 --swap 32M --set zswap=1 kbuild -j 2 --units 3 --headers 50 @/a >"$T/zm" 2>&1
out=$(counter pswpout "$T/zm")
[ "$out" -gt 1000 ] && [ "$(counter reject_zswap_max "$T/zm")" -eq "$out" ] && [ "$(counter zswpout "$T/zm")" -eq 0 ] && ok ||
	bad "$(grep -E '^(pswpout|zswpout|reject_zswap)' "$T/zm" | tr '\n' ' ')"
