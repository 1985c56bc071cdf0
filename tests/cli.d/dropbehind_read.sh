# Dropbehind of read pages: RWF_DONTCACHE reads (fileio -D, fio
# --ioengine=pvsync2 --uncached=1; src/mm/filemap.c, 6.18
# filemap_get_pages() with ractl.dropbehind, filemap_end_dropbehind_read()):
# every page a read brings in, readahead's too, goes once a read has
# copied it, its whole folio with it, and leaves no shadow entry.
# Sourced by tests/cli.sh (P, T, t, ok, bad).  Cost: about a second.

vmr() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
fig() { for k in nr_file_pages pgpgin pgfree workingset_refault_file; do printf '%s ' "$(vmr $k "$1")"; done; }

t "fileio -D: a 256-page file read uncached leaves nothing cached"
# 4 KiB pages (lru: no large folios): each of the 256 pages is read once
# (1024 KB in) and freed once copied (256 freed); read plainly, all 256
# stay and none is freed.
$P run --ram 64M --policy lru --make-inputs fileio -D f 256p >"$T/d" 2>&1
$P run --ram 64M --policy lru --make-inputs fileio f 256p >"$T/p" 2>&1
[ "$(fig "$T/d")" = "0 1024 256 0 " ] && [ "$(fig "$T/p")" = "256 1024 0 0 " ] &&
	ok || bad "$(fig "$T/d")/ $(fig "$T/p")"

t "fileio -D under linux6: a 4 KiB read drops the whole large folio"
# 128 KiB reads copy every page of a folio before it goes: 1024 KB in.
# 4 KiB reads drop the rest of each large folio read ahead, which the
# next reads fetch again (page_cache_ra_order()'s 4, 16, 64 KiB folios):
# 370 pages read for the 256 (1480 KB), all freed, none a refault.
$P run --ram 64M --policy linux6 --make-inputs fileio -D -b 32 f 256p >"$T/b" 2>&1
$P run --ram 64M --policy linux6 --make-inputs fileio -D f 256p >"$T/s" 2>&1
[ "$(fig "$T/b")" = "0 1024 256 0 " ] && [ "$(fig "$T/s")" = "0 1480 370 0 " ] &&
	ok || bad "$(fig "$T/b")/ $(fig "$T/s")"

t "fio --rw=read --uncached=1: the layout is read and dropped"
# 4M laid out with O_DIRECT (4096 KB out), read back uncached in 16k
# reads: 4096 KB in, none left, 1024 pages freed more than uncached=0
# (which keeps all and frees only the 4 pages both runs free).
f="fio --name=r --rw=read --bs=16k --size=4M --ioengine=pvsync2"
$P run --ram 64M $f --uncached=1 >"$T/u" 2>&1
$P run --ram 64M $f --uncached=0 >"$T/n" 2>&1
[ "$(vmr nr_file_pages "$T/u") $(vmr pgpgin "$T/u") $(vmr pgfree "$T/u")" = "0 4096 1028" ] &&
	[ "$(vmr nr_file_pages "$T/n") $(vmr pgpgin "$T/n") $(vmr pgfree "$T/n")" = "1024 4096 4" ] &&
	grep -q '^r: (g=0): rw=read, bs=(R) 16384B-16384B, ioengine=pvsync2, iodepth=1$' "$T/u" &&
	ok || bad "$(grep -E '^(nr_file_pages|pgpgin|pgfree) ' "$T/u" "$T/n" | tr '\n' ' ')"

t "fio --uncached=1 on a cached file: the pages found stay"
# invalidate=0 lays the 4M out with buffered writes and an fsync, so the
# uncached reads find all 1024 pages cached: they are read from the
# cache (nothing in) and stay, none flagged, none freed (pgfree 4, as
# the plain run's).
$P run --ram 64M $f --invalidate=0 --uncached=1 >"$T/c" 2>&1
[ "$(vmr nr_file_pages "$T/c") $(vmr pgpgin "$T/c") $(vmr pgfree "$T/c")" = "1024 0 4" ] && ok ||
	bad "$(grep -E '^(nr_file_pages|pgpgin|pgfree) ' "$T/c" | tr '\n' ' ')"
