/* zram.h - a compressed RAM swap device (--swap zram:SIZE[,algo=...]),
 * after Linux 6.18 drivers/block/zram/zram_drv.c (docs/zram.md). */
#ifndef PAGELAB_ZRAM_H
#define PAGELAB_ZRAM_H

#include "mm.h"
#include "zsmalloc.h"
#include "zsframes.h"
#include "compress_table.h"

#define ZRAM_EMPTY UINT16_MAX

/* zram_pageflags of a slot (zram_drv.h): ZRAM_IDLE (mark_idle()),
 * ZRAM_PP_SLOT (picked for a writeback in progress), ZRAM_WB (its data
 * is on the backing device, block `handle`) */
#define ZF_IDLE 1
#define ZF_PP 2
#define ZF_WB 4

struct zram_slot {
	uint32_t handle;      /* zsmalloc handle, ZS_HANDLE_NONE: none;
			       * ZF_WB: the backing device's block */
	uint16_t size;        /* stored bytes: 0 same-filled, 4096 huge,
			       * ZRAM_EMPTY nothing (ZF_WB: 0) */
	uint8_t kind, ver;    /* the page's data kind and write version */
	uint8_t flags;        /* ZF_* */
};

struct zram_wb;

/* mm_stat and io_stat (Documentation/admin-guide/blockdev/zram.rst) */
struct zram_stats {
	uint64_t pages_stored, compr_data_size, same_pages, huge_pages,
		 huge_pages_since, mem_used_max, pages_compacted;
	uint64_t failed_reads, failed_writes, invalid_io, notify_free;
	uint64_t num_reads, num_writes;
	/* mm_stat at its fullest (the most pages stored): what `pagelab
	 * kernel` reports of a host device, which it reads every 10 ms
	 * (src/native/zram.c) because the tasks free their slots as they
	 * exit; compare's records carry these for the simulator's side */
	uint64_t full_stored, full_compr, full_mem_used, full_same, full_huge;
};

struct zram {
	struct mm *mm;
	enum zalgo algo;
	unsigned trace_ratio;     /* % for DK_RATIO pages */
	uint64_t comp_ps, decomp_ps;  /* CPU per byte; 0: the table's for the
				       * page's kind (compress_table.h) */
	struct zs_pool pool;
	struct zram_slot *slot;
	uint32_t nr_slots;
	struct zs_frames fr;      /* the pool's pages, taken from free memory */
	uint64_t mem_limit;       /* pages; 0 = none */
	struct zram_stats st;
	struct zram_wb *wb;       /* backing= (zram_wb.c), else NULL */
};

struct zram *zram_create(struct mm *mm, uint32_t nr_slots, enum zalgo algo, unsigned chain,
			 unsigned trace_ratio, uint64_t comp_ps, uint64_t decomp_ps);
void zram_destroy(struct zram *z);
/* Could frame pfn's page be stored now: same-filled, room in a zspage
 * of its class, or free frames for a new zspage of it.  No: counted in
 * io_stat's failed_writes (the write zram would have failed). */
bool zram_can_store(struct zram *z, pfn_t pfn);
/* zram_write_page(): frame pfn's contents into slot (swap-out). */
void zram_write(struct zram *z, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot);
/* zram_read_page(): slot's contents into frame pfn (swap-in); true when
 * done.  False: the slot was written back (ZF_WB), and the page is to be
 * read from the backing device's *block (read_from_bdev(), bd_reads). */
bool zram_read(struct zram *z, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot, uint64_t *block);
/* zram_slot_free_notify(): the swap slot is free, its data goes. */
void zram_slot_free(struct zram *z, uint32_t slot);
/* zram_free_page() without the notify_free count: slot's data goes
 * (from the pool, or its backing block). */
void zram_free_page(struct zram *z, uint32_t slot);
/* The page's decompression into a frame (zram_read_from_zspool()) and
 * the time it costs ctx. */
void zram_decompress_cost(struct zram *z, struct mm_ctx *ctx, const struct zram_slot *s);
/* mm_stat's mem_used_total, in bytes. */
static inline uint64_t zram_mem_used(const struct zram *z) { return z->pool.pages * 4096; }

#endif
