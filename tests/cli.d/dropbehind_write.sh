# Dropbehind of written pages: RWF_DONTCACHE writes (fileio -D, fio
# --uncached=1; src/mm/filemap.c, 6.14+
# generic_perform_write() with FGP_DONTCACHE, folio_end_dropbehind()
# after writeback): each page a write creates is dropped when its
# writeback, which the write kicks, ends; and a plugin's admit() asked for
# written pages (cache_ext_fifo.so).  Sourced by tests/cli.sh (P,
# T, t, ok, bad).  Cost: under a second.

vm() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

t "fileio -D: 64M written through 16M, no reclaim, no page cache left"
# 16384 pages written, each freed at the end of its writeback; plain
# writes of the same file make kswapd reclaim (and keep a cache).
$P run --ram 16M fileio -w -D -f f 64M >"$T/d" 2>&1
$P run --ram 16M fileio -w -f f 64M >"$T/p" 2>&1
[ "$(vm nr_file_pages "$T/d") $(vm pgfree "$T/d") $(vm pgscan_kswapd "$T/d")" = "0 16384 0" ] &&
	[ "$(vm pgpgout "$T/d")" = 65536 ] && [ "$(vm pgpgout "$T/p")" = 65536 ] &&
	[ "$(vm pgscan_kswapd "$T/p")" -gt 0 ] && [ "$(vm nr_file_pages "$T/p")" -gt 0 ] &&
	ok || bad "$(grep -E '^(nr_file_pages|pgfree|pgscan_kswapd|pgpgout) ' "$T/d" "$T/p" | tr '\n' ' ')"

t "fileio -D -c: the written pages go, the uncached read pass drops them too"
# 64 pages created uncached and dropped (64 freed), then read back from
# the disk (256 KB in) with RWF_DONTCACHE and dropped again (64 more;
# tests/cli.d/dropbehind_read.sh).
$P run --ram 64M fileio -c -D f 64p >"$T/c" 2>&1
[ "$(vm nr_file_pages "$T/c") $(vm pgfree "$T/c") $(vm pgpgin "$T/c")" = "0 128 256" ] &&
	ok || bad "$(grep -E '^(nr_file_pages|pgfree|pgpgin) ' "$T/c" | tr '\n' ' ')"

t "fileio -D with -m or -d: one line, exit 2"
msg="pagelab: fileio: -D (RWF_DONTCACHE) is for read() and write() calls: not with -m or -d"
r=
for a in "-m -w -D" "-d -w -D" "-m -D"; do
	$P run --ram 16M fileio $a f 1M >/dev/null 2>"$T/e"
	r="$r$?"
	[ "$(cat "$T/e")" = "$msg" ] || r="${r}x"
done
[ "$r" = 222 ] && ok || bad "$r: $(cat "$T/e")"

t "fio --ioengine=pvsync2 --uncached=1: writes leave only their writeback"
# 16384 pages written through 32M: uncached, kswapd never scans and the
# page cache at the end is the 512 pages still being written; plain
# (uncached=0) writes make kswapd scan.
f="fio --name=w --rw=write --bs=64k --size=64M --ioengine=pvsync2"
$P run --ram 32M $f --uncached=1 >"$T/u" 2>&1
$P run --ram 32M $f --uncached=0 >"$T/n" 2>&1
[ "$(vm nr_file_pages "$T/u") $(vm nr_writeback "$T/u") $(vm pgscan_kswapd "$T/u")" = "512 512 0" ] &&
	grep -q '^w: (g=0): rw=write, bs=(R) 65536B-65536B, ioengine=pvsync2, iodepth=1$' "$T/u" &&
	[ "$(vm pgscan_kswapd "$T/n")" -gt 0 ] && ok ||
	bad "$(grep -E '^(nr_file_pages|nr_writeback|pgscan_kswapd) ' "$T/u" "$T/n" | tr '\n' ' ')"

t "fio --uncached: another engine, or direct I/O: one line, exit 2"
$P run --ram 32M fio --name=w --rw=write --size=1M --uncached=1 >/dev/null 2>"$T/e1"; r1=$?
$P run --ram 32M fio --name=w --rw=randrw --size=1M --ioengine=pvsync2 --direct=1 --uncached=1 >/dev/null 2>"$T/e2"; r2=$?
[ $r1 -eq 2 ] && [ $r2 -eq 2 ] &&
	[ "$(cat "$T/e1")" = "pagelab: fio: --uncached is an option of --ioengine=pvsync2" ] &&
	[ "$(cat "$T/e2")" = "pagelab: fio: --uncached=1 is for buffered I/O: not with --direct=1" ] &&
	ok || bad "$r1 $r2: $(cat "$T/e1" "$T/e2")"

t "cache_ext_fifo.so cache_max=16: written pages past 16 go once written"
CE="${EXAMPLES:-build/examples}/cache_ext_fifo.so"
if [ ! -f "$CE" ]; then skip "no $CE (make $CE)"; else
# admit_folio() is asked for each page the writes create: the first 16
# are admitted, the other 48 are dropped as their writeback ends.
$P run --ram 64M --policy "$CE" --set cache_max=16 --check fileio -w -f f 64p >"$T/ce" 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(vm nr_file_pages "$T/ce") $(vm pgfree "$T/ce") $(vm pgpgout "$T/ce")" = "16 48 256" ] &&
	ok || bad "rc $rc: $(grep -E '^(nr_file_pages|pgfree|pgpgout) ' "$T/ce" | tr '\n' ' ')"
fi
