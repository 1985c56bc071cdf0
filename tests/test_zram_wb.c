/* test_zram_wb.c - zram's writeback to a backing device by hand (6.18
 * drivers/block/zram/zram_drv.c: mark_idle(), scan_slots_for_writeback(),
 * select_pp_slot()'s largest-first order, zram_writeback_slots(),
 * writeback_limit, alloc_block_bdev()/free_block_bdev(), read_from_bdev()
 * and bd_stat; src/mm/zram_wb.c). */
#include "test.h"
#include "../src/mm/zram_wb.h"
#include "../src/lib/util.h"

static const struct mm_costs zero_costs;

/* 1024 frames, a zram device of 64 slots (ps per byte 1: a page's
 * compression costs 4 ns), its backing device of `pages` blocks; a
 * trace's pages compress to 2048 bytes (ratio 200). */
static struct zram *setup(struct mm *mm, uint64_t pages, unsigned mode, uint64_t limit, uint64_t age)
{
	struct mm_config cfg = { .ram_pages = 1024, .swap_pages = 64, .min_free_kbytes = 128,
				 .untimed = true, .seed = 3, .zram = 1, .zram_trace_ratio = 200,
				 .zram_comp_ps = 1, .zram_decomp_ps = 1, .zram_wb_pages = pages,
				 .zram_wb_period_ns = 1000000000, .zram_wb_mode = mode, .zram_wb_limit = limit,
				 .zram_wb_age_ns = age };
	mm_init(mm, &cfg, &zero_costs);
	return mm->swap.zram;
}

/* Write slot's page of data kind `kind` at time `at` (frame 1000 stands
 * for it). */
static void put(struct mm *mm, uint32_t slot, unsigned kind, uint64_t at)
{
	struct page *p = mm_page(mm, 1000);
	p->owner = 1, p->index = slot, p->data_kind = (uint8_t)kind;
	struct mm_ctx ctx = { .t0 = at };
	zram_write(mm->swap.zram, &ctx, 1000, slot);
}

/* One write of the writeback: its slot, at block *blk. */
static uint32_t step(struct zram *z, uint64_t *blk)
{
	struct mm_ctx ctx = { 0 };
	return zram_wb_next(z, &ctx, blk) ? z->wb->inflight : UINT32_MAX;
}

#define SEC 1000000000ULL

void test_zram_wb_idle_order_and_counts(void)
{
	struct mm mm;
	struct zram *z = setup(&mm, 16, ZWB_IDLE, 0, 0);
	put(&mm, 0, DK_RATIO, 0);    /* 2048 bytes: bucket 32 */
	put(&mm, 1, DK_RANDOM, 0);   /* huge: PAGE_SIZE, bucket 64 */
	put(&mm, 2, DK_SAME, 0);     /* same-filled: never idle, never written */
	put(&mm, 3, DK_RATIO, 0);
	put(&mm, 4, DK_RANDOM, 0);
	CHECK_EQ(z->st.huge_pages, 2);
	CHECK_EQ(z->st.compr_data_size, 2 * 2048 + 2 * 4096);
	zram_mark_idle(z, 1 * SEC);  /* echo all > idle */
	CHECK_EQ(z->slot[2].flags, 0);
	put(&mm, 3, DK_RATIO, 2 * SEC);  /* written again: not idle */
	zram_wb_scan(z);
	/* the idle slots 0, 1, 4; huge first, the last scanned first */
	CHECK_EQ(z->wb->nr_pp, 3);
	uint64_t blk;
	CHECK_EQ(step(z, &blk), 4);
	CHECK_EQ(blk, 1);            /* block 0 is never used */
	zram_wb_done(z);
	CHECK_EQ(z->slot[4].flags, ZF_WB);
	CHECK_EQ(z->slot[4].handle, 1);
	CHECK_EQ(step(z, &blk), 1);
	CHECK_EQ(blk, 2);
	zram_slot_free(z, 1);        /* freed while its write is in flight */
	zram_wb_done(z);             /* written, but the slot is gone */
	CHECK_EQ(z->wb->blk, 2);     /* the block is kept for the next */
	CHECK_EQ(step(z, &blk), 0);
	CHECK_EQ(blk, 2);
	zram_wb_done(z);
	CHECK_EQ(step(z, &blk), UINT32_MAX);
	zram_wb_finish(z);
	CHECK_EQ(z->wb->bd_writes, 3);
	CHECK_EQ(z->wb->bd_count, 2);
	/* orig_data_size keeps the written-back pages: 0, 2, 3, 4 */
	CHECK_EQ(z->st.pages_stored, 4);
	CHECK_EQ(z->st.huge_pages, 0);
	CHECK_EQ(z->st.compr_data_size, 2048);  /* slot 3's */
	CHECK_EQ(z->st.same_pages, 1);
	/* a read of slot 4 is one from block 1: bd_reads */
	CHECK(!zram_read(z, NULL, 1000, 4, &blk));
	CHECK_EQ(blk, 1);
	CHECK_EQ(z->wb->bd_reads, 1);
	zram_slot_free(z, 4);
	CHECK_EQ(z->wb->bd_count, 1);
	CHECK_EQ(z->st.pages_stored, 3);
	/* block 1 is free again: the lowest, taken next */
	put(&mm, 5, DK_RANDOM, 3 * SEC);
	zram_mark_idle(z, 4 * SEC);
	zram_wb_scan(z);
	CHECK_EQ(step(z, &blk), 5);
	CHECK_EQ(blk, 1);
	mm_destroy(&mm);
}

void test_zram_wb_limit_and_nospc(void)
{
	struct mm mm;
	/* huge mode, writeback_limit 1: the first page spends it (-EIO) */
	struct zram *z = setup(&mm, 16, ZWB_HUGE, 1, 0);
	put(&mm, 0, DK_RANDOM, 0);
	put(&mm, 1, DK_RANDOM, 0);
	put(&mm, 2, DK_RATIO, 0);    /* not huge */
	zram_wb_scan(z);             /* no idle marking needed */
	uint64_t blk;
	CHECK_EQ(step(z, &blk), 1);
	zram_wb_done(z);
	CHECK_EQ(z->wb->bd_wb_limit, 0);
	CHECK_EQ(step(z, &blk), UINT32_MAX);
	zram_wb_finish(z);
	CHECK_EQ(z->slot[0].flags, 0);  /* its ZRAM_PP_SLOT released */
	CHECK_EQ(z->wb->bd_writes, 1);
	CHECK_EQ(z->wb->bd_count, 1);
	mm_destroy(&mm);
	/* a backing device of 2 blocks has one to give: -ENOSPC after it */
	z = setup(&mm, 2, ZWB_HUGE, 0, 0);
	put(&mm, 0, DK_RANDOM, 0);
	put(&mm, 1, DK_RANDOM, 0);
	zram_wb_scan(z);
	CHECK_EQ(step(z, &blk), 1);
	zram_wb_done(z);
	CHECK_EQ(step(z, &blk), UINT32_MAX);
	zram_wb_finish(z);
	CHECK_EQ(z->wb->bd_writes, 1);
	CHECK_EQ(z->slot[0].flags, 0);
	mm_destroy(&mm);
}

void test_zram_wb_idle_age(void)
{
	struct mm mm;
	/* echo 1 > idle at 2 s: only what was last accessed before 1 s */
	struct zram *z = setup(&mm, 16, ZWB_IDLE, 0, 1 * SEC);
	put(&mm, 0, DK_RATIO, 0);
	put(&mm, 1, DK_RATIO, 3 * SEC / 2);
	zram_mark_idle(z, 2 * SEC);
	CHECK_EQ(z->slot[0].flags, ZF_IDLE);
	CHECK_EQ(z->slot[1].flags, 0);
	/* at 3 s the cutoff is 2 s: slot 1 (1.5 s) is idle now; slot 0,
	 * written again at 2.5 s, is not (mark_idle() clears it) */
	put(&mm, 0, DK_RATIO, 5 * SEC / 2);
	zram_mark_idle(z, 3 * SEC);
	CHECK_EQ(z->slot[0].flags, 0);
	CHECK_EQ(z->slot[1].flags, ZF_IDLE);
	mm_destroy(&mm);
}
