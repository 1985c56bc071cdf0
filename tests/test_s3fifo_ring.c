/* test_s3fifo_ring.c - S3-FIFO's G in a cache, a FIFO of ids over the
 * record map (src/policy/idring.h): ids taken off its middle leave stale
 * slots, and a ring full of them is compacted, the live ids in their
 * order.  And the policy on the cache-only replay, whose G is that ring,
 * against the full machine, whose G is a ghost table list, on references
 * where the ring compacts again and again.  A few ms. */
#include "test.h"
#include "sim.h"
#include "../src/policy/ghost.h"
#include "../src/policy/idring.h"

#include <stdlib.h>

/* Three ids stay in a ring of 64 slots while 200 others come and are
 * taken off (61 at a time fill it: compacted three times); then the
 * oldest go in their order, each map slot cleared, and the ids taken off
 * keep the value they were taken with. */
void test_idring_compacts_in_order(void)
{
	enum { IDS = 300 };
	uint32_t *map = malloc(IDS * sizeof(*map));
	for (int i = 0; i < IDS; i++)
		map[i] = GH_NONE;
	struct idring r;
	idr_init(&r, &map, 3);
	CHECK_EQ(r.mask, 63);
	for (uint32_t id = 7; id < 10; id++)
		idr_push(&r, id);
	for (uint32_t id = 20; id < 220; id++) {
		idr_push(&r, id);
		CHECK(idr_in(map[id]));
		idr_take(&r, id, 5);
	}
	CHECK_EQ(r.live, 3);
	CHECK(r.head - r.tail <= 64);
	CHECK(idr_in(map[7]) && idr_in(map[8]) && idr_in(map[9]));
	idr_push(&r, 11);
	for (uint32_t id = 7; id < 10; id++) {
		idr_forget_oldest(&r);
		CHECK_EQ(map[id], GH_NONE);
		CHECK(idr_in(map[11]));
	}
	idr_forget_oldest(&r);
	CHECK_EQ(map[11], GH_NONE);
	CHECK_EQ(r.live, 0);
	CHECK_EQ(map[20], 5);
	CHECK_EQ(map[219], 5);
	idr_destroy(&r);
	free(map);
}

/* 20000 references to 40 pages at random: at 15 to 35 frames pages come
 * back from G faster than G's tail moves, and its ring of 64 slots fills
 * with stale ones (compacted 8 to 90 times, counted with a print while
 * the test was written).  The cache's misses are the full machine's. */
void test_s3fifo_ring_cache_equals_machine(void)
{
	enum { N = 20000 };
	uint32_t *ids = malloc(N * sizeof(*ids)), first[41];
	uint64_t *pages = malloc(N * sizeof(*pages));
	uint32_t x = 5, next = 0;
	for (int i = 0; i <= 40; i++)
		first[i] = UINT32_MAX;
	for (int i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		uint32_t pg = 1 + (x >> 16) % 40;
		if (first[pg] == UINT32_MAX)
			first[pg] = next++; /* dense, in order of first reference */
		ids[i] = first[pg];
		pages[i] = pg;
	}
	static const uint64_t sizes[] = { 15, 20, 30, 35 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint64_t c = sim_cache_misses("s3fifo", sizes[k], ids, N);
		CHECK(c > 1000);
		CHECK_EQ(c, sim_trace_faults("s3fifo", pages, N, sizes[k], 0));
	}
	free(ids);
	free(pages);
}
