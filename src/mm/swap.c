/* swap.c - swap slots and the swap cache.
 *
 * A slot is in use while a PTE refers to it (map[slot] > 0) or a frame holds
 * its contents in the swap cache (cache[slot] != PFN_NONE).  Slots are
 * handed out next-fit from a cursor, which is what makes the kernel's
 * swap-out of a sequential sweep land in consecutive slots (scan_swap_map's
 * cluster_next); with --set swap.cluster, by 6.18's clusters instead
 * (swap_cluster.c), to which this file answers which slots are busy,
 * frees a swap-cache-only slot for swap_reclaim_full_clusters() (6.18
 * __try_to_reclaim_swap() with TTRS_ANYWAY) and sends a cluster's
 * discard to the disk (discard_swap_cluster()). */
#include "swap.h"
#include "internal.h"
#include "zram.h"
#include "zswap.h"
#include "swap_cluster.h"
#include "check_swap.h"
#include "../lib/util.h"

#include <stdlib.h>

void swap_init(struct swap_area *sw, uint32_t nr_slots)
{
	sw->nr_slots = nr_slots;
	sw->used = 0;
	sw->nr_cached = 0;
	sw->cursor = 0;
	sw->nr_refs = 0;
	sw->walk = NULL;
	sw->ra_prev = sw->ra_win = 0;
	sw->ra_hits = SWAP_RA_INIT_HITS; /* swapin_readahead_hits at boot */
	sw->map = xcalloc(nr_slots ? nr_slots : 1, sizeof(*sw->map));
	sw->cache = xmalloc((nr_slots ? nr_slots : 1) * sizeof(*sw->cache));
	for (uint32_t i = 0; i < nr_slots; i++)
		sw->cache[i] = PFN_NONE;
}

void swap_destroy(struct swap_area *sw)
{
	zram_destroy(sw->zram);
	zswap_destroy(sw->zswap);
	if (sw->cl)
		swap_cl_destroy(sw->cl);
	free(sw->cl);
	swap_walk_free(sw);
	free(sw->map);
	free(sw->cache);
	free(sw->shadow);
}

static bool slot_busy(const struct swap_area *sw, uint32_t s)
{
	return sw->map[s] || sw->cache[s] != PFN_NONE;
}

/* The cluster allocator's view of the area (swap_cluster.h), on the mm. */
static bool cl_busy(const void *arg, uint32_t s)
{
	return slot_busy(&((const struct mm *)arg)->swap, s);
}

static bool cl_full(const void *arg) { return swap_full(&((const struct mm *)arg)->swap); }

/* __try_to_reclaim_swap(si, offset, TTRS_ANYWAY) for
 * swap_reclaim_full_clusters(): a slot held by the swap cache alone (no
 * swap PTE: a page swapped in and still mapped) loses its swap-cache
 * page, which is dirtied (folio_set_dirty(): its only copy now) and
 * written again if evicted.  Not a locked or writeback page (the
 * folio_trylock() and folio_swapcache_freeable() that fail), nor an
 * unmapped one: that is on its way out, freed by reclaim or exit. */
static bool cl_reclaim(void *arg, uint32_t s)
{
	struct mm *mm = arg;
	pfn_t pfn = mm->swap.cache[s];
	if (pfn == PFN_NONE || mm->swap.map[s])
		return false;
	struct page *p = mm_page(mm, pfn);
	if ((p->flags & (PG_locked | PG_writeback)) || p->mapcount <= 0)
		return false;
	swap_cache_del(mm, pfn);
	p->flags |= PG_dirty;
	return true;
}

/* discard_swap_cluster(): to the disk, whose completion frees the
 * cluster; zram's discard (zram_bio_discard()) frees slots that
 * zram_slot_free_notify() freed already, so it is done at once, as with
 * no machine (unit tests). */
static void cl_discard(void *arg, uint32_t i, uint32_t first, uint32_t n)
{
	struct mm *mm = arg;
	if (mm->swap.zram || !mm->io.submit_discard)
		swap_cl_discard_done(mm->swap.cl, i);
	else
		mm->io.submit_discard(mm->io.arg, first, n, i, ctx_now(mm->cur));
}

void swap_cl_attach(struct mm *mm, bool discard)
{
	mm->swap.cl->ops = (struct swap_cl_ops){ .arg = mm, .busy = cl_busy, .reclaim = cl_reclaim,
						 .full = cl_full, .discard = cl_discard };
	mm->swap.cl->page_discard = discard;
}

uint32_t swap_alloc_slot(struct swap_area *sw, bool rotational)
{
	if (sw->used >= sw->nr_slots)
		return UINT32_MAX;
	if (sw->cl)
		return swap_cl_alloc(sw->cl, sw->cpu, rotational);
	uint32_t s = sw->cursor;
	for (uint32_t n = 0; n < sw->nr_slots; n++, s++) {
		if (s >= sw->nr_slots)
			s = 0;
		if (!slot_busy(sw, s)) {
			sw->cursor = s + 1 >= sw->nr_slots ? 0 : s + 1;
			return s;
		}
	}
	return UINT32_MAX;
}

static void slot_maybe_release(struct swap_area *sw, uint32_t s)
{
	if (!slot_busy(sw, s)) {
		sw->used--;
		if (sw->cgt)
			cgtree_swap_release(sw->cgt, s);
		if (sw->shadow)
			sw->shadow[s] = 0; /* a shadow never outlives its slot */
		if (sw->zram)
			zram_slot_free(sw->zram, s); /* zram_slot_free_notify() */
		if (sw->zswap)
			zswap_invalidate(sw->zswap, s);
		if (sw->cl)
			swap_cl_free(sw->cl, s);
	}
}

void swap_get_ref(struct swap_area *sw, uint32_t slot)
{
	sw->map[slot]++;
	sw->nr_refs++;
}

void swap_put_ref(struct swap_area *sw, uint32_t slot)
{
	if (!sw->map[slot])
		panic("swap slot %u: reference count underflow", slot);
	sw->map[slot]--;
	sw->nr_refs--;
	slot_maybe_release(sw, slot);
}

void swap_cache_add(struct mm *mm, pfn_t pfn, uint32_t slot)
{
	struct swap_area *sw = &mm->swap;
	struct page *p = mm_page(mm, pfn);
	if (!slot_busy(sw, slot))
		sw->used++;
	sw->nr_cached += sw->cache[slot] == PFN_NONE;
	sw->cache[slot] = pfn;
	p->flags |= PG_swapcache;
	p->swap = slot + 1;
}

void swap_cache_del(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	uint32_t slot = p->swap - 1;
	mm->swap.nr_cached -= mm->swap.cache[slot] != PFN_NONE;
	mm->swap.cache[slot] = PFN_NONE;
	p->flags &= ~PG_swapcache;
	p->swap = 0;
	slot_maybe_release(&mm->swap, slot);
}

bool swap_full(const struct swap_area *sw)
{
	return (uint64_t)sw->used * 2 > sw->nr_slots;
}
