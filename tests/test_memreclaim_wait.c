/* test_memreclaim_wait.c - what a memory.reclaim write counts across its
 * waits for writeback (src/mm/memcg_reclaim.c).  In the kernel (6.18
 * mm/vmscan.c user_proactive_reclaim(), 6.9-6.15 mm/memcontrol.c
 * memory_reclaim()) nr_reclaimed adds up what each
 * try_to_free_mem_cgroup_pages() returned and nothing else: the pages
 * freed meanwhile by a task of the cgroup exiting are not the write's.
 * A hand-built mm of 256 frames, fifo, cgroup /a, a fake disk whose
 * writes complete only when the test says. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/mm/cgtree.h"
#include "../src/engine/cgspec.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <errno.h>
#include <string.h>

void test_memreclaim_wait_counts_no_exit(void);
void test_memreclaim_wait_then_try(void);

static pfn_t held[64];
static unsigned nheld;

static void hold_write(void *arg, enum io_dir dir, uint32_t slot, pfn_t pfn, uint64_t t)
{
	(void)arg; (void)slot; (void)t;
	if (dir == IO_WRITE && nheld < 64)
		held[nheld++] = pfn;
}

static void end_writes(struct mm *mm)
{
	for (unsigned i = 0; i < nheld; i++)
		mm_io_done(mm, IO_WRITE, held[i]);
	nheld = 0;
}

/* Task `task` of /a writes n anonymous pages. */
static struct aspace *populate(struct mm *mm, struct mm_ctx *ctx, int task, uint64_t n)
{
	*ctx = (struct mm_ctx){ .task = task, .wait_pfn = PFN_NONE };
	mm->cur = ctx;
	struct aspace *as = mm_aspace_new(mm, task);
	uint32_t v = mm_mmap_anon(mm, as, n, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(mm, ctx, as, v, 0, n, 1, TOUCH_WRITE, UINT64_MAX / 2, &st), n);
	return as;
}

/* The mm: fifo, cgroup /a, task 0 of /a writing 40 pages, then (nb > 0)
 * task 1 of /a nb; from then on swap writes wait for end_writes(). */
static struct aspace *setup(struct mm *mm, struct mm_costs *cost, struct mm_ctx *a, struct mm_ctx *b, uint64_t nb)
{
	memset(cost, 0, sizeof(*cost));
	struct mm_config cfg = { .ram_pages = 256, .swap_pages = 256, .untimed = true };
	mm_init(mm, &cfg, cost);
	struct cg_tree_conf conf = { 0 };
	char err[256];
	CHECK(cgspec_add(&conf, "/a", err, sizeof(err)));
	mm_cgtree_init(mm, &conf);
	mm_cgroup_attach(mm, 0, 1);
	mm_cgroup_attach(mm, 1, 1);
	mm_set_policy(mm, policy_find("fifo"), NULL);
	populate(mm, a, 0, 40);
	struct aspace *bs = nb ? populate(mm, b, 1, nb) : NULL;
	mm->untimed = false;
	mm->io = (struct mm_io){ .submit_swap = hold_write };
	nheld = 0;
	return bs;
}

/* /a: task 0 writes 40 pages, then task 1 16.  memory.reclaim of 64
 * pages from /a by task 2 (in the root):
 *  - try 1, max(64 / 4, 32) = 32 pages: fifo takes task 0's first 32
 *    (the oldest), each swapped out and counted as it is written; done
 *    32, and the 32 writes in flight would free the 32 left: a wait.
 *  - meanwhile task 1 exits (its 16 pages freed) and the writes end
 *    (32 more): memory.current 56 -> 8.  Before the fix the wait
 *    counted that drop, 48 pages, and the write reported 80 pages
 *    with 32 stolen.
 *  - try 2, max(32 / 4, 32) = 32: the 8 left, short; a wait for them.
 *  - try 3 onwards: nothing left in /a, 16 retries, EAGAIN.
 * 40 pages reclaimed, /a's pgsteal_proactive 40. */
void test_memreclaim_wait_counts_no_exit(void)
{
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx a, b;
	struct aspace *bs = setup(&mm, &cost, &a, &b, 16);
	const struct cgroup *g = &mm.cgt->cg[1];
	CHECK_EQ(g->current, 56);
	struct mm_ctx w = { .task = 2, .wait_pfn = PFN_NONE };
	mm.cur = &w;
	struct memcg_reclaim r;
	mm_memcg_reclaim_begin(&r, 1, 64, -1);
	CHECK_EQ(mm_memcg_reclaim(&mm, &w, &r), MEMCG_RECLAIM_WAIT);
	CHECK_EQ(r.done, 32);
	CHECK_EQ(nheld, 32);
	mm.cur = &b;
	mm_aspace_exit(&mm, &b, bs);
	CHECK_EQ(g->current, 40);
	end_writes(&mm);
	CHECK_EQ(g->current, 8);
	mm.cur = &w;
	CHECK_EQ(mm_memcg_reclaim(&mm, &w, &r), MEMCG_RECLAIM_WAIT);
	CHECK_EQ(r.done, 40);
	end_writes(&mm);
	CHECK_EQ(mm_memcg_reclaim(&mm, &w, &r), -EAGAIN);
	CHECK_EQ(r.done, 40);
	CHECK_EQ(g->current, 0);
	CHECK_EQ(g->pgsteal_proactive, 40);
	CHECK_EQ(g->stat[CGS_PGSTEAL], 40);
	CHECK_EQ(mm.ev[PSWPOUT], 40);
	mm.cur = NULL;
	CHECK(mm_check(&mm, stderr));
	mm_destroy(&mm);
}

/* Woken before the writes end (reclaim_throttle()'s timeout): a try
 * before another wait.  /a of 40 pages, 64 asked: try 1 writes 32 and
 * waits; woken with them in flight, try 2 takes the 8 left (done 40)
 * and waits again.  Without the try the 32 in flight (>= the 32 left)
 * kept the writer waiting, done 32, for as long as writes were in
 * flight, the node's too. */
void test_memreclaim_wait_then_try(void)
{
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx a, b;
	setup(&mm, &cost, &a, &b, 0);
	struct mm_ctx w = { .task = 2, .wait_pfn = PFN_NONE };
	mm.cur = &w;
	struct memcg_reclaim r;
	mm_memcg_reclaim_begin(&r, 1, 64, -1);
	CHECK_EQ(mm_memcg_reclaim(&mm, &w, &r), MEMCG_RECLAIM_WAIT);
	CHECK_EQ(r.done, 32);
	CHECK_EQ(mm_memcg_reclaim(&mm, &w, &r), MEMCG_RECLAIM_WAIT);
	CHECK_EQ(r.done, 40);
	CHECK_EQ(nheld, 40);
	end_writes(&mm);
	CHECK_EQ(mm_memcg_reclaim(&mm, &w, &r), -EAGAIN);
	CHECK_EQ(r.done, 40);
	CHECK_EQ(mm.cgt->cg[1].pgsteal_proactive, 40);
	mm.cur = NULL;
	CHECK(mm_check(&mm, stderr));
	mm_destroy(&mm);
}
