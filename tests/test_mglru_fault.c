/* test_mglru_fault.c - where MGLRU puts a page-cache page: a page a
 * fault brings in is hot (6.x folio_add_lru(): PG_active when
 * lru_gen_in_fault(), so lru_gen_add_folio() files it in max_seq), and so
 * are the pages its readahead adds inside the same fault; a page read()
 * brings in is not (lru_gen_add_folio(): min_seq or min_seq + 1).  The
 * model had filed every page-cache page as read() does, so a shared
 * mapping's read-around windows went to the oldest generation and were
 * evicted before the walk reached them (mmap001: docs/policies.md). */
#include "test.h"
#include "../src/mm/mm.h"
#include "../src/mm/filemap.h"
#include "../src/policy/mglru/mglru.h"
#include "../src/policy/policy.h"

#include <string.h>

void test_mglru_fault_file_pages_hot(void)
{
	static struct mm mm;
	struct mm_costs cost = { 0 };
	struct mm_config cfg = { .ram_pages = 1024, .swap_pages = 64, .no_watermarks = true, .untimed = true };
	mm_init(&mm, &cfg, &cost);
	mm_set_policy(&mm, policy_find("mglru"), NULL);
	struct mglru *g = mglru_of(&mm);
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	mm.cur = &ctx;
	mm.vm.ra_pages = 8;
	struct inode *mapped = filemap_make_uncached(&mm, "mapped", 64);
	struct inode *readf = filemap_make_uncached(&mm, "read", 64);
	struct aspace *as = mm_aspace_new(&mm, -1);
	uint32_t v = mm_mmap_file(&mm, as, mapped, 0, 64, true);
	enum fault_status st;
	CHECK_EQ(mm_touch(&mm, &ctx, as, v, 0, 1, 1, TOUCH_READ, UINT64_MAX / 2, &st), 1);
	/* the faulting page and the read-around window with it */
	CHECK(mapped->nrpages > 1);
	uint64_t hot = 0;
	for (uint64_t i = 0; i < 64; i++) {
		pfn_t pfn = pc_page(mapped, i);
		if (pfn != PFN_NONE)
			hot += mglru_page_seq(g, pfn) == g->max_seq;
	}
	CHECK_EQ(hot, mapped->nrpages);
	struct file_ra ra;
	memset(&ra, 0, sizeof(ra));
	CHECK_EQ(filemap_read(&mm, &ctx, readf, &ra, 0, 1, UINT64_MAX / 2, &st), 1);
	CHECK(readf->nrpages >= 1);
	for (uint64_t i = 0; i < 64; i++) {
		pfn_t pfn = pc_page(readf, i);
		if (pfn != PFN_NONE)
			CHECK(mglru_page_seq(g, pfn) < g->max_seq);
	}
	CHECK(mm_check(&mm, stderr));
	mm_destroy(&mm);
}
