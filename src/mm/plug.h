/* plug.h - the reclaimer's block plug (plug.c). */
#ifndef PAGELAB_MM_PLUG_H
#define PAGELAB_MM_PLUG_H

#include <stdbool.h>
#include <stdint.h>

struct mm;
struct mm_ctx;

struct plug_bio {
	uint64_t block;
	uint32_t pfn;
	bool file;
};

struct mm_plug {
	bool on;
	uint32_t n, cap;        /* bios held */
	uint32_t nr_rq;         /* requests: runs of consecutive blocks */
	uint32_t last_len;      /* pages in the last request */
	uint64_t last_end;      /* the block after the last request */
	struct plug_bio *bio;
};

/* blk_start_plug(): false when a plug was already on (nested: ignored). */
bool mm_blk_start_plug(struct mm *mm);
/* blk_finish_plug(): submit what is held, at the task's time. */
void mm_blk_finish_plug(struct mm *mm, struct mm_ctx *ctx);
/* A write bio submitted under the plug (page_writeback()). */
void mm_plug_add(struct mm *mm, struct mm_ctx *ctx, bool file, uint64_t block, uint32_t pfn);
void mm_plug_destroy(struct mm *mm);

#endif
