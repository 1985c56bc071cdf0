/* test_swap_cluster_mm.c - swap_reclaim_full_clusters() through the mm
 * core (src/mm/swap.c cl_reclaim(), 6.18 __try_to_reclaim_swap() with
 * TTRS_ANYWAY): a page swapped in while the area was nearly empty keeps
 * its slot, only the swap cache holding it; the allocation that fills
 * the area runs swap_reclaim_work(), which frees that slot, dirties the
 * page, and the page's next eviction writes it again.  An untimed mm of
 * 1023 swap slots: cluster 0 = the header + slots 0-510, cluster 1 =
 * slots 511-1022.  Well under a second. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/mm/swap_cluster.h"
#include "../src/mm/pte.h"
#include "../src/policy/policy.h"

#include <string.h>

void test_swap_cluster_mm_reclaim_work(void);

/* page off of vma written, then reclaimed at once: swapped out */
static void write_out(struct mm *mm, struct mm_ctx *ctx, struct aspace *as, uint32_t v, uint64_t off)
{
	enum fault_status st;
	struct scan_control sc = { .nr_to_reclaim = 1, .who = RECLAIM_DIRECT, .may_swap = true,
				   .may_writepage = true };
	mm->cur = ctx;
	CHECK_EQ(mm_touch(mm, ctx, as, v, off, 1, 1, TOUCH_WRITE, UINT64_MAX / 2, &st), 1);
	pfn_t pfn = pte_pfn(as->vmas[v].pte[off]);
	mm->pol.ops->remove(mm->pol.priv, pfn);
	CHECK_EQ(mm_reclaim_page(mm, &sc, pfn), EVICT_FREED);
	mm->cur = NULL;
}

void test_swap_cluster_mm_reclaim_work(void)
{
	static struct mm mm;
	struct mm_costs cost;
	memset(&cost, 0, sizeof(cost));
	struct mm_config cfg = { .ram_pages = 64, .swap_pages = 1023, .untimed = true, .swap_cluster = 1,
				 .nr_cpus = 1 };
	mm_init(&mm, &cfg, &cost);
	mm_set_policy(&mm, policy_find("fifo"), NULL);
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	struct aspace *as = mm_aspace_new(&mm, -1);
	uint32_t v = mm_mmap_anon(&mm, as, 1023, 0);
	for (uint64_t off = 0; off < 10; off++)
		write_out(&mm, &ctx, as, v, off);
	CHECK_EQ(pte_slot(as->vmas[v].pte[3]), 3);
	/* a read fault on page 3, 10 of 1023 slots in use (not
	 * vm_swap_full()): the page keeps slot 3, no PTE refers to it */
	enum fault_status st;
	mm.cur = &ctx;
	CHECK_EQ(mm_touch(&mm, &ctx, as, v, 3, 1, 1, TOUCH_READ, UINT64_MAX / 2, &st), 1);
	mm.cur = NULL;
	pfn_t p3 = pte_pfn(as->vmas[v].pte[3]);
	CHECK_EQ(mm.swap.cache[3], p3);
	CHECK_EQ(mm.swap.map[3], 0);
	/* the other 1013 pages out: slots 10-1022, the last one filling the
	 * area; swap_reclaim_work() scans 1023 / 512 = 1 full cluster, the
	 * head, cluster 0, and frees slot 3 */
	for (uint64_t off = 10; off < 1023; off++)
		write_out(&mm, &ctx, as, v, off);
	CHECK_EQ(pte_slot(as->vmas[v].pte[1022]), 1022);
	const struct swap_clusters *c = mm.swap.cl;
	CHECK_EQ(c->reclaim_works, 1);
	CHECK_EQ(c->reclaim_scans, 1);
	CHECK_EQ(c->reclaim_freed, 1);
	CHECK_EQ(mm.swap.cache[3], PFN_NONE);
	CHECK_EQ(mm.swap.used, 1022);
	CHECK(!(mm_page(&mm, p3)->flags & PG_swapcache));
	CHECK(mm_page(&mm, p3)->flags & PG_dirty);
	CHECK_EQ(c->list[0], CL_NONFULL);
	/* page 3 evicted again: written (pswpout), to the one free slot */
	uint64_t out = mm.ev[PSWPOUT];
	struct scan_control sc = { .nr_to_reclaim = 1, .who = RECLAIM_DIRECT, .may_swap = true,
				   .may_writepage = true };
	mm.cur = &ctx;
	mm.pol.ops->remove(mm.pol.priv, p3);
	CHECK_EQ(mm_reclaim_page(&mm, &sc, p3), EVICT_FREED);
	mm.cur = NULL;
	CHECK_EQ(mm.ev[PSWPOUT], out + 1);
	CHECK_EQ(pte_slot(as->vmas[v].pte[3]), 3);
	mm_destroy(&mm);
}
