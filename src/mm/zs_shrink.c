/* zs_shrink.c - zsmalloc's shrinker, after 6.18 mm/zsmalloc.c
 * zs_shrinker_count() (zs_can_compact() summed over the classes) and
 * zs_shrinker_scan() (zs_compact(), whatever nr_to_scan; SHRINK_STOP
 * when it freed nothing), one per pool: zram's and zswap's.  It is
 * registered without SHRINKER_MEMCG_AWARE, and shrink_slab() of a
 * cgroup other than the root runs only memcg-aware shrinkers
 * (shrink_slab_memcg()): so only reclaim of the root (kswapd, direct
 * reclaim) compacts, never cgroup limit reclaim.  The objects moved are
 * copied (zs_object_copy(): cost.copy_page per page of bytes, charged
 * to the reclaiming task); the freed zspages' frames go back to free
 * memory.  zram's mm_stat pages_compacted counts the pages freed. */
#include "zsframes.h"
#include "internal.h"
#include "shrinker.h"
#include "zram.h"
#include "zswap.h"

struct pool_arg {
	struct mm *mm;
	struct mm_ctx *ctx;
	struct zs_pool *pool;
	struct zs_frames *fr;
};

static bool scan_cb(void *arg, uint64_t n)
{
	(void)n;
	struct pool_arg *a = arg;
	uint64_t bytes = a->pool->bytes_migrated;
	uint64_t freed = zs_compact(a->pool);
	charge(a->ctx, (a->pool->bytes_migrated - bytes) * a->mm->cost->copy_page_ns / PAGE_SIZE);
	zs_frames_sync(a->mm, a->fr, a->pool->pages);
	return freed != 0;
}

static void shrink_pool(struct mm *mm, struct mm_ctx *ctx, int priority, struct zs_pool *pool,
			struct zs_frames *fr)
{
	struct pool_arg a = { mm, ctx, pool, fr };
	do_shrink_slab(zs_compactable(pool), priority, &pool->nr_deferred, scan_cb, &a);
}

void zs_shrink_slab(struct mm *mm, struct mm_ctx *ctx, int priority, bool cgroup)
{
	if (cgroup)
		return;
	struct zram *zr = mm->swap.zram;
	if (zr) {
		shrink_pool(mm, ctx, priority, &zr->pool, &zr->fr);
		zr->st.pages_compacted = zr->pool.pages_compacted;
	}
	if (mm->swap.zswap)
		shrink_pool(mm, ctx, priority, &mm->swap.zswap->pool, &mm->swap.zswap->fr);
}
