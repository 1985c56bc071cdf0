/* test_cacheonly.c - the cache-only mm's frame recycling (src/mm/
 * cacheonly.h): the frame a reclaim pass frees last waits outside the free
 * list for the fault that takes it, and the frames come back in the free
 * list's own LIFO order; after a replay the mm passes --check's
 * invariants; a miss whose first reclaim pass frees nothing makes the
 * passes direct reclaim makes (cacheonly.c's cache_alloc_retry).
 * Milliseconds. */
#include "test.h"
#include "../src/cachesim/cachesim.h"
#include "../src/mm/internal.h"
#include "../src/policy/policy.h"

/* The frame page `id` (of the first region) is mapped to. */
static pfn_t frame_of(const struct mm *mm, uint64_t id)
{
	return pte_pfn(mm->as[0]->vmas[0].pte[id]);
}

/* Two pages evicted in one go, as a pass that frees two would: the later
 * one waits in cache.freed, the earlier is linked ahead of the frames
 * that were free before, and new pages take them in the order the full
 * core's free list (LIFO) gives them: b, a, then the old free ones. */
void test_cacheonly_free_order(void)
{
	struct cachesim *cs = cachesim_new(policy_find("fifo"), NULL, 4);
	struct mm *mm = (struct mm *)cachesim_mm(cs);
	const uint32_t first[] = { 0, 1 };
	cachesim_refs(cs, first, NULL, 2);
	int fl = mm->zones[0].free_list;
	pfn_t h0 = lru_head(&mm->fr, fl);
	pfn_t h1 = lru_next(&mm->fr, h0);
	pfn_t a = frame_of(mm, 0), b = frame_of(mm, 1);
	CHECK_EQ(mm->stat.nr_free, 2);
	mm->pol.ops->remove(mm->pol.priv, a);
	mm->pol.ops->remove(mm->pol.priv, b);
	struct scan_control sc = { .nr_to_reclaim = 2 };
	CHECK_EQ(mm_evict(mm, &sc, a), EVICT_FREED);
	CHECK_EQ(mm_evict(mm, &sc, b), EVICT_FREED);
	CHECK_EQ(sc.nr_reclaimed, 2);
	CHECK_EQ(mm->stat.nr_free, 4);
	CHECK_EQ(mm->zones[0].nr_free, 4);
	CHECK_EQ(mm->cache.freed, b);
	CHECK_EQ(lru_count(&mm->fr, fl), 3);
	CHECK_EQ(lru_head(&mm->fr, fl), a);
	const uint32_t next[] = { 2, 3, 4, 5 };
	cachesim_refs(cs, next, NULL, 4);
	CHECK_EQ(frame_of(mm, 2), b);
	CHECK_EQ(frame_of(mm, 3), a);
	CHECK_EQ(frame_of(mm, 4), h0);
	CHECK_EQ(frame_of(mm, 5), h1);
	CHECK_EQ(mm->cache.freed, PFN_NONE);
	CHECK_EQ(mm->stat.nr_free, 0);
	CHECK_EQ(mm->ev[PGFREE], 2);
	CHECK_EQ(mm->ev[PGALLOC], 6);
	CHECK(mm_check(mm, stderr));
	cachesim_free(cs);
}

/* After replays that evict on every miss, every frame is on exactly one
 * list and the counters agree (mm_check), for the list, clock and ghost
 * policies. */
void test_cacheonly_check_after_replay(void)
{
	uint32_t refs[4000];
	uint64_t x = 12345;
	for (size_t i = 0; i < 4000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		/* Skewed: ids below 40 half the time, the others up to 299. */
		uint32_t r = (uint32_t)(x >> 33);
		refs[i] = (r & 1) ? (r >> 1) % 40 : (r >> 1) % 300;
	}
	/* Dense ids must be numbered in order of first reference. */
	uint32_t map[300], n = 0;
	for (size_t i = 0; i < 300; i++)
		map[i] = UINT32_MAX;
	for (size_t i = 0; i < 4000; i++) {
		if (map[refs[i]] == UINT32_MAX)
			map[refs[i]] = n++;
		refs[i] = map[refs[i]];
	}
	const char *pols[] = { "lru", "clock", "fifo", "arc", "sieve", "s3fifo" };
	for (size_t k = 0; k < sizeof(pols) / sizeof(pols[0]); k++) {
		struct cachesim *cs = cachesim_new(policy_find(pols[k]), NULL, 50);
		cachesim_refs(cs, refs, NULL, 4000);
		struct mm *mm = (struct mm *)cachesim_mm(cs);
		CHECK(mm->ev[PGFREE] > 1000);
		CHECK_EQ(mm->cache.freed, PFN_NONE);
		if (!mm_check(mm, stderr)) {
			fprintf(stderr, "mm_check failed after %s\n", pols[k]);
			CHECK(0);
		}
		cachesim_free(cs);
	}
}

/* A cache policy that reclaims only at one priority, and only from the
 * `cycle`-th cycle of passes on (counting from 0): it records the
 * priority of every pass it is given. */
static struct picky {
	struct mm *mm;
	int list, at, cycle, cycles, n;
	int prio[64];
} picky;

static void *picky_init(struct mm *mm, const double *tun)
{
	(void)tun;
	picky.mm = mm;
	picky.list = lru_register(&mm->fr, "picky");
	return &picky;
}
static void picky_destroy(void *p) { (void)p; }
static void picky_add(void *p, pfn_t pfn, enum add_reason why)
{
	(void)p;
	(void)why;
	lru_add_head(&picky.mm->fr, picky.list, pfn);
}
static void picky_remove(void *p, pfn_t pfn)
{
	(void)p;
	lru_del(&picky.mm->fr, pfn);
}
static void picky_shrink(void *p, struct scan_control *sc)
{
	(void)p;
	if (picky.n < 64)
		picky.prio[picky.n++] = sc->priority;
	if (sc->priority == picky.at && picky.cycles >= picky.cycle) {
		pfn_t pfn = lru_tail(&picky.mm->fr, picky.list);
		lru_del(&picky.mm->fr, pfn);
		mm_evict(picky.mm, sc, pfn);
	}
	if (sc->priority == 0)
		picky.cycles++;
}
static const struct policy_ops picky_policy = {
	.name = "picky",
	.flags = POLICY_CACHE,
	.init = picky_init,
	.destroy = picky_destroy,
	.add = picky_add,
	.remove = picky_remove,
	.shrink = picky_shrink,
};

/* The passes a miss makes when the first one frees nothing, as
 * do_try_to_free_pages() makes them: from DEF_PRIORITY (12) down until
 * one frees a page; after a whole fruitless cycle (12 .. 0) the next
 * cycle starts at 12 again.  One allocstall per miss either way. */
void test_cacheonly_alloc_retries(void)
{
	static const struct { int at, cycle, n; } cases[] = {
		{ 8, 0, 5 },    /* 12 11 10 9 8 */
		{ 12, 1, 14 },  /* 12 .. 0, then 12 */
	};
	for (size_t c = 0; c < 2; c++) {
		picky = (struct picky){ .at = cases[c].at, .cycle = cases[c].cycle };
		struct cachesim *cs = cachesim_new(&picky_policy, NULL, 2);
		const uint32_t refs[] = { 0, 1, 2 };
		cachesim_refs(cs, refs, NULL, 3);
		const struct mm *mm = cachesim_mm(cs);
		CHECK_EQ(picky.n, cases[c].n);
		for (int i = 0; i < picky.n && i < 13; i++)
			CHECK_EQ(picky.prio[i], 12 - i);
		if (cases[c].cycle)
			CHECK_EQ(picky.prio[13], 12);
		CHECK_EQ(mm->ev[ALLOCSTALL], 1);
		CHECK_EQ(mm->ev[PGSTEAL_DIRECT], 1);
		CHECK(!(mm->as[0]->vmas[0].pte[0] & PTE_PRESENT));
		cachesim_free(cs);
	}
}
