/* test_dropbehind_read.c - RWF_DONTCACHE reads (6.14+; 6.18
 * filemap_get_pages() with ractl.dropbehind, filemap_end_dropbehind_read();
 * src/mm/filemap.c): every page an uncached read brings in, readahead's
 * too, is PG_dropbehind, and goes once a read has copied it, with no
 * shadow entry.  A hand-built mm, untimed I/O (reads complete at once),
 * linux6 (shadow entries on eviction) with 2.6+ readahead of 32 pages, a
 * 64-page file on the disk.  Counted by hand from mm/readahead.c:
 *   a read of 8 pages at 0, no readahead state: page_cache_sync_ra()
 *   -> initial window get_init_ra_size(8, 32) = 16 (8 rounded to a
 *   power of two, doubled as it is at most 32/4), async_size 16 - 8 = 8:
 *   pages 0-15 read (64 KB in), PG_readahead on page 8.
 *   a read of pages 8-15 then hits the marker: page_cache_async_ra()
 *   reads the next window, get_next_ra_size(16, 32) = 32 pages, 16-47.
 * Milliseconds. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/mm/filemap.h"
#include "../src/policy/policy.h"

#include <string.h>

void test_dropbehind_read_window(void);
void test_dropbehind_read_plain_reader(void);
void test_dropbehind_read_cached_kept(void);
void test_dropbehind_read_no_shadow(void);
void test_dropbehind_read_fault_clears(void);

struct rd {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	struct inode *ino;
	struct file_ra ra;
};

static void rd_init(struct rd *r)
{
	memset(r, 0, sizeof(*r));
	struct mm_config cfg = { .ram_pages = 4096, .swap_pages = 0, .no_watermarks = true,
				 .untimed = true };
	mm_init(&r->mm, &cfg, &r->cost);
	mm_set_policy(&r->mm, policy_find("linux6"), NULL);
	r->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	r->ino = filemap_make_uncached(&r->mm, "f", 64);
}

/* read(2) of pages [first, first+n), RWF_DONTCACHE or not: all of them. */
static void rd_read(struct rd *r, uint64_t first, uint64_t n, bool dontcache)
{
	enum fault_status st;
	CHECK_EQ(filemap_read_rwf(&r->mm, &r->ctx, r->ino, &r->ra, first, n, dontcache,
				  UINT64_MAX / 2, &st), n);
	CHECK_EQ(st, FAULT_DONE);
}

static void rd_free(struct rd *r)
{
	CHECK(mm_check(&r->mm, stderr));
	mm_destroy(&r->mm);
}

/* The 16 pages of the first window come in (64 KB); the 8 the read
 * copied go, the 8 read ahead stay, PG_dropbehind.  The same read
 * without RWF_DONTCACHE keeps all 16. */
void test_dropbehind_read_window(void)
{
	struct rd r;
	rd_init(&r);
	rd_read(&r, 0, 8, true);
	CHECK_EQ(r.mm.ev[PGPGIN], 64);
	CHECK_EQ(r.ino->nrpages, 8);
	CHECK_EQ(r.mm.stat.nr_file, 8);
	for (uint64_t i = 0; i < 16; i++) {
		pfn_t pfn = pc_page(r.ino, i);
		CHECK_EQ(pfn == PFN_NONE, i < 8);
		if (pfn != PFN_NONE)
			CHECK(mm_page(&r.mm, pfn)->flags & PG_dropbehind);
	}
	rd_free(&r);

	rd_init(&r);
	rd_read(&r, 0, 8, false);
	CHECK_EQ(r.mm.ev[PGPGIN], 64);
	CHECK_EQ(r.ino->nrpages, 16);
	CHECK(!(mm_page(&r.mm, pc_page(r.ino, 8))->flags & PG_dropbehind));
	rd_free(&r);
}

/* A plain read that copies pages an uncached one read ahead drops them
 * too (filemap_end_dropbehind_read() is called for every read), while
 * the window it reads ahead itself (16-47, 128 KB more) is cached. */
void test_dropbehind_read_plain_reader(void)
{
	struct rd r;
	rd_init(&r);
	rd_read(&r, 0, 8, true);
	rd_read(&r, 8, 8, false);
	CHECK_EQ(r.mm.ev[PGPGIN], 64 + 128);
	CHECK_EQ(r.ino->nrpages, 32);
	for (uint64_t i = 0; i < 64; i++)
		CHECK_EQ(pc_page(r.ino, i) != PFN_NONE, i >= 16 && i < 48);
	CHECK(!(mm_page(&r.mm, pc_page(r.ino, 16))->flags & PG_dropbehind));
	rd_free(&r);
}

/* Pages a plain read cached are found, not made, by an uncached read of
 * them: they keep no flag and stay (16, nothing read again). */
void test_dropbehind_read_cached_kept(void)
{
	struct rd r;
	rd_init(&r);
	rd_read(&r, 0, 8, false);
	rd_read(&r, 0, 8, true);
	CHECK_EQ(r.mm.ev[PGPGIN], 64);
	CHECK_EQ(r.ino->nrpages, 16);
	rd_free(&r);
}

/* The whole file read uncached: nothing left, no shadow entries; read
 * again (plainly), every page is read from the disk once more and none
 * is a workingset refault. */
void test_dropbehind_read_no_shadow(void)
{
	struct rd r;
	rd_init(&r);
	rd_read(&r, 0, 64, true);
	CHECK_EQ(r.mm.ev[PGPGIN], 256);
	CHECK_EQ(r.ino->nrpages, 0);
	CHECK_EQ(r.ino->nrshadows, 0);
	CHECK_EQ(r.mm.stat.nr_file, 0);
	r.ra = (struct file_ra){ 0 };
	rd_read(&r, 0, 64, false);
	CHECK_EQ(r.mm.ev[PGPGIN], 512);
	CHECK_EQ(r.ino->nrpages, 64);
	CHECK_EQ(r.mm.ev[WORKINGSET_REFAULT_FILE], 0);
	rd_free(&r);
}

/* A fault on a page an uncached read left behind (page 8, read ahead)
 * finds it with filemap_get_folio(), which clears the flag: a plain read
 * of it afterwards keeps it; page 9, not faulted, goes when read. */
void test_dropbehind_read_fault_clears(void)
{
	struct rd r;
	rd_init(&r);
	rd_read(&r, 0, 8, true);
	struct aspace *as = mm_aspace_new(&r.mm, 0);
	uint32_t vma = mm_mmap_file(&r.mm, as, r.ino, 0, 64, false);
	enum fault_status st;
	CHECK_EQ(mm_touch(&r.mm, &r.ctx, as, vma, 8, 1, 1, false, UINT64_MAX, &st), 1);
	pfn_t p8 = pc_page(r.ino, 8);
	CHECK(p8 != PFN_NONE && !(mm_page(&r.mm, p8)->flags & PG_dropbehind));
	r.ra = (struct file_ra){ 0 };
	rd_read(&r, 8, 2, false);
	CHECK_EQ(pc_page(r.ino, 8), p8);
	CHECK_EQ(pc_page(r.ino, 9), PFN_NONE);
	mm_aspace_exit(&r.mm, &r.ctx, as);
	rd_free(&r);
}
