/* shrinker.h - do_shrink_slab()'s arithmetic (6.18 mm/shrinker.c), for
 * the shrinkers pagelab models: zswap's (zswap_shrink.c) and zsmalloc's
 * (zs_shrink.c). */
#ifndef PAGELAB_SHRINKER_H
#define PAGELAB_SHRINKER_H

#include <stdbool.h>
#include <stdint.h>

#define SHRINK_BATCH 128
#define DEFAULT_SEEKS 2

/* scan_objects(): up to n objects; false is SHRINK_STOP. */
typedef bool (*shrink_scan_fn)(void *arg, uint64_t n);

/* do_shrink_slab() of a shrinker whose count_objects() gave freeable, at
 * a reclaim priority, with its nr_deferred. */
void do_shrink_slab(uint64_t freeable, int priority, uint64_t *nr_deferred, shrink_scan_fn scan, void *arg);

#endif
