/* swap.c - swap slots and the swap cache.
 *
 * A slot is in use while a PTE refers to it (map[slot] > 0) or a frame holds
 * its contents in the swap cache (cache[slot] != PFN_NONE).  Slots are
 * handed out next-fit from a cursor, which is what makes the kernel's
 * swap-out of a sequential sweep land in consecutive slots (scan_swap_map's
 * cluster_next); with --set swap.cluster, by 6.18's clusters instead
 * (swap_cluster.c). */
#include "swap.h"
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

static bool slot_busy_cb(const void *arg, uint32_t s) { return slot_busy(arg, s); }

uint32_t swap_alloc_slot(struct swap_area *sw, bool rotational)
{
	if (sw->used >= sw->nr_slots)
		return UINT32_MAX;
	if (sw->cl)
		return swap_cl_alloc(sw->cl, sw->cpu, rotational, slot_busy_cb, sw);
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
