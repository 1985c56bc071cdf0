/* calib_write.c - --calibrate's figures for the buffered write() path
 * and a cached read(), timed in the kernel-path child (calib_paths.c:
 * inside the run's own cgroup, on the filesystem of pagelab kernel's
 * files, so each page's memcg charge is in its figure), and the costs
 * derived from them (calibrate.h).  Linux 6.18, ext4 (delayed
 * allocation), one 4 KiB call a page as fileio makes them, the thread's
 * CPU time (CLOCK_THREAD_CPUTIME_ID) per page:
 *  - write_new: write() appending to a new file: ext4_da_write_begin()
 *    -> __filemap_get_folio(FGP_CREAT) -> filemap_alloc_folio() and
 *    filemap_add_folio() (the memcg charge, the xarray, the LRU add) and
 *    the delayed block's reservation; copy_page_from_iter(); the write's
 *    end marking the clean page dirty (mark_buffer_dirty() ->
 *    __folio_mark_dirty(): NR_FILE_DIRTY of the node and the memcg, the
 *    xarray's dirty tag, __mark_inode_dirty()); the system call;
 *  - wb_fsync: fsync() of those pages, per page: ext4_writepages() ->
 *    mpage_prepare_extent_to_map() and mpage_map_and_submit_extent()
 *    (the delayed blocks allocated, each folio under writeback and added
 *    to a bio) and the bios' submission; the wait is not CPU time;
 *  - write_clean: pwrite() of each page again, cached and clean after
 *    the fsync: the lookup, the copy, the page made dirty, the call;
 *  - write_dirty: pwrite() of each page a third time, cached and dirty:
 *    the lookup, the copy, the call, nothing dirtied;
 *  - read_cached: pread() of each page, cached: filemap_read() ->
 *    filemap_get_pages() finding it, copy_page_to_iter(), the call;
 *  - copy_cpu: memcpy() of each page of as many bytes to one page, the
 *    copy the read makes (rep movsb, as copy_page_to_iter()), on the same
 *    clock (the profile's copy_page is wall time: a loaded host's
 *    preemptions are in it, not in the thread's CPU time).
 *  - drop_written: posix_fadvise(POSIX_FADV_DONTNEED) of the first file,
 *    fsync()ed clean after its read, per page: mapping_evict_folio() ->
 *    filemap_release_folio() (ext4's buffer heads, which each 4 KiB
 *    write made, freed by try_to_free_buffers()) and remove_mapping(),
 *    the page freed: what reclaim does to a written page it frees;
 *  - the four passes again on a second file in calls of CALP_BIG_CALL
 *    pages (256 KiB), each per page (X_64).  Most of a 4 KiB call is the
 *    call's (fileio -w 256M on this host: 4.1 us a page in 4 KiB calls,
 *    1.14 in 1 MiB ones), so each pass X is solved for a page's part,
 *    X_page = (64 X_64 - X) / 63, and a call's, X_call = X - X_page.
 * Derived, each round's difference before the median:
 *  - syscall = read_cached - copy_cpu: a read() or write() call beyond
 *    its page's copy (cost.syscall; pagelab charged cost.fault for it);
 *  - write_page = write_dirty_page - read_cached_page: a page a write()
 *    call copies, beyond what a read of it costs (generic_perform_write():
 *    ->write_begin finding and locking the folio, ->write_end:
 *    cost.generic_perform_write);
 *  - folio_mark_dirty = write_clean_page - write_dirty_page: a clean page
 *    made dirty by a write (cost.folio_mark_dirty);
 *  - write_begin = write_new_page - write_clean_page: a page a write
 *    creates in the page cache beyond dirtying it and copying
 *    (cost.write_begin);
 *  - write_iter = write_dirty_call - read_cached_call: a write() call's
 *    own work beyond a read()'s (ext4_buffered_write_iter(): the inode
 *    lock, generic_write_checks(), file_modified(): cost.write_iter);
 *  - write_dirtied = write_clean_call - write_dirty_call: a call that
 *    dirtied clean pages, once a call (cost.write_iter_dirtied);
 *  - write_extend = write_new_call - write_clean_call: a call that
 *    extended the file (ext4_da_write_end(): i_size, the inode dirtied
 *    in a journal handle: cost.write_iter_extend);
 *  - release_folio = drop_written - page_drop (calib_paths.c: the same
 *    drop of a file read back from the disk, no buffer heads): a written
 *    page's buffer heads freed (cost.filemap_release_folio);
 *  - writepages = wb_fsync - io_submit x requests / pages: a page
 *    written back beyond its share of the bios pagelab charges
 *    cost.io_submit for (a request per 256 contiguous pages,
 *    src/mm/io_request.c) (cost.writepages). */
#define _GNU_SOURCE
#include "calibrate.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define BIO_PAGES 256.0  /* io_request.c's IO_RUN_MAX: pages a request */

static volatile unsigned sink;

static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Calls of PAGES pages (1 or CALP_BIG_CALL) over the file, in order; CPU
 * ns per page, or -1 if a call failed.  KIND: 'a' write() appending, 'w'
 * pwrite(), 'r' pread(). */
static double pass(int fd, char *buf, char kind, unsigned pages)
{
	size_t len = (size_t)pages * PAGE;
	uint64_t t0 = cpu_ns();
	for (unsigned i = 0; i < CALP_PAGES; i += pages) {
		off_t off = (off_t)i * PAGE;
		ssize_t n = kind == 'a' ? write(fd, buf, len)
			  : kind == 'w' ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off);
		if (n != (ssize_t)len)
			return -1;
	}
	return (double)(cpu_ns() - t0) / CALP_PAGES;
}

/* The copy the read pass makes, in user space and on the same clock:
 * each 4 KiB page of CALP_PAGES (cold) into BUF (hot), CPU ns a page. */
static double copy_cpu(char *buf)
{
	static char src[(size_t)CALP_PAGES * PAGE];
	memset(src, 0x5a, sizeof(src));
	uint64_t t0 = cpu_ns();
	for (unsigned i = 0; i < CALP_PAGES; i++)
		memcpy(buf, src + (size_t)i * PAGE, PAGE);
	double ns = (double)(cpu_ns() - t0) / CALP_PAGES;
	sink += (unsigned char)buf[PAGE - 1];
	return ns;
}

/* The file's pages fsync()ed clean (untimed) and dropped from the page
 * cache by posix_fadvise(POSIX_FADV_DONTNEED): CPU ns a page, -1 if the
 * fsync failed.  mapping_try_invalidate() -> mapping_evict_folio():
 * filemap_release_folio() frees each page's buffer heads (a 4 KiB
 * write() made them), remove_mapping() takes it out, and it is freed. */
static double drop_pass(int fd)
{
	if (fsync(fd))
		return -1;
	uint64_t t0 = cpu_ns();
	posix_fadvise(fd, 0, (off_t)CALP_PAGES * PAGE, POSIX_FADV_DONTNEED);
	return (double)(cpu_ns() - t0) / CALP_PAGES;
}

/* A new file of CALP_PAGES written in calls of PAGES, fsync()ed, written
 * twice more, read and dropped, into ns[NEW..READ][r] (and ns[FSYNC][r],
 * ns[DROP][r] when their ids are >= 0); false if a call failed. */
static bool file_passes(const char *dir, char *buf, unsigned pages, double ns[NR_CALP][CAL_ROUNDS], int r,
			const int id[6])
{
	char path[400];
	snprintf(path, sizeof(path), "%s/calib-write.dat", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	unlink(path); /* its pages and blocks go at close(), untimed */
	ns[id[0]][r] = pass(fd, buf, 'a', pages);
	uint64_t t0 = cpu_ns();
	bool ok = ns[id[0]][r] >= 0 && !fsync(fd);
	if (id[1] >= 0)
		ns[id[1]][r] = (double)(cpu_ns() - t0) / CALP_PAGES;
	ns[id[2]][r] = ok ? pass(fd, buf, 'w', pages) : -1;
	ns[id[3]][r] = ns[id[2]][r] >= 0 ? pass(fd, buf, 'w', pages) : -1;
	ns[id[4]][r] = ns[id[3]][r] >= 0 ? pass(fd, buf, 'r', pages) : -1;
	if (id[5] >= 0) {
		ns[id[5]][r] = ns[id[4]][r] >= 0 ? drop_pass(fd) : -1;
		ok = ok && ns[id[5]][r] >= 0;
	}
	close(fd);
	return ok && ns[id[2]][r] >= 0 && ns[id[3]][r] >= 0 && ns[id[4]][r] >= 0;
}

bool calw_round(const char *dir, char *buf, double ns[NR_CALP][CAL_ROUNDS], int r)
{
	static const int small[6] = { CALP_WRITE_NEW, CALP_WB_FSYNC, CALP_WRITE_CLEAN, CALP_WRITE_DIRTY,
				      CALP_READ_CACHED, CALP_DROP_WRITTEN };
	static const int big[6] = { CALP_WRITE_NEW_BIG, -1, CALP_WRITE_CLEAN_BIG, CALP_WRITE_DIRTY_BIG,
				    CALP_READ_CACHED_BIG, -1 };
	memset(buf, 0x30 + r, (size_t)CALP_BIG_CALL * PAGE);
	bool ok = file_passes(dir, buf, 1, ns, r, small) && file_passes(dir, buf, CALP_BIG_CALL, ns, r, big);
	ns[CALP_COPY_CPU][r] = copy_cpu(buf);
	return ok;
}

/* A page's part of pass X of round r, and a call's (a 4 KiB call: one
 * page and one call; a CALP_BIG_CALL one: B pages and one call). */
static double page_part(double ns[NR_CALP][CAL_ROUNDS], int small, int big, int r)
{
	return (CALP_BIG_CALL * ns[big][r] - ns[small][r]) / (CALP_BIG_CALL - 1);
}

static double call_part(double ns[NR_CALP][CAL_ROUNDS], int small, int big, int r)
{
	return ns[small][r] - page_part(ns, small, big, r);
}

void calw_figs(struct cal_fig *f, double ns[NR_CALP][CAL_ROUNDS], int rounds, const double *submit)
{
	double sc[CAL_ROUNDS], wr[CAL_ROUNDS], dirty[CAL_ROUNDS], begin[CAL_ROUNDS], wb[CAL_ROUNDS];
	double iter[CAL_ROUNDS], dirtied[CAL_ROUNDS], extend[CAL_ROUNDS], release[CAL_ROUNDS];
	enum { N, C, D, R };
	static const int sm[] = { CALP_WRITE_NEW, CALP_WRITE_CLEAN, CALP_WRITE_DIRTY, CALP_READ_CACHED };
	static const int bg[] = { CALP_WRITE_NEW_BIG, CALP_WRITE_CLEAN_BIG, CALP_WRITE_DIRTY_BIG,
				  CALP_READ_CACHED_BIG };
	for (int r = 0; r < rounds; r++) {
		double pg[4], call[4];
		for (int i = 0; i < 4; i++) {
			pg[i] = page_part(ns, sm[i], bg[i], r);
			call[i] = call_part(ns, sm[i], bg[i], r);
		}
		sc[r] = ns[CALP_READ_CACHED][r] - ns[CALP_COPY_CPU][r];
		wr[r] = pg[D] - pg[R];
		dirty[r] = pg[C] - pg[D];
		begin[r] = pg[N] - pg[C];
		iter[r] = call[D] - call[R];
		dirtied[r] = call[C] - call[D];
		extend[r] = call[N] - call[C];
		wb[r] = ns[CALP_WB_FSYNC][r] - submit[r] / BIO_PAGES;
		release[r] = ns[CALP_DROP_WRITTEN][r] - ns[CALP_DROP][r];
	}
	static const int raw[] = { CAL_WRITE_NEW, CAL_WB_FSYNC, CAL_WRITE_CLEAN, CAL_WRITE_DIRTY,
				   CAL_READ_CACHED, CAL_COPY_CPU, CAL_WRITE_NEW_BIG, CAL_WRITE_CLEAN_BIG,
				   CAL_WRITE_DIRTY_BIG, CAL_READ_CACHED_BIG, CAL_DROP_WRITTEN };
	static const int src[] = { CALP_WRITE_NEW, CALP_WB_FSYNC, CALP_WRITE_CLEAN, CALP_WRITE_DIRTY,
				   CALP_READ_CACHED, CALP_COPY_CPU, CALP_WRITE_NEW_BIG, CALP_WRITE_CLEAN_BIG,
				   CALP_WRITE_DIRTY_BIG, CALP_READ_CACHED_BIG, CALP_DROP_WRITTEN };
	double tmp[CAL_ROUNDS];
	for (int i = 0; i < (int)(sizeof(raw) / sizeof(raw[0])); i++) {
		memcpy(tmp, ns[src[i]], sizeof(double) * (size_t)rounds);
		f[raw[i]].per_round = CALP_PAGES;
		cal_settle(&f[raw[i]], tmp, rounds);
	}
	cal_settle(&f[CAL_SYSCALL], sc, rounds);
	cal_settle(&f[CAL_WRITE_PAGE], wr, rounds);
	cal_settle(&f[CAL_MARK_DIRTY], dirty, rounds);
	cal_settle(&f[CAL_WRITE_BEGIN], begin, rounds);
	cal_settle(&f[CAL_WRITEPAGES], wb, rounds);
	cal_settle(&f[CAL_WRITE_ITER], iter, rounds);
	cal_settle(&f[CAL_WRITE_DIRTIED], dirtied, rounds);
	cal_settle(&f[CAL_WRITE_EXTEND], extend, rounds);
	cal_settle(&f[CAL_RELEASE_FOLIO], release, rounds);
	for (int i = CAL_SYSCALL; i <= CAL_RELEASE_FOLIO; i++)
		if (i != CAL_DROP_WRITTEN && f[i].value < 0)
			f[i].value = 0; /* noise below 0: no cost */
	if (f[CAL_SYSCALL].value < 1)
		f[CAL_SYSCALL].value = 1; /* cost.syscall 0 would mean cost.fault */
}
