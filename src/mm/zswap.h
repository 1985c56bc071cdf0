/* zswap.h - a compressed cache in front of disk swap (--set zswap=1),
 * after Linux 6.12-6.18 mm/zswap.c (docs/zram.md). */
#ifndef PAGELAB_ZSWAP_H
#define PAGELAB_ZSWAP_H

#include "mm.h"
#include "zsmalloc.h"
#include "zsframes.h"
#include "compress_table.h"
#include "cgtree.h"

#define ZSWAP_NONE UINT16_MAX   /* a slot with no entry */
#define ZSWAP_NIL UINT32_MAX    /* the end of an LRU list */
#define ZSWAP_MAX_RETRIES 16    /* MAX_RECLAIM_RETRIES (shrink_worker) */

/* struct zswap_entry, one per swap slot (the kernel's xarray by offset) */
struct zswap_entry {
	uint32_t handle;          /* zsmalloc handle; ZS_HANDLE_NONE: none */
	uint16_t length;          /* compressed bytes, 0 a same-filled value
				   * (zswap.same_filled=1), ZSWAP_NONE: none */
	uint8_t kind, ver;        /* the page's data kind and write version */
	uint8_t referenced;       /* the second chance (shrink_memcg_cb) */
	uint16_t cg;              /* the memcg (objcg) it is charged to */
	uint32_t prev, next;      /* its memcg's zswap LRU, by slot */
};

/* One memcg's list_lru of entries (zswap_list_lru, per memcg) and its
 * lruvec's zswap_lruvec_state. */
struct zswap_lru {
	uint32_t head, tail;      /* head: the oldest, walked first */
	uint64_t nr;              /* entries on it */
	uint64_t nr_disk_swapins; /* swap-ins that missed zswap */
	uint64_t bytes, stored;   /* MEMCG_ZSWAP_B, MEMCG_ZSWAPPED */
	uint64_t nr_deferred;     /* the shrinker's work left over */
};

/* debugfs /sys/kernel/debug/zswap and the vmstat events */
struct zswap_stats {
	uint64_t zswpin, zswpout, zswpwb;
	uint64_t pool_limit_hit, reject_compress_poor, reject_alloc_fail,
		 reject_reclaim_fail, written_back_pages, same_filled_pages,
		 stored_pages, pool_pages_max, reject_zswap_max;
};

struct zswap_config {
	unsigned max_pool_percent, accept_thr_percent;
	bool shrinker, same_filled;
	enum zalgo algo;
	unsigned chain, trace_ratio;
	uint64_t comp_ps, decomp_ps;
};

struct zswap {
	struct mm *mm;
	struct zswap_config cfg;
	struct zs_pool pool;
	struct zs_frames fr;      /* the pool's pages */
	int wb_list;              /* frames a writeback is writing */
	struct zswap_entry *e;
	uint32_t nr_slots;
	struct zswap_lru *lru;    /* by memcg id (0 without --cgroup) */
	int nr_cg, next_shrink;   /* shrink_worker's round-robin cursor */
	bool reached_full;        /* zswap_pool_reached_full */
	uint64_t total_pages;     /* totalram_pages() */
	uint64_t memcg_pages;     /* --memcg: the bytes charged, in pages */
	/* --cgroup: each cgroup's own compressed bytes charged, in pages
	 * (to it and its ancestors' memory.current) */
	uint64_t cg_pages[CG_MAX + 1];
	struct zswap_stats st;
};

struct zswap *zswap_create(struct mm *mm, uint32_t nr_slots, int nr_cg, const struct zswap_config *cfg);
void zswap_destroy(struct zswap *z);
/* zswap_store(): true if frame pfn's page (in the swap cache at slot) is
 * now held compressed and needs no disk write. */
bool zswap_store(struct zswap *z, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot);
/* Does slot's data sit in zswap (a read of it is zswap_load()'s)? */
static inline bool zswap_has(const struct zswap *z, uint32_t slot) { return z->e[slot].length != ZSWAP_NONE; }
/* zswap_load(): slot's data into frame pfn, the entry dropped. */
void zswap_load(struct zswap *z, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot);
/* zswap_invalidate(): the swap slot is free. */
void zswap_invalidate(struct zswap *z, uint32_t slot);
/* zswap_folio_swapin(): a read of the page's memcg from disk. */
void zswap_disk_swapin(struct zswap *z, int cg);
/* The end of a writeback's disk write: true if pfn was its frame. */
bool zswap_wb_done(struct zswap *z, pfn_t pfn);
/* zswap_total_pages() */
static inline uint64_t zswap_pool_pages(const struct zswap *z) { return z->pool.pages; }

/* zswap_shrink.c: the LRU, the shrinker and the writeback */
void zswap_lru_add(struct zswap *z, uint32_t slot);
void zswap_lru_del(struct zswap *z, uint32_t slot);
/* zswap_shrinker_count() of memcg cg */
uint64_t zswap_shrinker_count(struct zswap *z, int cg);
/* zswap_shrinker_scan(): walk up to nr_to_scan entries of cg's LRU from
 * its head; the entries written back. */
uint64_t zswap_shrinker_scan(struct zswap *z, struct mm_ctx *ctx, int cg, uint64_t nr_to_scan);
/* do_shrink_slab() for the zswap shrinker at a reclaim priority, every
 * memcg (zswap.shrinker=1; off by default as in the kernel). */
void zswap_shrink_slab(struct zswap *z, struct mm_ctx *ctx, int priority);
/* shrink_worker(): write back until the pool is under the threshold. */
void zswap_shrink_worker(struct zswap *z, struct mm_ctx *ctx);
/* shrink_memcg(): write back one entry of cg's LRU; 0 written, 1 not,
 * -1 none there */
int zswap_shrink_memcg(struct zswap *z, struct mm_ctx *ctx, int cg);
/* mem_cgroup_zswap_writeback_enabled() (6.18 mm/memcontrol.c): false if
 * cgroup cg or an ancestor has memory.zswap.writeback 0. */
bool zswap_writeback_enabled(const struct zswap *z, int cg);
/* Free the entry at slot and its pool memory (zswap_entry_free()). */
void zswap_entry_free(struct zswap *z, uint32_t slot);

#endif
