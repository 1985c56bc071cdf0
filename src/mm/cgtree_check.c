/* cgtree_check.c - --check of a cgroup tree (cgtree.c): every cgroup's
 * memory.current is its own pages plus its children's currents (each
 * frame in use charged once, to the cgroup it records), never above its
 * memory.max; and memory.swap.current the same over swap slots in use
 * (the cgroup each slot was charged to) against memory.swap.max.
 * zswap's compressed bytes are charged too, in pages per cgroup and
 * forced (zswap.c tree_charge()): a cgroup may pass its max by its
 * subtree's, and its peak is not held to its max then. */
#include "internal.h"
#include "zram.h"
#include "zswap.h"
#include "check_swap.h"

#include <stdlib.h>

/* own[c] less the children's currents: what c's counter should read;
 * forced[c] the pages of own[c] charged regardless of the max (NULL:
 * no zswap, and then the peak is held to the max too). */
static bool balance(const struct cgtree *t, uint64_t *own, uint64_t *forced, bool swap, FILE *err)
{
	bool ok = true;
	for (int c = t->n - 1; c >= 0; c--) {
		const struct cgroup *g = &t->cg[c];
		uint64_t cur = swap ? g->swap_current : g->current;
		uint64_t max = swap ? g->conf.swap_max : g->conf.max;
		uint64_t over = forced ? forced[c] : 0;
		if (cur != own[c]) {
			fprintf(err, "check: cgroup %s: %s %llu but its pages and its children's add up to %llu\n",
				g->conf.path, swap ? "memory.swap.current" : "memory.current", (unsigned long long)cur,
				(unsigned long long)own[c]);
			ok = false;
		}
		if ((max != CG_UNLIMITED && cur > max + over) || (!swap && !forced && g->peak > max)) {
			fprintf(err, "check: cgroup %s: %s %llu above its max %llu\n", g->conf.path,
				swap ? "memory.swap.current" : "memory.current", (unsigned long long)cur,
				(unsigned long long)max);
			ok = false;
		}
		if (c) {
			own[g->conf.parent] += own[c];
			if (forced)
				forced[g->conf.parent] += forced[c];
		}
	}
	return ok;
}

/* A frame the kernel took for itself, charged to no cgroup: a zsmalloc
 * pool's (zram, zswap), a zswap writeback's (zsframes.c, zswap_shrink.c) */
static bool kernel_frame(const struct mm *mm, pfn_t pfn)
{
	int l = lru_on(&mm->fr, pfn);
	const struct zswap *z = mm->swap.zswap;
	return (mm->swap.zram && l == mm->swap.zram->fr.list) || (z && (l == z->fr.list || l == z->wb_list));
}

bool cgtree_check(const struct mm *mm, FILE *err)
{
	const struct cgtree *t = mm->cgt;
	uint64_t own[CG_MAX + 1] = { 0 }, swap[CG_MAX + 1] = { 0 }, zsw[CG_MAX + 1] = { 0 };
	for (pfn_t pfn = 0; pfn < mm->fr.nr; pfn++) {
		const struct page *p = &mm->fr.pages[pfn];
		if (!(p->flags & PG_free) && !kernel_frame(mm, pfn))
			own[p->memcg < t->n ? p->memcg : 0]++;
	}
	/* The slots mm_check's walk named: every slot in use, or the
	 * walk's totals have failed already (check_swap.c). */
	const uint32_t *slots;
	uint32_t n = swap_walk_slots(&mm->swap, &slots);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = slots[i];
		if (mm->swap.map[s] || mm->swap.cache[s] != PFN_NONE)
			swap[t->slot_cg[s] < t->n ? t->slot_cg[s] : 0]++;
	}
	const struct zswap *z = mm->swap.zswap;
	for (int c = 1; z && c < t->n && c < z->nr_cg; c++) {
		zsw[c] = z->cg_pages[c];
		own[c] += zsw[c];
	}
	bool ok = balance(t, own, z ? zsw : NULL, false, err);
	ok &= balance(t, swap, NULL, true, err);
	return cgtree_lru_check((struct mm *)mm, err) && ok;
}
