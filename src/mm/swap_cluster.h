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
enum swap_cl_list { CL_FREE, CL_NONFULL, CL_FRAG, CL_FULL, CL_NR };

struct swap_clusters {
	uint32_t nr;                  /* clusters of the area */
	uint32_t csize;               /* offsets a cluster (SWAPFILE_CLUSTER) */
	uint32_t nr_offsets;          /* swap offsets: slots + the header */
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
	uint64_t frag_scans;          /* clusters scanned on the frag list */
};

void swap_cl_init(struct swap_clusters *c, uint32_t nr_slots, uint32_t nr_cpus, uint32_t csize);
void swap_cl_destroy(struct swap_clusters *c);
/* folio_alloc_swap() for one page on CPU cpu (the device rotational:
 * the global cluster instead): a free slot (busy(slot) says which are
 * taken), UINT32_MAX if none. */
uint32_t swap_cl_alloc(struct swap_clusters *c, uint32_t cpu, bool rotational,
		       bool (*busy)(const void *, uint32_t), const void *arg);
/* swap_entries_free(): slot is free again */
void swap_cl_free(struct swap_clusters *c, uint32_t slot);

#endif
