/* test_arc_rings.c - ARC's B1 and B2 in a cache as two FIFOs of ids over
 * the one record map (src/policy/idring.h, a tag each): no ghost entry
 * at all there, and the same misses as the full machine's ARC, whose B1
 * and B2 are ghost table lists, with --check's walk of both rings along
 * the way.  A few ms. */
#include "test.h"
#include "sim.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/ghost.h"
#include "../src/policy/idring.h"
#include "../src/policy/policy.h"
#include "../src/policy/research.h"

#include <stdlib.h>

/* Two rings over one map: an id taken off the first and pushed on the
 * second leaves a stale slot in the first, which its count and its tail
 * skip - the map slot, the second's now, is left as it is. */
void test_idring_two_tags_share_a_map(void)
{
	uint32_t *map = malloc(16 * sizeof(*map));
	for (int i = 0; i < 16; i++)
		map[i] = GH_NONE;
	struct idring a, b;
	idr_init_tag(&a, &map, 4, 1u << 30);
	idr_init_tag(&b, &map, 4, IR_TAG);
	idr_push(&a, 3);
	idr_push(&a, 5);
	CHECK(idr_holds(&a, map[3]) && !idr_holds(&b, map[3]));
	idr_take(&a, 3, 9);
	idr_push(&b, 3);
	CHECK(idr_holds(&b, map[3]) && !idr_holds(&a, map[3]));
	CHECK_EQ(idr_count(&a), 1);
	CHECK_EQ(idr_count(&b), 1);
	idr_forget_oldest(&a); /* skips 3's stale slot, forgets 5 */
	CHECK_EQ(map[5], GH_NONE);
	CHECK(idr_holds(&b, map[3]));
	CHECK_EQ(a.live, 0);
	CHECK_EQ(idr_count(&a), 0);
	idr_forget_oldest(&b);
	CHECK_EQ(map[3], GH_NONE);
	idr_destroy(&a);
	idr_destroy(&b);
	free(map);
}

/* In a cache ARC takes no ghost entry: its ghost table stays empty
 * (before, every page took one at its fault), and the record map the
 * replay fetches for a miss has records of no size (the map slot is all
 * a miss reads). */
void test_arc_rings_no_ghost_entry_in_cache(void)
{
	enum { N = 400 };
	uint32_t refs[N], x = 7;
	for (int i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		refs[i] = (x >> 16) % (uint32_t)(i / 4 + 1); /* ids met in order */
	}
	struct cachesim *cs = cachesim_new(policy_find("arc"), NULL, 5);
	cachesim_refs(cs, refs, NULL, N);
	const struct mm *mm = cachesim_mm(cs);
	const struct rp_base *b = mm->pol.priv;
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	CHECK(st.misses > 100);
	CHECK_EQ(b->g.nr, 0);
	CHECK_EQ(b->g.live, 0);
	CHECK(mm->cache.recs != NULL);
	CHECK_EQ(mm->cache.rec_size, 0);
	CHECK(mm_check((struct mm *)mm, stderr));
	cachesim_free(cs);
}

/* 20000 references to 40 pages at random, a quarter of them hot, the
 * cache checked every 500: at 15 to 35 frames pages come back from B1
 * or B2 faster than its tail moves, and its ring (64 to 256 slots) fills
 * with stale ones - B1's compacted 27 times at 15 frames, B2's 56, 21
 * and 4 times at 20, 30 and 35 (counted with a print while the test was
 * written).  The cache's misses are the full machine's at every size,
 * 1 frame to 39 (19171 to 261 misses). */
/* Page i of n random references to 40 pages, a quarter of them hot
 * (pages from 1), and its id: dense, in order of first reference. */
static void hot_quarter(uint64_t *pages, uint32_t *ids, int n)
{
	uint32_t id_of[41] = { 0 }, x = 11, next = 0;
	for (int i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		uint32_t r = (x >> 16) % 40;
		pages[i] = 1 + ((x >> 8) & 1 ? r % 11 : r);
	}
	for (int i = 0; i < n; i++) {
		uint32_t *d = &id_of[pages[i]];
		*d = *d ? *d : ++next;
		ids[i] = *d - 1;
	}
}

void test_arc_rings_cache_equals_machine(void)
{
	enum { N = 20000, STEP = 500 };
	uint32_t *ids = malloc(N * sizeof(*ids));
	uint64_t *pages = malloc(N * sizeof(*pages));
	hot_quarter(pages, ids, N);
	static const uint64_t sizes[] = { 1, 2, 3, 5, 8, 15, 20, 30, 35, 39 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct cachesim *cs = cachesim_new(policy_find("arc"), NULL, sizes[k]);
		bool ok = true;
		for (int i = 0; i < N; i += STEP) {
			cachesim_refs(cs, ids + i, NULL, STEP);
			ok = ok && mm_check((struct mm *)cachesim_mm(cs), stderr);
		}
		CHECK(ok);
		struct cachesim_stats st;
		cachesim_stats(cs, &st);
		cachesim_free(cs);
		CHECK(st.misses > 200);
		CHECK_EQ(st.misses, sim_trace_faults("arc", pages, N, sizes[k], 0));
	}
	free(ids);
	free(pages);
}
