/* cgtree.c - a tree of memory cgroups: hierarchical charges, limit
 * reclaim against the ancestor at its limit, the cgroup's OOM, swap.max.
 *
 * Follows 6.6 mm/page_counter.c page_counter_try_charge(): a charge walks
 * from the page's cgroup up to the root, raising each counter (and its
 * peak); the first counter it would take past its max fails the charge,
 * and the counters below it are uncharged again.  6.6 mm/memcontrol.c
 * try_charge_memcg(): the failing counter's cgroup is mem_over_limit,
 * memory.events max is raised there before each reclaim from it, and the
 * charging task reclaims from that cgroup's subtree
 * (try_to_free_mem_cgroup_pages(mem_over_limit)), up to
 * MAX_RECLAIM_RETRIES times (the loop is memcg.c's, shared with
 * --memcg), then mem_cgroup_oom() raises oom there and the OOM killer
 * picks among that subtree's tasks (src/machine/tasks.c; with
 * memory.oom.group, mem_cgroup_get_oom_group() and every task of the
 * group dies).  Events go to the cgroup and every ancestor below the root
 * (memcg_memory_event()).  Uncharged as a page is freed
 * (mem_cgroup_uncharge()).  Swap (__mem_cgroup_try_charge_swap()): a slot
 * is charged up the tree to memory.swap.max; a cgroup at its swap.max
 * cannot swap out, its anonymous pages stay (reclaim meets EVICT_NOSWAP).
 * The slot is uncharged when it is freed (__mem_cgroup_uncharge_swap()).
 *
 * Limit reclaim's target (6.6 mm/vmscan.c shrink_node_memcgs(), which
 * walks mem_cgroup_iter(target) and reclaims only the subtree's lruvecs):
 * pagelab's policies keep one LRU for the node, so while t->target is set
 * a page outside the target's subtree is passed over as busy
 * (cgtree_skip()), and a page of a cgroup the pass protects (memcg_hooks.c) is
 * passed over as mem_cgroup_below_min()/below_low() would.  The policy
 * still scans the other cgroups' pages it meets: its scan counts are the
 * node's, not the subtree's (docs/cgroups.md).
 *
 * Simplified: no per-CPU charge stock (exact to the page), no kmem, the
 * pending-writeback test of the retry loop uses the node's pages under
 * writeback as an upper bound of the cgroup's. */
#include "internal.h"
#include "swap.h"

#include <stdlib.h>
#include <string.h>

void mm_cgtree_init(struct mm *mm, const struct cg_tree_conf *conf)
{
	struct cgtree *t = xcalloc(1, sizeof(*t));
	t->n = conf->n + 1;
	t->cg[0].conf = (struct cg_conf){ .path = "/", .max = CG_UNLIMITED, .high = CG_UNLIMITED,
					  .swap_max = CG_UNLIMITED, .swap_high = CG_UNLIMITED,
					  .zswap_max = CG_UNLIMITED,
					  .swappiness = -1 };
	for (int i = 0; i < conf->n; i++)
		t->cg[i + 1].conf = conf->cg[i];
	t->recursiveprot = conf->recursiveprot;
	t->swappiness_tun = -1;
	t->proactive_swappiness = -1;
	t->hz = 1000;
	t->shrinking = -1;
	t->slot_cg = xcalloc(mm->swap.nr_slots ? mm->swap.nr_slots : 1, sizeof(uint16_t));
	/* Frames allocated before (none, normally) are the root's. */
	t->cg[0].current = t->cg[0].peak = mm->fr.nr - mm->stat.nr_free;
	mm->cgt = t;
	mm->swap.cgt = t;
}

void mm_cgtree_free(struct mm *mm)
{
	if (!mm->cgt)
		return;
	cgtree_lru_destroy(mm);
	free(mm->cgt->task_cg);
	free(mm->cgt->task_over_high);
	free(mm->cgt->task_sleep_ns);
	free(mm->cgt->slot_cg);
	free(mm->cgt);
	mm->cgt = NULL;
	mm->swap.cgt = NULL;
}

void mm_cgroup_attach(struct mm *mm, int task, int cg)
{
	struct cgtree *t = mm->cgt;
	if (!t || task < 0 || cg <= 0 || cg >= t->n)
		return;
	if (task >= t->nr_task_cg) {
		size_t was = (size_t)t->nr_task_cg, now = (size_t)task + 1;
		t->task_cg = xrealloc(t->task_cg, now * sizeof(uint16_t));
		memset(t->task_cg + was, 0, (now - was) * sizeof(uint16_t));
		t->task_over_high = xrealloc(t->task_over_high, now * sizeof(uint32_t));
		memset(t->task_over_high + was, 0, (now - was) * sizeof(uint32_t));
		t->task_sleep_ns = xrealloc(t->task_sleep_ns, now * sizeof(uint64_t));
		memset(t->task_sleep_ns + was, 0, (now - was) * sizeof(uint64_t));
		t->nr_task_cg = task + 1;
	}
	t->task_cg[task] = (uint16_t)cg;
}

int cgtree_task_cg(const struct cgtree *t, int task)
{
	return task >= 0 && task < t->nr_task_cg ? t->task_cg[task] : 0;
}

void cgtree_event(struct cgtree *t, int cg, enum cg_event e)
{
	for (; cg > 0; cg = t->cg[cg].conf.parent)
		t->cg[cg].events[e]++;
}

/* page_counter_try_charge() of memory (swap false) or swap: 0 when
 * charged, else the id of the cgroup whose max it would pass. */
static int counter_try_charge(struct cgtree *t, int cg, bool swap)
{
	int c;
	for (c = cg;; c = t->cg[c].conf.parent) {
		struct cgroup *g = &t->cg[c];
		uint64_t *usage = swap ? &g->swap_current : &g->current;
		uint64_t max = swap ? g->conf.swap_max : g->conf.max;
		if (*usage >= max)
			break;
		++*usage;
		if (!swap && *usage > g->peak)
			g->peak = *usage;
		if (c == 0)
			return 0;
	}
	int fail = c;
	if (!swap)
		t->cg[fail].failcnt++;
	for (c = cg; c != fail; c = t->cg[c].conf.parent)
		--*(swap ? &t->cg[c].swap_current : &t->cg[c].current);
	return fail;
}

static void counter_uncharge(struct cgtree *t, int cg, bool swap)
{
	for (int c = cg;; c = t->cg[c].conf.parent) {
		uint64_t *usage = swap ? &t->cg[c].swap_current : &t->cg[c].current;
		if (!*usage)
			panic("cgroup %s: %s uncharged below 0", t->cg[c].conf.path, swap ? "swap" : "memory");
		--*usage;
		if (c == 0)
			return;
	}
}

void cgtree_uncharge(struct mm *mm, int cg)
{
	counter_uncharge(mm->cgt, cg, false);
}

/* The retry loop's view of the charge (memcg.c limit_charge()). */
struct tree_charge {
	struct cgtree *t;
	int cg;                  /* the charging task's */
};

static bool tree_charge(struct mm *mm, void *arg)
{
	(void)mm;
	struct tree_charge *tc = arg;
	int over = counter_try_charge(tc->t, tc->cg, false);
	if (!over)
		return true;
	/* mem_over_limit: limit reclaim works on its subtree next */
	tc->t->target = over;
	return false;
}

/* try_charge_memcg() raises memory.events max of mem_over_limit each
 * time it goes to reclaim from it. */
static void tree_reclaiming(void *arg)
{
	struct tree_charge *tc = arg;
	cgtree_event(tc->t, tc->t->target, CGE_MAX);
}

/* memcg.c wait_for_writes()'s charge past the limits, up to the root,
 * memory.peak left as the kernel's (its charge waited instead). */
static void tree_force(void *arg)
{
	struct tree_charge *tc = arg;
	for (int c = tc->cg;; c = tc->t->cg[c].conf.parent) {
		tc->t->cg[c].current++;
		if (c == 0)
			return;
	}
}

static bool tree_pending_enough(void *arg, uint64_t freeing)
{
	const struct cgroup *g = &((struct tree_charge *)arg)->t->cg[((struct tree_charge *)arg)->t->target];
	uint64_t pending = freeing < g->current ? freeing : g->current;
	return g->current - pending < g->conf.max;
}

bool cgtree_try_charge(struct mm *mm, struct mm_ctx *ctx, int cg, enum fault_status *st)
{
	struct tree_charge tc = { .t = mm->cgt, .cg = cg };
	*st = FAULT_DONE;
	if (tree_charge(mm, &tc))
		return true;
	bool ok = limit_charge(mm, ctx, st, DEF_PRIORITY - 2, &(struct charge_ops){ tree_charge, tree_pending_enough, &tc, tree_reclaiming, tree_force });
	int over = mm->cgt->target;
	mm->cgt->target = 0;
	if (ok || *st != FAULT_OOM)
		return ok;
	/* mem_cgroup_oom(): the kill happens inside mem_over_limit */
	cgtree_event(mm->cgt, over, CGE_OOM);
	mm->cgt->oom_cg = over;
	return false;
}

/* The charging task's cgroup, charged for one page (mm_alloc_page()). */
bool cgtree_charge_page(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st, int *cg)
{
	*cg = ctx ? cgtree_task_cg(mm->cgt, ctx->task) : 0;
	return cgtree_try_charge(mm, ctx, *cg, st);
}

uint32_t cgtree_swap_alloc(struct mm *mm, int cg)
{
	struct cgtree *t = mm->cgt;
	if (!t)
		return swap_alloc_slot(&mm->swap, mm->vm.swap_rotational);
	int over = counter_try_charge(t, cg, true);
	if (over) {
		/* memcg_memory_event(MEMCG_SWAP_MAX) has no column here: the
		 * page stays, as with a full swap area */
		return UINT32_MAX;
	}
	uint32_t slot = swap_alloc_slot(&mm->swap, mm->vm.swap_rotational);
	if (slot == UINT32_MAX) {
		counter_uncharge(t, cg, true);
		return slot;
	}
	t->slot_cg[slot] = (uint16_t)cg;
	return slot;
}

void cgtree_swap_release(struct cgtree *t, uint32_t slot)
{
	counter_uncharge(t, t->slot_cg[slot], true);
	t->slot_cg[slot] = 0;
}

/* shrink_node_memcgs()'s tests for the lruvec a page is on: outside the
 * limit reclaim's subtree it is not scanned at all; a cgroup the pass
 * protects (below memory.min, or below memory.low before the
 * memcg_low_reclaim retry: memcg_prot_begin(), memcg_hooks.c) is
 * skipped. */
bool cgtree_skip(struct mm *mm, const struct page *p)
{
	struct cgtree *t = mm->cgt;
	if (t->target && !cg_in_subtree(t, p->memcg, t->target))
		return true;
	return t->prot_skip[p->memcg];
}

void cgtree_count(struct mm *mm, int cg, enum cg_stat s, uint64_t n)
{
	mm->cgt->cg[cg].stat[s] += n;
}

void cg_own_pages(const struct mm *mm, int cg, uint64_t *own, uint64_t *anon, uint64_t *file)
{
	*own = *anon = *file = 0;
	for (pfn_t pfn = 0; pfn < mm->fr.nr; pfn++) {
		const struct page *p = &mm->fr.pages[pfn];
		if ((p->flags & PG_free) || p->memcg != cg)
			continue;
		++*own;
		if (p->flags & PG_anon)
			++*anon;
		else if (p->flags & PG_file)
			++*file;
	}
}
