/* zsframes.h - the machine frames a zsmalloc pool holds (zram's and
 * zswap's): taken from free memory as the pool grows, given back as it
 * shrinks (6.x mm/zsmalloc.c alloc_zspage() / __free_zspage()). */
#ifndef PAGELAB_ZSFRAMES_H
#define PAGELAB_ZSFRAMES_H

#include "mm.h"
#include "zsmalloc.h"

struct zs_frames {
	pfn_t *frames;
	int list;                 /* the frame list they are on: no LRU */
	uint64_t nr, cap;
};

/* The pool's own frame list, named `name` (zsmalloc, zswap). */
void zs_frames_init(struct mm *mm, struct zs_frames *zf, const char *name);
void zs_frames_free(struct zs_frames *zf);
/* Could an object of len bytes (huge-rounded) be stored: room in a
 * zspage of its class, or free frames (and the pool under limit pages,
 * 0 = none) for a new zspage. */
bool zs_frames_room(const struct mm *mm, const struct zs_pool *pool, unsigned len, uint64_t limit);
/* Hold as many frames as the pool has pages; frames given back are
 * nobody's memcg charge (free_frame() would uncharge them). */
void zs_frames_sync(struct mm *mm, struct zs_frames *zf, uint64_t pages);

/* zsmalloc's shrinker (zs_shrink.c) at a reclaim pass's priority: in
 * reclaim of the root only (cgroup false), zs_compact() of zram's and
 * zswap's pools, their freed pages given back. */
void zs_shrink_slab(struct mm *mm, struct mm_ctx *ctx, int priority, bool cgroup);

#endif
