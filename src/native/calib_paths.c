/* calib_paths.c - --calibrate's figures for kernel-only paths (reclaim's
 * unmap and the block layer's submission), timed from user space inside
 * a cgroup and swapfile of the run's own, as pagelab kernel makes them
 * (guard.c's lock and cleanup, cgroup.c, swapfile.c): calibrate.h.
 *
 * What each round times, per page or request (Linux 6.18):
 *  - drop: posix_fadvise(POSIX_FADV_DONTNEED) of a clean, cached, unmapped
 *    file of our own: mapping_try_invalidate() -> mapping_evict_folio()
 *    -> remove_mapping() and the folio freed: the page's removal and
 *    freeing without any unmap;
 *  - pageout_file: madvise(MADV_PAGEOUT) of the same pages mapped
 *    MAP_SHARED and read: madvise_cold_or_pageout_pte_range() isolates
 *    each, reclaim_pages() -> shrink_folio_list(ignore_references) ->
 *    try_to_unmap() (the file rmap walk: i_mmap's interval tree, the
 *    VMA's page tables down to the PTE, ptep_clear_flush, rmap removal)
 *    -> __remove_mapping() and the folio freed; only pages mincore()
 *    shows gone are counted;
 *  - zap: munmap() of the same pages mapped and read, the page cache
 *    keeping them: zap_pte_range() clears each PTE and removes its rmap,
 *    frees nothing;
 *  - pageout_anon: MADV_PAGEOUT of written private anonymous pages:
 *    add_to_swap(), try_to_unmap() (anon rmap walk) and pageout() ->
 *    swap_writepage() submitting a bio (the folio freed later, when the
 *    write ends): needs the run's own swapfile;
 *  - dio_4k, dio_1m: the thread's CPU time (CLOCK_THREAD_CPUTIME_ID:
 *    the loop's user time is a few instructions) per O_DIRECT pread() of
 *    4 KiB and of 1 MiB of that file: iomap_dio_rw() building and
 *    submitting the bio, the virtio kick, and the task's side of the
 *    completion after its wakeup (iomap_dio_complete());
 *  - aio_4k, aio_1m: the thread's CPU time in io_submit(2) per request,
 *    32 reads of 4 KiB (4 of 1 MiB) a call, submitted and not waited
 *    for (aio_submit_one() -> iomap_dio_rw() -> -EIOCBQUEUED, under the
 *    call's blk_plug); each batch reaped with io_getevents(), untimed;
 *  - the buffered write path and a cached read: calib_write.c. */
#define _GNU_SOURCE
#include "calibrate.h"
#include "native.h"
#include "../lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/aio_abi.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define FILE_PAGES CALP_PAGES       /* 32 MiB */
#define CG_LIMIT (256ULL << 20)     /* the file, the anon range, room */
#define SWAP_SIZE (128ULL << 20)
#define CALP_WHY 512
#define DIO_SMALL CALP_DIO_SMALL
#define DIO_BIG CALP_DIO_BIG

static const char *fail = ""; /* why the child's rounds stopped */

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Pages of [m, m + FILE_PAGES) resident (mincore). */
static uint64_t resident(void *m)
{
	static unsigned char vec[FILE_PAGES];
	if (mincore(m, (size_t)FILE_PAGES * PAGE, vec))
		return 0;
	uint64_t n = 0;
	for (unsigned i = 0; i < FILE_PAGES; i++)
		n += vec[i] & 1;
	return n;
}

/* The file read (cached), mapped MAP_SHARED and every page read. */
static char *map_cached(int fd, char *buf)
{
	for (unsigned i = 0; i < FILE_PAGES; i += 256)
		if (pread(fd, buf, 256 * PAGE, (off_t)i * PAGE) < 0)
			return NULL;
	char *m = mmap(NULL, (size_t)FILE_PAGES * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return NULL;
	madvise(m, (size_t)FILE_PAGES * PAGE, MADV_NOHUGEPAGE);
	uint64_t s = 0;
	for (unsigned i = 0; i < FILE_PAGES; i++)
		s += (unsigned char)((volatile char *)m)[(size_t)i * PAGE];
	buf[0] = (char)s;
	return m;
}

/* One round of drop, pageout_file and zap into ns[..][r]; false if a
 * step failed or reclaimed nothing. */
static bool round_file(int fd, char *buf, double ns[NR_CALP][CAL_ROUNDS], int r)
{
	char *m = map_cached(fd, buf);
	if (!m)
		return false;
	munmap(m, (size_t)FILE_PAGES * PAGE);          /* cached, unmapped */
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
	posix_fadvise(fd, 0, (off_t)FILE_PAGES * PAGE, POSIX_FADV_DONTNEED);
	ns[CALP_DROP][r] = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / FILE_PAGES;

	if (!(m = map_cached(fd, buf)))
		return false;
	uint64_t before = resident(m);
	t0 = clock_ns(CLOCK_MONOTONIC);
	madvise(m, (size_t)FILE_PAGES * PAGE, MADV_PAGEOUT);
	uint64_t t1 = clock_ns(CLOCK_MONOTONIC), gone = before - resident(m);
	munmap(m, (size_t)FILE_PAGES * PAGE);
	if (!gone)
		return false;
	ns[CALP_PAGEOUT_FILE][r] = (double)(t1 - t0) / (double)gone;

	if (!(m = map_cached(fd, buf)))
		return false;
	t0 = clock_ns(CLOCK_MONOTONIC);
	munmap(m, (size_t)FILE_PAGES * PAGE);
	ns[CALP_ZAP][r] = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / FILE_PAGES;
	return true;
}

/* Pages of [m, m + FILE_PAGES) no longer present in the page table
 * (/proc/self/pagemap bit 63): an anonymous page swapped out stays in
 * the swap cache until its write ends, which mincore() counts. */
static uint64_t unmapped(void *m)
{
	static uint64_t ent[FILE_PAGES];
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = pread(fd, ent, sizeof(ent), (off_t)((uintptr_t)m / PAGE * sizeof(uint64_t)));
	close(fd);
	uint64_t k = 0;
	for (ssize_t i = 0; n == (ssize_t)sizeof(ent) && i < (ssize_t)FILE_PAGES; i++)
		k += !(ent[i] >> 63);
	return k;
}

/* /proc/vmstat's pswpin (the host's: a calibration holds the kernel
 * lock, so no other run of ours swaps meanwhile); -1 if unreadable. */
static long pswpin(void)
{
	FILE *f = fopen("/proc/vmstat", "r");
	if (!f)
		return -1;
	char name[64];
	long v, got = -1;
	while (got < 0 && fscanf(f, "%63s %ld", name, &v) == 2)
		if (!strcmp(name, "pswpin"))
			got = v;
	fclose(f);
	return got;
}

/* Drop the swapped-out pages' swap cache: once their writes have ended
 * they are clean, and a limit below the cgroup's usage reclaims them
 * (our own cgroup's limit, put back at once); tried every 100 ms for
 * up to 2 s while the writes end. */
static bool drop_swap_cache(const struct ncgroup *cg, void *m)
{
	const char *file = cg->version == 2 ? "memory.max" : "memory.limit_in_bytes";
	char low[32], back[32];
	snprintf(low, sizeof(low), "%llu", 2ULL << 20);
	snprintf(back, sizeof(back), "%llu", CG_LIMIT);
	for (int i = 0; i < 20; i++) {
		struct timespec wb = { 0, 100000000 };
		nanosleep(&wb, NULL);
		bool ok = ncg_write(cg, file, low);
		if (!ncg_write(cg, file, back))
			return false;
		if (ok && resident(m) < FILE_PAGES / 8) /* mincore counts the swap cache */
			return true;
	}
	return false;
}

/* The swapped-out pages written back, their swap cache dropped first:
 * thread CPU time per page read from swap, and the faults pagelab
 * charges per page read (one a page, one more a major fault: its
 * retry). */
static bool swap_back(const struct ncgroup *cg, char *m, double ns[NR_CALP][CAL_ROUNDS], int r)
{
	if (!drop_swap_cache(cg, m))
		return false;
	struct rusage u0, u1;
	long in0 = pswpin();
	getrusage(RUSAGE_THREAD, &u0);
	uint64_t t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (size_t i = 0; i < (size_t)FILE_PAGES * PAGE; i += PAGE)
		m[i] = 2;
	uint64_t t1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	getrusage(RUSAGE_THREAD, &u1);
	long reads = pswpin() - in0;
	if (in0 < 0 || reads <= 0)
		return false;
	ns[CALP_SWAPIN][r] = (double)(t1 - t0) / (double)reads;
	ns[CALP_SWAPIN_FAULTS][r] = (double)(FILE_PAGES + u1.ru_majflt - u0.ru_majflt) / (double)reads;
	return true;
}

/* One round of MADV_PAGEOUT of written anonymous pages (to our swap),
 * then their swap-in. */
static bool round_anon(const struct ncgroup *cg, double ns[NR_CALP][CAL_ROUNDS], int r)
{
	size_t len = (size_t)FILE_PAGES * PAGE;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return false;
	madvise(m, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += PAGE)
		m[i] = (char)(i >> 12 | 1);     /* not a zero page: swapped */
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
	madvise(m, len, MADV_PAGEOUT);
	uint64_t t1 = clock_ns(CLOCK_MONOTONIC), gone = unmapped(m);
	bool back = gone && swap_back(cg, m, ns, r);
	munmap(m, len);
	if (!gone)
		return false;
	ns[CALP_PAGEOUT_ANON][r] = (double)(t1 - t0) / (double)gone;
	if (!back)
		fail = "the swapped-out pages' swap cache could not be dropped, or none was read back";
	return back;
}

/* CPU time per O_DIRECT read of SIZE bytes, N of them over the file. */
static double dio_cpu(int fd, char *buf, size_t size, unsigned n)
{
	unsigned span = (unsigned)((size_t)FILE_PAGES * PAGE / size);
	uint64_t t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (unsigned i = 0; i < n; i++)
		if (pread(fd, buf, size, (off_t)((i % span) * size)) != (ssize_t)size)
			return -1;
	return (double)(clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / n;
}

/* Thread CPU time of io_submit(2) per request: N O_DIRECT reads of SIZE
 * bytes over the file in calls of CALP_AIO_BATCH (or fewer for big
 * reads: BUF holds 256 pages), each batch reaped (untimed) before the
 * next. */
static double aio_cpu(int fd, char *buf, size_t size, unsigned n)
{
	aio_context_t ctx = 0;
	if (syscall(SYS_io_setup, CALP_AIO_BATCH, &ctx))
		return -1;
	unsigned batch = (unsigned)(256 * PAGE / size), span = (unsigned)((size_t)FILE_PAGES * PAGE / size);
	if (batch > CALP_AIO_BATCH)
		batch = CALP_AIO_BATCH;
	struct iocb cb[CALP_AIO_BATCH], *cbp[CALP_AIO_BATCH];
	struct io_event ev[CALP_AIO_BATCH];
	uint64_t cpu = 0;
	bool ok = true;
	for (unsigned done = 0; ok && done < n; done += batch) {
		for (unsigned i = 0; i < batch; i++) {
			memset(&cb[i], 0, sizeof(cb[i]));
			cb[i].aio_fildes = (uint32_t)fd;
			cb[i].aio_lio_opcode = IOCB_CMD_PREAD;
			cb[i].aio_buf = (uint64_t)(uintptr_t)(buf + i * size);
			cb[i].aio_nbytes = size;
			cb[i].aio_offset = (int64_t)(((done + i) % span) * size);
			cbp[i] = &cb[i];
		}
		uint64_t t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		long k = syscall(SYS_io_submit, ctx, (long)batch, cbp);
		cpu += clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
		ok = k == (long)batch &&
		     syscall(SYS_io_getevents, ctx, (long)batch, (long)batch, ev, NULL) == (long)batch;
		for (unsigned i = 0; ok && i < batch; i++)
			ok = ev[i].res == (int64_t)size;
	}
	syscall(SYS_io_destroy, ctx);
	return ok ? (double)cpu / n : -1;
}

/* A file of FILE_PAGES pages of our own in DIR, written and synced
 * (clean), opened for buffered and for O_DIRECT reads. */
static bool make_file(const char *dir, int *fd, int *dfd)
{
	char path[400];
	snprintf(path, sizeof(path), "%s/calib.dat", dir);
	int w = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w < 0)
		return false;
	char *blk = xcalloc(256, PAGE);
	memset(blk, 0x5a, 256 * PAGE);
	bool ok = true;
	for (unsigned i = 0; ok && i < FILE_PAGES; i += 256)
		ok = write(w, blk, 256 * PAGE) == 256 * PAGE;
	free(blk);
	ok = ok && !fsync(w);
	close(w);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	*dfd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	return ok && *fd >= 0 && *dfd >= 0;
}

/* In the child, inside the cgroup: every round of every figure. */

static int child_rounds(const struct ncgroup *cg, const char *dir, double ns[NR_CALP][CAL_ROUNDS])
{
	int fd, dfd;
	fail = "its file could not be made";
	if (!make_file(dir, &fd, &dfd))
		return 0;
	char *buf = aligned_alloc(PAGE, 256 * PAGE);
	if (!buf)
		return 0;
	int r = 0;
	for (; r < CAL_ROUNDS; r++) {
		fail = "a file round failed (a read, a mapping, or MADV_PAGEOUT reclaimed nothing)";
		if (!round_file(fd, buf, ns, r))
			break;
		fail = "MADV_PAGEOUT swapped out no anonymous page";
		if (!round_anon(cg, ns, r))
			break;
		fail = "an O_DIRECT read (pread or Linux AIO) failed";
		ns[CALP_DIO_4K][r] = dio_cpu(dfd, buf, PAGE, DIO_SMALL);
		ns[CALP_DIO_1M][r] = dio_cpu(dfd, buf, 256 * PAGE, DIO_BIG);
		ns[CALP_AIO_4K][r] = aio_cpu(dfd, buf, PAGE, CALP_AIO_SMALL);
		ns[CALP_AIO_1M][r] = aio_cpu(dfd, buf, 256 * PAGE, CALP_AIO_BIG);
		if (ns[CALP_DIO_4K][r] < 0 || ns[CALP_DIO_1M][r] < 0 || ns[CALP_AIO_4K][r] < 0 ||
		    ns[CALP_AIO_1M][r] < 0)
			break;
		fail = "a buffered write(), fsync() or cached read() of its own file failed";
		if (!calw_round(dir, buf, ns, r))
			break;
	}
	free(buf);
	close(fd);
	close(dfd);
	return r;
}

/* The child: join the cgroup (or measure nothing), run, send. */
static _Noreturn void child(const struct nguard *g, int out, pid_t parent)
{
	nguard_in_child();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	static double ns[NR_CALP][CAL_ROUNDS];
	char err[CALP_WHY - 64];
	char why[CALP_WHY] = "";
	int rounds = ncg_join(&g->cg, err, sizeof(err)) ? child_rounds(&g->cg, g->dir, ns) : -1;
	snprintf(why, sizeof(why), "%s", rounds < 0 ? err : rounds < CAL_ROUNDS ? fail : "");
	bool ok = write(out, &rounds, sizeof(rounds)) == sizeof(rounds) &&
		  write(out, why, sizeof(why)) == sizeof(why) && write(out, ns, sizeof(ns)) == sizeof(ns);
	_exit(ok ? 0 : 1);
}

/* Directory, swapfile, cgroup (guard.c undoes them). */
static bool setup(struct nguard *g, char *why, size_t len)
{
	if (!nguard_make_dir(g, why, len))
		return false;
	snprintf(g->swapfile, sizeof(g->swapfile), "%s/swapfile", g->dir);
	if (!nswap_on(g->swapfile, SWAP_SIZE, why, len)) {
		g->swapfile[0] = 0;
		return false;
	}
	return ncg_create(&g->cg, CG_LIMIT, why, len);
}

int cal_paths_measure(double ns[NR_CALP][CAL_ROUNDS], char *why, size_t len)
{
	struct ncgroup cg;
	if (geteuid() != 0) {
		snprintf(why, len, "needs root: timed only inside a cgroup and swapfile of its own");
		return 0;
	}
	if (!ncg_detect(&cg, why, len))
		return 0;
	struct nguard *g = nguard_begin(&cg);
	int rounds = 0;
	if (setup(g, why, len)) {
		int fd;
		pid_t parent = getpid(), pid = native_fork_piped(&fd);
		if (!pid)
			child(g, fd, parent);
		char cwhy[CALP_WHY] = "";
		size_t nsz = sizeof(double) * NR_CALP * CAL_ROUNDS;
		bool got = read(fd, &rounds, sizeof(rounds)) == sizeof(rounds) &&
			   read(fd, cwhy, sizeof(cwhy)) == sizeof(cwhy) && read(fd, ns, nsz) == (ssize_t)nsz;
		close(fd);
		waitpid(pid, NULL, 0);
		cwhy[sizeof(cwhy) - 1] = 0;
		if (!got || rounds < CAL_ROUNDS) {
			/* fewer rounds than asked: the figures would not be the
			 * medians the profile says they are */
			snprintf(why, len, "%s", got ? cwhy : "its child died");
			rounds = 0;
		}
	}
	nguard_cleanup(g);
	return rounds;
}
