/* swap_cluster.c - the swap slot allocator of Linux 6.18 mm/swapfile.c
 * (folio_alloc_swap(): swap_alloc_fast(), then swap_alloc_slow() ->
 * cluster_alloc_swap_entry(); alloc_swap_scan_cluster(),
 * alloc_swap_scan_list(), isolate_lock_cluster(), relocate_cluster(),
 * partial_free_cluster(), free_cluster()), order 0 only: pagelab has no
 * anonymous large folios, so swpout_fallback (6.18 mm/vmscan.c
 * shrink_folio_list(): a large folio split after folio_alloc_swap()
 * fails, count_mthp_stat(order, MTHP_STAT_SWPOUT_FALLBACK)) stays 0.
 *
 * The area is cut in clusters of SWAPFILE_CLUSTER (512; the tests take
 * fewer) swap offsets;
 * offset 0 is the header (pagelab's slot s is offset s + 1).  Each
 * cluster is on one list: free (empty), nonfull, frag or full.  A page
 * takes, in this order:
 *  1. the next free offset at or after the current cluster's next one
 *     (from its start if it emptied), to the cluster's end: each CPU's
 *     own (percpu_swap_cluster, 6.15+) on a SWP_SOLIDSTATE device, the
 *     device's one global_cluster on a rotational one (serialised by
 *     global_cluster_lock so that HDD writes stay sequential);
 *  2. the nonfull clusters from the head, each isolated as scanned;
 *  3. the first free cluster;
 *  4. one frag cluster, the head (rotated to the tail by the scan).
 * A cluster allocated from goes back by relocate_cluster(): full if
 * full, frag if partly used, free if empty.  A freed slot moves a full
 * or frag cluster to the nonfull tail (partial_free_cluster()), an
 * emptied one to the free tail (free_cluster(), swapon without
 * --discard: no SWP_PAGE_DISCARD, no discard list).
 * Not modelled: swap_reclaim_full_clusters() (vm_swap_full(): freeing
 * swap-cache-only slots of full clusters) and discard.  A long-running
 * area ends with its free slots scattered over nonfull and frag
 * clusters: the `swap clusters` report lines count them. */
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
	c->list[i] = CL_NR;
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

void swap_cl_init(struct swap_clusters *c, uint32_t nr_slots, uint32_t nr_cpus, uint32_t csize)
{
	*c = (struct swap_clusters){ 0 };
	c->csize = csize;
	c->nr_offsets = nr_slots + 1;
	c->nr = (c->nr_offsets + csize - 1) / csize;
	c->nr_cpus = nr_cpus ? nr_cpus : 1;
	c->pcp_next = xcalloc(c->nr_cpus, sizeof(*c->pcp_next));
	c->count = xcalloc(c->nr, sizeof(*c->count));
	c->list = xcalloc(c->nr, 1);
	c->next = xmalloc(c->nr * sizeof(*c->next));
	c->prev = xmalloc(c->nr * sizeof(*c->prev));
	for (unsigned l = 0; l < CL_NR; l++)
		c->head[l] = c->tail[l] = SWAP_CL_NIL;
	for (uint32_t i = 0; i < c->nr; i++)
		cl_add_tail(c, i, CL_FREE);
	/* setup_clusters(): the header's offset and the last cluster's
	 * offsets past the end are taken for good; clusters holding any
	 * go on the nonfull list, in index order */
	c->count[0]++;
	c->count[c->nr - 1] += (uint16_t)(c->nr * csize - c->nr_offsets);
	for (uint32_t i = 0; i < c->nr; i++)
		if (c->count[i])
			cl_move(c, i, CL_NONFULL);
}

void swap_cl_destroy(struct swap_clusters *c)
{
	free(c->pcp_next);
	free(c->count);
	free(c->list);
	free(c->next);
	free(c->prev);
}

static uint32_t cl_end(const struct swap_clusters *c, uint32_t i)
{
	uint32_t end = (i + 1) * c->csize;
	return end < c->nr_offsets ? end : c->nr_offsets;
}

/* relocate_cluster(): where a cluster goes after an allocation try */
static void relocate(struct swap_clusters *c, uint32_t i)
{
	unsigned l = !c->count[i] ? CL_FREE : c->count[i] == c->csize ? CL_FULL : CL_FRAG;
	if (c->list[i] == CL_NR)
		cl_add_tail(c, i, l);
	else if (c->list[i] != l)
		cl_move(c, i, l);
}

/* alloc_swap_scan_cluster(): the first free offset of cluster i from
 * `from` to its end, 0 if none; *next becomes the offset after it (0 if
 * the cluster is full or that was its last), the cluster relocated. */
static uint32_t scan_cluster(struct swap_clusters *c, uint32_t i, uint32_t from, uint32_t *next,
			     bool (*busy)(const void *, uint32_t), const void *arg)
{
	uint32_t end = cl_end(c, i), found = 0;
	*next = 0;
	for (uint32_t off = from; off < end; off++) {
		if (!off || busy(arg, off - 1))
			continue;
		found = off;
		c->count[i]++;
		if (c->count[i] < c->csize && off + 1 < end)
			*next = off + 1;
		break;
	}
	relocate(c, i);
	return found;
}

/* alloc_swap_scan_list(): clusters isolated from list l's head, one or
 * all until a slot is found */
static uint32_t scan_list(struct swap_clusters *c, unsigned l, bool all, uint32_t *next,
			  bool (*busy)(const void *, uint32_t), const void *arg)
{
	uint32_t off = 0;
	while (!off && c->head[l] != SWAP_CL_NIL) {
		uint32_t i = c->head[l];
		if (l == CL_FRAG)
			c->frag_scans++;
		cl_del(c, i);
		off = scan_cluster(c, i, i * c->csize, next, busy, arg);
		if (!all)
			break;
	}
	return off;
}

uint32_t swap_cl_alloc(struct swap_clusters *c, uint32_t cpu, bool rotational,
		       bool (*busy)(const void *, uint32_t), const void *arg)
{
	uint32_t *next = rotational && !c->pcp_always ? &c->global_next : &c->pcp_next[cpu % c->nr_cpus];
	uint32_t off = 0;
	if (*next) {
		/* swap_alloc_fast() / the global cluster: cluster_is_usable()
		 * is false only for a full one */
		uint32_t i = *next / c->csize;
		if (c->list[i] != CL_FULL) {
			uint32_t from = c->count[i] ? *next : i * c->csize;
			if ((off = scan_cluster(c, i, from, next, busy, arg)))
				return off - 1;
		}
	}
	/* cluster_alloc_swap_entry(), no SWP_PAGE_DISCARD */
	if ((off = scan_list(c, CL_NONFULL, true, next, busy, arg)) ||
	    (off = scan_list(c, CL_FREE, false, next, busy, arg)) ||
	    (off = scan_list(c, CL_FRAG, false, next, busy, arg)))
		return off - 1;
	return UINT32_MAX;
}

void swap_cl_free(struct swap_clusters *c, uint32_t slot)
{
	uint32_t i = (slot + 1) / c->csize;
	if (!c->count[i])
		panic("swap cluster %u: free of slot %u in an empty cluster", i, slot);
	if (--c->count[i] == 0)
		cl_move(c, i, CL_FREE);  /* free_cluster() */
	else if (c->list[i] != CL_NONFULL)
		cl_move(c, i, CL_NONFULL);  /* partial_free_cluster() */
}
