/* test_zram.c - the zram device in the mm core (src/mm/zram.c): stores
 * what it swaps out, from the pool's own frames and nobody's memcg
 * charge, and gives a slot back when its page is read (no swap cache,
 * no readahead). */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/mm/zram.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

static const struct mm_costs zero_costs;

/* 4096 frames (128 below the min watermark), 8192 zram slots (lz4), FIFO; one process writes n pages of
 * `kind`.  With memcg_pages, in a cgroup of that many pages. */
static struct aspace *setup(struct mm *mm, enum data_kind kind, uint64_t n, uint64_t memcg_pages)
{
	/* watermarks kept: the pool's pages come from below them */
	struct mm_config cfg = { .ram_pages = 4096, .swap_pages = 8192, .min_free_kbytes = 512,
				 .untimed = true, .zram = 1 + ZALGO_LZ4, .seed = 7 };
	mm_init(mm, &cfg, &zero_costs);
	if (memcg_pages)
		mm_memcg_init(mm, memcg_pages, false);
	mm_set_policy(mm, policy_find("fifo"), NULL);
	struct aspace *as = mm_aspace_new(mm, 0);
	uint32_t v = mm_mmap_anon(mm, as, n, (uint32_t)kind << VMA_KIND_SHIFT);
	struct mm_ctx ctx = { .task = 0, .wait_pfn = PFN_NONE };
	enum fault_status st;
	CHECK_EQ(mm_touch(mm, &ctx, as, v, 0, n, 1, TOUCH_WRITE, UINT64_MAX, &st), n);
	CHECK_EQ(st, FAULT_DONE);
	return as;
}

static bool check_passes(struct mm *mm)
{
	FILE *f = tmpfile();
	bool ok = mm_check(mm, f);
	fclose(f);
	return ok;
}

void test_zram_stores_text(void)
{
	struct mm mm;
	struct aspace *as = setup(&mm, DK_TEXT, 6000, 0);
	const struct zram *z = mm.swap.zram;
	const struct compress_row *r = &compress_table[DK_TEXT][ZALGO_LZ4];
	CHECK(as->swapents > 0);
	CHECK_EQ(z->st.pages_stored, as->swapents);
	CHECK_EQ(z->st.same_pages, 0);
	CHECK(z->st.compr_data_size >= as->swapents * r->q[0]);
	CHECK(z->st.compr_data_size <= as->swapents * r->q[COMPRESS_NQ - 1]);
	/* the pool's pages hold at least the bytes, and are frames taken
	 * from the 4096: resident + pool + free = 64 (untimed: no write is
	 * left in flight) */
	CHECK(z->pool.pages * PAGE_SIZE >= z->st.compr_data_size);
	CHECK_EQ(as->rss + z->pool.pages + mm.stat.nr_free, 4096);
	CHECK(check_passes(&mm));
	/* reading every page back: each slot freed with its zram copy,
	 * nothing left in the swap cache, no readahead */
	struct mm_ctx ctx = { .task = 0, .wait_pfn = PFN_NONE };
	enum fault_status st;
	uint64_t out = z->st.pages_stored;
	CHECK_EQ(mm_touch(&mm, &ctx, as, 0, 0, 8, 1, TOUCH_READ, UINT64_MAX, &st), 8);
	CHECK(mm.ev[PSWPIN] > 0);
	CHECK_EQ(mm.ev[SWAP_RA], 0);
	CHECK_EQ(mm.swap.nr_cached, 0);
	CHECK_EQ(z->st.notify_free, mm.ev[PSWPIN]);
	CHECK(z->st.pages_stored < out + mm.ev[PSWPOUT]);
	CHECK(check_passes(&mm));
	mm_destroy(&mm);
}

void test_zram_same_filled_no_pool(void)
{
	struct mm mm;
	struct aspace *as = setup(&mm, DK_SAME, 6000, 0);
	const struct zram *z = mm.swap.zram;
	CHECK(as->swapents > 0);
	CHECK_EQ(z->st.same_pages, as->swapents);
	CHECK_EQ(z->st.compr_data_size, 0);
	CHECK_EQ(z->pool.pages, 0);
	CHECK_EQ(z->st.mem_used_max, 0);
	mm_destroy(&mm);
}

void test_zram_pool_not_memcg_charged(void)
{
	struct mm mm;
	/* 2000 pages in a cgroup of 1024: what is swapped out goes to the
	 * pool, a page each (the machine's frames hold both; 5000 would
	 * not: the pool would outgrow RAM, and the cgroup be OOM-killed as
	 * a real one would be) */
	struct aspace *as = setup(&mm, DK_RANDOM, 2000, 1024);
	const struct zram *z = mm.swap.zram;
	/* incompressible: every stored page huge, a pool page each */
	CHECK_EQ(z->st.huge_pages, as->swapents);
	CHECK_EQ(z->st.failed_writes, 0);
	CHECK_EQ(z->pool.pages, as->swapents);
	/* the cgroup holds its resident pages alone */
	CHECK_EQ(mm.memcg.charged, as->rss);
	CHECK_EQ(as->swapents + as->rss, 2000);
	CHECK(check_passes(&mm));
	mm_destroy(&mm);
}

void test_zram_pool_from_highest_zone(void)
{
	struct mm mm;
	struct mm_config cfg = { .ram_pages = 64, .swap_pages = 64, .no_watermarks = true,
				 .untimed = true, .zram = 1 + ZALGO_LZ4 };
	mm_init(&mm, &cfg, &zero_costs);
	static const uint64_t pages[] = { 16, 48 };
	static const char *const names[] = { "DMA", "Normal" };
	mm_setup_zones(&mm, 2, pages, names);
	mm_set_policy(&mm, policy_find("fifo"), NULL);
	/* a page stored by hand: its pool page comes from Normal */
	struct zram *z = mm.swap.zram;
	uint64_t dma_free = mm.zones[0].nr_free, normal_free = mm.zones[1].nr_free;
	enum fault_status st;
	pfn_t pfn = mm_alloc_page(&mm, NULL, &st);
	struct page *p = mm_page(&mm, pfn);
	p->flags = PG_anon;
	p->owner = 1;
	p->data_kind = DK_RANDOM;
	uint64_t after_alloc_dma = mm.zones[0].nr_free;
	zram_write(z, NULL, pfn, 0);
	CHECK_EQ(z->pool.pages, 1);
	CHECK_EQ(mm.zones[0].nr_free, after_alloc_dma);
	CHECK(mm.zones[1].nr_free + (dma_free - after_alloc_dma) == normal_free - 2);
	zram_slot_free(z, 0);
	CHECK_EQ(z->pool.pages, 0);
	mm_destroy(&mm);
}

void test_zram_refused_write_keeps_page(void)
{
	/* 256 frames: the first text objects of each size class take a
	 * zspage of up to 8 pages apiece, and the pool runs out of frames
	 * below the watermark: a write it cannot store is refused (the
	 * page stays resident, io_stat.failed_writes counts it) and the
	 * task ends in the OOM path, not in a lost page */
	struct mm mm;
	struct mm_config cfg = { .ram_pages = 256, .swap_pages = 512, .min_free_kbytes = 128,
				 .untimed = true, .zram = 1 + ZALGO_LZ4, .seed = 7 };
	mm_init(&mm, &cfg, &zero_costs);
	mm_set_policy(&mm, policy_find("fifo"), NULL);
	struct aspace *as = mm_aspace_new(&mm, 0);
	uint32_t v = mm_mmap_anon(&mm, as, 1000, (uint32_t)DK_TEXT << VMA_KIND_SHIFT);
	struct mm_ctx ctx = { .task = 0, .wait_pfn = PFN_NONE };
	enum fault_status st;
	CHECK(mm_touch(&mm, &ctx, as, v, 0, 1000, 1, TOUCH_WRITE, UINT64_MAX, &st) < 1000);
	CHECK_EQ(st, FAULT_OOM);
	CHECK(mm.swap.zram->st.failed_writes > 0);
	CHECK_EQ(mm.swap.zram->st.pages_stored, as->swapents);
	CHECK(check_passes(&mm));
	mm_destroy(&mm);
}
