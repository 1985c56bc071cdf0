/* swap_cluster.h - swap slots allocated by clusters as Linux 6.12+
 * mm/swapfile.c does (--set swap.cluster=1; docs/zram.md). */
#ifndef PAGELAB_SWAP_CLUSTER_H
#define PAGELAB_SWAP_CLUSTER_H

#include <stdint.h>
#include <stdbool.h>

#define SWAPFILE_CLUSTER 512      /* HPAGE_PMD_NR pages */
#define SWAP_CL_NIL UINT32_MAX

/* the lists a cluster is on (ci->flags) */
enum swap_cl_list { CL_FREE, CL_NONFULL, CL_FRAG, CL_FULL, CL_NR };

struct swap_clusters {
	uint32_t nr;                  /* clusters of the area */
	uint32_t nr_offsets;          /* swap offsets: slots + the header */
	uint16_t *count;              /* slots in use per cluster */
	uint8_t *list;                /* enum swap_cl_list per cluster */
	uint32_t *next, *prev;        /* the list links, head first */
	uint32_t head[CL_NR], tail[CL_NR], len[CL_NR];
	uint32_t cpu_next;            /* the current cluster's next offset
				       * (percpu_cluster->next[0]); 0 none */
	uint64_t frag_scans;          /* clusters scanned on the frag list */
};

void swap_cl_init(struct swap_clusters *c, uint32_t nr_slots);
void swap_cl_destroy(struct swap_clusters *c);
/* cluster_alloc_swap_entry() for one page: a free slot (busy(slot) says
 * which are taken), UINT32_MAX if none. */
uint32_t swap_cl_alloc(struct swap_clusters *c, bool (*busy)(const void *, uint32_t), const void *arg);
/* swap_entries_free(): slot is free again */
void swap_cl_free(struct swap_clusters *c, uint32_t slot);

#endif
