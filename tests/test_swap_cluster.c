/* test_swap_cluster.c - src/mm/swap_cluster.c, 6.18's cluster slot
 * allocator, by hand on tiny areas of 4-offset clusters: offset 0 is
 * the header, slot s is offset s + 1, cluster i holds offsets 4i..4i+3. */
#include "test.h"
#include "../src/mm/swap_cluster.h"

#include <string.h>

static uint8_t used[64];

static bool busy(const void *arg, uint32_t s) { (void)arg; return used[s]; }

static uint32_t take_on(struct swap_clusters *c, uint32_t cpu, bool rot)
{
	uint32_t s = swap_cl_alloc(c, cpu, rot, busy, NULL);
	if (s != UINT32_MAX)
		used[s] = 1;
	return s;
}

static uint32_t take(struct swap_clusters *c, uint32_t cpu) { return take_on(c, cpu, false); }

static void give(struct swap_clusters *c, uint32_t s)
{
	used[s] = 0;
	swap_cl_free(c, s);
}

/* 11 slots, 12 offsets: C0 = header + slots 0-2, C1 = slots 3-6,
 * C2 = slots 7-10; two CPUs, each with its own current cluster. */
void test_swap_cluster_percpu_order(void)
{
	struct swap_clusters c;
	memset(used, 0, sizeof(used));
	swap_cl_init(&c, 11, 2, 4);
	/* setup_clusters(): C0 holds the header, nonfull; C1, C2 free */
	CHECK_EQ(c.list[0], CL_NONFULL);
	CHECK_EQ(c.len[CL_FREE], 2);
	/* CPU 0 has no cluster: the nonfull list first (6.15+), C0,
	 * isolated, scanned, relocated to frag */
	CHECK_EQ(take(&c, 0), 0);
	CHECK_EQ(c.list[0], CL_FRAG);
	/* CPU 1: no nonfull cluster left, the free head C1 */
	CHECK_EQ(take(&c, 1), 3);
	CHECK_EQ(take(&c, 0), 1);
	CHECK_EQ(take(&c, 1), 4);
	CHECK_EQ(take(&c, 0), 2);       /* C0 full: CPU 0's next is none */
	CHECK_EQ(c.list[0], CL_FULL);
	CHECK_EQ(take(&c, 0), 7);       /* CPU 0 takes C2 */
	CHECK_EQ(take(&c, 1), 5);
	CHECK_EQ(c.len[CL_FRAG], 2);
	/* a free in full C0, one in frag C1: both to the nonfull tail */
	give(&c, 1);
	give(&c, 3);
	CHECK_EQ(c.head[CL_NONFULL], 0);
	CHECK_EQ(c.tail[CL_NONFULL], 1);
	/* CPU 1's next offset (7, slot 6) is still usable: C1 goes on
	 * from there, not back to its freed slot 3; relocated to frag */
	CHECK_EQ(take(&c, 1), 6);
	CHECK_EQ(c.list[1], CL_FRAG);
	/* offset 7 was C1's last: CPU 1 has none, takes nonfull C0 */
	CHECK_EQ(take(&c, 1), 1);
	CHECK_EQ(c.list[0], CL_FULL);
	/* no nonfull, no free cluster: one frag cluster, the head (C2),
	 * from its start; it is CPU 0's current cluster too */
	CHECK_EQ(take(&c, 1), 8);
	CHECK_EQ(c.frag_scans, 1);
	CHECK_EQ(c.tail[CL_FRAG], 2);   /* rotated */
	CHECK_EQ(take(&c, 0), 9);       /* CPU 0 on from offset 9 */
	CHECK_EQ(take(&c, 1), 10);
	CHECK_EQ(c.list[2], CL_FULL);
	/* C1 emptied (slot 3 was freed): to the free list, and CPU 0,
	 * whose next is in full C2, takes it from its start */
	give(&c, 4);
	CHECK_EQ(c.list[1], CL_NONFULL);
	give(&c, 5);
	give(&c, 6);
	CHECK_EQ(c.list[1], CL_FREE);
	CHECK_EQ(take(&c, 0), 3);
	CHECK_EQ(c.pcp_next[0], 5);
	swap_cl_destroy(&c);
}

/* A rotational device: one global cluster, whichever CPU allocates,
 * so the slots stay consecutive (global_cluster, 6.14+) */
void test_swap_cluster_rotational_global(void)
{
	struct swap_clusters c;
	memset(used, 0, sizeof(used));
	swap_cl_init(&c, 11, 2, 4);
	for (uint32_t s = 0; s < 11; s++)
		CHECK_EQ(take_on(&c, s % 2, true), s);
	CHECK_EQ(take_on(&c, 0, true), UINT32_MAX);
	CHECK_EQ(c.len[CL_FULL], 3);
	CHECK_EQ(c.pcp_next[0] + c.pcp_next[1], 0);
	swap_cl_destroy(&c);
}

/* 14 slots, 15 offsets: C3 = slots 11-13 and one offset past the end,
 * taken for good (setup_clusters()), so C3 starts nonfull. */
void test_swap_cluster_fragmentation(void)
{
	struct swap_clusters c;
	memset(used, 0, sizeof(used));
	swap_cl_init(&c, 14, 1, 4);
	CHECK_EQ(c.list[3], CL_NONFULL);
	CHECK_EQ(c.count[3], 1);
	/* filling: the nonfull C0 then C3 first, then the free ones */
	CHECK_EQ(take(&c, 0), 0);
	CHECK_EQ(take(&c, 0), 1);
	CHECK_EQ(take(&c, 0), 2);
	CHECK_EQ(take(&c, 0), 11);
	for (uint32_t s = 0; s < 10; s++)
		take(&c, 0);
	CHECK_EQ(c.len[CL_FULL], 4);
	CHECK_EQ(take(&c, 0), UINT32_MAX);
	/* every other slot freed: each cluster nonfull, 7 free slots
	 * scattered over 4 clusters, none free */
	for (uint32_t s = 1; s < 14; s += 2)
		give(&c, s);
	CHECK_EQ(c.len[CL_NONFULL], 4);
	CHECK_EQ(c.len[CL_FREE], 0);
	/* three allocations: C0's hole fills it; C1's first hole, then
	 * on from there (its second hole): full */
	CHECK_EQ(take(&c, 0), 1);
	CHECK_EQ(take(&c, 0), 3);
	CHECK_EQ(c.list[1], CL_FRAG);
	CHECK_EQ(take(&c, 0), 5);
	CHECK_EQ(c.len[CL_FULL], 2);
	/* two more frees in C0: nonfull C2, C3, C0 */
	give(&c, 0);
	give(&c, 2);
	CHECK_EQ(c.head[CL_NONFULL], 2);
	CHECK_EQ(c.tail[CL_NONFULL], 0);
	/* C2's holes (7, 9), then C3's (11, 13), then C0's */
	CHECK_EQ(take(&c, 0), 7);
	CHECK_EQ(take(&c, 0), 9);
	CHECK_EQ(take(&c, 0), 11);
	CHECK_EQ(c.list[3], CL_FRAG);
	CHECK_EQ(c.len[CL_NONFULL], 1);
	CHECK_EQ(c.len[CL_FRAG], 1);
	CHECK_EQ(take(&c, 0), 13);
	CHECK_EQ(take(&c, 0), 0);
	CHECK_EQ(take(&c, 0), 2);
	CHECK_EQ(c.len[CL_FULL], 4);
	CHECK_EQ(c.frag_scans, 0);
	swap_cl_destroy(&c);
}
