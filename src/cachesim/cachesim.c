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
#include "../mm/internal.h" /* mm_cache_fault(), inline */
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
	/* Every mapped region's PTEs in one array indexed by page id (region
	 * k, VMA k, is its entries region_base(k) on, lent to the mm core by
	 * mm_mmap_anon_ptes): a reference finds its PTE at pte[id], no region
	 * lookup (that lookup was 14 of a reference's 68 loop instructions,
	 * callgrind). */
	pte_t *pte;
	uint64_t cap;                  /* entries allocated (cachesim_reserve) */
	uint64_t mapped;               /* ids below this have a PTE: region_base(nregions) */
	uint32_t nregions;
	uint64_t refs, pages;
	bool hook;                     /* the policy's access() on every reference */
	/* The policy's cache hit (cache_mode.h), on hits only: instead of
	 * access() */
	void (*hit)(void *p, pfn_t pfn, uint32_t rec);
	bool is_lru;                   /* exact LRU: lru_hit() inline on priv */
	bool not_young;                /* a faulting reference leaves the page unreferenced */
	/* cachesim_recs_below(): a first reference (a PTE never set) must
	 * name page `pages` (ids are numbered in order of first reference),
	 * and one that does not stops the loop (misordered) before it
	 * touches anything. */
	bool check_order, misordered;
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
	char err[256];
	/* A size the policy cannot index: one line, exit 2, before the
	 * frames (64 bytes each) are built. */
	if (!policy_frames_ok(ops, frames, true, tun, err, sizeof(err)))
		die_usage("%s", err);
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
	cs->hit = cs->mm.cache.hit;
	cs->priv = cs->mm.pol.priv;
	return cs;
}

void cachesim_free(struct cachesim *cs)
{
	if (!cs)
		return;
	mm_destroy(&cs->mm);
	free(cs->mm.cache.recmap);
	free(cs->pte);
	free(cs);
}

void cachesim_set_next_use(struct cachesim *cs, const uint64_t *next, uint64_t first, uint64_t n)
{
	cs->mm.oracle.next = next;
	cs->mm.oracle.base = first;
	cs->mm.oracle.len = n;
}

/* The replay keeps a record map for the policy (grow_ptes): it has
 * records by page (recs; records by frame, frecs, need none). */
static bool has_recmap(const struct mm *mm) { return mm->cache.recs != NULL; }

/* Room for `cap` PTEs in the one array: a larger array, the mapped
 * entries copied over and the VMAs pointed at their new place. */
static void grow_ptes(struct cachesim *cs, uint64_t cap)
{
	if (cap <= cs->cap)
		return;
	pte_t *pte = xcalloc_huge(cap, sizeof(pte_t));
	if (cs->mapped)
		memcpy(pte, cs->pte, cs->mapped * sizeof(pte_t));
	free(cs->pte);
	cs->pte = pte;
	if (has_recmap(&cs->mm)) {
		/* The policy's record map, as long (cache_mode.h). */
		uint32_t *map = xcalloc_huge(cap, sizeof(uint32_t));
		if (cs->mapped)
			memcpy(map, cs->mm.cache.recmap, cs->cap * sizeof(uint32_t));
		memset(map + (cs->mapped ? cs->cap : 0), 0xff, (cap - (cs->mapped ? cs->cap : 0)) * sizeof(uint32_t));
		free(cs->mm.cache.recmap);
		cs->mm.cache.recmap = map;
	}
	cs->mm.cache.ptes = pte; /* a cache page's PTE: cache.ptes[id] */
	cs->cap = cap;
	for (uint32_t j = 0; j < cs->nregions; j++)
		cs->as->vmas[j].pte = pte + region_base(j);
}

/* The most ids cachesim_reserve() makes room for: a header that claims
 * more is not trusted with more host memory (64 MiB of PTEs: up to the
 * end of the region holding id 2^22 - 1) before its ids come; beyond it
 * the array grows as they do. */
#define RESERVE_MAX (1ULL << 22)

void cachesim_reserve(struct cachesim *cs, uint64_t pages)
{
	pages = MIN(pages, RESERVE_MAX);
	if (pages)
		grow_ptes(cs, region_base(region_of(pages - 1) + 1));
}

/* Map regions up to k, in order, as the trace workload does, the array
 * grown to hold them if it must (each region is as large as all before
 * it: the array doubles) - unless cachesim_reserve() made room. */
__attribute__((noinline, cold)) static void map_regions(struct cachesim *cs, uint32_t k)
{
	if (k >= MAX_REGIONS)
		panic("cachesim: page id beyond %u regions", MAX_REGIONS);
	if (k < cs->nregions)
		return;
	grow_ptes(cs, region_base(k + 1));
	pte_t *pte = cs->pte;
	while (cs->nregions <= k) {
		uint32_t j = cs->nregions++;
		uint32_t v = mm_mmap_anon_ptes(&cs->mm, cs->as, REGION0 << j, VMA_NOZERO, pte + region_base(j));
		if (v != j)
			panic("cachesim: region %u mapped as VMA %u", j, v);
	}
	cs->mapped = region_base(k + 1);
}

/* The PTE a reference ahead will find, for a prefetch of what it points
 * to.  Every id of a batch is below cs->cap (room_below), so an id not
 * mapped yet finds a zero PTE (not present) in the array.  A PTE of the
 * cache-only core that is not present (0 or PTE_EVICTED) has pfn 0, so
 * the prefetch of its frame's records stays inside their arrays. */
static inline pte_t pte_peek(const pte_t *pte, uint32_t idx) { return pte[idx]; }

_Static_assert(PTE_DIRTY == 1 << 2, "a write sets bit 2");
_Static_assert(PTE_SHIFT >= 7, "PTE_EVICTED and the other flags have pfn 0");

/* A reference to a page not present (or in a region not mapped yet): the
 * fault goes to the cache-only core.  Returns the page's PTE as the fault
 * left it, before the reference's bits, as the hit path does.  Out of
 * line: the hit path stays short.  A misordered first reference
 * (check_order) returns at once, nothing touched, mapped or counted. */
__attribute__((noinline)) static pte_t ref_miss(struct cachesim *cs, uint64_t idx, bool write)
{
	pte_t *pt = &cs->pte[idx];
	if (!*pt) {
		if (cs->check_order && idx != cs->pages) {
			cs->misordered = true;
			return 0;
		}
		if (idx >= cs->pages)
			cs->pages = idx + 1;
	}
	uint32_t k = region_of(idx);
	if (idx >= cs->mapped)
		map_regions(cs, k);
	const pte_t set = PTE_ACCESSED | (pte_t)write << 2;
	enum fault_status st = mm_cache_fault(&cs->mm, &cs->ctx, cs->as, k, idx - region_base(k), (uint32_t)idx);
	if (st != FAULT_DONE)
		panic("cachesim: policy %s found no page to evict", cs->mm.pol.ops->name);
	pte_t pte = *pt;
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
/* A research policy's record through the map: the slot read AHEAD_REC
 * on, for the record's prefetch, and the record read again AHEAD_NEIGH
 * on for its neighbours (rec_links).  At 6 ahead, as the frame links,
 * the record was still on its way 3 references later: that read was a
 * third of 2Q's hit loop samples (perf); at 10, 2Q's replay of make
 * bench's trace took 5-10% less CPU (s3fifo, lirs and lruk 6-11% less
 * in one set of 3 rounds, arc and clockpro the same). */
#define AHEAD_REC 10
#define AHEAD_NEIGH 3

/* A policy's record k's list neighbours (cache_mode.h: rec_prev,
 * rec_next), prefetched.  k is UINT32_MAX for a page with none, and a
 * record a reference earlier evicted is still a record: its neighbours
 * are read in the array, never past it - only where it ends a list is
 * the neighbour UINT32_MAX, an address only a prefetch sees. */
__attribute__((always_inline)) static inline void rec_links(const struct cachesim *cs, const void *recs, size_t size,
							    uint32_t k)
{
	if (k == UINT32_MAX)
		return;
	const char *e = (const char *)recs + (size_t)k * size;
	uint32_t p, n;
	memcpy(&p, e + cs->mm.cache.rec_prev, sizeof(p));
	memcpy(&n, e + cs->mm.cache.rec_next, sizeof(n));
	__builtin_prefetch((const void *)((uintptr_t)recs + (uintptr_t)p * size));
	__builtin_prefetch((const void *)((uintptr_t)recs + (uintptr_t)n * size));
}

/* A batch of references as the loops read them: ids and write flags in
 * two arrays (cachesim_refs), or the binary format's 8-byte records where
 * the reader holds them (`rec`, a constant at each call:
 * cachesim_recs_below), page then meta word, bit 0 of meta the write -
 * no decoded copy. */
struct refs {
	const uint32_t *pages;
	const uint8_t *writes;
	const uint8_t *recs;
};

__attribute__((always_inline)) static inline uint32_t ref_page(const struct refs *r, size_t i, bool rec)
{
	if (!rec)
		return r->pages[i];
	uint32_t v;
	memcpy(&v, r->recs + i * 8, sizeof(v));
	return v;
}

/* The PTE bits reference i sets: accessed, and dirty for a write (bit 0
 * of a record's meta word moved to bit 2, with no test of it). */
__attribute__((always_inline)) static inline pte_t ref_bits(const struct refs *r, size_t i, bool rec)
{
	if (!rec)
		return PTE_ACCESSED | (pte_t)(r->writes[i] != 0) << 2;
	uint32_t m;
	memcpy(&m, r->recs + i * 8 + 4, sizeof(m));
	return PTE_ACCESSED | (pte_t)(m & 1) << 2;
}

/* One reference, mm_touch()'s loop body for a single page: the PTE's
 * accessed bit (and dirty bit for a write: `bits`, ref_bits()) set as an
 * MMU does, a fault if the page is not present.  *old gets the PTE before
 * the reference's bits; false: the reference was a misordered first one,
 * not made. */
_Static_assert(PTE_ACCESSED == 1 << 1, "ref_bits");
__attribute__((always_inline)) static inline bool ref_one(struct cachesim *cs, pte_t *ptes, uint32_t idx, pte_t bits,
							  pte_t *old)
{
	pte_t *pt = &ptes[idx];
	pte_t pte = *pt;
	if (__builtin_expect(pte & PTE_PRESENT, 1)) {
		*pt = pte | bits;
		*old = pte;
		return true;
	}
	*old = ref_miss(cs, idx, (bits & PTE_DIRTY) != 0);
	return !cs->misordered;
}

/* A policy that sees references only through the PTE bits (clock, fifo,
 * the research policies): the loop is a PTE lookup and a bit set.
 * `ahead`: references AHEAD_PTE on exist (a constant at each call). */
__attribute__((always_inline)) static inline bool plain_one(struct cachesim *cs, pte_t *ptes, const struct refs *r,
							    size_t i, bool ahead, bool rec)
{
	if (ahead)
		__builtin_prefetch(&ptes[ref_page(r, i + AHEAD_PTE, rec)]);
	pte_t old;
	return ref_one(cs, ptes, ref_page(r, i, rec), ref_bits(r, i, rec), &old);
}

__attribute__((always_inline)) static inline size_t refs_plain_loop(struct cachesim *cs, const struct refs *r, size_t n,
								    bool rec)
{
	pte_t *const ptes = cs->pte;
	size_t i = 0;
	for (; i + AHEAD_PTE < n; i++)
		if (!plain_one(cs, ptes, r, i, true, rec))
			return i;
	for (; i < n; i++)
		if (!plain_one(cs, ptes, r, i, false, rec))
			return i;
	return n;
}

/* What a hook loop's references share, read once per batch (recmap moves
 * as it grows, grow_ptes, never inside a batch).  Not the hooks: the
 * calls read cs->access, cs->hit and cs->priv where they are made - held
 * through the loop they cost 1-2 instructions a reference (callgrind). */
struct hook_loop {
	void *priv;             /* is_lru: the LRU */
	int list;               /* is_lru: the LRU's list */
	const uint32_t *map;    /* the record map (cache_mode.h), or NULL */
	void *const *recs;      /* the records, or NULL */
	bool moves;             /* hits move records on lists (rec_next) */
	void *const *frecs;     /* records by frame (cache_mode.h), or NULL */
};

/* The record of the page a reference ahead will hit, prefetched, and its
 * list neighbours a few references later: its slot in the record map
 * AHEAD_PTE on, then the record AHEAD_REC on (a page with no record
 * has slot UINT32_MAX: the address is then one no object is at, only a
 * prefetch's), its neighbours (moves) AHEAD_NEIGH on. */
__attribute__((always_inline)) static inline void rec_ahead(const struct cachesim *cs, const struct refs *r,
							    size_t i, bool rec, const struct hook_loop *h)
{
	const size_t size = cs->mm.cache.rec_size;
	const uint32_t *map = h->map;
	__builtin_prefetch(&map[ref_page(r, i + AHEAD_PTE, rec)]);
	uint32_t k1 = map[ref_page(r, i + AHEAD_REC, rec)];
	__builtin_prefetch((const void *)((uintptr_t)*h->recs + (uintptr_t)k1 * size));
	if (h->moves)
		rec_links(cs, *h->recs, size, map[ref_page(r, i + AHEAD_NEIGH, rec)]);
}

/* rec_ahead() for records by frame (cache_mode.h: frecs), through the
 * PTE AHEAD_PTE's prefetch fetched.  With no map records (sieve, lfu: a
 * page not present has no record to read, its miss needs none): the
 * record AHEAD_LINKS on of the frame the PTE names, frame 0's for a page
 * not present (pte_peek: pfn 0), a prefetch and no branch.  With map
 * records too (ARC's history, B1/B2): for a page present, its frame's
 * record AHEAD_PAGE on and the record's neighbours AHEAD_LINKS on; for
 * one not present (a miss, whose fault reads the page's history), its
 * record map slot AHEAD_PAGE on and its record AHEAD_LINKS on (without
 * them a miss waited on both, and ARC's replay took a fifth more CPU
 * time).  The first choice is a select; the second a branch: as selects
 * (reading id 0's slot and frame 0's record for the side not taken) they
 * were 12 more instructions a reference and no faster.  h->recs is the
 * same for every reference: its test is always predicted. */
__attribute__((always_inline)) static inline void frame_rec_ahead(const struct cachesim *cs, const pte_t *ptes,
								  const struct refs *r, size_t i, bool rec,
								  const struct hook_loop *h)
{
	const size_t fsize = cs->mm.cache.frec_size, size = cs->mm.cache.rec_size;
	const char *fr = (const char *)*h->frecs;
	if (!h->recs) {
		pfn_t pfn = pte_pfn(pte_peek(ptes, ref_page(r, i + AHEAD_LINKS, rec)));
		__builtin_prefetch(fr + (size_t)pfn * fsize);
		return;
	}
	uint32_t id = ref_page(r, i + AHEAD_PAGE, rec);
	pte_t pte = pte_peek(ptes, id);
	__builtin_prefetch(pte & PTE_PRESENT ? (const void *)(fr + (size_t)pte_pfn(pte) * fsize)
					     : (const void *)&h->map[id]);
	id = ref_page(r, i + AHEAD_LINKS, rec);
	pte = pte_peek(ptes, id);
	if (pte & PTE_PRESENT) {
		if (h->moves)
			rec_links(cs, fr, fsize, pte_pfn(pte));
	} else {
		__builtin_prefetch((const void *)((uintptr_t)*h->recs + (uintptr_t)h->map[id] * size));
	}
}

/* How a policy with a cache hit (cs->hit, cache_mode.h) finds a page's
 * record: none (no hit: access()), by the record map (recmap), or by the
 * frame its PTE names (frecs; a policy may keep map records besides, for
 * pages not present). */
enum hit_kind { HIT_NONE, HIT_MAP, HIT_FRAME };

/* Reference i and the policy's hook on it, with what references ahead
 * will touch prefetched (`ahead`: they exist).  Three hooks:
 * - `hit` (a policy with a cache hit, cs->hit, cache_mode.h): a present
 *   page's frame and record to hit(), nothing for a faulting one.  A hit
 *   reads no frame links or struct page: only the PTE, the id's record
 *   slot AHEAD_PTE on, the record AHEAD_REC on and its list neighbours
 *   (moves) AHEAD_NEIGH on are fetched (HIT_MAP) - or for HIT_FRAME the
 *   record of the frame the PTE names, and a page not present's map
 *   record when the policy keeps one (frame_rec_ahead).
 * - is_lru (exact LRU): lru_hit() inline, which reads no struct page:
 *   the frame's LRU link AHEAD_PAGE references before, its list
 *   neighbours' links AHEAD_LINKS before (a move to the head writes all
 *   three).
 * - otherwise the policy's access() (opt, plugins): as is_lru, and the
 *   struct page, and the record as for `hit` when it keeps one.
 * HIT_FRAME's hit() gets the PTE's frame as the record (cache_mode.h:
 * frecs), HIT_MAP's the id's slot in the map.
 * ahead, hit, is_lru and rec are constants at each call
 * (always_inline). */
__attribute__((always_inline)) static inline bool hook_one(struct cachesim *cs, pte_t *ptes, const struct refs *r,
							   size_t i, bool ahead, enum hit_kind hit, bool is_lru, bool rec,
							   const struct hook_loop *h)
{
	struct frames *const fr = &cs->mm.fr;
	if (ahead) {
		__builtin_prefetch(&ptes[ref_page(r, i + AHEAD_PTE, rec)]);
		if (!hit) {
			const struct lru_link *links = fr->links;
			pfn_t pfn = pte_pfn(pte_peek(ptes, ref_page(r, i + AHEAD_PAGE, rec)));
			__builtin_prefetch(&links[pfn]);
			if (!is_lru)
				__builtin_prefetch(&fr->pages[pfn]);
			const struct lru_link *k = &links[pte_pfn(pte_peek(ptes, ref_page(r, i + AHEAD_LINKS, rec)))];
			/* Untested: at a list's end the neighbour is
			 * PFN_NONE, and its address (an integer, never a
			 * pointer: no object there) is only a prefetch's,
			 * which cannot fault.  The two tests were 4 of a
			 * hit's 62 instructions. */
			__builtin_prefetch((const void *)((uintptr_t)links + (uintptr_t)k->prev * sizeof(*links)));
			__builtin_prefetch((const void *)((uintptr_t)links + (uintptr_t)k->next * sizeof(*links)));
		}
		if (hit == HIT_FRAME)
			frame_rec_ahead(cs, ptes, r, i, rec, h);
		else if (!is_lru && h->recs)
			rec_ahead(cs, r, i, rec, h); /* the policy's record (cache_mode.h) */
	}
	uint32_t idx = ref_page(r, i, rec);
	if (hit) {
		pte_t *pt = &ptes[idx], pte = *pt;
		if (__builtin_expect(pte & PTE_PRESENT, 1)) {
			*pt = pte | ref_bits(r, i, rec);
			cs->hit(cs->priv, pte_pfn(pte), hit == HIT_FRAME ? pte_pfn(pte) : h->map[idx]);
			return true;
		}
		ref_miss(cs, idx, (ref_bits(r, i, rec) & PTE_DIRTY) != 0);
		return !cs->misordered;
	}
	pte_t bits = ref_bits(r, i, rec), old;
	if (!ref_one(cs, ptes, idx, bits, &old))
		return false;
	if (is_lru)
		lru_hit_list(h->priv, fr, h->list, pte_pfn(old));
	else
		cs->access(cs->priv, pte_pfn(old), (bits & PTE_DIRTY) != 0);
	return true;
}

__attribute__((always_inline)) static inline size_t refs_hook_loop(struct cachesim *cs, const struct refs *r, size_t n,
								   enum hit_kind hit, bool is_lru, bool rec)
{
	const uint32_t *const map = cs->mm.cache.recmap;
	const struct hook_loop h = {
		.priv = cs->priv,
		.list = is_lru ? ((const struct lru *)cs->priv)->list : 0,
		.map = map,
		/* a cache hit's record comes from the map or the PTE */
		.recs = hit == HIT_MAP && !map ? NULL : cs->mm.cache.recs,
		.moves = cs->mm.cache.rec_next != 0,
		.frecs = cs->mm.cache.frecs,
	};
	pte_t *const ptes = cs->pte;
	size_t i = 0;
	for (; i + AHEAD_PTE < n; i++)
		if (!hook_one(cs, ptes, r, i, true, hit, is_lru, rec, &h))
			return i;
	for (; i < n; i++)
		if (!hook_one(cs, ptes, r, i, false, hit, is_lru, rec, &h))
			return i;
	return n;
}

static size_t refs_plain(struct cachesim *cs, const struct refs *r, size_t n) { return refs_plain_loop(cs, r, n, false); }
static size_t refs_hook(struct cachesim *cs, const struct refs *r, size_t n) { return refs_hook_loop(cs, r, n, HIT_NONE, false, false); }
static size_t refs_lru(struct cachesim *cs, const struct refs *r, size_t n) { return refs_hook_loop(cs, r, n, HIT_NONE, true, false); }
static size_t refs_hit(struct cachesim *cs, const struct refs *r, size_t n) { return refs_hook_loop(cs, r, n, HIT_MAP, false, false); }
static size_t refs_hitf(struct cachesim *cs, const struct refs *r, size_t n) { return refs_hook_loop(cs, r, n, HIT_FRAME, false, false); }
static size_t recs_plain(struct cachesim *cs, const struct refs *r, size_t n) { return refs_plain_loop(cs, r, n, true); }
static size_t recs_hook(struct cachesim *cs, const struct refs *r, size_t n) { return refs_hook_loop(cs, r, n, HIT_NONE, false, true); }
static size_t recs_lru(struct cachesim *cs, const struct refs *r, size_t n) { return refs_hook_loop(cs, r, n, HIT_NONE, true, true); }
static size_t recs_hit(struct cachesim *cs, const struct refs *r, size_t n) { return refs_hook_loop(cs, r, n, HIT_MAP, false, true); }
static size_t recs_hitf(struct cachesim *cs, const struct refs *r, size_t n) { return refs_hook_loop(cs, r, n, HIT_FRAME, false, true); }

/* What the loops read for references given without writes: they read
 * writes[i] for every reference instead of testing writes each time. */
#define NO_WRITES 4096
static const uint8_t no_writes[NO_WRITES];

/* The loops run on a batch whose ids are all below cs->cap. */
static void refs_run(struct cachesim *cs, const uint32_t *pages, const uint8_t *writes, size_t n)
{
	if (!writes) {
		for (size_t i = 0; i < n; i += NO_WRITES)
			refs_run(cs, pages + i, no_writes, MIN(n - i, (size_t)NO_WRITES));
		return;
	}
	const struct refs r = { .pages = pages, .writes = writes };
	if (cs->is_lru)
		refs_lru(cs, &r, n);
	else if (cs->hit && cs->mm.cache.frecs)
		refs_hitf(cs, &r, n);
	else if (cs->hit)
		refs_hit(cs, &r, n);
	else if (cs->hook)
		refs_hook(cs, &r, n);
	else
		refs_plain(cs, &r, n);
	cs->refs += n;
}

/* Room in the PTE array for ids below `bound` before the loops run: they
 * then read pte[id] with no test of whether id's region is mapped (an id
 * not mapped yet finds a zero PTE and takes the fault path, which maps
 * its region), and the array does not move under them: it only ever
 * grows to a region's end, so one that holds the largest id holds every
 * region map_regions() maps for the batch.  The tests were 4 of a
 * reference's loop instructions, 3% of an LRU replay's CPU time. */
static void room_below(struct cachesim *cs, uint64_t bound)
{
	if (bound > cs->cap) {
		uint32_t k = region_of(bound - 1);
		if (k >= MAX_REGIONS)
			panic("cachesim: page id beyond %u regions", MAX_REGIONS);
		grow_ptes(cs, region_base(k + 1));
	}
}

void cachesim_refs(struct cachesim *cs, const uint32_t *pages, const uint8_t *writes, size_t n)
{
	cachesim_refs_below(cs, pages, writes, n, UINT64_MAX);
}

void cachesim_refs_below(struct cachesim *cs, const uint32_t *pages, const uint8_t *writes, size_t n, uint64_t bound)
{
	if (!n)
		return;
	/* No bound (cachesim_refs), or one past the room made (a header's
	 * count beyond what cachesim_reserve() trusts): the batch's own
	 * largest id. */
	if (bound > cs->cap) {
		uint32_t max = 0;
		for (size_t i = 0; i < n; i++)
			max = MAX(max, pages[i]);
		bound = (uint64_t)max + 1;
	}
	room_below(cs, bound);
	refs_run(cs, pages, writes, n);
}

size_t cachesim_recs_below(struct cachesim *cs, const uint8_t *recs, size_t n, uint64_t bound, uint32_t *page)
{
	if (!n)
		return 0;
	const struct refs r = { .recs = recs };
	if (bound > cs->cap) {
		uint32_t max = 0;
		for (size_t i = 0; i < n; i++)
			max = MAX(max, ref_page(&r, i, true));
		bound = (uint64_t)max + 1;
	}
	room_below(cs, bound);
	cs->check_order = true;
	size_t done = cs->is_lru ? recs_lru(cs, &r, n)
		      : cs->hit && cs->mm.cache.frecs ? recs_hitf(cs, &r, n)
		      : cs->hit	 ? recs_hit(cs, &r, n)
		      : cs->hook ? recs_hook(cs, &r, n)
				 : recs_plain(cs, &r, n);
	cs->check_order = false;
	cs->refs += done;
	if (done < n) {
		cs->misordered = false;
		*page = ref_page(&r, done, true);
	}
	return done;
}

uint64_t cachesim_pages(const struct cachesim *cs) { return cs->pages; }

/* A cache's struct, frames and page tables, and the research policies'
 * record map (cache_mode.h: a u32 per PTE slot, grown beside the PTEs)
 * when it has one (the policy's own tables aside). */
static size_t cache_bytes(uint64_t frames, uint64_t ptes, bool recmap)
{
	return sizeof(struct cachesim) + (size_t)frames * (sizeof(struct page) + sizeof(struct lru_link)) +
	       (size_t)ptes * (sizeof(pte_t) + (recmap ? sizeof(uint32_t) : 0));
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
		.host_bytes = cache_bytes(mm->fr.nr, cs->mapped, has_recmap(mm)),
	};
}

/* Whether ops keeps a record map in a cache: its init says so
 * (mm_cache_records, research.c; not mm_cache_frame_records), so a small
 * cache is made to ask it. */
static bool keeps_recmap(const struct policy_ops *ops)
{
	struct cachesim *cs = cachesim_new(ops, NULL, 16);
	bool r = has_recmap(&cs->mm);
	cachesim_free(cs);
	return r;
}

uint64_t cachesim_host_bytes_min(const struct policy_ops *ops, uint64_t frames, uint64_t pages)
{
	/* Regions are mapped whole, up to the one holding the last id. */
	return cache_bytes(frames, pages ? region_base(region_of(pages - 1) + 1) : 0, keeps_recmap(ops));
}

const struct mm *cachesim_mm(const struct cachesim *cs) { return &cs->mm; }
