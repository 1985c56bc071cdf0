/* zram_wb.c - zram's writeback to a backing device, after Linux 6.18
 * drivers/block/zram/zram_drv.c (CONFIG_ZRAM_WRITEBACK; docs/zram.md).
 *
 * backing_dev_store() gives the device a block device of nr_pages
 * blocks, a bitmap of which alloc_block_bdev() hands out the lowest free
 * from block 1 (block 0 is never used: a handle of 0 means none) and
 * free_block_bdev() takes back; bd_stat counts bd_count (blocks in use),
 * bd_reads and bd_writes, in 4 KiB units.  Here the backing device is a
 * partition at the start of the machine's disk: block b is disk block b
 * (zram swaps to no disk blocks of its own).
 *
 * idle_store() -> mark_idle(): every slot holding a compressed page (not
 * same-filled, not ZRAM_WB) is marked ZRAM_IDLE, or with an age
 * (CONFIG_ZRAM_TRACK_ENTRY_ACTIME) only those whose ac_time is older
 * than now - age, the others cleared.  zram_accessed() clears ZRAM_IDLE
 * and ZRAM_PP_SLOT on every read and write of a slot and stamps ac_time.
 *
 * writeback_store("idle" | "huge" | "huge_idle") ->
 * scan_slots_for_writeback(): each allocated slot, not ZRAM_WB nor
 * ZRAM_SAME, with ZRAM_IDLE and/or ZRAM_HUGE as the mode asks, is
 * place_pp_slot()ed: list_add() at the head of bucket obj_size / 64
 * (PP_BUCKET_SIZE_RANGE; a huge page's size is PAGE_SIZE), and marked
 * ZRAM_PP_SLOT.  zram_writeback_slots() then takes select_pp_slot(): the
 * first of the highest bucket - the largest objects first, within a
 * bucket the last scanned first.  For each: stop if writeback_limit_enable
 * and bd_wb_limit is 0 (-EIO), take a block unless one is held (-ENOSPC
 * stops it), skip a slot that lost ZRAM_PP_SLOT (freed or rewritten:
 * the block stays held for the next), decompress it
 * (zram_read_from_zspool()) into the one page, write it with
 * submit_bio_wait() - one page at a time, synchronously - then
 * bd_writes++, and if the slot is still ZRAM_PP_SLOT: zram_free_page()
 * (its pool memory, its huge_pages count), ZRAM_WB with the block as its
 * handle, pages_stored++ again (orig_data_size keeps it), bd_wb_limit--.
 * A block still held at the end is freed.  A read of a ZRAM_WB slot is
 * read_from_bdev() (bd_reads): a disk read of one page the faulting task
 * waits for (swap_read_folio() on a SWP_SYNCHRONOUS_IO device waits on
 * the chained bio; src/mm/swapin.c).  Not modelled: the one page
 * writeback_store() allocates for the copies, the writeback of one
 * page_index=, recompression's ZRAM_INCOMPRESSIBLE (6.18's
 * "incompressible" mode: nothing here is marked so). */
#include "zram_wb.h"
#include "internal.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define PP_BUCKET_SIZE_RANGE 64
#define NO_SLOT UINT32_MAX

void zram_wb_create(struct zram *z, const struct zram_wb_config *cfg)
{
	struct zram_wb *w = xcalloc(1, sizeof(*w));
	w->cfg = *cfg;
	w->used = xcalloc(cfg->pages ? cfg->pages : 1, 1);
	w->ac_time = xcalloc(z->nr_slots ? z->nr_slots : 1, sizeof(*w->ac_time));
	w->pp = xmalloc((z->nr_slots ? z->nr_slots : 1) * sizeof(*w->pp));
	w->limit_enable = cfg->limit != 0;
	w->bd_wb_limit = cfg->limit;
	w->inflight = NO_SLOT;
	z->wb = w;
}

void zram_wb_destroy(struct zram *z)
{
	struct zram_wb *w = z->wb;
	if (!w)
		return;
	free(w->used);
	free(w->ac_time);
	free(w->pp);
	free(w);
	z->wb = NULL;
}

void zram_accessed(struct zram *z, const struct mm_ctx *ctx, uint32_t slot)
{
	z->slot[slot].flags &= (uint8_t)~(ZF_IDLE | ZF_PP);
	if (z->wb)
		z->wb->ac_time[slot] = ctx ? ctx_now(ctx) : 0;
}

uint64_t zram_wb_read(struct zram *z, uint32_t slot)
{
	z->wb->bd_reads++;
	return z->slot[slot].handle;
}

/* alloc_block_bdev(): the lowest free block from 1; 0 if none */
static uint32_t alloc_block(struct zram_wb *w)
{
	/* every block below the hint is in use: the same block as
	 * find_next_zero_bit() from 1, without walking them */
	for (uint64_t b = w->hint > 1 ? w->hint : 1; b < w->cfg.pages; b++)
		if (!w->used[b]) {
			w->used[b] = 1;
			w->bd_count++;
			w->hint = b + 1;
			return (uint32_t)b;
		}
	w->hint = w->cfg.pages;
	return 0;
}

void zram_wb_free_block(struct zram *z, uint32_t blk)
{
	struct zram_wb *w = z->wb;
	if (!blk || blk >= w->cfg.pages || !w->used[blk])
		panic("zram: block %u of the backing device freed but not in use", blk);
	w->used[blk] = 0;
	w->bd_count--;
	if (blk < w->hint)
		w->hint = blk;
}

/* A slot mark_idle() and the scan look at: a compressed page in the
 * pool (not empty, not same-filled, not written back). */
static bool in_pool(const struct zram_slot *s)
{
	return s->size != ZRAM_EMPTY && s->size && !(s->flags & ZF_WB);
}

void zram_mark_idle(struct zram *z, uint64_t now)
{
	uint64_t age = z->wb->cfg.age_ns;
	for (uint32_t i = 0; i < z->nr_slots; i++) {
		struct zram_slot *s = &z->slot[i];
		if (!in_pool(s))
			continue;
		/* !cutoff || ktime_after(cutoff, ac_time) */
		if (!age || (now > age && now - age > z->wb->ac_time[i]))
			s->flags |= ZF_IDLE;
		else
			s->flags &= (uint8_t)~ZF_IDLE;
	}
}

/* select_pp_slot()'s order: the higher bucket first, then the later
 * place_pp_slot() (list_add() at the head): the higher index. */
static const struct zram *sort_z;
static int pp_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	unsigned bx = sort_z->slot[x].size / PP_BUCKET_SIZE_RANGE, by = sort_z->slot[y].size / PP_BUCKET_SIZE_RANGE;
	if (bx != by)
		return bx > by ? -1 : 1;
	return x > y ? -1 : x < y;
}

void zram_wb_scan(struct zram *z)
{
	struct zram_wb *w = z->wb;
	w->nr_pp = w->next = 0;
	for (uint32_t i = 0; i < z->nr_slots; i++) {
		struct zram_slot *s = &z->slot[i];
		if (!in_pool(s))
			continue;
		if ((w->cfg.mode & ZWB_IDLE) && !(s->flags & ZF_IDLE))
			continue;
		if ((w->cfg.mode & ZWB_HUGE) && s->size != PAGE_SIZE)
			continue;
		s->flags |= ZF_PP;
		w->pp[w->nr_pp++] = i;
	}
	sort_z = z;
	qsort(w->pp, w->nr_pp, sizeof(*w->pp), pp_cmp);
	w->busy = true;
}

bool zram_wb_next(struct zram *z, struct mm_ctx *ctx, uint64_t *block)
{
	struct zram_wb *w = z->wb;
	while (w->next < w->nr_pp) {
		if (w->limit_enable && !w->bd_wb_limit)
			return false;  /* -EIO */
		if (!w->blk && !(w->blk = alloc_block(w)))
			return false;  /* -ENOSPC */
		uint32_t slot = w->pp[w->next++];
		const struct zram_slot *s = &z->slot[slot];
		if (!(s->flags & ZF_PP))
			continue;      /* freed or rewritten since the scan */
		zram_decompress_cost(z, ctx, s);  /* zram_read_from_zspool() */
		w->inflight = slot;
		*block = w->blk;
		return true;
	}
	return false;
}

void zram_wb_done(struct zram *z)
{
	struct zram_wb *w = z->wb;
	uint32_t slot = w->inflight;
	w->inflight = NO_SLOT;
	w->bd_writes++;
	struct zram_slot *s = &z->slot[slot];
	if (s->flags & ZF_PP) {
		struct zram_slot kept = *s;
		zram_free_page(z, slot);
		*s = (struct zram_slot){ .handle = w->blk, .size = 0, .kind = kept.kind, .ver = kept.ver,
					 .flags = ZF_WB };
		w->blk = 0;
		z->st.pages_stored++;
		if (w->limit_enable && w->bd_wb_limit)
			w->bd_wb_limit--;
	}
}

void zram_wb_finish(struct zram *z)
{
	struct zram_wb *w = z->wb;
	for (uint32_t k = w->next; k < w->nr_pp; k++)
		z->slot[w->pp[k]].flags &= (uint8_t)~ZF_PP;  /* release_pp_ctl() */
	if (w->blk)
		zram_wb_free_block(z, w->blk);
	w->blk = 0;
	w->nr_pp = w->next = 0;
	w->busy = false;
}
