/* test_mmap_ra.c - readahead on faults of a file mapping (3.0+
 * do_sync_mmap_readahead / do_async_mmap_readahead: src/mm/filemap_mmap_ra.c)
 * and sparse files (a hole reads as zeroes without I/O and gets its block
 * when first written back: src/mm/fs.c), on hand-checked cases. */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/mm/filemap.h"
#include "../src/policy/policy.h"
#include "../src/workload/workload.h"

#include <string.h>

static const struct mm_costs mra_cost = { .scan_ns = 1000 };

struct mra {
	struct mm mm;
	struct mm_ctx ctx;
	struct inode *ino;
	struct aspace *as;
	uint32_t vma;
};

/* An untimed mm of `frames` frames (reads complete at once) under
 * `policy`, and a shared mapping of "f", a file of `pages` pages: cold on
 * the disk, or (sparse) made by writing only its page `pages` - 1. */
static void mra_init_frames(struct mra *r, const char *policy, uint64_t frames, uint64_t pages,
			    bool sparse)
{
	memset(r, 0, sizeof(*r));
	struct mm_config cfg = { .ram_pages = frames, .swap_pages = 256, .no_watermarks = true,
				 .untimed = true };
	mm_init(&r->mm, &cfg, &mra_cost);
	mm_set_policy(&r->mm, policy_find(policy), NULL); /* its tunables' defaults */
	r->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	if (sparse) {
		r->ino = filemap_create(&r->mm, &r->ctx, "f");
		enum fault_status st;
		CHECK_EQ(filemap_write(&r->mm, &r->ctx, r->ino, pages - 1, 1, UINT64_MAX, &st), 1);
	} else {
		r->ino = filemap_make_uncached(&r->mm, "f", pages);
	}
	r->as = mm_aspace_new(&r->mm, 0);
	r->vma = mm_mmap_file(&r->mm, r->as, r->ino, 0, pages, true);
}

static void mra_init(struct mra *r, const char *policy, uint64_t pages, bool sparse)
{
	mra_init_frames(r, policy, 8192, pages, sparse);
}

static void mra_touch(struct mra *r, uint64_t index, bool write)
{
	enum fault_status st;
	CHECK_EQ(mm_touch(&r->mm, &r->ctx, r->as, r->vma, index, 1, 1, write, UINT64_MAX, &st), 1);
}

/* Read-fault pages [from, to) one at a time, front to back. */
static void mra_walk(struct mra *r, uint64_t from, uint64_t to)
{
	for (uint64_t i = from; i < to; i++)
		mra_touch(r, i, false);
}

/* fsync(): filemap_fsync() until it is done (untimed: at once). */
static void mra_fsync(struct mra *r)
{
	bool done = false;
	for (int k = 0; k < 8 && !done; k++)
		done = filemap_fsync(&r->mm, &r->ctx, r->ino);
	CHECK(done);
}

static void mra_free(struct mra *r)
{
	mm_aspace_exit(&r->mm, &r->ctx, r->as);
	CHECK(mm_check(&r->mm, stderr));
	mm_destroy(&r->mm);
}

/* 3.0+ (workingset, linux6, mglru; ra_pages 32): the fault at page 0
 * reads around it, 0-31, with PG_readahead on page 24 (start + size -
 * ra_pages / 4); touching 24 pushes the window on (page_cache_async_ra:
 * 32-63, its marker on 32), and so on: one major fault for the walk. */
void test_mmap_ra_sequential(void);
void test_mmap_ra_sequential(void)
{
	const char *const pols[] = { "workingset", "linux6", "mglru" };
	for (int p = 0; p < 3; p++) {
		struct mra r;
		mra_init(&r, pols[p], 256, false);
		CHECK_EQ(r.mm.vm.ra_era, 30);
		mra_walk(&r, 0, 24);
		CHECK_EQ(r.ino->nrpages, 32);
		mra_touch(&r, 24, false);
		CHECK_EQ(r.ino->nrpages, 64);
		mra_walk(&r, 25, 33);
		CHECK_EQ(r.ino->nrpages, 96);
		mra_walk(&r, 33, 256);
		CHECK_EQ(r.mm.ev[PGMAJFAULT], 1);
		CHECK_EQ(r.mm.ev[PGFAULT], 256);
		CHECK_EQ(r.mm.ev[PGPGIN], 256 * 4); /* each page read once */
		CHECK_EQ(r.ino->nrpages, 256);
		mra_free(&r);
	}
}

/* The designs of older kernels keep their era: 2.6.26's read-around keeps
 * no state, so the walk faults at 0 (0-31), 32 (16-47), 48, ..., 240:
 * 15 times; the same for linux6 told vm.ra_era=26. */
void test_mmap_ra_older_eras(void);
void test_mmap_ra_older_eras(void)
{
	const char *const pols[] = { "linux26", "splitlru", "linux6" };
	for (int p = 0; p < 3; p++) {
		struct mra r;
		mra_init(&r, pols[p], 256, false);
		r.mm.vm.ra_era = 26;
		mra_walk(&r, 0, 256);
		CHECK_EQ(r.mm.ev[PGMAJFAULT], 15);
		mra_free(&r);
	}
}

/* A fault on a page whose marker is under writeback leaves it alone
 * (PG_readahead is PG_reclaim's bit then: page_cache_async_ra). */
void test_mmap_ra_writeback_marker(void);
void test_mmap_ra_writeback_marker(void)
{
	struct mra r;
	mra_init(&r, "linux6", 256, false);
	mra_touch(&r, 0, false);
	pfn_t pfn = pc_page(r.ino, 24);
	CHECK(mm_page(&r.mm, pfn)->flags & PG_readahead);
	mm_page(&r.mm, pfn)->flags |= PG_writeback;
	mra_touch(&r, 24, false);
	CHECK_EQ(r.ino->nrpages, 32);
	mm_page(&r.mm, pfn)->flags &= ~PG_writeback;
	mra_touch(&r, 25, false); /* no marker on 25: nothing more */
	CHECK_EQ(r.ino->nrpages, 32);
	mra_free(&r);
}

/* mmap001's file: lseek to page 63, write it.  Pages 0-62 are a hole: no
 * blocks, and the walk's faults fill them with zeroes without I/O (the
 * filesystem's readahead maps no block: ext4_mpage_readpages).  Written
 * back, they get blocks in line with each other (one extent). */
void test_mmap_ra_sparse(void);
void test_mmap_ra_sparse(void)
{
	struct mra r;
	mra_init(&r, "linux6", 64, true);
	CHECK_EQ(r.ino->size, 64);
	CHECK_EQ(filemap_block(r.ino, 0), UINT64_MAX);
	CHECK_EQ(filemap_block(r.ino, 62), UINT64_MAX);
	CHECK(filemap_block(r.ino, 63) != UINT64_MAX);
	for (uint64_t i = 0; i < 64; i++)
		mra_touch(&r, i, true);
	CHECK_EQ(r.mm.ev[PGPGIN], 0);
	CHECK_EQ(r.mm.ev[PGMAJFAULT], 1);
	mra_fsync(&r);
	CHECK_EQ(r.mm.ev[PGPGOUT], 64 * 4);
	uint64_t b0 = filemap_block(r.ino, 0);
	CHECK(b0 != UINT64_MAX);
	for (uint64_t i = 1; i < 63; i++)
		CHECK_EQ(filemap_block(r.ino, i), b0 + i);
	mra_free(&r);
}

/* read() of a hole: zeroes, no pgpgin; a write past the end leaves the
 * pages between the old end and the write a hole, and a direct write or
 * a write inside a hole does not fill the rest of it. */
void test_mmap_ra_sparse_read(void);
void test_mmap_ra_sparse_read(void)
{
	struct mra r;
	mra_init(&r, "workingset", 100, true);
	enum fault_status st;
	struct file_ra ra = { 0 };
	CHECK_EQ(filemap_read(&r.mm, &r.ctx, r.ino, &ra, 0, 99, UINT64_MAX, &st), 99);
	CHECK_EQ(r.mm.ev[PGPGIN], 0);
	CHECK_EQ(filemap_write(&r.mm, &r.ctx, r.ino, 200, 1, UINT64_MAX, &st), 1);
	CHECK_EQ(r.ino->size, 201);
	CHECK_EQ(filemap_block(r.ino, 150), UINT64_MAX);
	CHECK(filemap_block(r.ino, 200) != UINT64_MAX);
	CHECK_EQ(filemap_write(&r.mm, &r.ctx, r.ino, 40, 1, UINT64_MAX, &st), 1);
	CHECK_EQ(filemap_block(r.ino, 40), UINT64_MAX); /* until written back */
	mra_fsync(&r);
	CHECK(filemap_block(r.ino, 40) != UINT64_MAX);
	CHECK_EQ(filemap_block(r.ino, 41), UINT64_MAX);
	CHECK_EQ(filemap_block(r.ino, 39), UINT64_MAX);
	mra_free(&r);
}

/* O_DIRECT reads of a hole: zeroes, no I/O, and the read goes on past it
 * (it stopped at the hole: 0 pages read).  fileio -d -b 64 reads "s", 64
 * pages of which only page 63 was ever written, in one call. */
void test_mmap_ra_direct_read_hole(void);
void test_mmap_ra_direct_read_hole(void)
{
	static struct machine m;
	struct profile prof = *profile_find("vmm-2008");
	prof.ram = 64ULL << 20;
	struct machine_opts mo = { .seed = 1, .check = true, .max_time_ns = 100ULL * 1000000000ULL };
	char err[256];
	CHECK(machine_init(&m, &prof, &mo, err, sizeof(err)));
	machine_set_policy(&m, policy_find("linux6"), NULL);
	filemap_extend_write(&m.mm, filemap_create(&m.mm, NULL, "s"), 63, 64);
	char *argv[] = { "fileio", "-d", "-b", "64", "s", "64p", NULL };
	const struct workload_ops *wo = workload_find("fileio");
	void *w = wo->create(6, argv, 1, err, sizeof(err));
	CHECK(w != NULL);
	machine_add_workload(&m, wo, w, "fileio");
	machine_run(&m);
	CHECK(!m.check_failed);
	CHECK_EQ(m.mm.ev[PGPGIN], 4);
	CHECK_EQ(m.mm.stat.nr_file, 0);
	machine_free(&m);
}

/* The page a fault found stays while its window is read: 48 frames, the
 * fault at 0 read 0-31 and 1-23 are mapped, so the window 32-63 that the
 * fault on 24 (the marker) starts must reclaim, and 24 - unmapped, the
 * oldest page not referenced - would be its first victim if the fault
 * did not hold it (filemap_fault's folio reference). */
void test_mmap_ra_holds_page(void);
void test_mmap_ra_holds_page(void)
{
	struct mra r;
	mra_init_frames(&r, "linux6", 48, 256, false);
	mra_walk(&r, 0, 25);
	pte_t pte = r.mm.as[r.as->id]->vmas[r.vma].pte[24];
	CHECK(pte_present(pte));
	CHECK_EQ(pte_pfn(pte), pc_page(r.ino, 24));
	CHECK(r.mm.ev[PGSTEAL_KSWAPD] + r.mm.ev[PGSTEAL_DIRECT] > 0);
	mra_free(&r);
}
