/* plug.c - the reclaimer's block plug.  6.18 mm/vmscan.c shrink_lruvec()
 * brackets its loop with blk_start_plug() and blk_finish_plug(), so the
 * swap and file writes pageout() starts during the pass reach the device
 * only when the pass ends (block/blk-core.c blk_finish_plug() ->
 * __blk_flush_plug()), not as each is submitted: a write a pass started
 * cannot have completed, been rotated (folio_rotate_reclaimable()) and
 * been freed within that same pass; the pass after frees it, and a fault
 * in between finds it in the swap cache.  The plug is flushed earlier
 * when full: block/blk-mq.c blk_add_rq_to_plug() flushes it before
 * adding a request once it holds blk_plug_max_rq_count() requests
 * (BLK_MAX_REQUEST_COUNT, 32, one queue) or its last request has reached
 * BLK_PLUG_FLUSH_SIZE (128 KiB).  A bio for the block after the last
 * request's merges into it (blk_attempt_plug_merge() tries the last
 * request only), so a request here is a run of consecutive blocks.
 * A request stops growing at the disk's max_sectors (ll_back_merge_fn(),
 * the machine's max_request).  Left out: the flush when the task sleeps (a pagelab pass does not sleep inside).
 * Untimed runs and zram (a synchronous bdev, its bio done in
 * submit_bio) never reach the plug (page_writeback()). */
#include "internal.h"
#include "plug.h"
#include "../lib/util.h"

#include <stdlib.h>

#define BLK_MAX_REQUEST_COUNT 32
#define BLK_PLUG_FLUSH_PAGES (128 * 1024 / PAGE_SIZE)

bool mm_blk_start_plug(struct mm *mm)
{
	if (mm->plug.on || mm->untimed)
		return false;
	mm->plug.on = true;
	return true;
}

/* __blk_flush_plug(): every held bio goes to the device now. */
static void flush_plug(struct mm *mm, struct mm_ctx *ctx)
{
	struct mm_plug *pl = &mm->plug;
	uint64_t now = ctx_now(ctx);
	for (uint32_t i = 0; i < pl->n; i++) {
		const struct plug_bio *b = &pl->bio[i];
		if (b->file)
			mm->io.submit_block(mm->io.arg, IO_WRITE, b->block, b->pfn, now);
		else
			mm->io.submit_swap(mm->io.arg, IO_WRITE, (uint32_t)b->block, b->pfn, now);
	}
	pl->n = pl->nr_rq = pl->last_len = 0;
}

void mm_blk_finish_plug(struct mm *mm, struct mm_ctx *ctx)
{
	flush_plug(mm, ctx);
	mm->plug.on = false;
}

void mm_plug_add(struct mm *mm, struct mm_ctx *ctx, bool file, uint64_t block, uint32_t pfn)
{
	struct mm_plug *pl = &mm->plug;
	uint32_t max = mm->io.max_request_pages;
	bool merge = pl->nr_rq && block == pl->last_end && (!max || pl->last_len < max);
	if (!merge && pl->nr_rq &&
	    (pl->nr_rq >= BLK_MAX_REQUEST_COUNT || pl->last_len >= BLK_PLUG_FLUSH_PAGES))
		flush_plug(mm, ctx);  /* blk_add_rq_to_plug(): full, flushed first */
	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? 2 * pl->cap : 64;
		pl->bio = xrealloc(pl->bio, pl->cap * sizeof(*pl->bio));
	}
	pl->bio[pl->n++] = (struct plug_bio){ .block = block, .pfn = pfn, .file = file };
	if (merge) {
		pl->last_len++;
	} else {
		pl->nr_rq++;
		pl->last_len = 1;
	}
	pl->last_end = block + 1;
}

void mm_plug_destroy(struct mm *mm)
{
	free(mm->plug.bio);
	mm->plug = (struct mm_plug){ 0 };
}
