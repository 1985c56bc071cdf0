/* cachesim.c - the cache-only replay's reference loop (cachesim.h).
 *
 * Why not the machine: on --machine ideal the machine spends most of a
 * reference's time outside the policy - an op built per reference, the
 * task and CPU loop, the swap slot, swap cache and synchronous "I/O" of
 * every eviction and refault.  None of it changes what the policy is
 * shown, so this loop keeps only what it is shown: the PTE bits, the
 * access() hook, and the mm core's fault, allocation and reclaim (in its
 * cache-only mode, src/mm/cacheonly.c). */
#include "cachesim.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define REGION0 1024ULL
#define MAX_REGIONS 23   /* REGION0 * (2^23 - 1) > 2^32 dense ids */

struct cachesim {
	struct mm mm;
	struct mm_costs cost;          /* all zero: no time */
	struct mm_ctx ctx;
	struct aspace *as;
	pte_t *region[MAX_REGIONS];    /* region k's PTEs (VMA k) */
	uint32_t nregions;
	uint64_t refs, pages, ptes;
	bool hook;                     /* the policy's access() on every reference */
	bool not_young;                /* a faulting reference leaves the page unreferenced */
	void (*access)(void *p, pfn_t pfn, bool write);
	void *priv;
	pte_t **slot;                  /* cachesim_refs(): each reference's PTE */
	size_t nslots;
};

/* Region k holds pages [REGION0 * (2^k - 1), REGION0 * (2^(k+1) - 1)). */
static inline uint32_t region_of(uint64_t idx)
{
	return (uint32_t)(63 - __builtin_clzll(idx / REGION0 + 1));
}

static inline uint64_t region_base(uint32_t k) { return REGION0 * ((1ULL << k) - 1); }

bool cachesim_policy_ok(const struct policy_ops *ops)
{
	return (ops->flags & POLICY_CACHE) && !ops->evict_shadow && !ops->refault && !ops->tick_ns &&
	       !(ops->flags & (POLICY_SWAP_TOKEN | POLICY_FAULT_ACCESSED | POLICY_MLOCK_HALF_RAM));
}

static const uint64_t no_next_use[1] = { UINT64_MAX };

struct cachesim *cachesim_new(const struct policy_ops *ops, const double *tun, uint64_t frames)
{
	struct cachesim *cs = xcalloc(1, sizeof(*cs));
	struct mm_config cfg = { .ram_pages = frames, .no_watermarks = true, .untimed = true, .disk_blocks = 1 };
	mm_init(&cs->mm, &cfg, &cs->cost);
	cs->mm.cache_only = true;
	if (ops->flags & POLICY_NEEDS_ORACLE)
		mm_set_oracle(&cs->mm, no_next_use, 0); /* cachesim_set_next_use() slides it */
	double *def = NULL;
	if (!tun) {
		int n = policy_nr_tunables(ops);
		def = xcalloc((size_t)n + 1, sizeof(*def));
		for (int i = 0; i < n; i++)
			def[i] = ops->tunables[i].def;
		tun = def;
	}
	mm_set_policy(&cs->mm, ops, tun);
	free(def);
	cs->as = mm_aspace_new(&cs->mm, 0);
	cs->ctx.task = 0;
	cs->hook = cs->mm.access_hook;
	cs->not_young = cs->mm.fault_not_young;
	cs->access = ops->access;
	cs->priv = cs->mm.pol.priv;
	return cs;
}

void cachesim_free(struct cachesim *cs)
{
	if (!cs)
		return;
	mm_destroy(&cs->mm);
	free(cs->slot);
	free(cs);
}

void cachesim_set_next_use(struct cachesim *cs, const uint64_t *next, uint64_t first, uint64_t n)
{
	cs->mm.oracle = next;
	cs->mm.oracle_base = first;
	cs->mm.oracle_len = n;
}

/* Map regions up to k, in order, as the trace workload does. */
static void map_regions(struct cachesim *cs, uint32_t k)
{
	if (k >= MAX_REGIONS)
		panic("cachesim: page id beyond %u regions", MAX_REGIONS);
	while (cs->nregions <= k) {
		uint64_t n = REGION0 << cs->nregions;
		uint32_t v = mm_mmap_anon(&cs->mm, cs->as, n, VMA_NOZERO);
		cs->region[cs->nregions++] = cs->as->vmas[v].pte;
		cs->ptes += n;
	}
}

/* The PTE of page idx if its region is mapped, else NULL. */
static inline pte_t *pte_if_mapped(const struct cachesim *cs, uint64_t idx)
{
	uint32_t k = region_of(idx);
	return k < cs->nregions ? cs->region[k] + (idx - region_base(k)) : NULL;
}

/* One reference: mm_touch()'s loop body for a single page, one
 * reference, with the fault going to the cache-only core.  pt is the
 * page's PTE, NULL if its region was not mapped when the batch began. */
static inline void ref_one(struct cachesim *cs, pte_t *pt, uint64_t idx, bool write)
{
	uint32_t k = region_of(idx);
	if (!pt) {
		if (k >= cs->nregions)
			map_regions(cs, k);
		pt = cs->region[k] + (idx - region_base(k));
	}
	pte_t pte = *pt;
	const pte_t set = PTE_ACCESSED | (write ? PTE_DIRTY : 0);
	if (!(pte & PTE_PRESENT)) {
		if (!pte && idx >= cs->pages)
			cs->pages = idx + 1;
		enum fault_status st = mm_cache_fault(&cs->mm, &cs->ctx, cs->as, k, idx - region_base(k));
		if (st != FAULT_DONE)
			panic("cachesim: policy %s found no page to evict", cs->mm.pol.ops->name);
		pte = *pt;
		*pt = pte | (cs->not_young ? set & ~PTE_ACCESSED : set);
	} else {
		*pt = pte | set;
	}
	if (cs->hook)
		cs->access(cs->priv, pte_pfn(pte), write);
}

/* How far ahead the loop fetches what a reference will touch.  The trace
 * is known ahead, so the host cache misses of a reference (its PTE, then
 * the struct page the PTE points to, then for a policy with an access
 * hook the page's list neighbours) can be started references before it
 * is made instead of being waited for one after the other.  A prefetch
 * is only a hint: whatever the references before it change, the
 * reference itself reads the state as it is then. */
#define AHEAD_PTE 24
#define AHEAD_PAGE 12
#define AHEAD_LINKS 6

/* always_inline: a function that only prefetches writes no memory, so
 * gcc's IPA pass finds it pure and, its result unused, drops every call. */
__attribute__((always_inline)) static inline void prefetch_ahead(const struct cachesim *cs, pte_t *const *slot,
								 size_t i, size_t n)
{
	if (i + AHEAD_PTE < n && slot[i + AHEAD_PTE])
		__builtin_prefetch(slot[i + AHEAD_PTE]);
	const struct page *frames = cs->mm.fr.pages;
	if (i + AHEAD_PAGE < n && slot[i + AHEAD_PAGE] && (*slot[i + AHEAD_PAGE] & PTE_PRESENT))
		__builtin_prefetch(&frames[pte_pfn(*slot[i + AHEAD_PAGE])]);
	if (cs->hook && i + AHEAD_LINKS < n && slot[i + AHEAD_LINKS] && (*slot[i + AHEAD_LINKS] & PTE_PRESENT)) {
		const struct page *p = &frames[pte_pfn(*slot[i + AHEAD_LINKS])];
		if (p->prev != PFN_NONE)
			__builtin_prefetch(&frames[p->prev]);
		if (p->next != PFN_NONE)
			__builtin_prefetch(&frames[p->next]);
	}
}

void cachesim_refs(struct cachesim *cs, const uint32_t *pages, const uint8_t *writes, size_t n)
{
	/* Each reference's PTE found once, up front, for the prefetches
	 * and the reference alike (regions never move once mapped). */
	if (n > cs->nslots) {
		cs->nslots = n;
		cs->slot = xrealloc(cs->slot, n * sizeof(*cs->slot));
	}
	pte_t **slot = cs->slot;
	for (size_t i = 0; i < n; i++)
		slot[i] = pte_if_mapped(cs, pages[i]);
	for (size_t i = 0; i < n; i++) {
		prefetch_ahead(cs, slot, i, n);
		ref_one(cs, slot[i], pages[i], writes && writes[i]);
	}
	cs->refs += n;
}

void cachesim_stats(const struct cachesim *cs, struct cachesim_stats *st)
{
	const struct mm *mm = &cs->mm;
	*st = (struct cachesim_stats){
		.refs = cs->refs,
		.misses = mm->ev[PGFAULT],
		.major = mm->ev[PGMAJFAULT],
		.evictions = mm->ev[PGSTEAL_DIRECT] + mm->ev[PGSTEAL_KSWAPD],
		.writebacks = mm->ev[PSWPOUT],
		.pages = cs->pages,
		.host_bytes = sizeof(*cs) + (size_t)mm->fr.nr * sizeof(struct page) + cs->ptes * sizeof(pte_t),
	};
}

const struct mm *cachesim_mm(const struct cachesim *cs) { return &cs->mm; }
