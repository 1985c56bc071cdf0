/* check_swap.h - --check's swap accounting over the slots the page tables
 * and the swap cache name (check_swap.c), internal to the mm core. */
#ifndef PAGELAB_CHECK_SWAP_H
#define PAGELAB_CHECK_SWAP_H

#include "mm.h"

#include <stdbool.h>
#include <stdio.h>

/* Start a walk: forget the slots the last one named. */
void swap_walk_begin(struct swap_area *sw);
void swap_walk_free(struct swap_area *sw);
/* A swap PTE names slot (and counts one reference to it). */
void swap_walk_ref(struct swap_area *sw, uint32_t slot);
/* A frame in the swap cache names slot. */
void swap_walk_cached(struct swap_area *sw, uint32_t slot);
/* The named slots' counts, cache entries and totals; whole: first name
 * every slot in use (a walk of the whole area).  False on a failure,
 * printed to err. */
bool swap_walk_check(struct mm *mm, FILE *err, bool whole);
/* The slots the last walk named (busy or not); returns how many. */
uint32_t swap_walk_slots(const struct swap_area *sw, const uint32_t **slots);

#endif
