/* test_swapra_charge.c - a swap readahead page's charge in a cgroup at
 * its limit with writes in flight (src/mm/memcg.c wait_for_writes()).
 * A fault's own charge waits for the writes (FAULT_WAIT_RECLAIM); a
 * readahead page's cannot wait, and 6.18's __read_swap_cache_async()
 * charge would sleep in reclaim and then succeed, so it is made past the
 * limit, memory.peak left at the limit.  Before, the page was dropped:
 * linux6 took twice the kernel's major faults for the same swap-ins
 * (docs/fidelity.md, "Swap readahead's charge").  A hand-built mm of 64
 * frames, a cgroup of 8 pages, no disk. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/policy/policy.h"

#include <string.h>

void test_swapra_charge_past_limit(void);

void test_swapra_charge_past_limit(void)
{
	struct mm mm;
	struct mm_costs cost;
	memset(&cost, 0, sizeof(cost));
	struct mm_config cfg = { .ram_pages = 64, .swap_pages = 64 };
	mm_init(&mm, &cfg, &cost);
	mm_set_policy(&mm, policy_find("linux6"), NULL);
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	mm.cur = &ctx;
	mm_memcg_init(&mm, 8, true);
	enum fault_status st;
	pfn_t got[8];
	for (int i = 0; i < 8; i++) {
		got[i] = mm_alloc_page(&mm, &ctx, &st);
		CHECK(got[i] != PFN_NONE);
	}
	CHECK_EQ(mm.memcg.charged, 8);
	/* Four of the cgroup's pages under writeback, to be freed when it
	 * ends: the next charge waits for them rather than reclaim. */
	mm.stat.nr_pending_free = 4;
	CHECK(mm_alloc_page(&mm, &ctx, &st) == PFN_NONE);
	CHECK_EQ(st, FAULT_WAIT_RECLAIM);
	CHECK(ctx.reclaim_wait);
	CHECK_EQ(mm.memcg.charged, 8);
	/* A readahead page: charged past the limit, the fault's wait state
	 * left as it was, the next charge (a fault's) waits again. */
	ctx.reclaim_wait = false;
	pfn_t ra = swap_ra_alloc(&mm, &ctx);
	CHECK(ra != PFN_NONE);
	CHECK(!mm.charge_nowait);
	CHECK(!ctx.reclaim_wait);
	CHECK_EQ(mm.memcg.charged, 9);
	CHECK_EQ(mm.memcg.peak, 8);
	CHECK(!mm.memcg.oom_pending);
	CHECK(mm_alloc_page(&mm, &ctx, &st) == PFN_NONE);
	CHECK_EQ(st, FAULT_WAIT_RECLAIM);
	/* No writes in flight, nothing to reclaim (no page is on an LRU):
	 * the readahead page finds no frame and queues no OOM kill. */
	mm.stat.nr_pending_free = 0;
	CHECK(swap_ra_alloc(&mm, &ctx) == PFN_NONE);
	CHECK_EQ(mm.memcg.charged, 9);
	CHECK(!mm.memcg.oom_pending);
	mm.stat.nr_pending_free = 0;
	free_frame(&mm, ra);
	for (int i = 0; i < 8; i++)
		free_frame(&mm, got[i]);
	mm_destroy(&mm);
}
