/* zram.h - a compressed RAM swap device (--swap zram:SIZE[,algo=...]),
 * after Linux 6.18 drivers/block/zram/zram_drv.c (docs/zram.md). */
#ifndef PAGELAB_ZRAM_H
#define PAGELAB_ZRAM_H

#include "mm.h"
#include "zsmalloc.h"
#include "zsframes.h"
#include "compress_table.h"

#define ZRAM_EMPTY UINT16_MAX

struct zram_slot {
	uint32_t handle;      /* zsmalloc handle, ZS_HANDLE_NONE: none */
	uint16_t size;        /* stored bytes: 0 same-filled, 4096 huge,
			       * ZRAM_EMPTY nothing */
	uint8_t kind, ver;    /* the page's data kind and write version */
};

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
/* zram_read_page(): slot's contents into frame pfn (swap-in). */
void zram_read(struct zram *z, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot);
/* zram_slot_free_notify(): the swap slot is free, its data goes. */
void zram_slot_free(struct zram *z, uint32_t slot);
/* mm_stat's mem_used_total, in bytes. */
static inline uint64_t zram_mem_used(const struct zram *z) { return z->pool.pages * 4096; }

#endif
