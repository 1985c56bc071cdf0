/* swap_cluster.h - swap slots allocated by clusters as Linux 6.18
 * mm/swapfile.c does (--set swap.cluster=1; docs/zram.md). */
#ifndef PAGELAB_SWAP_CLUSTER_H
#define PAGELAB_SWAP_CLUSTER_H

#include <stdint.h>
#include <stdbool.h>

#define SWAPFILE_CLUSTER 512      /* HPAGE_PMD_NR pages */
#define SWAP_CL_NIL UINT32_MAX

/* the lists a cluster is on (ci->flags); CL_NR: isolated
 * (CLUSTER_FLAG_NONE) while isolate_lock_cluster() holds it */
enum swap_cl_list { CL_FREE, CL_NONFULL, CL_FRAG, CL_FULL, CL_DISCARD, CL_NR };
/* off every list with CLUSTER_FLAG_DISCARD: the discard worker took it
 * from the discard list and its discard is in flight */
#define CL_DISCARDING (CL_NR + 1)

/* What the allocator asks of the swap area around it (all on arg). */
struct swap_cl_ops {
	void *arg;
	/* the slot is in use: a swap count or the swap cache (swap_map) */
	bool (*busy)(const void *arg, uint32_t slot);
	/* __try_to_reclaim_swap(TTRS_ANYWAY): drop the swap-cache page of a
	 * slot no PTE refers to (swap_map == SWAP_HAS_CACHE), unless it is
	 * locked or under writeback; true if the slot was freed (which
	 * calls swap_cl_free()).  NULL: never. */
	bool (*reclaim)(void *arg, uint32_t slot);
	/* vm_swap_full(): more than half the area in use.  NULL: never. */
	bool (*full)(const void *arg);
	/* blkdev_issue_discard() of n slots from slot first, cluster i's;
	 * its completion calls swap_cl_discard_done(i).  NULL: done at once. */
	void (*discard)(void *arg, uint32_t i, uint32_t first, uint32_t n);
};

struct swap_clusters {
	uint32_t nr;                  /* clusters of the area */
	uint32_t csize;               /* offsets a cluster (SWAPFILE_CLUSTER) */
	uint32_t nr_offsets;          /* swap offsets: slots + the header */
	uint32_t nr_slots;            /* si->pages */
	uint32_t inuse;               /* slots allocated (si->inuse_pages) */
	uint16_t *count;              /* slots in use per cluster */
	uint8_t *list;                /* enum swap_cl_list per cluster */
	uint32_t *next, *prev;        /* the list links, head first */
	uint32_t head[CL_NR], tail[CL_NR], len[CL_NR];
	/* the current clusters' next offsets, 0 none: one per CPU
	 * (percpu_swap_cluster.offset[0], SWP_SOLIDSTATE devices) and the
	 * device's (si->global_cluster->next[0], rotational ones) */
	uint32_t nr_cpus;
	uint32_t *pcp_next;
	uint32_t global_next;
	bool pcp_always;              /* swap.cluster=2: per-CPU clusters on a
				       * rotational device too (no kernel's) */
	bool page_discard;            /* SWP_PAGE_DISCARD (swap.discard=1) */
	struct swap_cl_ops ops;
	uint32_t discarding;          /* the worker's cluster in flight, or NIL */
	bool in_worker;               /* swap_do_scheduled_discard() running */
	uint64_t frag_scans;          /* clusters scanned on the frag list */
	uint64_t discards;            /* clusters discarded (discard requests) */
	uint64_t discard_sync;        /* of which by swap_sync_discard() */
	uint64_t reclaim_works;       /* swap_reclaim_work() runs */
	uint64_t reclaim_scans;       /* full clusters swap_reclaim_full_clusters() scanned */
	uint64_t reclaim_freed;       /* slots it freed */
};

void swap_cl_init(struct swap_clusters *c, uint32_t nr_slots, uint32_t nr_cpus, uint32_t csize);
void swap_cl_destroy(struct swap_clusters *c);
/* folio_alloc_swap() for one page on CPU cpu (the device rotational:
 * the global cluster instead): a free slot, UINT32_MAX if none. */
uint32_t swap_cl_alloc(struct swap_clusters *c, uint32_t cpu, bool rotational);
/* swap_entries_free(): slot is free again */
void swap_cl_free(struct swap_clusters *c, uint32_t slot);
/* the discard of cluster i completed: it goes to the free list, and the
 * worker issues the next one */
void swap_cl_discard_done(struct swap_clusters *c, uint32_t i);
/* clusters waiting for their discard, on the list or in flight */
uint32_t swap_cl_discard_waiting(const struct swap_clusters *c);

#endif
