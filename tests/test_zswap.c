/* test_zswap.c - src/mm/zswap*.c by hand: which entries the shrinker
 * writes back first (the oldest, after the referenced second chance),
 * zswap_shrinker_count()'s arithmetic, the pool limit's hysteresis and
 * the rejection of pages that do not compress. */
#include "test.h"
#include "../src/mm/zswap.h"
#include "../src/lib/util.h"

#include <string.h>

#define CHECK_STR(a, b) do { const char *_s = (a); if (strcmp(_s, (b))) { \
	fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, _s, (b)); \
	test_failures++; } } while (0)

static const struct mm_costs zero_costs;

/* 1024 frames, 64 disk slots, untimed (a write completes at once);
 * zswap with a trace's pages at `ratio` % (200: 2048 bytes each). */
static struct zswap *setup(struct mm *mm, unsigned ratio, unsigned max_pct, unsigned accept_pct)
{
	struct mm_config cfg = { .ram_pages = 1024, .swap_pages = 64, .min_free_kbytes = 128,
				 .untimed = true, .seed = 3 };
	mm_init(mm, &cfg, &zero_costs);
	struct zswap_config zc = { .max_pool_percent = max_pct, .accept_thr_percent = accept_pct,
				   .shrinker = true, .algo = ZALGO_LZ4, .chain = 8, .trace_ratio = ratio };
	mm->swap.zswap = zswap_create(mm, 64, 1, &zc);
	return mm->swap.zswap;
}

/* Store slot's page: frame 1000's fields stand for it (only read). */
static bool store(struct mm *mm, uint32_t slot, unsigned kind)
{
	struct page *p = mm_page(mm, 1000);
	p->data_kind = (uint8_t)kind;
	p->owner = 1;
	p->index = slot;
	return zswap_store(mm->swap.zswap, NULL, 1000, slot);
}

/* The slots on the LRU, head (oldest) first, as digits. */
static const char *lru(const struct zswap *z)
{
	static char buf[70];
	size_t n = 0;
	for (uint32_t s = z->lru[0].head; s != ZSWAP_NIL && n < 64; s = z->e[s].next)
		buf[n++] = (char)('0' + s);
	buf[n] = 0;
	return buf;
}

void test_zswap_shrinker_order(void)
{
	struct mm mm;
	struct zswap *z = setup(&mm, 200, 20, 90);
	for (uint32_t s = 0; s < 4; s++)
		CHECK(store(&mm, s, DK_RATIO));
	CHECK_STR(lru(z), "0123");
	/* every entry is stored referenced: a walk of 4 only clears the
	 * bits and rotates each to the tail, writing nothing (SHRINK_STOP) */
	CHECK_EQ(zswap_shrinker_scan(z, NULL, 0, 4), 0);
	CHECK_STR(lru(z), "0123");
	CHECK_EQ(z->st.zswpwb, 0);
	CHECK(store(&mm, 4, DK_RATIO));   /* new: referenced */
	/* a walk of 3 from the head: 0 and 1 are written back, 2 too */
	CHECK_EQ(zswap_shrinker_scan(z, NULL, 0, 3), 3);
	CHECK_STR(lru(z), "34");
	CHECK_EQ(z->st.zswpwb, 3);
	CHECK_EQ(mm.ev[PSWPOUT], 3);
	CHECK(!zswap_has(z, 0) && !zswap_has(z, 2) && zswap_has(z, 3));
	/* 3 goes, 4 gets its second chance: rotated, its bit cleared */
	CHECK_EQ(zswap_shrinker_scan(z, NULL, 0, 2), 1);
	CHECK_STR(lru(z), "4");
	CHECK_EQ(z->e[4].referenced, 0);
	CHECK_EQ(zswap_shrinker_scan(z, NULL, 0, 1), 1);
	CHECK_STR(lru(z), "");
	CHECK_EQ(z->st.stored_pages, 0);
	/* every writeback's frame was freed when its write completed */
	CHECK_EQ(mm.stat.nr_writeback, 0);
	CHECK_EQ(z->pool.pages, 0);
	mm_destroy(&mm);
}

void test_zswap_shrinker_count(void)
{
	struct mm mm;
	struct zswap *z = setup(&mm, 200, 20, 90);
	for (uint32_t s = 0; s < 5; s++)
		CHECK(store(&mm, s, DK_RATIO));
	/* 5 entries of 2048 bytes: 10240 bytes back 2 pages;
	 * mult_frac(5, 2, 5) = 2 */
	CHECK_EQ(z->lru[0].bytes, 10240);
	CHECK_EQ(zswap_shrinker_count(z, 0), 2);
	/* 3 disk swap-ins since: freeable 5 - 3 = 2, 2 * 2 / 5 = 0, and
	 * the swap-ins are consumed */
	zswap_disk_swapin(z, 0);
	zswap_disk_swapin(z, 0);
	zswap_disk_swapin(z, 0);
	CHECK_EQ(zswap_shrinker_count(z, 0), 0);
	CHECK_EQ(z->lru[0].nr_disk_swapins, 0);
	CHECK_EQ(zswap_shrinker_count(z, 0), 2);
	/* more swap-ins than entries: the rest carries over */
	for (int i = 0; i < 7; i++)
		zswap_disk_swapin(z, 0);
	CHECK_EQ(zswap_shrinker_count(z, 0), 0);
	CHECK_EQ(z->lru[0].nr_disk_swapins, 2);
	mm_destroy(&mm);
}

void test_zswap_rejects_incompressible(void)
{
	struct mm mm;
	struct zswap *z = setup(&mm, 200, 20, 90);
	/* qsbench's ints: 4114 bytes with lz4, not below a page */
	CHECK(!store(&mm, 0, DK_INTS));
	CHECK_EQ(z->st.reject_compress_poor, 1);
	CHECK(!zswap_has(z, 0));
	/* a trace's page at 100%: exactly a page, refused too */
	z->cfg.trace_ratio = 100;
	CHECK(!store(&mm, 1, DK_RATIO));
	CHECK_EQ(z->st.reject_compress_poor, 2);
	/* usemem's same-filled page: 6.12+ compresses it (26 bytes) */
	CHECK(store(&mm, 2, DK_SAME));
	CHECK_EQ(z->lru[0].bytes, compress_table[DK_SAME][ZALGO_LZ4].q[0]);
	CHECK_EQ(z->st.zswpout, 1);
	mm_destroy(&mm);
}

void test_zswap_limit_hysteresis(void)
{
	struct mm mm;
	/* 1024 frames: the pool's limit is 1% = 10 pages, accepting again
	 * at or below 50% of it = 5.  Pages of 4096 * 100 / 150 = 2730
	 * bytes: + 8 (handle) = 2738, class 2752 merged into 2864's: 7
	 * pages per zspage (28672 / 2864 = 10 objects, 1032 bytes wasted,
	 * the least of 1..8 pages) */
	struct zswap *z = setup(&mm, 150, 1, 50);
	z->cfg.shrinker = false;
	CHECK_EQ(zs_class_of(&z->pool, 2730)->pages_per_zspage, 7);
	CHECK_EQ(zs_class_of(&z->pool, 2730)->objs_per_zspage, 10);
	uint32_t s = 0;
	while (s < 20 && store(&mm, s, DK_RATIO))
		s++;
	/* entries 0-9 fill zspage A (7 pages), 10 opens B: 14 pages >= 10,
	 * so store 11 is refused (pool_limit_hit) and shrink_worker runs:
	 * all 11 entries are still referenced, so it rotates each once (11
	 * failed attempts, under 16), then writes back 0..9 (A empties: 7
	 * pages, still above 5) and 10 (0 pages) */
	CHECK_EQ(s, 11);
	CHECK_EQ(z->st.pool_limit_hit, 1);
	CHECK_EQ(z->st.zswpwb, 11);
	CHECK_EQ(z->st.reject_reclaim_fail, 0);
	CHECK_EQ(zswap_pool_pages(z), 0);
	CHECK(z->reached_full);
	/* the next store finds 0 <= 5 pages: accepting again */
	CHECK(store(&mm, 30, DK_RATIO));
	CHECK(!z->reached_full);
	/* hysteresis: 7 pages, under the limit of 10 but above 5, with the
	 * pool marked full, is refused all the same */
	for (uint32_t t = 31; t < 40; t++)
		CHECK(store(&mm, t, DK_RATIO));
	CHECK_EQ(zswap_pool_pages(z), 7);
	z->reached_full = true;
	CHECK(!store(&mm, 40, DK_RATIO));
	CHECK_EQ(z->st.pool_limit_hit, 1);
	mm_destroy(&mm);
}
