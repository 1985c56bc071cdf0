/* zram_wb.h - zram's writeback of idle or huge pages to a backing device
 * (--swap zram:SIZE,backing=SIZE,wb=PERIOD...), after Linux 6.18
 * drivers/block/zram/zram_drv.c (docs/zram.md). */
#ifndef PAGELAB_ZRAM_WB_H
#define PAGELAB_ZRAM_WB_H

#include "zram.h"

/* writeback_store()'s modes (IDLE_WRITEBACK, HUGE_WRITEBACK) */
#define ZWB_IDLE 1
#define ZWB_HUGE 2

struct zram_wb_config {
	uint64_t pages;       /* the backing device, in pages (nr_pages) */
	uint64_t period_ns;   /* the writer's period */
	unsigned mode;        /* ZWB_IDLE and/or ZWB_HUGE */
	uint64_t limit;       /* writeback_limit in 4 KiB pages, with
			       * writeback_limit_enable; 0 = not enabled */
	uint64_t age_ns;      /* echo AGE > idle; 0 = echo all > idle */
};

struct zram_wb {
	struct zram_wb_config cfg;
	uint8_t *used;        /* the block bitmap (block 0 never used) */
	uint64_t hint;        /* no free block below it */
	uint64_t *ac_time;    /* per slot: its last access (ac_time) */
	bool limit_enable;
	uint64_t bd_wb_limit;
	/* the writeback in progress: the pp-slots in select_pp_slot()
	 * order, the next to take, a block held for the next write (0:
	 * none), the slot being written (UINT32_MAX: none) */
	uint32_t *pp, nr_pp, next, blk, inflight;
	bool busy;
	/* bd_stat, in pages */
	uint64_t bd_count, bd_reads, bd_writes;
};

/* backing_dev_store() and the writeback_limit files. */
void zram_wb_create(struct zram *z, const struct zram_wb_config *cfg);
void zram_wb_destroy(struct zram *z);
/* zram_accessed(): a write or read of slot at ctx's time clears its
 * ZRAM_IDLE and ZRAM_PP_SLOT and stamps ac_time. */
void zram_accessed(struct zram *z, const struct mm_ctx *ctx, uint32_t slot);
/* read_from_bdev(): bd_reads; the block slot's data is on. */
uint64_t zram_wb_read(struct zram *z, uint32_t slot);
/* free_block_bdev() */
void zram_wb_free_block(struct zram *z, uint32_t blk);
/* mark_idle() at time now: with an age, the slots not accessed for that
 * long (ZRAM_TRACK_ENTRY_ACTIME), else all; never ZRAM_WB or same-filled
 * slots. */
void zram_mark_idle(struct zram *z, uint64_t now);
/* scan_slots_for_writeback() of every slot: the pp-slots in order. */
void zram_wb_scan(struct zram *z);
/* zram_writeback_slots(), one page: false when done (none left, the
 * limit spent, -ENOSPC); true: the page of slot z->wb->inflight is to
 * be written at *block, its decompression charged to ctx. */
bool zram_wb_next(struct zram *z, struct mm_ctx *ctx, uint64_t *block);
/* The write of the inflight slot completed: bd_writes, and the slot
 * becomes ZRAM_WB unless it changed meanwhile. */
void zram_wb_done(struct zram *z);
/* The end of zram_writeback_slots(): pp-slots released, a block held is
 * freed. */
void zram_wb_finish(struct zram *z);

#endif
