/* test_swap_high.c - memory.swap.high (`--cgroup PATH:swap.high=SIZE`)
 * in the tree's throttling (src/mm/memcg_hooks.c), worked by hand from
 * 6.x mm/memcontrol.c: try_charge_memcg() counts a charge over high when
 * swap usage is above swap.high here or in an ancestor;
 * mem_cgroup_handle_over_high() adds calculate_high_delay() of
 * swap_find_max_overage() to memory's, and swap_find_max_overage()
 * raises MEMCG_SWAP_HIGH (memory.swap.events high, hierarchical) at each
 * level over, once per pass of its reclaim-and-retry loop.  HZ 1000. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/engine/cgspec.h"
#include "../include/pagelab.h"

#include <stdlib.h>
#include <string.h>

void test_swap_high_throttles_and_counts(void);
void test_swap_high_library(void);

enum { P = 1, C };

/* /p and /p/c, swap.high 100M of /p and c_high of /p/c; task 0 in
 * /p/c charges 65 pages (one past MEMCG_CHARGE_BATCH: handled at once). */
static struct mm *over_swap_high(const char *c_spec, uint64_t p_swap, uint64_t c_swap, struct mm_ctx *ctx)
{
	struct cg_tree_conf conf = { 0 };
	char err[256];
	struct mm *mm = calloc(1, sizeof(*mm));

	CHECK(cgspec_add(&conf, "/p:swap.high=100M", err, sizeof(err)));
	CHECK(cgspec_add(&conf, c_spec, err, sizeof(err)));
	mm_cgtree_init(mm, &conf);
	mm_cgroup_attach(mm, 0, C);
	mm->cgt->cg[P].swap_current = p_swap;
	mm->cgt->cg[C].swap_current = c_swap;
	*ctx = (struct mm_ctx){ .task = 0 };
	for (int i = 0; i < 65; i++)
		memcg_handle_over_high(mm, ctx, C);
	return mm;
}

void test_swap_high_throttles_and_counts(void)
{
	struct mm_ctx ctx;
	/* /p's swap 110M (28160 pages) over 100M (25600): overage
	 * (2560 << 20) / 25600 = 104857; 104857^2 * 1000 >> 20 >> 14 = 639
	 * jiffies for 64 pages, 639 * 65 / 64 = 648 for 65.  No memory
	 * over memory.high: reclaim_high() frees nothing, so 1 + 16 retries
	 * = 17 evaluations, each an event at /p, then the sleep. */
	struct mm *mm = over_swap_high("/p/c", 28160, 28160, &ctx);
	const struct cgtree *t = mm->cgt;
	CHECK_EQ(t->cg[P].swap_events_high, 17);
	CHECK_EQ(t->cg[C].swap_events_high, 0);   /* events go up, not down */
	CHECK_EQ(t->task_sleep_ns[0], 648000000ull);
	CHECK(ctx.high_sleep);
	CHECK_EQ(t->cg[P].events[CGE_HIGH], 0);   /* memory.events high: memory's */
	mm_cgtree_free(mm);
	free(mm);

	/* /p/c over its own 100M too, by 27000 pages: overage 57344, 17
	 * events at /p/c and 17 more at /p from it; the largest overage,
	 * /p's, still sets the penalty: 648 ms. */
	mm = over_swap_high("/p/c:swap.high=100M", 28160, 27000, &ctx);
	t = mm->cgt;
	CHECK_EQ(t->cg[C].swap_events_high, 17);
	CHECK_EQ(t->cg[P].swap_events_high, 34);
	CHECK_EQ(t->task_sleep_ns[0], 648000000ull);
	mm_cgtree_free(mm);
	free(mm);

	/* At swap.high exactly: no overage, nothing counted, no sleep. */
	mm = over_swap_high("/p/c", 25600, 25600, &ctx);
	t = mm->cgt;
	CHECK_EQ(t->cg[P].swap_events_high, 0);
	CHECK_EQ(t->task_over_high[0], 0);
	CHECK_EQ(t->task_sleep_ns[0], 0);
	mm_cgtree_free(mm);
	free(mm);
}

/* The library takes swap.high in a cgroup's spec and
 * memory_recursiveprot as a setting (the report's figures:
 * tests/cli.d/swaphigh.sh, the same code). */
void test_swap_high_library(void)
{
	pagelab_sim *s = pagelab_new("vmm-2008");
	CHECK(s != NULL);
	CHECK_EQ(pagelab_set(s, "ram", "16M"), 0);
	CHECK_EQ(pagelab_set(s, "memory_recursiveprot", "2"), -1);
	CHECK(strstr(pagelab_error(s), "memory_recursiveprot (0 or 1)") != NULL);
	CHECK_EQ(pagelab_set(s, "memory_recursiveprot", "1"), 0);
	CHECK_EQ(pagelab_add_cgroup(s, "/a:swap.high=x"), -1);
	CHECK(strstr(pagelab_error(s), "bad swap.high 'x'") != NULL);
	CHECK_EQ(pagelab_add_cgroup(s, "/a:swap.high=2M"), 0);
	CHECK_EQ(pagelab_add_workload(s, 4, (const char *const[]){ "usemem", "-m", "1", "@/a" }), 0);
	CHECK_EQ(pagelab_run(s), 0);
	pagelab_free(s);
}
