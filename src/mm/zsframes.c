/* zsframes.c - the frames under a zsmalloc pool (zsframes.h).  A new
 * zspage's pages come from the highest zone with room (zs_malloc()'s
 * gfp: __GFP_HIGHMEM | __GFP_MOVABLE), from the reclaiming task, allowed
 * below the watermarks as PF_MEMALLOC is; they are on no LRU. */
#include "zsframes.h"
#include "internal.h"
#include "../lib/util.h"

#include <stdlib.h>

void zs_frames_init(struct mm *mm, struct zs_frames *zf, const char *name)
{
	*zf = (struct zs_frames){ 0 };
	zf->list = lru_register(&mm->fr, name);
	lru_set_kind(&mm->fr, zf->list, LRU_KIND_NONE);
}

void zs_frames_free(struct zs_frames *zf)
{
	free(zf->frames);
	zf->frames = NULL;
}

bool zs_frames_room(const struct mm *mm, const struct zs_pool *pool, unsigned len, uint64_t limit)
{
	const struct zs_class *c = zs_class_of(pool, len);
	if (c->objs < c->zspages * c->objs_per_zspage)
		return true;
	if (limit && pool->pages + c->pages_per_zspage > limit)
		return false;
	return mm->stat.nr_free >= c->pages_per_zspage;
}

void zs_frames_sync(struct mm *mm, struct zs_frames *zf, uint64_t pages)
{
	while (zf->nr < pages) {
		int zone = mm->nr_zones - 1;
		while (zone > 0 && !mm->zones[zone].nr_free)
			zone--;
		pfn_t pfn = take_zone_frame(mm, zone);
		if (pfn == PFN_NONE)
			panic("zsmalloc: no free frame for the pool (its room was checked)");
		if (zf->nr == zf->cap) {
			zf->cap = zf->cap ? 2 * zf->cap : 256;
			zf->frames = xrealloc(zf->frames, zf->cap * sizeof(*zf->frames));
		}
		zf->frames[zf->nr++] = pfn;
		lru_add_head(&mm->fr, zf->list, pfn);
	}
	while (zf->nr > pages) {
		pfn_t pfn = zf->frames[--zf->nr];
		lru_del(&mm->fr, pfn);
		free_frame_uncharged(mm, pfn);
	}
}
