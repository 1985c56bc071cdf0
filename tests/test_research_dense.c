/* test_research_dense.c - the research policies' page history by dense
 * id in a cache (ghost_dense; the map the cache-only replay lends them,
 * grown with its PTE array, cache_mode.h): history must survive the map's
 * growth.  A few ms. */
#include "test.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"

#include <stdlib.h>

/* Misses of `pol` over refs[i] * scale (scale > 1: ids with gaps, so the
 * map grows again and again as they come; reserve: room for every id
 * made first, the map never grows). */
static uint64_t run(const char *pol, uint64_t frames, const uint32_t *refs, size_t n, uint32_t scale,
		    uint64_t reserve)
{
	struct cachesim *cs = cachesim_new(policy_find(pol), NULL, frames);
	if (reserve)
		cachesim_reserve(cs, reserve);
	uint32_t *ids = malloc(n * sizeof(*ids));
	for (size_t i = 0; i < n; i++)
		ids[i] = refs[i] * scale;
	/* One at a time: a batch makes room for its largest id at once. */
	for (size_t i = 0; i < n; i++)
		cachesim_refs(cs, &ids[i], NULL, 1);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	cachesim_free(cs);
	free(ids);
	return st.misses;
}

/* ARC, c = 2, pages 1 1 2 3 1 2 1 (test_arc_adapts worked it out): 2
 * goes to B1 and 1 to B2, and both come back through them - 5 faults.
 * With ids 0, 2000, 9000 the map grows when 2000 and 9000 first come,
 * after the history of the pages before was written. */
void test_research_dense_arc_across_growth(void)
{
	static const uint32_t refs[] = { 0, 0, 1, 2, 0, 1, 0 };
	static const uint32_t sparse[] = { 0, 0, 2000, 9000, 0, 2000, 0 };
	CHECK_EQ(run("arc", 2, refs, 7, 1, 0), 5);
	CHECK_EQ(run("arc", 2, sparse, 7, 1, 0), 5);
}

/* Every research policy: the same references under ids 7x apart (the
 * map grown 7 times) and under dense ids with room made first miss the
 * same - a hot set of 200 pages and a cold tail of 3000, so ghosts,
 * promotions and frequencies all count. */
void test_research_dense_same_misses_any_growth(void)
{
	enum { N = 20000 };
	uint32_t *refs = malloc(N * sizeof(*refs)), *first = malloc(3200 * sizeof(*first));
	uint32_t x = 12345, next_id = 0;
	for (int i = 0; i < 3200; i++)
		first[i] = UINT32_MAX;
	for (int i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		uint32_t r = x >> 16, page = r % 4 ? r % 200 : 200 + r % 3000;
		if (first[page] == UINT32_MAX)
			first[page] = next_id++; /* dense, in order of first reference */
		refs[i] = first[page];
	}
	static const char *const pols[] = { "arc", "2q", "s3fifo", "sieve", "lfu", "lruk", "lirs", "clockpro" };
	for (size_t p = 0; p < sizeof(pols) / sizeof(pols[0]); p++) {
		uint64_t dense = run(pols[p], 150, refs, N, 1, next_id);
		CHECK(dense > 1000);
		CHECK_EQ(run(pols[p], 150, refs, N, 7, 0), dense);
	}
	free(refs);
	free(first);
}
