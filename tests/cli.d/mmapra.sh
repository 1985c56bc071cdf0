# Readahead on faults of a file mapping (src/mm/filemap_mmap_ra.c: 3.0+
# do_async_mmap_readahead for workingset, linux6, mglru; 2.6.26's
# stateless read-around for linux26) and sparse files (src/mm/fs.c: a
# hole reads as zeroes without I/O).  mmap001 writes page 4096 of a new
# file, then every page of a shared mapping of its first 4096 pages.

a="--machine modern --ram 1G --swap 512M"
for pol in linux6 workingset mglru linux26; do
	t "mmap001 -m 4096, $pol: major faults, no read of the hole"
	# shellcheck disable=SC2086
	$P run $a --policy $pol mmap001 -m 4096 >"$T/o" 2>&1
	maj=$(counter pgmajfault "$T/o") in=$(counter pgpgin "$T/o") out=$(counter pgpgout "$T/o")
	want=1
	[ $pol = linux26 ] && want=255 # 32 pages centred: one fault per 16
	[ "$maj" = $want ] && [ "$in" = 0 ] && [ "$out" = 16388 ] && ok ||
		bad "pgmajfault $maj (want $want), pgpgin $in, pgpgout $out"
done

t "vm.ra_era=26 gives linux6 2.6's read-around back"
# shellcheck disable=SC2086
$P run $a --policy linux6 --set vm.ra_era=26 mmap001 -m 4096 >"$T/o" 2>&1
maj=$(counter pgmajfault "$T/o")
[ "$maj" = 255 ] && ok || bad "pgmajfault $maj"

for v in 31 21 x; do
	t "vm.ra_era=$v: bad input"
	$P run --set vm.ra_era=$v usemem -m 1 >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done

# Under a cgroup limit a window's charge may have to wait for reclaim's
# writes (v1): the fault waits, then reads the window, as the kernel's
# readahead charge reclaims and sleeps.  Dropping the window instead
# broke the chain of markers: 92 and 130 major faults.  Two majors: page
# 0, and a window reclaimed before it was touched when the limit is met.
b="--machine modern --cpus 2 --memcg 64M --swap 64M --set memcg.v1=1"
for pol in linux6 workingset; do
	t "mmap001 in 64M, $pol: the window waits for reclaim"
	# shellcheck disable=SC2086
	$P run $b --policy $pol mmap001 -m 24576 >"$T/o" 2>&1
	maj=$(counter pgmajfault "$T/o") st=$(counter pgsteal_file "$T/o")
	[ "$maj" = 2 ] && [ "$st" -gt 8000 ] && ok || bad "pgmajfault $maj, pgsteal_file $st"
done

# Random O_DIRECT writes to a new file: each write past the end leaves a
# hole behind it, and a later write into that hole must still reach the
# disk (it gets its blocks at once): 1024 pages written, 4096 KB out.
t "fileio -w -d -R: direct writes into holes reach the disk"
$P run --machine modern --ram 1G --policy linux6 fileio -w -d -R /f 4M >"$T/o" 2>&1
out=$(counter pgpgout "$T/o")
[ "$out" = 4096 ] && ok || bad "pgpgout $out"
