/* test_mglru_fault.c - MGLRU and mapped file pages.  Where it puts a
 * page-cache page: a page a
 * fault brings in is hot (6.x folio_add_lru(): PG_active when
 * lru_gen_in_fault(), so lru_gen_add_folio() files it in max_seq), and so
 * are the pages its readahead adds inside the same fault; a page read()
 * brings in is not (lru_gen_add_folio(): min_seq or min_seq + 1).  The
 * model had filed every page-cache page as read() does, so a shared
 * mapping's read-around windows went to the oldest generation and were
 * evicted before the walk reached them (mmap001: docs/policies.md).  And
 * eviction's rmap walk looks around a young PTE of a file page as of an
 * anonymous one (folio_referenced_one() -> lru_gen_look_around()). */
#include "test.h"
#include "../src/mm/mm.h"
#include "../src/mm/filemap.h"
#include "../src/policy/mglru/mglru.h"
#include "../src/policy/policy.h"

#include <string.h>

/* An untimed mm of 1024 frames under mglru (tun NULL: the defaults). */
static struct mglru *mg_mm(struct mm *mm, struct mm_costs *cost, struct mm_ctx *ctx, const double *tun)
{
	struct mm_config cfg = { .ram_pages = 1024, .swap_pages = 64, .no_watermarks = true, .untimed = true };
	mm_init(mm, &cfg, cost);
	mm_set_policy(mm, policy_find("mglru"), tun);
	*ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	mm->cur = ctx;
	return mglru_of(mm);
}

void test_mglru_fault_file_pages_hot(void)
{
	static struct mm mm;
	struct mm_costs cost = { 0 };
	struct mm_ctx ctx;
	struct mglru *g = mg_mm(&mm, &cost, &ctx, NULL);
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

/* 64 pages of a mapped file read once (young PTEs), aged into the oldest
 * generation without page-table walks (walk_mmu=0 keeps the accessed
 * bits).  Eviction isolates a batch; the rmap walk finds the first page
 * young and looks around it: the neighbours' PTEs are harvested too. */
void test_mglru_look_around_file(void)
{
	static struct mm mm;
	struct mm_costs cost = { 0 };
	struct mm_ctx ctx;
	const struct policy_ops *ops = policy_find("mglru");
	double tun[32];
	for (int i = 0; i < policy_nr_tunables(ops); i++)
		tun[i] = ops->tunables[i].def;
	tun[policy_tunable_index(ops, "walk_mmu")] = 0;
	struct mglru *g = mg_mm(&mm, &cost, &ctx, tun);
	struct inode *ino = filemap_make_uncached(&mm, "f", 64);
	struct aspace *as = mm_aspace_new(&mm, -1);
	uint32_t v = mm_mmap_file(&mm, as, ino, 0, 64, true);
	enum fault_status st;
	CHECK_EQ(mm_touch(&mm, &ctx, as, v, 0, 64, 1, TOUCH_READ, UINT64_MAX / 2, &st), 64);
	while (g->min_seq[MG_FILE] < mglru_page_seq(g, pc_page(ino, 0)))
		CHECK(mglru_age(g, false));
	struct scan_control sc = { .nr_to_reclaim = 64, .priority = DEF_PRIORITY, .who = RECLAIM_DIRECT,
				   .may_swap = true, .may_writepage = true };
	mglru_evict(g, &sc);
	CHECK(mm.work.n[WHO_OTHER][W_LOOK_AROUND] + mm.work.n[WHO_DIRECT][W_LOOK_AROUND] > 0);
	CHECK(g->la_young > 0);
	CHECK(mm_check(&mm, stderr));
	mm_destroy(&mm);
}
