/* memcg_hooks.c - memory.min / memory.low protection and memory.high
 * throttling in the cgroup tree (cgtree.c), wired to the pure modules
 * page_counter.c and memcg_high.c.
 *
 * Protection follows 6.6 mm/vmscan.c shrink_node_memcgs(): at the start
 * of each reclaim pass mem_cgroup_calculate_protection(target, memcg)
 * gives every cgroup of the target's subtree its effective memory.min
 * and memory.low (mm/page_counter.c page_counter_calculate_protection();
 * the target is the root for kswapd and direct reclaim, the cgroup at
 * its limit or over its high for memcg reclaim); a cgroup
 * mem_cgroup_below_min() is skipped, one mem_cgroup_below_low() is
 * skipped too (sc->memcg_low_skipped) unless sc->memcg_low_reclaim, when
 * it is reclaimed and memcg_memory_event(MEMCG_LOW) counts.
 * do_try_to_free_pages() retries with memcg_low_reclaim when its passes
 * reclaimed nothing and one skipped a cgroup below low ("Untapped cgroup
 * reserves?  Don't OOM, retry"); kswapd's balance_pgdat() never does.
 * memory_recursiveprot (cgrp_dfl_root's CGRP_ROOT_MEMORY_RECURSIVE_PROT,
 * passed to page_counter_calculate_protection()) is off, the cgroup2
 * mount's default, unless --set memory_recursiveprot=1.  A
 * cgroup above its protection is scanned less in proportion to it:
 * get_scan_count()'s apply_proportional_protection() (pc_scan_target()),
 * which a policy's own get_scan_count asks for with mm_scan_protected()
 * (linux6; workingset's 3.15 and 6.6 MGLRU's lru_gen have none).
 *
 * memory.high follows 6.6 mm/memcontrol.c: try_charge_memcg() adds the
 * charge to current->memcg_nr_pages_over_high when it leaves the cgroup
 * or an ancestor above memory.high, and handles it at once once that
 * passes MEMCG_CHARGE_BATCH, else on the return to user space
 * (mem_cgroup_handle_over_high()): reclaim_high() reclaims from each
 * level above its high (memory.events high there), then
 * calculate_high_delay() gives the penalty - memory's
 * (mem_find_max_overage()) plus swap's (swap_find_max_overage(), over
 * memory.swap.high, counted in memory.swap.events high; 5.8 on) - and
 * the task sleeps it in a memory stall (schedule_timeout_killable()
 * inside psi_memstall_enter).
 * pagelab has no charge stock: a charge is one page, so a task's pages
 * over high grow by one per page.  The sleep is owed here
 * (task_sleep_ns); ctx->high_sleep ends the touch or read loop that
 * charged after its current page, and the machine puts the task to sleep
 * then (mm_memcg_return_to_user(), src/machine/tasks.c: W_SLEEP with a
 * timeout, in a PSI memory stall until it runs again). */
#include "internal.h"
#include "memcg_high.h"
#include "page_counter.h"
#include "memcg_lru.h"

uint64_t memcg_protection(struct mm *mm, int cg, bool low)
{
	const struct cgtree *t = mm->cgt;
	return low ? t->pc[cg].elow : t->pc[cg].emin;
}

/* shrink_node_memcgs()'s verdict on every cgroup of the target's
 * subtree for this pass. */
void memcg_prot_begin(struct mm *mm)
{
	struct cgtree *t = mm->cgt;
	struct pc_node *n = t->pc;
	int root = t->target;
	for (int c = 0; c < t->n; c++)
		n[c] = (struct pc_node){ .parent = c ? t->cg[c].conf.parent : -1, .usage = t->cg[c].current,
					 .min = t->cg[c].conf.min, .low = t->cg[c].conf.low };
	if (!pc_calculate_protection(n, t->n, root, t->recursiveprot))
		panic("cgroup tree: a parent after its child");
	/* MGLRU's global reclaim: shrink_one() judges each memcg as the
	 * memcg LRU reaches it (memcg_lru.c); memcg_low_skipped is never
	 * set, so do_try_to_free_pages() has no memcg_low_reclaim retry. */
	if (memcg_lru_global(mm))
		return;
	for (int c = 0; c < t->n; c++) {
		t->prot_skip[c] = false;
		if (!cg_in_subtree(t, c, root))
			continue;
		if (pc_below_min(n, root, c)) {
			t->prot_skip[c] = true;
		} else if (pc_below_low(n, root, c)) {
			if (!t->low_reclaim) {
				t->low_skipped = true;
				t->prot_skip[c] = true;
			} else {
				cgtree_event(t, c, CGE_LOW);
			}
		}
	}
}

void memcg_prot_end(struct mm *mm)
{
	struct cgtree *t = mm->cgt;
	for (int c = 0; c < t->n; c++) {
		t->prot_skip[c] = false;
		t->pc[c].emin = t->pc[c].elow = 0;
	}
}

uint64_t mm_scan_protected(struct mm *mm, uint64_t lruvec_size)
{
	struct cgtree *t = mm->cgt;
	if (!t || t->shrinking < 0)
		return lruvec_size;
	return pc_scan_target(t->pc, t->target, t->shrinking, lruvec_size, t->low_reclaim, &t->low_skipped);
}

void memcg_low_reset(struct mm *mm)
{
	if (mm->cgt)
		mm->cgt->low_reclaim = mm->cgt->low_skipped = false;
}

bool memcg_low_retry(struct mm *mm)
{
	struct cgtree *t = mm->cgt;
	if (!t || !t->low_skipped || t->low_reclaim)
		return false;
	t->low_reclaim = true;
	t->low_skipped = false;
	return true;
}

/* reclaim_high(): nr pages from each level above its high, the task's
 * cgroup up to (not including) the root. */
static uint64_t reclaim_high(struct mm *mm, struct mm_ctx *ctx, int cg, unsigned nr)
{
	struct cgtree *t = mm->cgt;
	uint64_t got = 0;
	for (int c = cg; c > 0; c = t->cg[c].conf.parent) {
		if (t->cg[c].current <= t->cg[c].conf.high)
			continue;
		cgtree_event(t, c, CGE_HIGH);
		bool congested;
		t->target = c;
		/* stall_below 0: down to priority 0, starting writeback,
		 * never waiting for it (v2 reclaim does not); what falls
		 * short is made up by the penalty sleep. */
		got += do_try_to_free_pages(mm, ctx, nr, true, 0, &congested);
		t->target = 0;
	}
	return got;
}

/* mem_find_max_overage(): memory.high's. */
static uint64_t max_overage(const struct cgtree *t, int cg)
{
	uint64_t usage[CG_MAX], high[CG_MAX];
	int nr = 0;
	for (int c = cg; c > 0; c = t->cg[c].conf.parent, nr++) {
		usage[nr] = t->cg[c].current;
		high[nr] = t->cg[c].conf.high;
	}
	return memcg_max_overage(usage, high, nr);
}

/* swap_find_max_overage(): memory.swap.high's, and each level over it
 * counts memory.swap.events high (memcg_memory_event(MEMCG_SWAP_HIGH):
 * there and in its ancestors below the root) - once per evaluation, so
 * once per pass of the reclaim-and-retry loop, as the kernel's. */
static uint64_t swap_max_overage(struct cgtree *t, int cg)
{
	uint64_t max = 0;
	for (int c = cg; c > 0; c = t->cg[c].conf.parent) {
		uint64_t o = memcg_calculate_overage(t->cg[c].swap_current, t->cg[c].conf.swap_high);
		if (!o)
			continue;
		for (int a = c; a > 0; a = t->cg[a].conf.parent)
			t->cg[a].swap_events_high++;
		if (o > max)
			max = o;
	}
	return max;
}

/* mem_cgroup_handle_over_high() for the task of ctx: the sleep it owes
 * goes to task_sleep_ns. */
static void handle_over_high(struct mm *mm, struct mm_ctx *ctx)
{
	struct cgtree *t = mm->cgt;
	int task = ctx->task, cg = cgtree_task_cg(t, task);
	unsigned nr = t->task_over_high[task];
	if (!nr)
		return;
	t->task_over_high[task] = 0;
	struct memcg_over_high s;
	enum memcg_high_next next;
	memcg_over_high_begin(&s, nr);
	do {
		uint64_t got = reclaim_high(mm, ctx, cg, s.reclaim);
		uint64_t penalty = memcg_high_penalty(max_overage(t, cg), swap_max_overage(t, cg), nr, t->hz);
		next = memcg_over_high_next(&s, got, penalty, t->hz);
	} while (next == MEMCG_HIGH_RECLAIM);
	if (next == MEMCG_HIGH_SLEEP) {
		t->task_sleep_ns[task] += s.sleep_ns;
		ctx->high_sleep = true;
	}
}

static bool user_task(const struct cgtree *t, const struct mm_ctx *ctx)
{
	return ctx && !ctx->kswapd && ctx->task >= 0 && ctx->task < t->nr_task_cg;
}

void memcg_handle_over_high(struct mm *mm, struct mm_ctx *ctx, int cg)
{
	struct cgtree *t = mm->cgt;
	if (!user_task(t, ctx))
		return;
	/* try_charge_memcg(): memory or swap above its high, here or above. */
	for (int c = cg; c > 0; c = t->cg[c].conf.parent) {
		if (t->cg[c].current > t->cg[c].conf.high || t->cg[c].swap_current > t->cg[c].conf.swap_high) {
			t->task_over_high[ctx->task]++;
			break;
		}
	}
	if (memcg_high_handle_now(t->task_over_high[ctx->task]))
		handle_over_high(mm, ctx);
}

uint64_t mm_memcg_return_to_user(struct mm *mm, struct mm_ctx *ctx)
{
	struct cgtree *t = mm->cgt;
	if (!t || !user_task(t, ctx))
		return 0;
	handle_over_high(mm, ctx);
	uint64_t ns = t->task_sleep_ns[ctx->task];
	t->task_sleep_ns[ctx->task] = 0;
	ctx->high_sleep = false;
	return ns;
}
