/* writeback.c - writing dirty page-cache pages: the 2.6 flusher (pdflush's
 * background_writeout and wb_kupdate, mm/page-writeback.c and
 * fs/fs-writeback.c of 2.6.26), balance_dirty_pages() throttling writers,
 * and fsync().  The other eras' flushers (2.2, 2.4, per-bdi) are in
 * flusher_era.c and use writeback_inodes() from here.
 *
 * Dirty data is tracked per inode (dirtied_when = when its first dirty page
 * was dirtied), and written oldest inode first, each inode's pages in
 * ascending order from where its last writeback stopped (range_cyclic), so
 * that its blocks go to the disk in few large requests.  Thresholds follow
 * get_dirty_limits(): a percentage of the dirtyable memory (free pages plus
 * the pages on the LRU lists).  Simplified: one disk, so the per-bdi limits
 * of 2.6.24+ are the global ones; writers are throttled once per write()
 * call rather than every ratelimit_pages pages; no unmapped_ratio clamp.
 *
 * Also used by the per-bdi era: vm.dirty_bytes / dirty_background_bytes
 * (domain_dirty_limits(), 2.6.29+), and reclaim's wake-up of the flusher
 * (6.18 fs/fs-writeback.c wb_start_writeback(), wb_check_start_all()). */
#include "filemap.h"
#include "internal.h"
#include "inode_index.h"
#include "../lib/util.h"

#include <stdlib.h>

#define MAX_WRITEBACK_PAGES 1024   /* pages per flusher batch (2.6) */

void mm_dirty_limits(const struct mm *mm, uint64_t *background, uint64_t *throttle)
{
	uint64_t dirtyable = mm_dirtyable(mm);
	uint64_t ratio = mm->vm.dirty_ratio, bg = mm->vm.dirty_background_ratio;
	if (ratio < 5)
		ratio = 5;
	if (bg >= ratio)
		bg = ratio / 2;
	*background = dirtyable * bg / 100;
	*throttle = dirtyable * ratio / 100;
	/* domain_dirty_limits() (2.6.29+ vm.dirty_bytes and
	 * vm.dirty_background_bytes): a byte count, when set, replaces
	 * its ratio; a background limit not below the limit is halved. */
	if (mm->vm.dirty_bytes)
		*throttle = (mm->vm.dirty_bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	if (mm->vm.dirty_background_bytes)
		*background = (mm->vm.dirty_background_bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	if ((mm->vm.dirty_bytes || mm->vm.dirty_background_bytes) && *background >= *throttle)
		*background = *throttle / 2;
}

/* page_mkclean() for every page of ino in its shared mappings: the PTE
 * dirty bits move to the pages, so that writeback sees them. */
static void file_mkclean(struct mm *mm, struct inode *ino)
{
	for (uint32_t i = 0; i < ino->nr_maps; i++) {
		struct aspace *as = mm->as[ino->maps[i].as];
		struct vma *v = &as->vmas[ino->maps[i].vma];
		if (!(v->flags & VMA_SHARED) || !v->pte)
			continue;
		for (uint64_t off = 0; off < v->npages; off++) {
			pte_t pte = v->pte[off];
			if (!pte_present(pte) || !(pte & PTE_DIRTY))
				continue;
			v->pte[off] = pte & ~PTE_DIRTY;
			set_page_dirty(mm, pte_pfn(pte));
			charge(mm->cur, mm->cost->rmap_ns);
		}
	}
}

uint64_t filemap_writeback(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, uint64_t max)
{
	struct mm_ctx *saved = mm->cur;
	mm->cur = ctx;
	/* vm.dirty_fault: a dirty PTE means a dirty page already, and each
	 * page written is made clean in its PTEs (file_page_mkclean()). */
	if (!mm->vm.dirty_fault)
		file_mkclean(mm, ino);
	uint64_t done = 0;
	struct io_run run = { 0 }; /* ->writepages: a bio per contiguous run */
	uint64_t words = ino->cap / 64;
	uint64_t start = ino->wb_index < ino->cap ? ino->wb_index : 0;
	/* Cyclic over the dirty bits from wb_index: [start, cap) then [0, start). */
	/* Every dirty page under writeback already: nothing to start. */
	for (int lap = 0; lap < 2 && ino->nrdirty > ino->nrdirty_wb && (!max || done < max); lap++) {
		uint64_t from = lap ? 0 : start, to = lap ? start : ino->cap;
		for (uint64_t w = from / 64; w < words && w * 64 < to && (!max || done < max); w++) {
			uint64_t bits = ino->dirtymap[w] & ~ino->wbmap[w];
			if (w == from / 64)
				bits &= ~0ULL << (from % 64);
			while (bits && (!max || done < max)) {
				uint64_t idx = w * 64 + (uint64_t)__builtin_ctzll(bits);
				bits &= bits - 1;
				if (idx >= to)
					break;
				pfn_t pfn = ino->pages[idx];
				if (mm_page(mm, pfn)->flags & (PG_writeback | PG_locked))
					continue;
				page_writeback(mm, ctx, pfn, &run);
				mm_work(mm, W_WRITEPAGES, 1); /* ext4_writepages(), per folio */
				done++;
				ino->wb_index = idx + 1;
			}
		}
	}
	mm->cur = saved;
	return done;
}

/* 6.14 generic_write_sync() of an IOCB_DONTCACHE write:
 * filemap_fdatawrite_range_kick() over the bytes written, WB_SYNC_NONE
 * (a page under writeback or locked is left for later), one bio per
 * contiguous run. */
void filemap_writeback_range(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, uint64_t first, uint64_t n)
{
	struct mm_ctx *saved = mm->cur;
	mm->cur = ctx;
	struct io_run run = { 0 };
	for (uint64_t idx = first; idx < first + n && idx < ino->cap; idx++) {
		if (!(ino->dirtymap[idx / 64] & ~ino->wbmap[idx / 64] & 1ULL << (idx % 64)))
			continue;
		pfn_t pfn = ino->pages[idx];
		if (mm_page(mm, pfn)->flags & (PG_writeback | PG_locked))
			continue;
		page_writeback(mm, ctx, pfn, &run);
		mm_work(mm, W_WRITEPAGES, 1); /* ext4_writepages(), per folio */
	}
	mm->cur = saved;
}

/* writeback_inodes(): up to `max` pages, oldest inodes first; only inodes
 * dirtied at or before `older_than` (UINT64_MAX: any). */
uint64_t writeback_inodes(struct mm *mm, struct mm_ctx *ctx, uint64_t max, uint64_t older_than,
			  bool background)
{
	uint64_t bg, thr, done = 0;
	mm_dirty_limits(mm, &bg, &thr);
	struct inode_walk w;
	inode_walk_start(&w, mm->fs);
	struct inode *ino;
	while (done < max && (ino = inode_walk_next(&w))) {
		if (background && !mm_over_bg_thresh(mm))
			break;
		if (ino->nrdirty && ino->dirtied_when > older_than)
			continue;
		done += filemap_writeback(mm, ctx, ino, max - done);
	}
	inode_walk_end(&w);
	return done;
}

/* 6.18 fs/fs-writeback.c wb_start_writeback() sets WB_start_all (a
 * request while one is pending is dropped) and wakes the flusher, whose
 * wb_check_start_all() writes get_nr_dirty_pages() pages, counted when it
 * runs, with no background threshold: WB_SYNC_NONE, range_cyclic. */
void mm_wakeup_flusher_threads(struct mm *mm)
{
	if (mm->untimed)
		return; /* trace mode runs no flusher */
	if (!mm->flush_all)
		mm->flush_all = FLUSH_ALL_ASKED;
	mm->wake.flusher = true;
}

/* The start_all work, up to the disk queue's room: true if some is left. */
static bool flush_all_run(struct mm *mm, struct mm_ctx *ctx, uint64_t *done)
{
	if (mm->flush_all == FLUSH_ALL_ASKED)
		mm->flush_all = mm->stat.nr_dirty;
	uint64_t room = mm->stat.nr_writeback < WRITEBACK_CONGESTED ? WRITEBACK_CONGESTED - mm->stat.nr_writeback : 0;
	uint64_t want = mm->flush_all < room ? mm->flush_all : room;
	uint64_t n = want ? writeback_inodes(mm, ctx, want, UINT64_MAX, false) : 0;
	*done += n;
	/* Nothing more to write (the dirty pages went meanwhile): done. */
	mm->flush_all = n < want ? 0 : mm->flush_all - n;
	return mm->flush_all != 0;
}

enum flush_next pdflush_run(struct mm *mm, struct mm_ctx *ctx)
{
	mm->wake.flusher = false;
	if (mm->stat.nr_writeback >= WRITEBACK_CONGESTED)
		return FLUSH_CONGESTED;
	uint64_t all = 0;
	if (mm->flush_all && flush_all_run(mm, ctx, &all)) {
		charge(ctx, all * mm->cost->scan_ns);
		return FLUSH_CONGESTED; /* the queue is full: wait for it */
	}
	uint64_t bg, thr, done = 0;
	mm_dirty_limits(mm, &bg, &thr);
	uint64_t budget = MAX_WRITEBACK_PAGES;
	/* background_writeout(): down to the background threshold (of both
	 * domains: wb_over_bg_thresh(), memcg_dirty.c). */
	if (mm_over_bg_thresh(mm))
		done += writeback_inodes(mm, ctx, budget, UINT64_MAX, true);
	/* wb_kupdate(): everything dirtied longer ago than the expiry. */
	uint64_t now = ctx_now(ctx), expire = mm->vm.dirty_expire_centisecs * 10000000ULL;
	if (done < budget && now >= expire)
		done += writeback_inodes(mm, ctx, budget - done, now - expire, false);
	else if (done < budget && expire == 0)
		done += writeback_inodes(mm, ctx, budget - done, now, false);
	charge(ctx, (done + all) * mm->cost->scan_ns);
	return done >= budget ? FLUSH_CONGESTED : FLUSH_SLEEP;
}

/* sync_writeback_pages(): 1.5 x ratelimit_pages, where ratelimit_pages is
 * memory / 32 (per CPU in the kernel) clamped to [16, 4 MB of pages]. */
static uint64_t write_chunk(const struct mm *mm)
{
	uint64_t r = mm->fr.nr / 32;
	if (r < 16)
		r = 16;
	if (r > (4ULL << 20) / PAGE_SIZE)
		r = (4ULL << 20) / PAGE_SIZE;
	return r + r / 2;
}

bool pdflush_balance_dirty_pages(struct mm *mm, struct mm_ctx *ctx)
{
	uint64_t bg, thr;
	mm_dirty_limits(mm, &bg, &thr);
	if (mm->stat.nr_dirty > bg)
		mm->wake.flusher = true;
	if (mm->stat.nr_dirty + mm->stat.nr_writeback <= thr)
		return false;
	uint64_t chunk = write_chunk(mm);
	uint64_t done = mm->stat.nr_dirty ? writeback_inodes(mm, ctx, chunk, UINT64_MAX, false) : 0;
	mm->ev[NR_DIRTY_THROTTLED]++;
	if (mm->stat.nr_dirty + mm->stat.nr_writeback <= thr || done >= chunk)
		return false;
	return true; /* congestion_wait() */
}

bool filemap_fsync(struct mm *mm, struct mm_ctx *ctx, struct inode *ino)
{
	filemap_writeback(mm, ctx, ino, 0);
	return !ino->nrdirty && !ino->nr_writeback;
}
