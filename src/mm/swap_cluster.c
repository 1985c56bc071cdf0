/* swap_cluster.c - the swap slot allocator of Linux 6.12+
 * mm/swapfile.c (cluster_alloc_swap_entry(), alloc_swap_scan_cluster(),
 * partial_free_cluster(), free_cluster()), order 0 only: pagelab has no
 * anonymous large folios, so swpout_fallback (a large folio swapped out
 * as small pages for want of a free cluster) is not modelled.
 *
 * The area is cut in clusters of SWAPFILE_CLUSTER (512) swap offsets;
 * offset 0 is the header (pagelab's slot s is offset s + 1).  Each
 * cluster is on one list: free (empty), nonfull, frag or full.  A page
 * takes, in this order:
 *  1. the next free offset at or after the current cluster's next one
 *     (the per-CPU cluster; the mm core does not know the CPU, so one
 *     current cluster stands for the reclaiming CPU's);
 *  2. the first cluster of the free list (then nonfull, or full);
 *  3. the nonfull clusters from the head, each moved to the frag list
 *     as it is scanned;
 *  4. the frag clusters, rotated to the tail as they are scanned.
 * A cluster that fills goes to the full list; one that loses a slot
 * while full or frag goes to the nonfull tail; one that empties goes
 * back to the free list (swapon without --discard: no discard list).
 * A long-running area ends with its free slots scattered over nonfull
 * and frag clusters: the `swap clusters` report lines count them. */
#include "swap_cluster.h"
#include "../lib/util.h"

#include <stdlib.h>

static void cl_del(struct swap_clusters *c, uint32_t i)
{
	unsigned l = c->list[i];
	if (c->prev[i] != SWAP_CL_NIL)
		c->next[c->prev[i]] = c->next[i];
	else
		c->head[l] = c->next[i];
	if (c->next[i] != SWAP_CL_NIL)
		c->prev[c->next[i]] = c->prev[i];
	else
		c->tail[l] = c->prev[i];
	c->len[l]--;
}

static void cl_add_tail(struct swap_clusters *c, uint32_t i, unsigned l)
{
	c->list[i] = (uint8_t)l;
	c->next[i] = SWAP_CL_NIL;
	c->prev[i] = c->tail[l];
	if (c->tail[l] != SWAP_CL_NIL)
		c->next[c->tail[l]] = i;
	else
		c->head[l] = i;
	c->tail[l] = i;
	c->len[l]++;
}

/* list_move_tail() */
static void cl_move(struct swap_clusters *c, uint32_t i, unsigned l)
{
	cl_del(c, i);
	cl_add_tail(c, i, l);
}

void swap_cl_init(struct swap_clusters *c, uint32_t nr_slots)
{
	*c = (struct swap_clusters){ 0 };
	c->nr_offsets = nr_slots + 1;
	c->nr = (c->nr_offsets + SWAPFILE_CLUSTER - 1) / SWAPFILE_CLUSTER;
	c->count = xcalloc(c->nr, sizeof(*c->count));
	c->list = xcalloc(c->nr, 1);
	c->next = xmalloc(c->nr * sizeof(*c->next));
	c->prev = xmalloc(c->nr * sizeof(*c->prev));
	for (unsigned l = 0; l < CL_NR; l++)
		c->head[l] = c->tail[l] = SWAP_CL_NIL;
	for (uint32_t i = 0; i < c->nr; i++)
		cl_add_tail(c, i, CL_FREE);
	/* the header's offset is taken for good (setup_clusters()) */
	c->count[0] = 1;
	cl_move(c, 0, c->nr_offsets == 1 ? CL_FULL : CL_NONFULL);
}

void swap_cl_destroy(struct swap_clusters *c)
{
	free(c->count);
	free(c->list);
	free(c->next);
	free(c->prev);
}

static uint32_t cl_end(const struct swap_clusters *c, uint32_t i)
{
	uint32_t end = (i + 1) * SWAPFILE_CLUSTER;
	return end < c->nr_offsets ? end : c->nr_offsets;
}

/* alloc_swap_scan_cluster(): the first free offset of cluster i from
 * `from`; 0 if none.  Sets the next offset for the current cluster. */
static uint32_t scan_cluster(struct swap_clusters *c, uint32_t i, uint32_t from,
			     bool (*busy)(const void *, uint32_t), const void *arg)
{
	uint32_t end = cl_end(c, i);
	for (uint32_t off = from; off < end; off++) {
		if (!off || busy(arg, off - 1))
			continue;
		if (++c->count[i] == end - i * SWAPFILE_CLUSTER)
			cl_move(c, i, CL_FULL);
		else if (c->list[i] == CL_FREE)
			cl_move(c, i, CL_NONFULL);
		c->cpu_next = c->list[i] == CL_FULL || off + 1 >= end ? 0 : off + 1;
		return off;
	}
	return 0;
}

uint32_t swap_cl_alloc(struct swap_clusters *c, bool (*busy)(const void *, uint32_t), const void *arg)
{
	uint32_t off = 0;
	if (c->cpu_next) {
		uint32_t i = c->cpu_next / SWAPFILE_CLUSTER;
		if (c->list[i] != CL_FULL && (off = scan_cluster(c, i, c->cpu_next, busy, arg)))
			return off - 1;
	}
	c->cpu_next = 0;
	if (c->head[CL_FREE] != SWAP_CL_NIL) {
		uint32_t i = c->head[CL_FREE];
		if ((off = scan_cluster(c, i, i * SWAPFILE_CLUSTER, busy, arg)))
			return off - 1;
	}
	uint32_t frags = 0;
	while (c->head[CL_NONFULL] != SWAP_CL_NIL) {
		uint32_t i = c->head[CL_NONFULL];
		cl_move(c, i, CL_FRAG);
		frags++;
		if ((off = scan_cluster(c, i, i * SWAPFILE_CLUSTER, busy, arg)))
			return off - 1;
	}
	for (uint32_t n = c->len[CL_FRAG]; frags < n; frags++) {
		uint32_t i = c->head[CL_FRAG];
		cl_move(c, i, CL_FRAG);
		c->frag_scans++;
		if ((off = scan_cluster(c, i, i * SWAPFILE_CLUSTER, busy, arg)))
			return off - 1;
	}
	return UINT32_MAX;
}

void swap_cl_free(struct swap_clusters *c, uint32_t slot)
{
	uint32_t i = (slot + 1) / SWAPFILE_CLUSTER;
	if (!c->count[i])
		panic("swap cluster %u: free of slot %u in an empty cluster", i, slot);
	if (--c->count[i] == 0)
		cl_move(c, i, CL_FREE);  /* free_cluster() */
	else if (c->list[i] != CL_NONFULL)
		cl_move(c, i, CL_NONFULL);  /* partial_free_cluster() */
}
