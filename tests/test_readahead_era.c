/* test_readahead_era.c - file readahead of each era (ra_era 22 / 24 / 26)
 * on hand-checked cases: the windows of a sequential reader, random reads,
 * the synchronous test on pages still being read, and the read-around of a
 * fault on a file mapping.  The sequences follow generic_file_readahead()
 * and do_generic_file_read() of 2.2.1 and 2.4.0/2.4.17 (mm/filemap.c) step
 * by step; see src/mm/readahead_old.c. */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/mm/filemap.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

static const struct mm_costs ra_cost = { .scan_ns = 1000 };

struct ramm {
	struct mm mm;
	struct mm_ctx ctx;
	struct inode *ino;
	struct file_ra ra;
};

/* An untimed mm (reads complete at once: a page read ahead is up to date
 * when the reader reaches it) of `frames` frames under `policy`, with a
 * cold file "f" of `pages` pages on its disk. */
static void ramm_init(struct ramm *r, const char *policy, uint64_t frames, uint64_t pages)
{
	memset(r, 0, sizeof(*r));
	struct mm_config cfg = { .ram_pages = frames, .swap_pages = 256, .no_watermarks = true, .untimed = true };
	mm_init(&r->mm, &cfg, &ra_cost);
	const struct policy_ops *ops = policy_find(policy);
	CHECK(ops != NULL);
	double tun[32] = { 0 };
	for (int i = 0; i < policy_nr_tunables(ops) && i < 32; i++)
		tun[i] = ops->tunables[i].def;
	mm_set_policy(&r->mm, ops, tun);
	r->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	r->ino = filemap_create(&r->mm, &r->ctx, "f");
	filemap_extend(&r->mm, r->ino, pages);
}

static void ramm_free(struct ramm *r)
{
	CHECK(mm_check(&r->mm, stderr));
	mm_destroy(&r->mm);
}

/* read() of n pages at index; returns the pages in the cache after it. */
static uint64_t rd(struct ramm *r, uint64_t index, uint64_t n)
{
	enum fault_status st;
	CHECK_EQ(filemap_read(&r->mm, &r->ctx, r->ino, &r->ra, index, n, UINT64_MAX, &st), n);
	CHECK_EQ(st, FAULT_DONE);
	return r->ino->nrpages;
}

/* Read a `pages`-page file one page per read(); cached[i] = pages in the
 * cache after the read of page i. */
static void seq_read(const char *policy, uint64_t pages, uint64_t *cached)
{
	struct ramm r;
	ramm_init(&r, policy, 4096, pages);
	for (uint64_t i = 0; i < pages; i++)
		cached[i] = rd(&r, i, 1);
	CHECK_EQ(r.mm.ev[PGPGIN], pages * 4); /* every page read once */
	ramm_free(&r);
}

/* The read() of page `at` brought pages up to `upto` (exclusive), and the
 * reads before it up to `from`. */
#define CHECK_WINDOW(c, at, from, upto) do { \
	CHECK_EQ((at) ? (c)[(at) - 1] : 0, from); CHECK_EQ((c)[at], upto); } while (0)

void test_readahead_era_24_sequential(void);
void test_readahead_era_24_sequential(void)
{
	uint64_t c[100];
	/* 2.4 (riel24 = 2.4.0, aa24 = 2.4.17: same logic, 3 / 31 pages).
	 * read(0): a fresh context is "inside" the empty window, so ramax =
	 * max(needed = 1 + 1, MIN 3) = 3: page 0 and 3 ahead (0-3), ramax 6.
	 * read(1) finds page 1 up to date with 1 + ralen 4 >= raend 4: the
	 * next ramax + 1 = 7 pages asynchronously (4-10), ramax 12; read(4):
	 * 4 + 7 >= 11: 13 pages (11-23), ramax 24; read(11): 25 (24-48), ramax
	 * 31; read(24): 32 (49-80); read(49): 32 asked, the file ends at 99
	 * (81-99); read(81) would start at 100 = end_index: nothing. */
	const char *const pols[] = { "riel24", "aa24" };
	for (int p = 0; p < 2; p++) {
		seq_read(pols[p], 100, c);
		CHECK_WINDOW(c, 0, 0, 4);
		CHECK_WINDOW(c, 1, 4, 11);
		CHECK_EQ(c[3], 11);
		CHECK_WINDOW(c, 4, 11, 24);
		CHECK_EQ(c[10], 24);
		CHECK_WINDOW(c, 11, 24, 49);
		CHECK_EQ(c[23], 49);
		CHECK_WINDOW(c, 24, 49, 81);
		CHECK_EQ(c[48], 81);
		CHECK_WINDOW(c, 49, 81, 100);
	}
}

void test_readahead_era_22_sequential(void);
void test_readahead_era_22_sequential(void)
{
	uint64_t c[100];
	/* 2.2 (linux22, vhand: MIN_READAHEAD 3, MAX_READAHEAD 18 pages):
	 * needed is 1 page, so the same start (0-3, 4-10, 11-23) but ramax
	 * caps at 18: blocks of 18 + 1 = 19 from read(11) on: 24-42, 43-61,
	 * 62-80, 81-99, each started when the reader enters the block before. */
	const char *const pols[] = { "linux22", "vhand" };
	for (int p = 0; p < 2; p++) {
		seq_read(pols[p], 100, c);
		CHECK_WINDOW(c, 0, 0, 4);
		CHECK_WINDOW(c, 1, 4, 11);
		CHECK_WINDOW(c, 4, 11, 24);
		CHECK_WINDOW(c, 11, 24, 43);
		CHECK_EQ(c[23], 43);
		CHECK_WINDOW(c, 24, 43, 62);
		CHECK_EQ(c[42], 62);
		CHECK_WINDOW(c, 43, 62, 81);
		CHECK_EQ(c[61], 81);
		CHECK_WINDOW(c, 62, 81, 100);
	}
}

void test_readahead_era_26_sequential(void);
void test_readahead_era_26_sequential(void)
{
	uint64_t c[100];
	/* 2.6.23+ on demand (linux26, splitlru, workingset, mglru keep it):
	 * 4 pages (1 asked x4), then at each PG_readahead marker (the first
	 * page of a window read ahead) the next window: 8, 16, 32, 32. */
	seq_read("linux26", 100, c);
	CHECK_WINDOW(c, 0, 0, 4);
	CHECK_WINDOW(c, 1, 4, 12);
	CHECK_WINDOW(c, 4, 12, 28);
	CHECK_WINDOW(c, 12, 28, 60);
	CHECK_WINDOW(c, 28, 60, 92);
	CHECK_WINDOW(c, 60, 92, 100);
}

void test_readahead_era_random(void);
void test_readahead_era_random(void)
{
	struct ramm r;
	/* A one-page read() at 50 of a cold file, then one at 10: each is
	 * outside the window, so the context is reset - but ramax is still the
	 * request's "needed", read AHEAD of the page: 2.4 ((0 + 4096) >> 12) +
	 * 1 = 2 pages (50-52, then 10-12), 2.2 one page (50-51, 10-11). 2.6
	 * reads just the page asked for. */
	ramm_init(&r, "aa24", 4096, 100);
	CHECK_EQ(rd(&r, 50, 1), 3);
	CHECK(pc_page(r.ino, 52) != PFN_NONE);
	CHECK_EQ(rd(&r, 10, 1), 6);
	CHECK(pc_page(r.ino, 12) != PFN_NONE);
	CHECK_EQ(r.ra.ramax, 4); /* doubled after the read-ahead */
	ramm_free(&r);
	ramm_init(&r, "linux22", 4096, 100);
	CHECK_EQ(rd(&r, 50, 1), 2);
	CHECK(pc_page(r.ino, 51) != PFN_NONE);
	CHECK_EQ(rd(&r, 10, 1), 4);
	ramm_free(&r);
	ramm_init(&r, "linux26", 4096, 100);
	CHECK_EQ(rd(&r, 50, 1), 1);
	CHECK_EQ(rd(&r, 10, 1), 2);
	ramm_free(&r);
	/* A larger random read() in 2.4: 8 pages at 40 make needed 9, so the
	 * synchronous block after page 40 is 9 pages (41-49); the other 7
	 * pages asked for are inside it. */
	ramm_init(&r, "riel24", 4096, 100);
	CHECK_EQ(rd(&r, 40, 8), 10);
	CHECK(pc_page(r.ino, 49) != PFN_NONE);
	CHECK(pc_page(r.ino, 50) == PFN_NONE);
	ramm_free(&r);
}

/* The window logic alone: pages still being read (locked) when reached. */
void test_readahead_era_locked(void);
void test_readahead_era_locked(void)
{
	struct vm_sysctl vs = { .ra_pages = 31, .min_readahead = 3, .ra_era = 24 };
	struct file_ra ra = { 0 };
	uint64_t start;
	/* 2.4: read(0) misses page 0: 1-3 ahead. */
	ra_old_read_start(&vs, &ra, 0, 1);
	CHECK_EQ(ra.ramax, 3);
	CHECK_EQ(ra_old_readahead(&vs, &ra, 0, true, 100, &start), 3);
	CHECK_EQ(start, 1);
	CHECK_EQ(ra.raend, 4);
	CHECK_EQ(ra.ralen, 4);
	CHECK_EQ(ra.rawin, 4);
	CHECK_EQ(ra.ramax, 6);
	/* read(1) finds page 1 still locked, inside the block: nothing. */
	ra_old_read_start(&vs, &ra, 1, 1);
	CHECK_EQ(ra_old_readahead(&vs, &ra, 1, true, 100, &start), 0);
	/* read(2) finds it up to date: the next block, 7 pages from 4. */
	ra_old_read_start(&vs, &ra, 2, 1);
	CHECK_EQ(ra_old_readahead(&vs, &ra, 2, false, 100, &start), 7);
	CHECK_EQ(start, 4);
	CHECK_EQ(ra.ralen, 7);
	CHECK_EQ(ra.rawin, 11);
	CHECK_EQ(ra.raend, 11);
	/* read(3) finds page 3 locked: 2.4 tests index + rawin (14) against
	 * raend (11): inside the window, nothing... */
	struct file_ra saved = ra;
	ra_old_read_start(&vs, &ra, 3, 1);
	CHECK_EQ(ra_old_readahead(&vs, &ra, 3, true, 100, &start), 0);
	/* ... 2.2 tests index + ralen (10) < raend (11): a new synchronous
	 * block of ramax = 12 pages after page 3 (4-15; the cache skips the
	 * ones present). */
	vs.ra_era = 22;
	vs.ra_pages = 18;
	ra = saved;
	ra_old_read_start(&vs, &ra, 3, 1);
	CHECK_EQ(ra_old_readahead(&vs, &ra, 3, true, 100, &start), 12);
	CHECK_EQ(start, 4);
	CHECK_EQ(ra.raend, 16);
	CHECK_EQ(ra.ralen, 13);
	CHECK_EQ(ra.ramax, 18);
	/* 2.2: a sequential reader that misses a page (its read-ahead was
	 * evicted) falls back to MIN_READAHEAD; 2.4 keeps ramax. */
	ra_old_read_start(&vs, &ra, 4, 1);
	ra_old_miss(&vs, &ra);
	CHECK_EQ(ra.ramax, 3);
	vs.ra_era = 24;
	ra.ramax = 12;
	ra_old_miss(&vs, &ra);
	CHECK_EQ(ra.ramax, 12);
	/* 2.4's loop stops at end_index and counts that step: page 97 of 100
	 * with ramax 12 reads 98 and 99, ahead = 3, raend 97 + 3 + 1. */
	ra = (struct file_ra){ .ramax = 12 };
	CHECK_EQ(ra_old_readahead(&vs, &ra, 97, true, 100, &start), 2);
	CHECK_EQ(ra.raend, 101);
	CHECK_EQ(ra.ralen, 4);
	/* 2.2 counts the whole block (try_to_read_ahead skips i_size). */
	vs.ra_era = 22;
	ra = (struct file_ra){ .ramax = 12 };
	CHECK_EQ(ra_old_readahead(&vs, &ra, 97, true, 100, &start), 2);
	CHECK_EQ(ra.raend, 110);
	CHECK_EQ(ra.ralen, 13);
}

/* Fault a mapping of an n-page cold file page by page (or just page
 * `only`); returns major faults, *cached = pages in the cache after. */
static uint64_t fault_run(const char *policy, uint64_t frames, uint64_t n, int64_t only, uint64_t *cached)
{
	struct ramm r;
	ramm_init(&r, policy, frames, n);
	struct aspace *as = mm_aspace_new(&r.mm, 0);
	uint32_t v = mm_mmap_file(&r.mm, as, r.ino, 0, n, false);
	enum fault_status st;
	for (uint64_t i = 0; i < n; i++) {
		if (only >= 0 && i != (uint64_t)only)
			continue;
		CHECK_EQ(mm_touch(&r.mm, &r.ctx, as, v, i, 1, 1, false, UINT64_MAX, &st), 1);
	}
	uint64_t maj = r.mm.ev[PGMAJFAULT];
	*cached = r.ino->nrpages;
	mm_aspace_exit(&r.mm, &r.ctx, as);
	ramm_free(&r);
	return maj;
}

void test_readahead_era_fault(void);
void test_readahead_era_fault(void)
{
	uint64_t cached;
	/* swap_setup()'s page_cluster: 2 below 16 MB, 3 below 32 MB, else 4. */
	struct ramm r;
	ramm_init(&r, "linux22", 3000, 1);
	CHECK_EQ(r.mm.vm.page_cluster, 2);
	CHECK_EQ(r.mm.vm.ra_pages, 18);
	ramm_free(&r);
	ramm_init(&r, "aa24", 4096, 1);
	CHECK_EQ(r.mm.vm.page_cluster, 3);
	CHECK_EQ(r.mm.vm.ra_pages, 31);
	ramm_free(&r);
	ramm_init(&r, "riel24", 8192, 1);
	CHECK_EQ(r.mm.vm.page_cluster, 4);
	ramm_free(&r);
	ramm_init(&r, "linux26", 8192, 1);
	CHECK_EQ(r.mm.vm.page_cluster, 3); /* untouched: 2.6's default */
	CHECK_EQ(r.mm.vm.ra_era, 26);
	ramm_free(&r);
	/* 32 MB: 16-page clusters.  Touching 64 pages: majors at 0, 16, 32,
	 * 48 for 2.2 and 2.4; 2.6's 32 pages centred on the fault: 0 (0-31),
	 * 32 (16-47), 48 (32-63). */
	const char *const old[] = { "linux22", "vhand", "riel24", "aa24" };
	for (int p = 0; p < 4; p++) {
		CHECK_EQ(fault_run(old[p], 8192, 64, -1, &cached), 4);
		CHECK_EQ(cached, 64);
	}
	CHECK_EQ(fault_run("linux26", 8192, 64, -1, &cached), 3);
	/* One fault at page 21: 2.4 with 16 MB reads its aligned 8-page
	 * cluster 16-23; 2.6 reads 5-36. */
	CHECK_EQ(fault_run("aa24", 4096, 64, 21, &cached), 1);
	CHECK_EQ(cached, 8);
	CHECK_EQ(fault_run("linux26", 4096, 64, 21, &cached), 1);
	CHECK_EQ(cached, 32);
	/* The cluster stops at the end of the file: page 60 of 62 with
	 * 16-page clusters reads 48-61. */
	CHECK_EQ(fault_run("riel24", 8192, 62, 60, &cached), 1);
	CHECK_EQ(cached, 14);
}

/* --set vm.NAME wins over the era a policy's init() chose. */
void test_readahead_era_override(void);
void test_readahead_era_override(void)
{
	struct profile prof = *profile_find("vmm-2008");
	prof.ram = 64ULL << 20;
	char err[256];
	CHECK(profile_set(&prof, "vm.ra_era", "26", err, sizeof(err)));
	CHECK(!profile_set(&prof, "vm.ra_era", "31", err, sizeof(err)));
	struct machine_opts mo = { .seed = 1 };
	struct machine m;
	CHECK(machine_init(&m, &prof, &mo, err, sizeof(err)));
	const struct policy_ops *pol = policy_find("linux22");
	double tun[16] = { 0 };
	for (int t = 0; t < policy_nr_tunables(pol); t++)
		tun[t] = pol->tunables[t].def;
	machine_set_policy(&m, pol, tun);
	CHECK_EQ(m.mm.vm.ra_era, 26);
	CHECK_EQ(m.mm.vm.ra_pages, 18); /* not set: the era's */
	CHECK_EQ(m.mm.vm.page_cluster, 4);
	machine_free(&m);
}

/* Pages in the cache after `fileio ARGS` on vmm-2008 with 64 MB under
 * `policy`, timed: read-ahead pages are still being read (locked) when
 * the reader reaches the first of them. */
static uint64_t timed_cached(const char *policy, const char *size)
{
	struct profile prof = *profile_find("vmm-2008");
	prof.ram = 64ULL << 20;
	char err[256];
	struct machine_opts mo = { .seed = 1, .check = true, .max_time_ns = 100ULL * 1000000000ULL };
	struct machine m;
	CHECK(machine_init(&m, &prof, &mo, err, sizeof(err)));
	const struct policy_ops *pol = policy_find(policy);
	double tun[16] = { 0 };
	for (int t = 0; t < policy_nr_tunables(pol); t++)
		tun[t] = pol->tunables[t].def;
	machine_set_policy(&m, pol, tun);
	char a0[] = "fileio", a1[] = "/dev/sda", a2[16];
	snprintf(a2, sizeof(a2), "%s", size);
	char *argv[] = { a0, a1, a2, NULL };
	const struct workload_ops *wo = workload_find("fileio");
	void *wl = wo->create(3, argv, 1, err, sizeof(err));
	CHECK(wl != NULL);
	machine_add_workload(&m, wo, wl, "fileio");
	machine_run(&m);
	CHECK(!m.check_failed);
	CHECK_EQ(m.mm.ev[PGPGIN], m.mm.stat.nr_file * 4); /* each page read once */
	uint64_t n = m.mm.stat.nr_file;
	machine_free(&m);
	return n;
}

void test_readahead_era_timed(void);
void test_readahead_era_timed(void)
{
	/* One page: the synchronous block only (0-3); the read() sleeps on
	 * page 0 and does not run generic_file_readahead again on waking. */
	CHECK_EQ(timed_cached("aa24", "1p"), 4);
	CHECK_EQ(timed_cached("linux22", "1p"), 4);
	/* 400 pages, 2.4: read(1) brings 4-10; read(4) finds page 4 locked
	 * inside the block and waits; read(5) finds 5 up to date with 5 + 7 >=
	 * 11: 11-23; then 24-48 at read(12), 49-80 at read(25), and blocks of
	 * 32 from 81 on, each started one page into the block before: the
	 * last, 401-432, at read(370). */
	CHECK_EQ(timed_cached("aa24", "400p"), 433);
	/* 2.2: 0-3, 4-10, 11-23 at read(5), then blocks of 19 from 24 on,
	 * started at read(s - 18): the last, 404-422, at read(386). */
	CHECK_EQ(timed_cached("linux22", "400p"), 423);
}
