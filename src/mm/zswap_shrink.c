/* zswap_shrink.c - zswap's LRU and its writeback to disk, after Linux
 * 6.12-6.18 mm/zswap.c (docs/zram.md).
 *
 * Every compressed entry is on its memcg's zswap LRU (zswap_lru_add():
 * list_lru_add() at the tail), stored with its referenced bit set.  Two
 * paths write entries back to the disk swap slot they stand for, oldest
 * first from the head:
 *  - the shrinker (zswap_shrinker_count/_scan, called from shrink_slab()
 *    at each reclaim priority; zswap.shrinker=1, off by default as
 *    CONFIG_ZSWAP_SHRINKER_DEFAULT_ON is): count is the LRU's length
 *    less the memcg's disk swap-ins since (nr_disk_swapins, consumed),
 *    scaled by the pool's pages per stored page; do_shrink_slab() scans
 *    (count >> priority) * 4 / DEFAULT_SEEKS of them plus the deferred
 *    remainder, in batches of SHRINK_BATCH (128);
 *  - shrink_worker(), queued when a store finds the pool full: it writes
 *    back one entry at a time from the memcgs in turn (shrink_memcg())
 *    until the pool is under the accept threshold, giving up after
 *    MAX_RECLAIM_RETRIES (16) attempts that wrote nothing.
 * Both walk with shrink_memcg_cb(): an entry with its referenced bit set
 * loses it and goes to the tail (LRU_ROTATE: the second chance);
 * otherwise it is written back (zswap_writeback_entry(): a folio
 * allocated in the swap cache, decompressed into, the entry freed
 * (zswpwb), the folio written with PG_reclaim and freed when the write
 * completes), or on failure (no free frame; the page already in the swap
 * cache: -EEXIST, which stops the shrinker) moved to the tail.  The
 * folio's frame here is off every LRU and freed at the write's end (the
 * kernel rotates it to the inactive tail for the next scan to free).
 * The worker's CPU time is a kworker's and not charged to any task.
 * memory.zswap.writeback=0 of a cgroup or an ancestor (6.8+,
 * mem_cgroup_zswap_writeback_enabled(), hierarchical since 6.11): the
 * shrinker counts and scans nothing of it (zswap_shrinker_count() 0,
 * zswap_shrinker_scan() SHRINK_STOP) and shrink_memcg() returns
 * -ENOENT, so neither caller writes its entries back. */
#include "zswap.h"
#include "internal.h"
#include "shrinker.h"
#include "cgtree.h"
#include "../lib/util.h"


void zswap_lru_add(struct zswap *z, uint32_t slot)
{
	struct zswap_entry *e = &z->e[slot];
	struct zswap_lru *l = &z->lru[e->cg];
	e->next = ZSWAP_NIL;
	e->prev = l->tail;
	if (l->tail != ZSWAP_NIL)
		z->e[l->tail].next = slot;
	else
		l->head = slot;
	l->tail = slot;
	l->nr++;
}

void zswap_lru_del(struct zswap *z, uint32_t slot)
{
	struct zswap_entry *e = &z->e[slot];
	struct zswap_lru *l = &z->lru[e->cg];
	if (e->prev != ZSWAP_NIL)
		z->e[e->prev].next = e->next;
	else
		l->head = e->next;
	if (e->next != ZSWAP_NIL)
		z->e[e->next].prev = e->prev;
	else
		l->tail = e->prev;
	l->nr--;
}

static void rotate(struct zswap *z, uint32_t slot)
{
	zswap_lru_del(z, slot);
	zswap_lru_add(z, slot);
}

/* zswap_writeback_entry(): 0, -EEXIST or -ENOMEM */
static int writeback_entry(struct zswap *z, struct mm_ctx *ctx, uint32_t slot, bool charged)
{
	struct mm *mm = z->mm;
	if (mm->swap.cache[slot] != PFN_NONE)
		return -1;  /* -EEXIST: the folio is in the swap cache */
	int zone = mm->nr_zones - 1;
	while (zone > 0 && !mm->zones[zone].nr_free)
		zone--;
	pfn_t pfn = take_zone_frame(mm, zone);
	if (pfn == PFN_NONE)
		return -2;  /* -ENOMEM */
	const struct zswap_entry *e = &z->e[slot];
	if (charged && e->length) {
		const struct compress_row *row = &compress_table[e->kind][z->cfg.algo];
		charge(ctx, (z->cfg.decomp_ps ? z->cfg.decomp_ps : row->decomp_ps) * PAGE_SIZE / 1000);
	}
	zswap_entry_free(z, slot);
	z->st.zswpwb++;
	z->st.written_back_pages++;
	/* __swap_writepage(): an ordinary swap write */
	struct page *p = mm_page(mm, pfn);
	p->flags = PG_writeback;
	mm->stat.nr_writeback++;
	lru_add_head(&mm->fr, z->wb_list, pfn);
	mm->ev[PSWPOUT]++;
	mm->ev[PGPGOUT] += PAGE_SIZE / 1024;
	if (charged)
		io_request(mm, ctx, NULL, slot); /* a bio per folio */
	if (mm->untimed)
		mm_io_done(mm, IO_WRITE, pfn);
	else
		mm->io.submit_swap(mm->io.arg, IO_WRITE, slot, pfn, ctx_now(ctx));
	return 0;
}

/* list_lru_walk_one() with shrink_memcg_cb(): up to nr entries of cg's
 * LRU from its head; the entries written back.  *stop: a folio was met
 * in the swap cache (LRU_STOP). */
static uint64_t walk(struct zswap *z, struct mm_ctx *ctx, int cg, uint64_t nr, bool charged, bool *stop)
{
	struct zswap_lru *l = &z->lru[cg];
	uint64_t done = 0;
	for (; nr && l->head != ZSWAP_NIL; nr--) {
		uint32_t slot = l->head;
		struct zswap_entry *e = &z->e[slot];
		if (e->referenced) {
			e->referenced = 0;
			rotate(z, slot);
			continue;
		}
		/* rotated before the lock is dropped: a failure stays there */
		rotate(z, slot);
		int r = writeback_entry(z, ctx, slot, charged);
		if (!r) {
			done++;
			continue;
		}
		z->st.reject_reclaim_fail++;
		if (r == -1 && stop) {
			*stop = true;
			break;
		}
	}
	return done;
}

bool zswap_writeback_enabled(const struct zswap *z, int cg)
{
	/* hierarchical since 6.11: the cgroup and every ancestor */
	const struct cgtree *t = z->mm->cgt;
	for (int c = cg; t && c; c = t->cg[c].conf.parent)
		if (t->cg[c].conf.zswap_nowb)
			return false;
	return true;
}

uint64_t zswap_shrinker_count(struct zswap *z, int cg)
{
	struct zswap_lru *l = &z->lru[cg];
	/* memory.zswap.writeback=0: nothing freeable for this memcg */
	if (!l->stored || !l->nr || !zswap_writeback_enabled(z, cg))
		return 0;
	/* the memcg's own figures (MEMCG_ZSWAP_B, MEMCG_ZSWAPPED) */
	uint64_t backing = l->bytes / PAGE_SIZE, stored = l->stored;
	uint64_t freeable = l->nr, swapins = l->nr_disk_swapins;
	uint64_t remain = freeable >= swapins ? 0 : swapins - freeable;
	l->nr_disk_swapins = remain;
	freeable -= swapins - remain;
	if (!freeable)
		return 0;
	return freeable * backing / stored;  /* mult_frac() */
}

uint64_t zswap_shrinker_scan(struct zswap *z, struct mm_ctx *ctx, int cg, uint64_t nr_to_scan)
{
	if (!zswap_writeback_enabled(z, cg))
		return 0;  /* SHRINK_STOP, nr_scanned 0 */
	bool stop = false;
	uint64_t done = walk(z, ctx, cg, nr_to_scan, true, &stop);
	return stop ? 0 : done;  /* SHRINK_STOP is 0 written here */
}

/* zswap_shrinker_scan() as do_shrink_slab() calls it */
struct scan_arg {
	struct zswap *z;
	struct mm_ctx *ctx;
	int cg;
};

static bool scan_cb(void *arg, uint64_t n)
{
	struct scan_arg *a = arg;
	return zswap_shrinker_scan(a->z, a->ctx, a->cg, n) != 0;
}

/* do_shrink_slab() for one memcg's zswap shrinker (memcg aware: its
 * nr_deferred is the memcg's) */
static void shrink_one(struct zswap *z, struct mm_ctx *ctx, int cg, int priority)
{
	struct scan_arg a = { z, ctx, cg };
	do_shrink_slab(zswap_shrinker_count(z, cg), priority, &z->lru[cg].nr_deferred, scan_cb, &a);
}

void zswap_shrink_slab(struct zswap *z, struct mm_ctx *ctx, int priority)
{
	if (!z->cfg.shrinker)
		return;
	for (int cg = 0; cg < z->nr_cg; cg++)
		shrink_one(z, ctx, cg, priority);
}

int zswap_shrink_memcg(struct zswap *z, struct mm_ctx *ctx, int cg)
{
	/* -ENOENT also when the memcg's writeback is off (6.11+) */
	if (z->lru[cg].head == ZSWAP_NIL || !zswap_writeback_enabled(z, cg))
		return -1;  /* -ENOENT */
	return walk(z, ctx, cg, 1, false, NULL) ? 0 : 1;
}

void zswap_shrink_worker(struct zswap *z, struct mm_ctx *ctx)
{
	uint64_t thr = z->total_pages * z->cfg.max_pool_percent / 100 * z->cfg.accept_thr_percent / 100;
	int failures = 0, empty = 0;
	while (zswap_pool_pages(z) > thr && empty < z->nr_cg) {
		int cg = z->next_shrink;
		z->next_shrink = (cg + 1) % z->nr_cg;
		int r = zswap_shrink_memcg(z, ctx, cg);
		if (r < 0) {
			empty++;  /* no candidate: the next memcg */
			continue;
		}
		empty = 0;
		if (r && ++failures == ZSWAP_MAX_RETRIES)
			break;
	}
}
