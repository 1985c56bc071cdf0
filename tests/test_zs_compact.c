/* test_zs_compact.c - zsmalloc compaction (src/mm/zsmalloc.c, after
 * 6.18 mm/zsmalloc.c zs_compact(), __zs_compact(), zs_can_compact(),
 * isolate_dst_zspage(), isolate_src_zspage(), migrate_zspage(), and
 * the shrinker zs_shrinker_count() / zs_shrinker_scan() through
 * mm/shrinker.c do_shrink_slab()), by hand on class 112 (100-byte
 * objects: 7-page zspages of 256, test_zsmalloc.c); fullness groups
 * 100 * inuse / 256 / 10 + 1. */
#include "test.h"
#include "../src/mm/zsmalloc.h"
#include "../src/mm/zsframes.h"
#include "../src/mm/zram.h"

static const struct mm_costs zero_costs;

static uint32_t h[768];

/* zspages 0, 1, 2 (h[0..255], h[256..511], h[512..767]) filled, then
 * left with a, b and c objects: the first of each range kept. */
static void three_zspages(struct zs_pool *pool, int a, int b, int c)
{
	zs_create_pool(pool, 8);
	for (int i = 0; i < 768; i++)
		h[i] = zs_malloc(pool, 100);
	for (int i = a; i < 256; i++)
		zs_free(pool, h[i]);
	for (int i = 256 + b; i < 512; i++)
		zs_free(pool, h[i]);
	for (int i = 512 + c; i < 768; i++)
		zs_free(pool, h[i]);
}

/* three_zspages(a, b, c) in 21 pages, then one zs_compact(): it frees
 * the `gain` pages zs_compactable() said it would. */
static void compact_three(struct zs_pool *pool, int a, int b, int c, int gain)
{
	three_zspages(pool, a, b, c);
	CHECK_EQ(pool->pages, 21);
	CHECK_EQ(zs_compactable(pool), gain);
	CHECK_EQ(zs_compact(pool), gain);
	CHECK_EQ(pool->pages, 21 - gain);
}

void test_zs_compact_frees_emptiest(void)
{
	struct zs_pool pool;
	/* 200 (group 8), 100 (group 4), 30 (group 2): 330 objects in 768
	 * slots, (768 - 330) / 256 = 1 zspage's worth wasted: 7 pages.
	 * dst the fullest with room (0), src the emptiest (2): its 30
	 * move, 2 is freed; then (512 - 330) / 256 = 0: done */
	compact_three(&pool, 200, 100, 30, 7);
	CHECK_EQ(pool.pages_compacted, 7);
	CHECK_EQ(zs_compactable(&pool), 0);
	CHECK_EQ(zs_handle_zspage(&pool, h[512]), 0);
	CHECK_EQ(zs_handle_zspage(&pool, h[529]), 0);
	CHECK_EQ(zs_handle_zspage(&pool, h[256]), 1);
	/* a second call finds nothing */
	CHECK_EQ(zs_compact(&pool), 0);
	CHECK_EQ(pool.pages_compacted, 7);
	/* every handle still frees its object: the pool empties */
	for (int i = 0; i < 200; i++)
		zs_free(&pool, h[i]);
	for (int i = 256; i < 356; i++)
		zs_free(&pool, h[i]);
	for (int i = 512; i < 542; i++)
		zs_free(&pool, h[i]);
	CHECK_EQ(pool.pages, 0);
	zs_destroy_pool(&pool);
}

void test_zs_compact_fills_dst_then_next(void)
{
	struct zs_pool pool;
	/* 250 (group 10), 60 (group 3), 10 (group 1): (768 - 320) / 256
	 * = 1 zspage wasted.  1st round: dst 0, src 2; 6 objects fill 0
	 * (the list's head first: h[521] .. h[516]), 2 keeps 4 and is put
	 * back.  2nd: dst 1 (now the fullest with room), src 2: its 4
	 * (h[515] .. h[512]) move, 2 is freed.  Then (512 - 320) / 256 = 0. */
	compact_three(&pool, 250, 60, 10, 7);
	CHECK_EQ(zs_handle_zspage(&pool, h[521]), 0);
	CHECK_EQ(zs_handle_zspage(&pool, h[516]), 0);
	CHECK_EQ(zs_handle_zspage(&pool, h[515]), 1);
	CHECK_EQ(zs_handle_zspage(&pool, h[512]), 1);
	/* zspage 0 is full: a new object goes to 1 (64 of 256) */
	CHECK_EQ(zs_handle_zspage(&pool, zs_malloc(&pool, 100)), 1);
	zs_destroy_pool(&pool);
}

void test_zs_compact_nothing_to_gain(void)
{
	struct zs_pool pool;
	/* 250 + 250 + 20 = 520: (768 - 520) / 256 = 0, though each
	 * zspage has room: compaction moves nothing */
	compact_three(&pool, 250, 250, 20, 0);
	CHECK_EQ(zs_handle_zspage(&pool, h[512]), 2);
	zs_destroy_pool(&pool);
}

/* The shrinker on zram's pool (src/mm/zs_shrink.c, do_shrink_slab()):
 * 45 trace pages of 2048 bytes (2056 with the handle: class 2064, merged
 * into 2176 as both pack 15 objects in 8 pages) in slots 0..44,
 * zspages A, B, C; slots freed to leave A 10, B 10 (B relisted last:
 * the head of group 7), C 5. */
void test_zs_shrinker_compacts_zram(void)
{
	struct mm mm;
	struct mm_config cfg = { .ram_pages = 1024, .swap_pages = 64, .min_free_kbytes = 128, .untimed = true,
				 .seed = 3, .zram = 1 + ZALGO_LZ4, .zram_trace_ratio = 200 };
	mm_init(&mm, &cfg, &zero_costs);
	struct zram *z = mm.swap.zram;
	struct page *p = mm_page(&mm, 1000);
	p->data_kind = DK_RATIO;
	p->owner = 1;
	for (uint32_t s = 0; s < 45; s++) {
		p->index = s;
		zram_write(z, NULL, 1000, s);
	}
	CHECK_EQ(z->pool.pages, 24);
	for (uint32_t s = 0; s < 45; s++)
		if ((s >= 10 && s < 15) || (s >= 25 && s < 30) || s >= 35)
			zram_slot_free(z, s);
	uint64_t free0 = mm.stat.nr_free;
	/* (45 - 25) / 15 = 1 zspage wasted: 8 pages freeable */
	CHECK_EQ(zs_compactable(&z->pool), 8);
	/* priority 12: (8 >> 12) * 4 / 2 = 0 to scan, none deferred */
	zs_shrink_slab(&mm, NULL, 12, false);
	CHECK_EQ(z->st.pages_compacted, 0);
	CHECK_EQ(z->pool.nr_deferred, 0);
	/* cgroup limit reclaim never calls it */
	zs_shrink_slab(&mm, NULL, 0, true);
	CHECK_EQ(z->pool.pages, 24);
	/* priority 0: 8 * 4 / 2 = 16 >= 8 freeable: zs_compact(); dst B,
	 * src C: C's 5 fill B, C is freed; its 8 frames go back */
	zs_shrink_slab(&mm, NULL, 0, false);
	CHECK_EQ(z->st.pages_compacted, 8);
	CHECK_EQ(z->pool.pages, 16);
	CHECK_EQ(mm.stat.nr_free, free0 + 8);
	CHECK_EQ(z->pool.bytes_migrated, 5 * 2176);
	CHECK(mm_check(&mm, stderr));
	mm_destroy(&mm);
}
