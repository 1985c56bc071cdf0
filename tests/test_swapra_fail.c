/* test_swapra_fail.c - a readahead page that finds no frame
 * (src/mm/swapin.c, swap_ra_read_slots()): 2.6.28's swapin_readahead()
 * stops the window there (`if (!page) break;`), 4.14+'s
 * swap_cluster_readahead() skips the slot and allocates again for the
 * next (`if (!page) continue;`, 6.1 mm/swap_state.c).  A hand-built
 * untimed mm of four swapped-out pages; the allocator is a stub that
 * has no frame for its first call only. */
#include "test.h"
#include "sim.h"
#include "../src/mm/internal.h"
#include "../src/policy/policy.h"

#include <string.h>

void test_swapra_fail_skips_slot(void);
void test_swapra_fail_stops_26(void);
void test_swapra_fail_no_oom_left(void);
void test_swapra_fail_vma_skips_page(void);

static int stub_calls;

/* No frame the first time (reclaim found nothing then), the allocator's
 * own after (the next slot's reclaim freed one). */
static pfn_t fail_first(struct mm *mm, struct mm_ctx *ctx)
{
	if (stub_calls++ == 0)
		return PFN_NONE;
	return swap_ra_alloc(mm, ctx);
}

/* Pages 0..3 written, swapped out to slots 0..3 and freed; page 0's
 * fault set up at its slot; the slot window [0, 4) read with
 * stop_on_fail, or (vma) the VMA's window: its first fault, 4 hits, 8
 * pages around page 0 (0 - 3 .. 5) cut to the VMA's 0 .. 4.  Returns the
 * readahead pages read (swap_ra); *cached: which slots the swap cache
 * holds, bit s for slot s. */
static uint64_t window(bool stop_on_fail, bool vma, unsigned *cached)
{
	struct mm mm;
	struct mm_costs cost;
	memset(&cost, 0, sizeof(cost));
	struct mm_ctx ctx;
	uint32_t v;
	struct aspace *as = sim_swapped_out(&mm, &cost, &ctx, 4, &v);
	enum fault_status st;
	pfn_t tpfn = mm_alloc_page(&mm, &ctx, &st);
	CHECK(tpfn != PFN_NONE);
	swapin_page(&mm, &ctx, tpfn, 0, as->id + 1, ANON_INDEX(v, 0));
	stub_calls = 0;
	if (vma)
		swap_vma_readahead(&mm, &ctx, &as->vmas[v], 0, 0, tpfn, fail_first);
	else
		swap_ra_read_slots(&mm, &ctx, 0, 4, 0, tpfn, stop_on_fail, fail_first);
	*cached = 0;
	for (unsigned s = 0; s < 4; s++)
		if (mm.swap.cache[s] != PFN_NONE)
			*cached |= 1u << s;
	uint64_t ra = mm.ev[SWAP_RA];
	CHECK_EQ(mm.ev[PSWPIN], 1 + ra); /* the fault's page and each read ahead */
	mm_destroy(&mm);
	return ra;
}

/* 4.14+: slot 1 finds no frame and is skipped; slots 2 and 3 are read
 * (the stub asked three times): the swap cache holds 0, 2 and 3. */
void test_swapra_fail_skips_slot(void)
{
	unsigned cached;
	CHECK_EQ(window(false, false, &cached), 2);
	CHECK_EQ(stub_calls, 3);
	CHECK_EQ(cached, 0xdu);
}

/* 2.6: slot 1 finds no frame and the window ends: the fault's page alone
 * (the stub asked once). */
void test_swapra_fail_stops_26(void)
{
	unsigned cached;
	CHECK_EQ(window(true, false, &cached), 0);
	CHECK_EQ(stub_calls, 1);
	CHECK_EQ(cached, 0x1u);
}

/* A memcg at its limit with nothing to reclaim and nothing in flight:
 * the readahead's charge fails as an OOM would (memory.events oom), but
 * no kill is left queued for the next OOM and the fault does not wait
 * on reclaim for it. */
void test_swapra_fail_no_oom_left(void)
{
	struct mm mm;
	struct mm_costs cost;
	memset(&cost, 0, sizeof(cost));
	struct mm_config cfg = { .ram_pages = 64, .swap_pages = 64, .untimed = true };
	mm_init(&mm, &cfg, &cost);
	mm_set_policy(&mm, policy_find("fifo"), NULL);
	mm.memcg.limit = 1;
	mm.memcg.charged = 1;
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE, .reclaim_wait = false };
	CHECK(swap_ra_alloc(&mm, &ctx) == PFN_NONE);
	CHECK_EQ(mm.memcg.oom, 1);
	CHECK(!mm.memcg.oom_pending);
	CHECK(!ctx.reclaim_wait);
	CHECK_EQ(mm.memcg.charged, 1);
	mm_destroy(&mm);
}

/* 4.14+'s VMA window: page 1 finds no frame and is skipped, pages 2 and
 * 3 are read, as in the slot window. */
void test_swapra_fail_vma_skips_page(void)
{
	unsigned cached;
	CHECK_EQ(window(false, true, &cached), 2);
	CHECK_EQ(stub_calls, 3);
	CHECK_EQ(cached, 0xdu);
}
