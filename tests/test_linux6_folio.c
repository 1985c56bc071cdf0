/* test_linux6_folio.c - large page-cache folios (vm.pagecache_folio_order):
 * the folio orders readahead gives a window (filemap_ra_folio_order, 6.x
 * page_cache_ra_order), and linux6's isolate_lru_folios() taking a folio
 * whole and counting all its pages.  Cost: a few milliseconds. */
#include "test.h"
#include "../src/mm/mm.h"
#include "../src/mm/filemap.h"
#include "../src/policy/linux6/linux6.h"
#include "../src/policy/policy.h"

#include <string.h>

void test_ra_folio_order(void);
void test_linux6_large_folio_isolation(void);

/* A 2048-page window from 0 with order 9: 512-page folios.  An index
 * aligned only to 4 gets order 2, to 256 order 8; no folio reaches past
 * the window's end (88 pages from 512 leave room for 64); an odd index is
 * a single page, and so is everything with order 0. */
void test_ra_folio_order(void)
{
	CHECK_EQ(filemap_ra_folio_order(0, 2048, 9), 9);
	CHECK_EQ(filemap_ra_folio_order(1536, 2048, 9), 9);
	CHECK_EQ(filemap_ra_folio_order(4, 2048, 9), 2);
	CHECK_EQ(filemap_ra_folio_order(256, 2048, 9), 8);
	CHECK_EQ(filemap_ra_folio_order(512, 600, 9), 6);
	CHECK_EQ(filemap_ra_folio_order(576, 600, 9), 4);
	CHECK_EQ(filemap_ra_folio_order(3, 100, 9), 0);
	CHECK_EQ(filemap_ra_folio_order(0, 1, 9), 0);
	CHECK_EQ(filemap_ra_folio_order(1024, 4096, 0), 0);
	/* Walked as do_readahead() walks a window [100, 1300): growing
	 * with the alignment, one 512, then shrinking to the end. */
	uint64_t idx = 100, n = 0, big = 0;
	while (idx < 1300) {
		unsigned o = filemap_ra_folio_order(idx, 1300, 9);
		CHECK_EQ(idx % (1ULL << o), 0);
		CHECK(idx + (1ULL << o) <= 1300);
		big += o == 9;
		idx += 1ULL << o;
		n++;
	}
	CHECK_EQ(idx, 1300);
	/* 100 (4), 104 (8), 112 (16), 128 (128), 256 (256), 512 (512),
	 * 1024 (256), 1280 (16), 1296 (4). */
	CHECK_EQ(big, 1);
	CHECK_EQ(n, 9);
}

static pfn_t folio_page(struct mm *mm, uint32_t flags, uint64_t index, unsigned order)
{
	pfn_t pfn = lru_head(&mm->fr, mm->zones[0].free_list);
	lru_del(&mm->fr, pfn);
	mm->stat.nr_free--;
	mm->zones[0].nr_free--;
	struct page *p = mm_page(mm, pfn);
	p->flags = flags;
	p->index = index;
	p->folio_order = (uint8_t)order;
	if (flags & PG_anon)
		mm->stat.nr_anon++;
	mm->pol.ops->add(mm->pol.priv, pfn, (flags & PG_anon) ? ADD_NEW_ANON : ADD_PAGECACHE);
	return pfn;
}

/* Clean inactive file pages (no inode: freed at once), oldest first: a
 * 512-page folio A at 0, 4-page folios B at 512 and F at 516, a single
 * page C at 520.  Asked for 24, reclaim takes A whole (512 scanned, 512
 * freed); asked for 1, B alone (F is the next aligned block); for 2, F
 * (4 >= 2: done); then C.  Anonymous pages are never folios here, even
 * with a stale order: one at a time. */
void test_linux6_large_folio_isolation(void)
{
	struct mm mm;
	struct mm_costs cost;
	memset(&cost, 0, sizeof(cost));
	struct mm_config cfg = { .ram_pages = 2048, .swap_pages = 2048, .untimed = true };
	mm_init(&mm, &cfg, &cost);
	mm_set_policy(&mm, policy_find("linux6"), NULL);
	struct linux6 *l = mm.pol.priv;
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	mm.cur = &ctx;
	CHECK_EQ(mm.vm.pagecache_folio_order, 9);
	for (uint64_t i = 0; i < 512; i++)
		folio_page(&mm, PG_file, i, 9);
	for (uint64_t i = 512; i < 520; i++)
		folio_page(&mm, PG_file, i, 2);
	folio_page(&mm, PG_file, 520, 0);
	for (uint64_t i = 0; i < 3; i++)
		folio_page(&mm, PG_anon, i, 9);
	CHECK_EQ(l6_size(l, L6_INACTIVE_FILE), 521);
	const uint64_t asked[] = { 24, 1, 2, 32 }, taken[] = { 512, 4, 4, 1 };
	for (int k = 0; k < 4; k++) {
		struct scan_control sc = { .nr_to_reclaim = 32, .priority = 0, .who = RECLAIM_DIRECT,
					   .may_swap = true, .may_writepage = true };
		CHECK_EQ(l6_shrink_inactive_list(l, asked[k], &sc, 1, NULL), taken[k]);
		CHECK_EQ(sc.nr_scanned, taken[k]);
		CHECK_EQ(sc.nr_scanned_file, taken[k]);
	}
	CHECK_EQ(l6_size(l, L6_INACTIVE_FILE), 0);
	struct scan_control sc = { .nr_to_reclaim = 32, .priority = 0, .who = RECLAIM_DIRECT,
				   .may_swap = true, .may_writepage = true };
	l6_shrink_inactive_list(l, 1, &sc, 0, NULL);
	CHECK_EQ(sc.nr_scanned, 1);
	CHECK_EQ(l6_size(l, L6_INACTIVE_ANON), 2);
	mm_destroy(&mm);
}

/* The 6.16+ ramp of a stream's folio order (ra_window, ra_folio_order):
 * dd's 1 MB reads (256 pages) with the 8 MB window of this host's disk
 * (ra_pages 2048).  The first, synchronous window is 512 pages of order
 * 0; each asynchronous window raises the order by 2 - 1024 pages of
 * order 2, then 2048 of order 4, 6, 8 - until the filesystem's 9; order
 * 11 (ilog2 2048 + 2) is held back to 9.  A sequential miss starts again
 * at 0; a window under 4 pages, or a filesystem without large folios,
 * has order 0. */
void test_ra_folio_ramp(void);
void test_ra_folio_ramp(void)
{
	struct vm_sysctl vs = { .ra_pages = 2048 };
	struct file_ra ra = { 0 };
	uint64_t start, async;
	CHECK_EQ(ra_window(&vs, NULL, &ra, 0, 256, false, &start, &async), 512);
	CHECK_EQ(start, 0);
	CHECK_EQ(async, 256);
	CHECK_EQ(ra_folio_order(&ra, 512, 9), 0);
	const uint64_t marker[] = { 256, 512, 1536, 3584, 5632, 7680 };
	const uint64_t size[] = { 1024, 2048, 2048, 2048, 2048, 2048 };
	const unsigned order[] = { 2, 4, 6, 8, 9, 9 };
	uint64_t next = 512;
	for (int k = 0; k < 6; k++) {
		CHECK_EQ(ra_window(&vs, NULL, &ra, marker[k], 256, true, &start, &async), size[k]);
		CHECK_EQ(start, next);
		CHECK_EQ(ra_folio_order(&ra, size[k], 9), order[k]);
		next += size[k];
	}
	CHECK_EQ(ra.order, 9);
	/* A sequential miss right after the last read (prev): order 0. */
	ra.prev = 20000;
	CHECK_EQ(ra_window(&vs, NULL, &ra, 20000, 256, false, &start, &async), 512);
	CHECK_EQ(ra_folio_order(&ra, 512, 9), 0);
	ra.order = 6;
	CHECK_EQ(ra_folio_order(&ra, 3, 9), 0);
	ra.order = 6;
	CHECK_EQ(ra_folio_order(&ra, 2048, 0), 0);
}

/* The ramp as linux6's page cache records it: a 16384-page file read
 * 256 pages at a time (untimed: every read completes at once) leaves its
 * first 512 pages single, the next 1024 in 4-page folios, 2048 in 16,
 * 2048 in 64, 2048 in 256 and the rest in 512-page folios. */
void test_linux6_pagecache_ramp(void);
void test_linux6_pagecache_ramp(void)
{
	struct mm mm;
	struct mm_costs cost;
	memset(&cost, 0, sizeof(cost));
	struct mm_config cfg = { .ram_pages = 32768, .swap_pages = 256, .no_watermarks = true, .untimed = true };
	mm_init(&mm, &cfg, &cost);
	mm_set_policy(&mm, policy_find("linux6"), NULL);
	mm.vm.ra_pages = 2048;
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	struct inode *ino = filemap_create(&mm, &ctx, "f");
	filemap_extend(&mm, ino, 16384);
	struct file_ra ra = { 0 };
	for (uint64_t i = 0; i < 16384; i += 256) {
		enum fault_status st;
		CHECK_EQ(filemap_read(&mm, &ctx, ino, &ra, i, 256, UINT64_MAX, &st), 256);
		CHECK_EQ(st, FAULT_DONE);
	}
	const uint64_t upto[] = { 512, 1536, 3584, 5632, 7680, 16384 };
	const unsigned order[] = { 0, 2, 4, 6, 8, 9 };
	uint64_t idx = 0;
	for (int k = 0; k < 6; k++)
		for (; idx < upto[k]; idx++) {
			pfn_t pfn = pc_page(ino, idx);
			CHECK(pfn != PFN_NONE);
			CHECK_EQ(mm_page(&mm, pfn)->folio_order, order[k]);
		}
	mm_destroy(&mm);
}
