/* swap.h - swap slots and the swap cache (internal to the mm core). */
#ifndef PAGELAB_SWAP_H
#define PAGELAB_SWAP_H

#include "mm.h"

void swap_init(struct swap_area *sw, uint32_t nr_slots);
void swap_destroy(struct swap_area *sw);
/* Allocate a free slot, next-fit from the cursor so that consecutive
 * swap-outs land in consecutive slots (and merge into one disk request),
 * or by clusters (swap_cluster.h: CPU sw->cpu's, or the device's one if
 * rotational).  Returns UINT32_MAX when swap is full. */
uint32_t swap_alloc_slot(struct swap_area *sw, bool rotational);
/* Take / drop one PTE reference to slot. */
void swap_get_ref(struct swap_area *sw, uint32_t slot);
void swap_put_ref(struct swap_area *sw, uint32_t slot);
/* Insert / delete pfn in the swap cache. */
void swap_cache_add(struct mm *mm, pfn_t pfn, uint32_t slot);
void swap_cache_del(struct mm *mm, pfn_t pfn);
/* vm_swap_full(): more than half the swap area in use. */
bool swap_full(const struct swap_area *sw);
/* --set swap.cluster: give the cluster allocator (mm->swap.cl) its view
 * of the area: which slots are busy, the swap cache's reclaim, the
 * discards (discard: SWP_PAGE_DISCARD) */
void swap_cl_attach(struct mm *mm, bool discard);

#endif
