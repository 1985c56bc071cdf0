/* test_swap_cluster.c - src/mm/swap_cluster.c, 6.18's cluster slot
 * allocator, by hand on tiny areas of 4-offset clusters: offset 0 is
 * the header, slot s is offset s + 1, cluster i holds offsets 4i..4i+3. */
#include "test.h"
#include "../src/mm/swap_cluster.h"

#include <string.h>

static uint8_t used[64];

static bool busy(const void *arg, uint32_t s) { (void)arg; return used[s]; }

static void init(struct swap_clusters *c, uint32_t nr_slots, uint32_t nr_cpus)
{
	memset(used, 0, sizeof(used));
	swap_cl_init(c, nr_slots, nr_cpus, 4);
	c->ops = (struct swap_cl_ops){ .busy = busy };
}

static uint32_t take_on(struct swap_clusters *c, uint32_t cpu, bool rot)
{
	uint32_t s = swap_cl_alloc(c, cpu, rot);
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
	init(&c, 11, 2);
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
	init(&c, 11, 2);
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
	init(&c, 14, 1);
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

/* swap.discard=1 (SWP_PAGE_DISCARD): the discard requests the worker
 * issues, recorded and completed by hand */
static uint32_t disc_i[8], disc_first[8], disc_n[8], nr_disc;

static void discard_rec(void *arg, uint32_t i, uint32_t first, uint32_t n)
{
	(void)arg;
	disc_i[nr_disc] = i;
	disc_first[nr_disc] = first;
	disc_n[nr_disc++] = n;
}

/* 11 slots: C0 = header + slots 0-2, C1 = 3-6, C2 = 7-10; one CPU. */
void test_swap_cluster_discard(void)
{
	struct swap_clusters c;
	init(&c, 11, 1);
	c.page_discard = true;
	c.ops.discard = discard_rec;
	nr_disc = 0;
	/* a free cluster first, before nonfull C0 */
	CHECK_EQ(take(&c, 0), 3);
	for (uint32_t s = 4; s <= 7; s++)
		CHECK_EQ(take(&c, 0), s);   /* C1 full, then free C2 */
	/* C1 emptied: to the discard list, and the worker issues its
	 * discard at once: offsets 4-7, slots 3-6 */
	for (uint32_t s = 3; s <= 6; s++)
		give(&c, s);
	CHECK_EQ(nr_disc, 1);
	CHECK_EQ(disc_i[0], 1);
	CHECK_EQ(disc_first[0], 3);
	CHECK_EQ(disc_n[0], 4);
	CHECK_EQ(c.list[1], CL_DISCARDING);
	CHECK_EQ(c.discards, 1);
	CHECK_EQ(swap_cl_discard_waiting(&c), 1);
	/* C2 on; then no free cluster (C1 is being discarded): nonfull C0 */
	CHECK_EQ(take(&c, 0), 8);
	CHECK_EQ(take(&c, 0), 9);
	CHECK_EQ(take(&c, 0), 10);
	CHECK_EQ(take(&c, 0), 0);
	CHECK_EQ(take(&c, 0), 1);
	CHECK_EQ(take(&c, 0), 2);
	/* 7 slots in use, 4 free but in C1, whose discard is in flight:
	 * swap_sync_discard() finds the list empty, nothing to allocate */
	CHECK_EQ(take(&c, 0), UINT32_MAX);
	CHECK_EQ(c.discard_sync, 0);
	/* the discard completes: C1 free, taken from its start */
	swap_cl_discard_done(&c, 1);
	CHECK_EQ(swap_cl_discard_waiting(&c), 0);
	CHECK_EQ(c.list[1], CL_FREE);
	CHECK_EQ(take(&c, 0), 3);
	/* C2 emptied: its discard issued; then C1 emptied waits behind it */
	for (uint32_t s = 7; s <= 10; s++)
		give(&c, s);
	give(&c, 3);
	CHECK_EQ(nr_disc, 2);
	CHECK_EQ(disc_i[1], 2);
	CHECK_EQ(disc_first[1], 7);
	CHECK_EQ(c.len[CL_DISCARD], 1);
	CHECK_EQ(swap_cl_discard_waiting(&c), 2);
	/* every list drained: the allocating task discards C1 itself
	 * (swap_sync_discard()), and takes it; C2 still in flight */
	CHECK_EQ(take(&c, 0), 3);
	CHECK_EQ(c.discard_sync, 1);
	CHECK_EQ(c.discards, 3);
	CHECK_EQ(nr_disc, 2);
	CHECK_EQ(c.list[2], CL_DISCARDING);
	swap_cl_discard_done(&c, 2);
	CHECK_EQ(take(&c, 0), 4);      /* CPU 0 stays in C1 */
	CHECK_EQ(c.list[2], CL_FREE);
	swap_cl_destroy(&c);
}

/* swap_reclaim_full_clusters(): slots the swap cache alone holds
 * (cache_only) freed by the reclaim callback; vm_swap_full() by hand */
static uint8_t cache_only[64];
static bool swap_is_full;

static bool reclaim_rec(void *arg, uint32_t s)
{
	struct swap_clusters *c = arg;
	if (!used[s] || !cache_only[s])
		return false;
	used[s] = cache_only[s] = 0;
	swap_cl_free(c, s);
	return true;
}

static bool full_rec(const void *arg) { (void)arg; return swap_is_full; }

/* 15 slots: C0 = header + 0-2, C1 = 3-6, C2 = 7-10, C3 = 11-14; three
 * CPUs. */
void test_swap_cluster_reclaim_full(void)
{
	struct swap_clusters c;
	init(&c, 15, 3);
	c.ops.arg = &c;
	c.ops.reclaim = reclaim_rec;
	c.ops.full = full_rec;
	memset(cache_only, 0, sizeof(cache_only));
	swap_is_full = false;
	for (uint32_t s = 0; s <= 11; s++)
		CHECK_EQ(take(&c, 0), s);   /* C0-C2 full, CPU 0 in C3 */
	cache_only[1] = cache_only[5] = 1;
	/* CPU 1, swap not "full": no nonfull or free cluster, the frag
	 * head C3; nothing reclaimed */
	CHECK_EQ(take(&c, 1), 12);
	CHECK_EQ(c.reclaim_scans, 0);
	/* CPU 2 with vm_swap_full(): one full cluster, the head C0, loses
	 * its cache-only slot 1 (to nonfull); C1's slot 5 is not looked at;
	 * the allocation goes on to the frag list all the same */
	swap_is_full = true;
	CHECK_EQ(take(&c, 2), 13);
	CHECK_EQ(c.reclaim_scans, 1);
	CHECK_EQ(c.reclaim_freed, 1);
	CHECK_EQ(used[1], 0);
	CHECK_EQ(used[5], 1);
	CHECK_EQ(c.list[0], CL_NONFULL);
	CHECK_EQ(c.frag_scans, 2);
	CHECK_EQ(take(&c, 2), 14);      /* C3 full */
	/* the last free slot: the area is full, swap_reclaim_work() runs
	 * with force, 15 / 4 = 3 full clusters from the head: C1, C2, C3
	 * lose slots 5, 9, 13; C0 (full again, at the tail) keeps slot 0 */
	cache_only[9] = cache_only[13] = cache_only[0] = 1;
	CHECK_EQ(take(&c, 0), 1);
	CHECK_EQ(c.reclaim_works, 1);
	CHECK_EQ(c.reclaim_scans, 4);
	CHECK_EQ(c.reclaim_freed, 4);
	CHECK_EQ(used[5] + used[9] + used[13], 0);
	CHECK_EQ(used[0], 1);
	CHECK_EQ(c.head[CL_NONFULL], 1);
	CHECK_EQ(c.tail[CL_NONFULL], 3);
	CHECK_EQ(c.len[CL_FULL], 1);
	CHECK_EQ(c.inuse, 12);
	swap_cl_destroy(&c);
}
