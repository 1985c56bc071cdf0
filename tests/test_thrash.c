/* test_thrash.c - the swap token (mm/thrash.c of 2.6.26): who gets it, and
 * what it does to page_referenced(). */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <string.h>

static void token_mm(struct mm *mm, struct mm_costs *cost, const char *policy)
{
	memset(mm, 0, sizeof(*mm));
	memset(cost, 0, sizeof(*cost));
	struct mm_config cfg = { .ram_pages = 256, .swap_pages = 256, .untimed = true };
	mm_init(mm, &cfg, cost);
	const struct policy_ops *ops = policy_find(policy);
	mm_set_policy(mm, ops, NULL);
}

/* grab_swap_token()'s priorities, step by step (global fault numbers g1..):
 * A g1: the token is free, A takes it with priority 2.
 * B g2-g5, g7-g9, g11: B's interval never shrinks twice in a row, its
 *   priority stays at 0 or 1, never above A's 2.
 * C g6 (interval 6), g10 (4 < 6: 1), g12 (2 < 4: 2, not > 2), g13 (1 < 2:
 *   3 > 2): C takes the token and gets +2 = 5. */
void test_swap_token_priority(void)
{
	struct mm mm;
	struct mm_costs cost;
	token_mm(&mm, &cost, "linux26");
	CHECK_EQ(mm.vm.swap_token, 1);
	struct aspace *a = mm_aspace_new(&mm, 0), *b = mm_aspace_new(&mm, 1), *c = mm_aspace_new(&mm, 2);
	grab_swap_token(&mm, a);
	CHECK_EQ(mm.swap_token_mm, a->id + 1);
	CHECK_EQ(a->token_priority, 2);
	const char *order = "BBBBCBBBCBCC";
	for (const char *o = order; *o; o++) {
		grab_swap_token(&mm, *o == 'B' ? b : c);
		if (o - order == 10) { /* g12 */
			CHECK_EQ(c->token_priority, 2);
			CHECK_EQ(mm.swap_token_mm, a->id + 1);
		}
	}
	CHECK_EQ(mm.global_faults, 13);
	CHECK_EQ(mm.swap_token_mm, c->id + 1);
	CHECK_EQ(c->token_priority, 5);
	CHECK_EQ(a->token_priority, 2);
	CHECK_EQ(b->token_priority, 0);
	/* The holder faulting again: +2. */
	grab_swap_token(&mm, c);
	CHECK_EQ(c->token_priority, 7);
	/* The holder exits: the next contender takes it first come. */
	put_swap_token(&mm, c);
	CHECK_EQ(mm.swap_token_mm, 0);
	grab_swap_token(&mm, b);
	CHECK_EQ(mm.swap_token_mm, b->id + 1);
	CHECK_EQ(b->token_priority, 2);
	mm_destroy(&mm);

	/* Designs after 3.4 have no token. */
	token_mm(&mm, &cost, "workingset");
	CHECK_EQ(mm.vm.swap_token, 0);
	mm_destroy(&mm);
}

/* page_referenced_one(): the holder's pages count as referenced while it
 * is in the middle of a page fault and somebody else is reclaiming. */
void test_swap_token_referenced(void)
{
	struct mm mm;
	struct mm_costs cost;
	token_mm(&mm, &cost, "linux26");
	struct mm_ctx owner = { .task = 7, .wait_pfn = PFN_NONE };
	struct mm_ctx kswapd = { .task = -1, .kswapd = true, .wait_pfn = PFN_NONE };
	struct aspace *as = mm_aspace_new(&mm, 7);
	uint32_t v = mm_mmap_anon(&mm, as, 4, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(&mm, &owner, as, v, 0, 4, 1, true, UINT64_MAX / 2, &st), 4);
	pfn_t pfn = pte_pfn(as->vmas[v].pte[0]);
	mm.cur = &kswapd;
	CHECK_EQ(mm_page_referenced(&mm, pfn), 1); /* the young PTE; now cleared */
	CHECK_EQ(mm_page_referenced(&mm, pfn), 0);
	grab_swap_token(&mm, as);
	CHECK_EQ(mm_page_referenced(&mm, pfn), 0); /* holder, not in a fault */
	as->in_fault = true;
	CHECK_EQ(mm_page_referenced(&mm, pfn), 1); /* holder blocked in a fault */
	mm.cur = &owner;
	CHECK_EQ(mm_page_referenced(&mm, pfn), 0); /* its own reclaim: mm == current->mm */
	/* Reclaim at priority 0 takes the token away. */
	mm_shrink(&mm, &kswapd, 1, 0);
	CHECK_EQ(mm.swap_token_mm, 0);
	mm.cur = &kswapd;
	CHECK_EQ(mm_page_referenced(&mm, pfn), 0);
	mm.cur = NULL;
	mm_destroy(&mm);
}
