/* test_swap_cluster.c - src/mm/swap_cluster.c, 6.12+'s cluster slot
 * allocator, by hand on an area of 1100 slots: offsets 0..1100 (0 the
 * header) in clusters 0 (offsets 0-511), 1 (512-1023) and 2 (1024-1100,
 * 77 offsets). */
#include "test.h"
#include "../src/mm/swap_cluster.h"

#include <string.h>

static uint8_t used[1100];

static bool busy(const void *arg, uint32_t s) { (void)arg; return used[s]; }

static uint32_t take(struct swap_clusters *c)
{
	uint32_t s = swap_cl_alloc(c, busy, NULL);
	if (s != UINT32_MAX)
		used[s] = 1;
	return s;
}

static void give(struct swap_clusters *c, uint32_t s)
{
	used[s] = 0;
	swap_cl_free(c, s);
}

void test_swap_cluster_lists(void)
{
	struct swap_clusters c;
	memset(used, 0, sizeof(used));
	swap_cl_init(&c, 1100);
	CHECK_EQ(c.nr, 3);
	/* cluster 0 holds the header: nonfull from the start; 1, 2 free */
	CHECK_EQ(c.len[CL_NONFULL], 1);
	CHECK_EQ(c.len[CL_FREE], 2);
	/* no current cluster: the free list's head, cluster 1, slot 511
	 * (offset 512) - not cluster 0's free offsets */
	CHECK_EQ(take(&c), 511);
	CHECK_EQ(c.list[1], CL_NONFULL);
	/* then on in the current cluster: 512, 513 ... */
	CHECK_EQ(take(&c), 512);
	for (int i = 0; i < 510; i++)
		take(&c);
	/* cluster 1 full (512 offsets): the next is cluster 2's first */
	CHECK_EQ(c.list[1], CL_FULL);
	CHECK_EQ(take(&c), 1023);
	/* a freed slot of the full cluster 1: to the nonfull tail, but
	 * the current cluster (2) goes on first */
	give(&c, 600);
	CHECK_EQ(c.list[1], CL_NONFULL);
	CHECK_EQ(take(&c), 1024);
	for (int i = 0; i < 75; i++)
		take(&c);
	CHECK_EQ(c.list[2], CL_FULL);
	CHECK_EQ(c.len[CL_FREE], 0);
	/* no current cluster, no free one: the nonfull list from its head,
	 * cluster 0 (moved to frag as it is scanned): offset 1, slot 0 */
	CHECK_EQ(take(&c), 0);
	CHECK_EQ(c.list[0], CL_FRAG);
	/* and on in cluster 0, the current one now */
	CHECK_EQ(take(&c), 1);
	/* cluster 1 emptied of all but one slot, then of that: free */
	for (uint32_t s = 511; s < 1023; s++)
		if (used[s] && s != 700)
			give(&c, s);
	CHECK_EQ(c.list[1], CL_NONFULL);
	CHECK_EQ(c.count[1], 1);
	give(&c, 700);
	CHECK_EQ(c.list[1], CL_FREE);
	swap_cl_destroy(&c);
}

void test_swap_cluster_frag_scan(void)
{
	struct swap_clusters c;
	memset(used, 0, sizeof(used));
	swap_cl_init(&c, 1100);
	while (take(&c) != UINT32_MAX)
		;
	/* full: every cluster on the full list */
	CHECK_EQ(c.len[CL_FULL], 3);
	/* one hole in cluster 2, the current cluster is gone (full) */
	give(&c, 1050);
	CHECK_EQ(c.list[2], CL_NONFULL);
	CHECK_EQ(take(&c), 1050);
	CHECK_EQ(c.list[2], CL_FULL);
	/* holes in 0 and 1: nonfull 0 then 1; the next allocation scans 0
	 * (moved to frag), finds slot 3; the one after continues there */
	give(&c, 3);
	give(&c, 700);
	CHECK_EQ(take(&c), 3);
	CHECK_EQ(c.list[0], CL_FULL);
	/* cluster 1 is found through the nonfull list */
	CHECK_EQ(take(&c), 700);
	CHECK_EQ(take(&c), UINT32_MAX);
	swap_cl_destroy(&c);
}
