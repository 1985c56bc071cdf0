/* cgtree_lru.c - per-cgroup lruvecs under a --cgroup tree: one instance
 * of a POLICY_MEMCG_LRU policy (linux6, workingset, mglru) per cgroup,
 * the core routing every per-page call (add, remove, mark_accessed,
 * end_writeback, evict_shadow...) to the instance of the page's cgroup
 * (mm_pol(), mm.h), and reclaim walking the target's subtree.
 *
 * Follows 6.6 mm/vmscan.c shrink_node_memcgs(): mem_cgroup_iter(target)
 * visits the target and every descendant in pre-order, each memcg at the
 * same priority; mem_cgroup_calculate_protection() and
 * mem_cgroup_below_min()/below_low() skip a protected one (the
 * verdict memcg_prot_begin() leaves, memcg_hooks.c); shrink_lruvec() reclaims from
 * its lruvec with its own count towards sc->nr_to_reclaim, scanning in
 * proportion to the lruvec's size at that priority (get_scan_count(),
 * the policy's own).  Global reclaim (kswapd, direct) walks from the
 * root, limit reclaim from the cgroup at its max.  MGLRU: 6.6 reclaims a
 * cgroup's subtree this way too (lru_gen_shrink_lruvec() from
 * shrink_lruvec()), but global reclaim goes through the memcg LRU of
 * generations (lru_gen_shrink_node(), shrink_many(): memcg_lru.c), or
 * with memcg_lru=0 the same pre-order walk.  workingset_eviction()
 * keeps the memcg id in the shadow entry and workingset_refault() looks
 * the refault distance up in that memcg's lruvec: mm_evict_shadow() puts
 * the id in the shadow's top bits (SHADOW_CG_SHIFT), which no policy's
 * shadow uses, and mm_refault() hands it to that cgroup's instance. */
#include "internal.h"
#include "memcg_lru.h"

#include <stdlib.h>
#include <string.h>

#define SHADOW_CG_SHIFT 56

/* The ids in mem_cgroup_iter()'s pre-order: a parent, then each child's
 * subtree in id order. */
static int preorder(struct cgtree *t, int cg, int k)
{
	t->order[k++] = cg;
	for (int c = 1; c < t->n; c++)
		if (c != cg && t->cg[c].conf.parent == cg)
			k = preorder(t, c, k);
	return k;
}

/* Cgroup c's instance.  swappiness=: cgroup v1's memory.swappiness,
 * which 6.6 mem_cgroup_swappiness() gives get_scan_count() for a non-root
 * memcg (cgroup v2 has no such file and uses vm.swappiness): the
 * instance's swappiness tunable, at most the tunable's largest value. */
static void *instance(struct mm *mm, int c, const double *tun)
{
	struct cgtree *t = mm->cgt;
	int sw = t->cg[c].conf.swappiness;
	if (sw < 0 || t->swappiness_tun < 0 || !tun)
		return mm->pol.ops->init(mm, tun);
	double *own = xcalloc((size_t)t->nr_tun + 1, sizeof(double));
	memcpy(own, tun, (size_t)t->nr_tun * sizeof(double));
	own[t->swappiness_tun] = sw < t->swappiness_max ? sw : t->swappiness_max;
	void *p = mm->pol.ops->init(mm, own);
	free(own);
	return p;
}

void cgtree_lru_init(struct mm *mm, const double *tun)
{
	struct cgtree *t = mm->cgt;
	preorder(t, 0, 0);
	t->priv[0] = mm->pol.priv;
	for (int c = 1; c < t->n; c++)
		t->priv[c] = instance(mm, c, tun);
	t->per_cg = true;
}

/* A policy of one instance with per-cgroup hooks (cache_ext's per-memcg
 * init() and exit(), a plugin's cgroup_init/_exit): each cgroup of the
 * tree is set up after the policy, parents first (a parent's id is below
 * its children's), and torn down before it, children first, as memcgs
 * go offline before their parents. */
void cgtree_cgroups_init(struct mm *mm)
{
	struct cgtree *t = mm->cgt;
	const struct policy_ops *ops = mm->pol.ops;
	if (!ops->cgroup_init || (ops->flags & POLICY_MEMCG_LRU))
		return;
	for (int c = 1; c < t->n; c++)
		ops->cgroup_init(mm->pol.priv, c, t->cg[c].conf.parent, t->cg[c].conf.path);
	t->pol_cgroups = true;
}

static void cgroups_exit(struct mm *mm)
{
	struct cgtree *t = mm->cgt;
	if (!t->pol_cgroups || !mm->pol.ops->cgroup_exit)
		return;
	for (int c = t->n - 1; c >= 1; c--)
		mm->pol.ops->cgroup_exit(mm->pol.priv, c);
	t->pol_cgroups = false;
}

void cgtree_lru_destroy(struct mm *mm)
{
	struct cgtree *t = mm->cgt;
	cgroups_exit(mm);
	if (t->mlru)
		memcg_lru_free(mm);
	for (int c = 1; t->per_cg && c < t->n; c++)
		if (mm->pol.ops->destroy)
			mm->pol.ops->destroy(t->priv[c]);
	t->per_cg = false;
}

bool cgtree_lru_check(struct mm *mm, FILE *err)
{
	struct cgtree *t = mm->cgt;
	bool ok = true;
	for (int c = 1; t->per_cg && mm->pol.ops->check && c < t->n; c++)
		ok &= mm->pol.ops->check(t->priv[c], err);
	if (t->mlru)
		ok &= memcg_lru_check(t->mlru, t->n, err);
	return ok;
}

void cgtree_lru_tick(struct mm *mm, struct scan_control *sc)
{
	struct cgtree *t = mm->cgt;
	for (int i = 0; i < t->n; i++)
		mm->pol.ops->tick(t->priv[t->order[i]], sc);
}

/* What shrink_lruvec() did, into the pass's totals. */
static void add_pass(struct scan_control *sc, const struct scan_control *sub)
{
	sc->nr_scanned += sub->nr_scanned;
	sc->nr_scanned_file += sub->nr_scanned_file;
	sc->nr_reclaimed += sub->nr_reclaimed;
	sc->nr_reclaimed_file += sub->nr_reclaimed_file;
	sc->nr_rotated += sub->nr_rotated;
	sc->nr_activated += sub->nr_activated;
	sc->nr_writeback += sub->nr_writeback;
	sc->nr_wait_writeback += sub->nr_wait_writeback;
	sc->skipped_deactivate |= sub->skipped_deactivate;
}

void cgtree_lruvec_shrink(struct mm *mm, struct scan_control *sc, int c, uint64_t progress,
			  struct scan_control *sub)
{
	struct cgtree *t = mm->cgt;
	*sub = *sc;
	sub->nr_scanned = sub->nr_scanned_file = sub->nr_reclaimed = sub->nr_reclaimed_file = 0;
	sub->nr_rotated = sub->nr_activated = sub->nr_writeback = sub->nr_wait_writeback = 0;
	sub->skipped_deactivate = false;
	sub->nr_progress = progress;
	sub->lru_gen_rotate = sub->lru_gen_sizable = sub->lru_gen_abort = false;
	t->shrinking = c;
	mm->pol.ops->shrink(t->priv[c], sub);
	t->shrinking = -1;
	cgtree_count(mm, c, CGS_PGSCAN, sub->nr_scanned);
	cgtree_count_proactive(mm, c, sub->nr_scanned, 0);
	add_pass(sc, sub);
}

void cgtree_lru_shrink(struct mm *mm, struct scan_control *sc)
{
	struct cgtree *t = mm->cgt;
	if (memcg_lru_global(mm)) {
		memcg_lru_shrink_many(mm, sc);   /* lru_gen_shrink_node() */
		return;
	}
	for (int i = 0; i < t->n; i++) {
		int c = t->order[i];
		if (!cg_in_subtree(t, c, t->target))
			continue;
		if (t->prot_skip[c])
			continue;
		struct scan_control sub;
		cgtree_lruvec_shrink(mm, sc, c, 0, &sub);
		/* lru_gen_shrink_lruvec(): its aging ran, rotate it young */
		if (t->mlru && sub.lru_gen_rotate)
			memcg_lru_rotate(t->mlru, c, MEMCG_LRU_YOUNG);
	}
}

uint64_t mm_evict_shadow(struct mm *mm, pfn_t pfn)
{
	uint64_t s = mm->pol.ops->evict_shadow(mm_pol(mm, pfn), pfn);
	if (!s || !mm->cgt || !mm->cgt->per_cg)
		return s;
	if (s >> SHADOW_CG_SHIFT)
		panic("policy %s: a shadow entry uses the bits of the cgroup id", mm->pol.ops->name);
	return s | (uint64_t)mm_page(mm, pfn)->memcg << SHADOW_CG_SHIFT;
}

void mm_refault(struct mm *mm, pfn_t pfn, uint64_t shadow)
{
	struct cgtree *t = mm->cgt;
	if (!t || !t->per_cg) {
		mm->pol.ops->refault(mm->pol.priv, pfn, shadow);
		return;
	}
	int cg = (int)(shadow >> SHADOW_CG_SHIFT);
	mm->pol.ops->refault(t->priv[cg < t->n ? cg : 0], pfn, shadow & ((1ULL << SHADOW_CG_SHIFT) - 1));
}

bool mm_pol_owns_aspace(const struct mm *mm, const void *priv, const struct aspace *as)
{
	const struct cgtree *t = mm->cgt;
	return !t || !t->per_cg || t->priv[cgtree_task_cg(t, as->task)] == priv;
}
