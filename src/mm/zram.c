/* zram.c - the compressed RAM swap device, after Linux 6.18
 * drivers/block/zram/zram_drv.c.
 *
 * zram_write_page(): a same-filled page (page_same_filled()) is kept as
 * its value, no pool memory (same_pages); otherwise it is compressed, and
 * a result of huge_class_size bytes or more is stored uncompressed as a
 * whole page (huge_pages); the rest goes in the zsmalloc pool
 * (zsmalloc.c).  The simulator has no page contents: a page's compressed
 * size is drawn from the measured table (compress_table.h) by a hash of
 * the run's seed, the page's identity (owner, index), its write version
 * and data kind: the same page written as often always draws the same.
 *
 * The device is synchronous (SWP_SYNCHRONOUS_IO): a write completes
 * inside the swap-out, a read inside the fault, no disk, the time being
 * CPU: the compressor's ps per byte (--set zram.comp= / zram.decomp=, 0 =
 * what bench/compress measured on this host for the algorithm).
 *
 * The pool's pages come out of the machine's free memory (zs_malloc()'s
 * alloc_page() from the reclaiming task, allowed below the watermarks as
 * PF_MEMALLOC is) and are not charged to any memory cgroup: zram's
 * zsmalloc pages carry no __GFP_ACCOUNT (only zswap charges its objects,
 * through obj_cgroup).  A store that could not get a new zspage's pages
 * is refused before the page is unmapped (zram's -ENOMEM write leaves the
 * page in memory). */
#include "zram.h"
#include "zram_wb.h"
#include "internal.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

struct zram *zram_create(struct mm *mm, uint32_t nr_slots, enum zalgo algo, unsigned chain,
			 unsigned trace_ratio, uint64_t comp_ps, uint64_t decomp_ps)
{
	struct zram *z = xcalloc(1, sizeof(*z));
	z->mm = mm;
	z->algo = algo;
	z->trace_ratio = trace_ratio;
	z->comp_ps = comp_ps;
	z->decomp_ps = decomp_ps;
	zs_create_pool(&z->pool, chain);
	/* the pool's frames are on a list of their own: no LRU, no reclaim */
	zs_frames_init(mm, &z->fr, "zsmalloc");
	mm_work_keep(mm, WORK_BIT(W_ZRAM_COMPRESS) | WORK_BIT(W_ZRAM_DECOMPRESS));
	z->nr_slots = nr_slots;
	z->slot = xmalloc((nr_slots ? nr_slots : 1) * sizeof(*z->slot));
	for (uint32_t i = 0; i < nr_slots; i++)
		z->slot[i] = (struct zram_slot){ .handle = ZS_HANDLE_NONE, .size = ZRAM_EMPTY };
	return z;
}

void zram_destroy(struct zram *z)
{
	if (!z)
		return;
	zram_wb_destroy(z);
	zs_destroy_pool(&z->pool);
	free(z->slot);
	zs_frames_free(&z->fr);
	free(z);
}

static unsigned page_size_drawn(const struct zram *z, const struct page *p);

static bool pool_has_room(const struct zram *z, pfn_t pfn)
{
	unsigned len = page_size_drawn(z, mm_page(z->mm, pfn));
	if (!len)
		return true;  /* same-filled: no pool memory */
	if (len >= z->pool.huge_class_size)
		len = PAGE_SIZE;
	return zs_frames_room(z->mm, &z->pool, len, z->mem_limit);
}

bool zram_can_store(struct zram *z, pfn_t pfn)
{
	if (pool_has_room(z, pfn))
		return true;
	/* the kernel's write would fail in zs_malloc(): -ENOMEM */
	z->st.failed_writes++;
	return false;
}

/* Keep the frames taken from free memory equal to the pool's pages. */
static void sync_frames(struct zram *z)
{
	zs_frames_sync(z->mm, &z->fr, z->pool.pages);
	if (z->pool.pages > z->st.mem_used_max)
		z->st.mem_used_max = z->pool.pages;
}

/* The page's compressed size under z's algorithm (0: same-filled). */
static unsigned page_size_drawn(const struct zram *z, const struct page *p)
{
	return compress_page(z->mm->seed, p->owner, p->index, p->data_ver, p->data_kind, z->algo,
			     z->trace_ratio);
}

static void zram_store(struct zram *z, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot)
{
	const struct page *p = mm_page(z->mm, pfn);
	struct zram_slot *s = &z->slot[slot];
	if (s->size != ZRAM_EMPTY)
		zram_slot_free(z, slot);  /* overwritten in place */
	zram_accessed(z, ctx, slot);
	unsigned len = page_size_drawn(z, p);
	const struct mm_costs *c = z->mm->cost;
	/* page_same_filled() reads the page: 512 words */
	charge(ctx, c->ref_ps * 512 / 1000);
	z->st.num_writes++;
	z->st.pages_stored++;
	*s = (struct zram_slot){ .handle = ZS_HANDLE_NONE, .size = 0,
				 .kind = p->data_kind, .ver = p->data_ver };
	if (!len) {
		z->st.same_pages++;
		return;
	}
	const struct compress_row *row = &compress_table[p->data_kind][z->algo];
	charge(ctx, (z->comp_ps ? z->comp_ps : row->comp_ps) * PAGE_SIZE / 1000);
	mm_work(z->mm, W_ZRAM_COMPRESS, PAGE_SIZE);
	if (len >= z->pool.huge_class_size) {
		len = PAGE_SIZE;
		z->st.huge_pages++;
		z->st.huge_pages_since++;
	}
	s->size = (uint16_t)len;
	s->handle = zs_malloc(&z->pool, len);
	z->st.compr_data_size += len;
	sync_frames(z);
}

void zram_write(struct zram *z, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot)
{
	zram_store(z, ctx, pfn, slot);
	struct zram_stats *st = &z->st;
	if (st->pages_stored > st->full_stored) {
		st->full_stored = st->pages_stored;
		st->full_compr = st->compr_data_size;
		st->full_mem_used = z->pool.pages;
		st->full_same = st->same_pages;
		st->full_huge = st->huge_pages;
	}
}

void zram_decompress_cost(struct zram *z, struct mm_ctx *ctx, const struct zram_slot *s)
{
	if (!s->size)
		charge(ctx, z->mm->cost->zero_page_ns);  /* zram_fill_page() */
	else if (s->size == PAGE_SIZE)
		charge(ctx, z->mm->cost->copy_page_ns);  /* a huge page is copied */
	else {
		const struct compress_row *row = &compress_table[s->kind][z->algo];
		charge(ctx, (z->decomp_ps ? z->decomp_ps : row->decomp_ps) * PAGE_SIZE / 1000);
		mm_work(z->mm, W_ZRAM_DECOMPRESS, PAGE_SIZE);
	}
}

bool zram_read(struct zram *z, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot, uint64_t *block)
{
	struct page *p = mm_page(z->mm, pfn);
	struct zram_slot *s = &z->slot[slot];
	z->st.num_reads++;
	p->data_kind = s->kind;
	p->data_ver = s->ver;
	zram_accessed(z, ctx, slot);
	if (s->flags & ZF_WB) {
		*block = zram_wb_read(z, slot);
		return false;
	}
	zram_decompress_cost(z, ctx, s);
	return true;
}

void zram_free_page(struct zram *z, uint32_t slot)
{
	struct zram_slot *s = &z->slot[slot];
	z->st.pages_stored--;
	if (s->flags & ZF_WB)
		zram_wb_free_block(z, s->handle);  /* free_block_bdev() */
	else if (!s->size)
		z->st.same_pages--;
	else {
		if (s->size == PAGE_SIZE)
			z->st.huge_pages--;
		z->st.compr_data_size -= s->size;
		zs_free(&z->pool, s->handle);
		sync_frames(z);
	}
	/* the flags go too: a writeback in progress skips the slot */
	*s = (struct zram_slot){ .handle = ZS_HANDLE_NONE, .size = ZRAM_EMPTY };
}

void zram_slot_free(struct zram *z, uint32_t slot)
{
	if (z->slot[slot].size == ZRAM_EMPTY)
		return;  /* allocated, never written */
	z->st.notify_free++;
	zram_free_page(z, slot);
}
