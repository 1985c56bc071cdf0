/* test_zsmalloc.c - src/mm/zsmalloc.c's packing, checked by hand against
 * 6.x mm/zsmalloc.c's arithmetic (the comments do the sums). */
#include "test.h"
#include "../src/mm/zsmalloc.h"

void test_zsmalloc_chain_size(void)
{
	/* 112 bytes: waste of 1..8 pages = 64 16 80 32 96 48 0 ...: 7 */
	CHECK_EQ(zs_chain_size(112, 8), 7);
	/* at most 4 pages: 2 (waste 16) */
	CHECK_EQ(zs_chain_size(112, 4), 2);
	CHECK_EQ(zs_chain_size(128, 8), 1);   /* a power of two */
	CHECK_EQ(zs_chain_size(96, 8), 3);    /* 12288 = 128 * 96 */
}

void test_zsmalloc_classes(void)
{
	struct zs_pool pool;
	zs_create_pool(&pool, 8);
	/* 100 + the 8-byte handle = 108: class (108 - 32) / 16 up = 5,
	 * 112 bytes, 7 pages, 7 * 4096 / 112 = 256 objects */
	const struct zs_class *c = zs_class_of(&pool, 100);
	CHECK_EQ(c->size, 112);
	CHECK_EQ(c->pages_per_zspage, 7);
	CHECK_EQ(c->objs_per_zspage, 256);
	/* 24 + 8 = 32: the smallest class, 1 page of 128 */
	CHECK_EQ(zs_class_of(&pool, 24)->size, 32);
	CHECK_EQ(zs_class_of(&pool, 24)->objs_per_zspage, 128);
	/* the first class from the top that is not 1 object in 1 page:
	 * 3632 (8 pages, 9 objects); less ZS_HANDLE_SIZE - 1 */
	CHECK_EQ(pool.huge_class_size, 3625);
	/* 3700 + 8 is in a huge class: merged up to the page-sized one */
	CHECK_EQ(zs_class_of(&pool, 3700)->objs_per_zspage, 1);
	CHECK_EQ(zs_class_of(&pool, 3700)->size, 4096);
	zs_destroy_pool(&pool);
	zs_create_pool(&pool, 4);
	CHECK_EQ(pool.huge_class_size, 3264 - 7);
	CHECK_EQ(zs_class_of(&pool, 100)->pages_per_zspage, 2);
	CHECK_EQ(zs_class_of(&pool, 100)->objs_per_zspage, 73);
	zs_destroy_pool(&pool);
}

void test_zsmalloc_pages(void)
{
	struct zs_pool pool;
	zs_create_pool(&pool, 8);
	static uint32_t h[300];
	/* 257 objects of class 112: two zspages of 7 pages */
	for (int i = 0; i < 257; i++)
		h[i] = zs_malloc(&pool, 100);
	CHECK_EQ(pool.pages, 14);
	/* a page-sized object: a zspage of its own */
	uint32_t big = zs_malloc(&pool, 4096);
	CHECK_EQ(pool.pages, 15);
	/* freeing 255 of the first zspage's 256 frees nothing:
	 * fragmentation, 2 objects in 14 pages */
	for (int i = 0; i < 255; i++)
		zs_free(&pool, h[i]);
	CHECK_EQ(pool.pages, 15);
	/* the next 255 objects fill the holes: still 15 pages */
	for (int i = 0; i < 255; i++)
		h[i] = zs_malloc(&pool, 100);
	CHECK_EQ(pool.pages, 15);
	/* emptying a zspage returns its pages */
	zs_free(&pool, big);
	CHECK_EQ(pool.pages, 14);
	zs_free(&pool, h[256]);
	for (int i = 0; i < 256; i++)
		zs_free(&pool, h[i]);
	CHECK_EQ(pool.pages, 0);
	zs_destroy_pool(&pool);
}

void test_zsmalloc_fullest_first(void)
{
	struct zs_pool pool;
	zs_create_pool(&pool, 8);
	static uint32_t h[512];
	/* two full zspages of class 112: ids 0 (A) and 1 (B) */
	for (int i = 0; i < 512; i++)
		h[i] = zs_malloc(&pool, 100);
	CHECK_EQ(zs_handle_zspage(&pool, h[0]), 0);
	CHECK_EQ(zs_handle_zspage(&pool, h[511]), 1);
	/* B down to 246 of 256 (96%: group 10), then A to 56 (21%:
	 * group 3): the next object goes to B, the fullest, though A
	 * changed group last */
	for (int i = 256; i < 266; i++)
		zs_free(&pool, h[i]);
	for (int i = 0; i < 200; i++)
		zs_free(&pool, h[i]);
	CHECK_EQ(zs_handle_zspage(&pool, zs_malloc(&pool, 100)), 1);
	/* B refilled to full: then A */
	for (int i = 0; i < 9; i++)
		CHECK_EQ(zs_handle_zspage(&pool, zs_malloc(&pool, 100)), 1);
	CHECK_EQ(zs_handle_zspage(&pool, zs_malloc(&pool, 100)), 0);
	CHECK_EQ(pool.pages, 14);
	zs_destroy_pool(&pool);
}
