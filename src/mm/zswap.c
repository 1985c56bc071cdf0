/* zswap.c - a compressed cache in front of disk swap, after Linux
 * 6.12-6.18 mm/zswap.c (docs/zram.md).
 *
 * swap_writepage() offers each anonymous page to zswap_store() before
 * the disk: a page it keeps is compressed into a zsmalloc pool in RAM and
 * never written (zswpout, no pswpout); a fault on its slot is
 * zswap_load()'s (zswpin, no pswpin), which drops the entry and dirties
 * the page (it is compressed anew if evicted again).  zswap_store()
 * refuses a page, which then goes to disk:
 *  - zswap_check_limits(): the pool at max_pool_percent of RAM
 *    (pool_limit_hit) sets zswap_pool_reached_full; stores are refused
 *    until the pool is back under accept_threshold_percent of that
 *    limit (hysteresis), and each refusal queues shrink_worker
 *    (zswap_shrink.c), run here at once;
 *  - zswap_compress(): a page that does not compress below a page
 *    (reject_compress_poor; the kernel's zs_malloc() refuses more than
 *    PAGE_SIZE with -ENOSPC, 6.19 keeps such pages uncompressed) or
 *    whose zspage finds no free frame (reject_alloc_fail: the
 *    GFP_NOWAIT allocation fails).
 * Same-filled pages: 6.12 removed zswap's own handling (zero pages go to
 * the swap zeromap before zswap; pagefill's same-filled pages are never
 * zero), so they are compressed like any other (lz4: 26 bytes, the
 * table's); zswap.same_filled=1 is 6.8-6.11's zswap_is_page_same_filled():
 * kept as a value, no pool memory, not on the LRU.
 * The pool's pages come from free memory (zsframes.c); the compressed
 * bytes are charged to the page's memory cgroup (6.18 mm/memcontrol.c
 * obj_cgroup_charge_zswap() / obj_cgroup_uncharge_zswap(), forced: it
 * runs in reclaim, PF_MEMALLOC), rounded up to pages of memory.current:
 * --memcg's, or under --cgroup the page's cgroup and its ancestors'
 * (not a root page's: it has no objcg); nothing on cgroup v1 (both
 * return unless cgroup_subsys_on_dfl()).  zram's pool is charged to no
 * cgroup (zram.c).  The compressor's cost per byte is zram's
 * (the same table, zram.comp / zram.decomp).  With --cgroup, a cgroup
 * (or an ancestor) at its memory.zswap.max has one of its entries
 * written back first, and the page is refused if none could be
 * (reject_zswap_max, pagelab's count). */
#include "zswap.h"
#include "internal.h"
#include "cgtree.h"
#include "../lib/util.h"

#include <stdlib.h>

struct zswap *zswap_create(struct mm *mm, uint32_t nr_slots, int nr_cg, const struct zswap_config *cfg)
{
	struct zswap *z = xcalloc(1, sizeof(*z));
	z->mm = mm;
	z->cfg = *cfg;
	zs_create_pool(&z->pool, cfg->chain);
	zs_frames_init(mm, &z->fr, "zswap");
	z->wb_list = lru_register(&mm->fr, "zswap-writeback");
	lru_set_kind(&mm->fr, z->wb_list, LRU_KIND_NONE);
	z->nr_slots = nr_slots;
	z->e = xmalloc((nr_slots ? nr_slots : 1) * sizeof(*z->e));
	for (uint32_t i = 0; i < nr_slots; i++)
		z->e[i] = (struct zswap_entry){ .handle = ZS_HANDLE_NONE, .length = ZSWAP_NONE };
	z->nr_cg = nr_cg > 0 ? nr_cg : 1;
	z->lru = xcalloc((size_t)z->nr_cg, sizeof(*z->lru));
	for (int c = 0; c < z->nr_cg; c++)
		z->lru[c].head = z->lru[c].tail = ZSWAP_NIL;
	for (int i = 0; i < mm->nr_zones; i++)
		z->total_pages += mm->zones[i].managed;
	return z;
}

void zswap_destroy(struct zswap *z)
{
	if (!z)
		return;
	zs_destroy_pool(&z->pool);
	zs_frames_free(&z->fr);
	free(z->e);
	free(z->lru);
	free(z);
}

/* zswap_max_pages(), zswap_accept_thr_pages() */
static uint64_t max_pages(const struct zswap *z) { return z->total_pages * z->cfg.max_pool_percent / 100; }
static uint64_t accept_pages(const struct zswap *z) { return max_pages(z) * z->cfg.accept_thr_percent / 100; }

/* zswap_check_limits(): true while stores are refused */
static bool check_limits(struct zswap *z)
{
	uint64_t cur = zswap_pool_pages(z);
	if (cur >= max_pages(z)) {
		z->st.pool_limit_hit++;
		z->reached_full = true;
	} else if (z->reached_full && cur <= accept_pages(z)) {
		z->reached_full = false;
	}
	return z->reached_full;
}

/* obj_cgroup_charge_zswap() under --cgroup: the cgroup's own bytes
 * rounded up to pages, the change forced (page_counter_charge(), no
 * limit) on it and every ancestor, as a charge propagates up the
 * page_counter hierarchy.  A page of the root cgroup has no objcg
 * (__get_obj_cgroup_from_memcg() stops below the root): no charge. */
static void tree_charge(struct zswap *z, int cg)
{
	struct cgtree *t = z->mm->cgt;
	uint64_t pages = (z->lru[cg].bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	int64_t delta = (int64_t)pages - (int64_t)z->cg_pages[cg];
	z->cg_pages[cg] = pages;
	for (int c = cg; delta; c = t->cg[c].conf.parent) {
		struct cgroup *g = &t->cg[c];
		g->current = (uint64_t)((int64_t)g->current + delta);
		if (g->current > g->peak)
			g->peak = g->current;
		if (!c)
			break;
	}
}

/* obj_cgroup_charge_zswap / _uncharge_zswap (6.18 mm/memcontrol.c): the
 * cgroup's memory.stat zswap and zswapped, and its memory.current the
 * compressed bytes rounded up to pages, forced (it runs in reclaim,
 * PF_MEMALLOC), so it may exceed memory.max.  Both return at once on
 * cgroup v1 (!cgroup_subsys_on_dfl()): --memcg with memcg.v1=1 charges
 * nothing (the statistics stay, for the shrinker's count). */
static void memcg_charge(struct zswap *z, int cg, bool add, unsigned len)
{
	struct zswap_lru *l = &z->lru[cg];
	l->bytes = add ? l->bytes + len : l->bytes - len;
	l->stored = add ? l->stored + 1 : l->stored - 1;
	if (z->mm->cgt && cg)
		tree_charge(z, cg);
	if (!z->mm->memcg.limit || z->mm->memcg.v1)
		return;
	uint64_t pages = (z->lru[0].bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	z->mm->memcg.charged += pages - z->memcg_pages;
	z->memcg_pages = pages;
	if (z->mm->memcg.charged > z->mm->memcg.peak)
		z->mm->memcg.peak = z->mm->memcg.charged;
}

static void sync_pool(struct zswap *z)
{
	zs_frames_sync(z->mm, &z->fr, z->pool.pages);
	if (z->pool.pages > z->st.pool_pages_max)
		z->st.pool_pages_max = z->pool.pages;
}

/* zswap_compress(): the bytes the page compresses to, or 0 if refused */
static unsigned compress(struct zswap *z, struct mm_ctx *ctx, const struct page *p)
{
	unsigned len = compress_page(z->mm->seed, p->owner, p->index, p->data_ver, p->data_kind,
				     z->cfg.algo, z->cfg.trace_ratio);
	if (!len)  /* a same-filled page compressed: the table's size */
		len = compress_table[DK_SAME][z->cfg.algo].q[0];
	const struct compress_row *row = &compress_table[p->data_kind][z->cfg.algo];
	charge(ctx, (z->cfg.comp_ps ? z->cfg.comp_ps : row->comp_ps) * PAGE_SIZE / 1000);
	if (len >= PAGE_SIZE) {
		z->st.reject_compress_poor++;
		return 0;
	}
	if (!zs_frames_room(z->mm, &z->pool, len, 0)) {
		z->st.reject_alloc_fail++;
		return 0;
	}
	return len;
}

/* A same-filled page kept as its value (zswap.same_filled=1) */
static bool same_filled(const struct zswap *z, struct mm_ctx *ctx, const struct page *p)
{
	if (!z->cfg.same_filled)
		return false;
	charge(ctx, z->mm->cost->ref_ps * 512 / 1000);  /* reads the page */
	return !compress_page(z->mm->seed, p->owner, p->index, p->data_ver, p->data_kind, z->cfg.algo,
			      z->cfg.trace_ratio);
}

/* obj_cgroup_may_zswap(): cg and every ancestor below the root under
 * its memory.zswap.max (pages of MEMCG_ZSWAP_B, its subtree's) */
static bool may_zswap(const struct zswap *z, int cg)
{
	const struct cgtree *t = z->mm->cgt;
	for (int c = cg; t && c; c = t->cg[c].conf.parent) {
		uint64_t max = t->cg[c].conf.zswap_max, bytes = 0;
		if (max == CG_UNLIMITED)
			continue;
		for (int d = 0; max && d < z->nr_cg; d++)
			if (cg_in_subtree(t, d, c))
				bytes += z->lru[d].bytes;
		if (!max || bytes / PAGE_SIZE >= max)
			return false;
	}
	return true;
}

bool zswap_store(struct zswap *z, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot)
{
	const struct page *p = mm_page(z->mm, pfn);
	if (zswap_has(z, slot))
		zswap_entry_free(z, slot);  /* check_old: a stale copy */
	int cg = z->mm->cgt && p->memcg < z->nr_cg ? p->memcg : 0;
	/* over memory.zswap.max: one entry of the cgroup written back
	 * first (shrink_memcg()), else refused */
	if (!may_zswap(z, cg) && zswap_shrink_memcg(z, ctx, cg)) {
		z->st.reject_zswap_max++;
		return false;
	}
	if (check_limits(z)) {
		zswap_shrink_worker(z, ctx);  /* queue_work(shrink_wq) */
		return false;
	}
	struct zswap_entry *e = &z->e[slot];
	*e = (struct zswap_entry){ .handle = ZS_HANDLE_NONE, .length = 0, .kind = p->data_kind,
				   .ver = p->data_ver, .cg = (uint16_t)cg };
	if (same_filled(z, ctx, p)) {
		z->st.same_filled_pages++;
	} else {
		unsigned len = compress(z, ctx, p);
		if (!len) {
			e->length = ZSWAP_NONE;
			return false;
		}
		e->length = (uint16_t)len;
		e->handle = zs_malloc(&z->pool, len);
		sync_pool(z);
		e->referenced = 1;
		zswap_lru_add(z, slot);
	}
	memcg_charge(z, cg, true, e->length);
	z->st.stored_pages++;
	z->st.zswpout++;
	return true;
}

void zswap_entry_free(struct zswap *z, uint32_t slot)
{
	struct zswap_entry *e = &z->e[slot];
	if (e->length == ZSWAP_NONE)
		return;
	if (!e->length) {
		z->st.same_filled_pages--;
	} else {
		zswap_lru_del(z, slot);
		zs_free(&z->pool, e->handle);
		sync_pool(z);
	}
	memcg_charge(z, e->cg, false, e->length);
	z->st.stored_pages--;
	*e = (struct zswap_entry){ .handle = ZS_HANDLE_NONE, .length = ZSWAP_NONE };
}

void zswap_load(struct zswap *z, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot)
{
	struct page *p = mm_page(z->mm, pfn);
	const struct zswap_entry *e = &z->e[slot];
	p->data_kind = e->kind;
	p->data_ver = e->ver;
	if (!e->length) {
		charge(ctx, z->mm->cost->zero_page_ns);  /* zswap_fill_page() */
	} else {
		const struct compress_row *row = &compress_table[e->kind][z->cfg.algo];
		charge(ctx, (z->cfg.decomp_ps ? z->cfg.decomp_ps : row->decomp_ps) * PAGE_SIZE / 1000);
	}
	z->st.zswpin++;
	/* 6.12 zswap_load(): the folio is in the swap cache, so the entry
	 * goes and the folio is dirtied: no copy is kept both places */
	zswap_entry_free(z, slot);
	p->flags |= PG_dirty;
}

void zswap_invalidate(struct zswap *z, uint32_t slot)
{
	zswap_entry_free(z, slot);
}

void zswap_disk_swapin(struct zswap *z, int cg)
{
	z->lru[cg < z->nr_cg ? cg : 0].nr_disk_swapins++;
}

bool zswap_wb_done(struct zswap *z, pfn_t pfn)
{
	struct mm *mm = z->mm;
	if (lru_on(&mm->fr, pfn) != z->wb_list)
		return false;
	/* the written folio is clean and reclaimed at once (it was marked
	 * PG_reclaim): its frame goes back, nobody's charge */
	lru_del(&mm->fr, pfn);
	free_frame_uncharged(mm, pfn);
	return true;
}
