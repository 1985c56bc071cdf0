/* swap_cluster.c - the swap slot allocator of Linux 6.18 mm/swapfile.c
 * (folio_alloc_swap(): swap_alloc_fast(), then swap_alloc_slow() ->
 * cluster_alloc_swap_entry(); alloc_swap_scan_cluster(),
 * alloc_swap_scan_list(), isolate_lock_cluster(), relocate_cluster(),
 * partial_free_cluster(), free_cluster()), order 0 only: pagelab has no
 * anonymous large folios, so swpout_fallback (6.18 mm/vmscan.c
 * shrink_folio_list(): a large folio split after folio_alloc_swap()
 * fails, count_mthp_stat(order, MTHP_STAT_SWPOUT_FALLBACK)) never
 * happens (docs/zram.md).
 *
 * The area is cut in clusters of SWAPFILE_CLUSTER (512; the tests take
 * fewer) swap offsets;
 * offset 0 is the header (pagelab's slot s is offset s + 1).  Each
 * cluster is on one list: free (empty), nonfull, frag, full or discard.
 * A page takes, in this order:
 *  1. the next free offset at or after the current cluster's next one
 *     (from its start if it emptied), to the cluster's end: each CPU's
 *     own (percpu_swap_cluster, 6.15+) on a SWP_SOLIDSTATE device, the
 *     device's one global_cluster on a rotational one (serialised by
 *     global_cluster_lock so that HDD writes stay sequential);
 *  2. with SWP_PAGE_DISCARD, the first free cluster ("prefer new
 *     cluster over nonfull to spread out the writes", 6.15+);
 *  3. the nonfull clusters from the head, each isolated as scanned;
 *  4. without SWP_PAGE_DISCARD, the first free cluster;
 *  5. if vm_swap_full(), swap_reclaim_full_clusters(si, false): the
 *     head full cluster's slots held by the swap cache alone are freed;
 *  6. one frag cluster, the head (rotated to the tail by the scan);
 *  7. if all failed: swap_sync_discard() (folio_alloc_swap(), after
 *     the fix "mm, swap: do not perform synchronous discard during
 *     allocation", October 2025, for stable; before it
 *     cluster_alloc_swap_entry() itself called
 *     swap_do_scheduled_discard() after the frag list and started
 *     over, the same for order 0 when no higher order has clusters):
 *     the clusters still on the discard list are discarded at once and
 *     the allocation tried again.
 * A cluster allocated from goes back by relocate_cluster(): full if
 * full, frag if partly used, free if empty.  A freed slot moves a full
 * or frag cluster to the nonfull tail (partial_free_cluster()), an
 * emptied one to the free tail (free_cluster()); with SWP_PAGE_DISCARD
 * (swapon --discard=pages) to the discard list instead
 * (swap_cluster_schedule_discard()), whose worker (swap_discard_work()
 * -> swap_do_scheduled_discard()) discards one cluster at a time,
 * waiting for each (discard_swap_cluster() -> blkdev_issue_discard()),
 * and only then frees it (__free_cluster()): a cluster waiting is
 * unusable (cluster_is_usable() is false for CLUSTER_FLAG_DISCARD).
 *
 * An allocation that leaves the area with no free slot
 * (swap_range_alloc(): swap_usage_add() reached si->pages) schedules
 * swap_reclaim_work() -> swap_reclaim_full_clusters(si, true), which
 * scans swap_usage_in_pages() / SWAPFILE_CLUSTER full clusters from the
 * head.  pagelab has no kworker: the work runs at the end of that
 * allocation, before the page allocated for is added to the swap cache
 * (in the kernel the reclaimer holds that folio locked, so
 * __try_to_reclaim_swap() would skip it anyway).
 *
 * Not modelled: cluster_reclaim_range(), the scan's own freeing of a
 * swap-cache-only slot it meets while vm_swap_full() (such slots are
 * busy to the scan here).  A long-running area ends with its free slots
 * scattered over nonfull and frag clusters: the `swap clusters` report
 * lines count them. */
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

/* move_cluster(): list_move_tail(), or list_add_tail() for an isolated
 * cluster (CLUSTER_FLAG_NONE) */
static void cl_move(struct swap_clusters *c, uint32_t i, unsigned l)
{
	if (c->list[i] < CL_NR)
		cl_del(c, i);
	cl_add_tail(c, i, l);
}

void swap_cl_init(struct swap_clusters *c, uint32_t nr_slots, uint32_t nr_cpus, uint32_t csize)
{
	*c = (struct swap_clusters){ 0 };
	c->csize = csize;
	c->nr_slots = nr_slots;
	c->nr_offsets = nr_slots + 1;
	c->nr = (c->nr_offsets + csize - 1) / csize;
	c->nr_cpus = nr_cpus ? nr_cpus : 1;
	c->discarding = SWAP_CL_NIL;
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

/* swap_do_scheduled_discard(), as the worker runs it: the discard list's
 * clusters one at a time, the next once the last one's discard is done.
 * A discard that completes at once (no disk: ops.discard NULL, or zram)
 * returns here, not into a second worker. */
static void discard_worker(struct swap_clusters *c)
{
	if (c->in_worker)
		return;
	c->in_worker = true;
	while (c->discarding == SWAP_CL_NIL && c->head[CL_DISCARD] != SWAP_CL_NIL) {
		uint32_t i = c->head[CL_DISCARD];
		cl_del(c, i);
		c->list[i] = CL_DISCARDING;  /* off-list, still CLUSTER_FLAG_DISCARD */
		c->discarding = i;
		c->discards++;
		uint32_t first = i * c->csize;
		if (c->ops.discard)  /* slots: offset - 1 (cluster 0 never empties) */
			c->ops.discard(c->ops.arg, i, first - 1, cl_end(c, i) - first);
		else
			swap_cl_discard_done(c, i);
	}
	c->in_worker = false;
}

void swap_cl_discard_done(struct swap_clusters *c, uint32_t i)
{
	if (c->list[i] != CL_DISCARDING || c->discarding != i)
		panic("swap cluster %u: discard done, not in flight", i);
	c->discarding = SWAP_CL_NIL;
	c->list[i] = CL_NR;
	cl_add_tail(c, i, CL_FREE);  /* __free_cluster() */
	discard_worker(c);
}

uint32_t swap_cl_discard_waiting(const struct swap_clusters *c)
{
	return c->len[CL_DISCARD] + (c->discarding != SWAP_CL_NIL);
}

/* free_cluster(): an emptied cluster is free, or with SWP_PAGE_DISCARD
 * waits on the discard list (swap_cluster_schedule_discard(), which
 * schedules the worker) */
static void free_cluster(struct swap_clusters *c, uint32_t i)
{
	if (!c->page_discard) {
		cl_move(c, i, CL_FREE);
		return;
	}
	cl_move(c, i, CL_DISCARD);
	discard_worker(c);
}

/* relocate_cluster(): where a cluster goes after an allocation try; a
 * discard cluster stays off-list or on the discard list */
static void relocate(struct swap_clusters *c, uint32_t i)
{
	if (c->list[i] == CL_DISCARD || c->list[i] == CL_DISCARDING)
		return;
	if (!c->count[i]) {
		if (c->list[i] != CL_FREE)
			free_cluster(c, i);
		return;
	}
	unsigned l = c->count[i] == c->csize ? CL_FULL : CL_FRAG;
	if (c->list[i] != l)
		cl_move(c, i, l);
}

/* alloc_swap_scan_cluster(): the first free offset of cluster i from
 * `from` to its end, 0 if none; *next becomes the offset after it (0 if
 * the cluster is full or that was its last), the cluster relocated. */
static uint32_t scan_cluster(struct swap_clusters *c, uint32_t i, uint32_t from, uint32_t *next)
{
	uint32_t end = cl_end(c, i), found = 0;
	*next = 0;
	for (uint32_t off = from; off < end; off++) {
		if (!off || c->ops.busy(c->ops.arg, off - 1))
			continue;
		found = off;
		c->count[i]++;
		c->inuse++;
		if (c->count[i] < c->csize && off + 1 < end)
			*next = off + 1;
		break;
	}
	relocate(c, i);
	return found;
}

/* alloc_swap_scan_list(): clusters isolated from list l's head, one or
 * all until a slot is found */
static uint32_t scan_list(struct swap_clusters *c, unsigned l, bool all, uint32_t *next)
{
	uint32_t off = 0;
	while (!off && c->head[l] != SWAP_CL_NIL) {
		uint32_t i = c->head[l];
		if (l == CL_FRAG)
			c->frag_scans++;
		cl_del(c, i);
		off = scan_cluster(c, i, i * c->csize, next);
		if (!all)
			break;
	}
	return off;
}

/* swap_reclaim_full_clusters(): full clusters isolated from the head,
 * each scanned whole for slots the swap cache alone holds, which
 * __try_to_reclaim_swap(TTRS_ANYWAY) frees; one cluster, or with force
 * swap_usage_in_pages() / SWAPFILE_CLUSTER of them.  A cluster that
 * lost a slot went to the nonfull (or free/discard) list as it did; one
 * that lost none goes back to the full tail. */
static void reclaim_full(struct swap_clusters *c, bool force)
{
	int64_t to_scan = force ? c->inuse / c->csize : 1;
	while (c->ops.reclaim && c->head[CL_FULL] != SWAP_CL_NIL) {
		uint32_t i = c->head[CL_FULL];
		cl_del(c, i);
		c->reclaim_scans++;
		to_scan--;
		for (uint32_t off = i * c->csize, end = cl_end(c, i); off < end; off++)
			if (off && c->ops.reclaim(c->ops.arg, off - 1))
				c->reclaim_freed++;
		if (c->list[i] == CL_NR)
			relocate(c, i);
		if (to_scan <= 0)
			break;
	}
}

/* swap_sync_discard() -> swap_do_scheduled_discard(): the clusters on the
 * discard list discarded now, by the allocating task (not the one the
 * worker has in flight, already off the list); true if any */
static bool sync_discard(struct swap_clusters *c)
{
	bool any = false;
	while (c->head[CL_DISCARD] != SWAP_CL_NIL) {
		uint32_t i = c->head[CL_DISCARD];
		cl_move(c, i, CL_FREE);
		c->discards++;
		c->discard_sync++;
		any = true;
	}
	return any;
}

/* cluster_alloc_swap_entry() and swap_alloc_fast(): the offset found, 0 if none */
static uint32_t alloc_offset(struct swap_clusters *c, uint32_t *next)
{
	uint32_t off = 0;
	if (*next) {
		/* swap_alloc_fast() / the global cluster: cluster_is_usable()
		 * is false for a full or discard one */
		uint32_t i = *next / c->csize;
		if (c->list[i] <= CL_FRAG) {
			uint32_t from = c->count[i] ? *next : i * c->csize;
			if ((off = scan_cluster(c, i, from, next)))
				return off;
		}
	}
	if (c->page_discard && (off = scan_list(c, CL_FREE, false, next)))
		return off;
	if ((off = scan_list(c, CL_NONFULL, true, next)))
		return off;
	if (!c->page_discard && (off = scan_list(c, CL_FREE, false, next)))
		return off;
	if (c->ops.full && c->ops.full(c->ops.arg))
		reclaim_full(c, false);
	return scan_list(c, CL_FRAG, false, next);
}

uint32_t swap_cl_alloc(struct swap_clusters *c, uint32_t cpu, bool rotational)
{
	uint32_t *next = rotational && !c->pcp_always ? &c->global_next : &c->pcp_next[cpu % c->nr_cpus];
	uint32_t off = alloc_offset(c, next);
	if (!off && c->page_discard && sync_discard(c))
		off = alloc_offset(c, next);
	if (!off)
		return UINT32_MAX;
	/* swap_range_alloc(): the area just filled up (vm_swap_full() is
	 * then true): swap_reclaim_work(), run now (see the top) */
	if (c->inuse == c->nr_slots) {
		c->reclaim_works++;
		reclaim_full(c, true);
	}
	return off - 1;
}

void swap_cl_free(struct swap_clusters *c, uint32_t slot)
{
	uint32_t i = (slot + 1) / c->csize;
	if (!c->count[i])
		panic("swap cluster %u: free of slot %u in an empty cluster", i, slot);
	c->inuse--;
	if (--c->count[i] == 0)
		free_cluster(c, i);
	else if (c->list[i] != CL_NONFULL)
		cl_move(c, i, CL_NONFULL);  /* partial_free_cluster() */
}
