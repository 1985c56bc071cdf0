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
#include "../policy/lru.h"
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
	bool is_lru;                   /* exact LRU: lru_hit() inline on priv */
	bool not_young;                /* a faulting reference leaves the page unreferenced */
	void (*access)(void *p, pfn_t pfn, bool write);
	void *priv;
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
	mm_cache_only_enable(&cs->mm);
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
	cs->is_lru = ops == &lru_policy;
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

/* What the look-ahead holds for a page whose region is not mapped yet:
 * a PTE that is never present (so the reference takes the slow path,
 * which maps the region) and is never written. */
static const pte_t pte_unmapped = 0;

/* The PTE of page idx if its region is mapped, else &pte_unmapped.
 * (With u = idx + REGION0, region k = log2(u) - log2(REGION0) starts at
 * u = 2^(k + 10): the offset is u without its top bit - fewer
 * instructions than region_of() and region_base() on the path every
 * reference takes.) */
static inline pte_t *pte_ahead(const struct cachesim *cs, uint64_t idx)
{
	uint64_t u = idx + REGION0;
	uint32_t top = (uint32_t)(63 - __builtin_clzll(u));
	uint32_t k = top - 10;
	_Static_assert(REGION0 == 1024, "top - 10 is the region");
	return k < cs->nregions ? cs->region[k] + (u ^ (1ULL << top)) : (pte_t *)&pte_unmapped;
}

_Static_assert(PTE_DIRTY == 1 << 2, "a write sets bit 2");

/* A reference to a page not present (or in a region not mapped when the
 * look-ahead found its PTE): the fault goes to the cache-only core.
 * Returns the page's PTE as the fault left it, before the reference's
 * bits, as the hit path does.  Out of line: the hit path stays short. */
__attribute__((noinline)) static pte_t ref_miss(struct cachesim *cs, uint64_t idx, bool write)
{
	uint32_t k = region_of(idx);
	if (k >= cs->nregions)
		map_regions(cs, k);
	uint64_t off = idx - region_base(k);
	pte_t *pt = cs->region[k] + off;
	const pte_t set = PTE_ACCESSED | (pte_t)write << 2;
	pte_t pte = *pt;
	if (pte & PTE_PRESENT) { /* only its region was new to the look-ahead */
		*pt = pte | set;
		return pte;
	}
	if (!pte && idx >= cs->pages)
		cs->pages = idx + 1;
	enum fault_status st = mm_cache_fault(&cs->mm, &cs->ctx, cs->as, k, off);
	if (st != FAULT_DONE)
		panic("cachesim: policy %s found no page to evict", cs->mm.pol.ops->name);
	pte = *pt;
	*pt = pte | (cs->not_young ? set & ~PTE_ACCESSED : set);
	return pte;
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

/* The PTEs of the references from the current one to AHEAD_PTE ahead,
 * each found once (regions never move once mapped). */
#define RING 32
_Static_assert(RING > AHEAD_PTE && !(RING & (RING - 1)), "the ring holds the look-ahead");

/* One reference, mm_touch()'s loop body for a single page: the PTE's
 * accessed bit (and dirty bit for a write) set as an MMU does, a fault
 * if the page is not present.  Returns the PTE before the reference's
 * bits. */
static inline pte_t ref_one(struct cachesim *cs, pte_t *pt, uint64_t idx, bool write)
{
	pte_t pte = *pt;
	if (__builtin_expect(pte & PTE_PRESENT, 1)) {
		*pt = pte | PTE_ACCESSED | (pte_t)write << 2;
		return pte;
	}
	return ref_miss(cs, idx, write);
}

/* The ring's first entries, the PTEs of references 0 .. AHEAD_PTE - 1;
 * returns how many references the look-ahead loop then runs. */
static inline size_t ring_start(const struct cachesim *cs, pte_t **ring, const uint32_t *pages, size_t n)
{
	for (size_t j = 0; j < AHEAD_PTE && j < n; j++)
		ring[j] = pte_ahead(cs, pages[j]);
	return n > AHEAD_PTE ? n - AHEAD_PTE : 0;
}

/* Reference i + AHEAD_PTE's PTE into the ring, its cache line on its way. */
static inline void ring_push(const struct cachesim *cs, pte_t **ring, const uint32_t *pages, size_t i)
{
	pte_t *pt = pte_ahead(cs, pages[i + AHEAD_PTE]);
	ring[(i + AHEAD_PTE) % RING] = pt;
	__builtin_prefetch(pt);
}

/* A policy that sees references only through the PTE bits (clock, fifo,
 * the research policies): the loop is a PTE lookup and a bit set. */
static void refs_plain(struct cachesim *cs, const uint32_t *pages, const uint8_t *writes, size_t n)
{
	pte_t *ring[RING];
	size_t i = 0, ahead = ring_start(cs, ring, pages, n);
	for (; i < ahead; i++) {
		ring_push(cs, ring, pages, i);
		ref_one(cs, ring[i % RING], pages[i], writes && writes[i]);
	}
	for (; i < n; i++)
		ref_one(cs, ring[i % RING], pages[i], writes && writes[i]);
}

/* Reference i and the policy's hook on it: lru_hit() inline for exact
 * LRU, else the policy's access(). */
__attribute__((always_inline)) static inline void hook_one(struct cachesim *cs, pte_t *const *ring,
							   const uint32_t *pages, const uint8_t *writes, size_t i,
							   bool is_lru, void (*access)(void *, pfn_t, bool), void *priv)
{
	bool write = writes && writes[i];
	pfn_t pfn = pte_pfn(ref_one(cs, ring[i % RING], pages[i], write));
	if (is_lru)
		lru_hit(priv, &cs->mm.fr, pfn);
	else
		access(priv, pfn, write);
}

/* A policy with an access() hook (lru, opt, the research policies): the
 * LRU link of a reference's frame and its struct page are prefetched
 * AHEAD_PAGE references before it, its list neighbours' links
 * AHEAD_LINKS before (a move to the head writes all three).  For exact
 * LRU (is_lru) the hook is lru_hit() inline, which reads no struct page:
 * only the links are fetched.  is_lru is a constant at each call
 * (always_inline): one loop each. */
__attribute__((always_inline)) static inline void refs_hook_loop(struct cachesim *cs, const uint32_t *pages,
								 const uint8_t *writes, size_t n, bool is_lru)
{
	void (*const access)(void *, pfn_t, bool) = cs->access;
	void *const priv = cs->priv;
	struct frames *const fr = &cs->mm.fr;
	const struct page *frames = fr->pages;
	const struct lru_link *links = fr->links;
	pte_t *ring[RING];
	size_t i = 0, ahead = ring_start(cs, ring, pages, n);
	for (; i < ahead; i++) {
		ring_push(cs, ring, pages, i);
		pte_t e = *ring[(i + AHEAD_PAGE) % RING];
		if (e & PTE_PRESENT) {
			__builtin_prefetch(&links[pte_pfn(e)]);
			if (!is_lru)
				__builtin_prefetch(&frames[pte_pfn(e)]);
		}
		e = *ring[(i + AHEAD_LINKS) % RING];
		if (e & PTE_PRESENT) {
			const struct lru_link *k = &links[pte_pfn(e)];
			if (k->prev != PFN_NONE)
				__builtin_prefetch(&links[k->prev]);
			if (k->next != PFN_NONE)
				__builtin_prefetch(&links[k->next]);
		}
		hook_one(cs, ring, pages, writes, i, is_lru, access, priv);
	}
	for (; i < n; i++)
		hook_one(cs, ring, pages, writes, i, is_lru, access, priv);
}

static void refs_hook(struct cachesim *cs, const uint32_t *pages, const uint8_t *writes, size_t n)
{
	refs_hook_loop(cs, pages, writes, n, false);
}

static void refs_lru(struct cachesim *cs, const uint32_t *pages, const uint8_t *writes, size_t n)
{
	refs_hook_loop(cs, pages, writes, n, true);
}

void cachesim_refs(struct cachesim *cs, const uint32_t *pages, const uint8_t *writes, size_t n)
{
	if (cs->is_lru)
		refs_lru(cs, pages, writes, n);
	else if (cs->hook)
		refs_hook(cs, pages, writes, n);
	else
		refs_plain(cs, pages, writes, n);
	cs->refs += n;
}

/* A cache's struct, frames and page tables (the policy's tables aside). */
static size_t cache_bytes(uint64_t frames, uint64_t ptes)
{
	return sizeof(struct cachesim) + (size_t)frames * (sizeof(struct page) + sizeof(struct lru_link)) +
	       (size_t)ptes * sizeof(pte_t);
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
		.host_bytes = cache_bytes(mm->fr.nr, cs->ptes),
	};
}

uint64_t cachesim_host_bytes_min(uint64_t frames, uint64_t pages)
{
	/* Regions are mapped whole, up to the one holding the last id. */
	return cache_bytes(frames, pages ? region_base(region_of(pages - 1) + 1) : 0);
}

const struct mm *cachesim_mm(const struct cachesim *cs) { return &cs->mm; }
