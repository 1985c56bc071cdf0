/* check_swap.c - --check's swap accounting, in time proportional to the
 * slots in use rather than to the swap area (a default 2 GB swap has
 * 524288 slots, and --check runs between every two events).
 *
 * mm_check's walks of the page tables and the frames name the slots they
 * find: a swap PTE's slot (counted), a swap-cache frame's slot.  Each
 * named slot's reference count must equal its PTEs and its cache entry
 * must point back; and the area's totals kept as the slots change -
 * references (swap_get_ref / swap_put_ref), swap-cache entries, slots in
 * use - must equal the named slots' own.  So a reference taken or
 * dropped without its PTE, a cache entry left behind, or a total out of
 * step shows at the next check, as a whole walk would show it.  What
 * only a whole walk sees is a slot written behind the accounting's back
 * (a count no helper changed, on a slot nothing names): mm_check() walks
 * every slot for that, and a --check run calls it once more when it ends
 * (machine.c); between events it calls mm_check_step().
 *
 * The scratch is the area's, kept between checks: refs[slot] is the PTE
 * count with SW_NAMED set once the slot is on list, and begin() clears
 * only the slots the last check named. */
#include "internal.h"
#include "check_swap.h"
#include "../lib/util.h"

#include <stdlib.h>

#define FAIL(...) do { fprintf(err, "check: " __VA_ARGS__); fputc('\n', err); ok = false; } while (0)
#define SW_NAMED 0x80000000u

struct swap_walk {
	uint32_t *refs; /* per slot: PTEs counted | SW_NAMED */
	uint32_t *list; /* the slots named, in the order found */
	uint32_t n, cap;
};

void swap_walk_begin(struct swap_area *sw)
{
	struct swap_walk *w = sw->walk;
	if (!w) {
		w = sw->walk = xcalloc(1, sizeof(*w));
		/* calloc: the pages of slots never named are never touched */
		w->refs = xcalloc(sw->nr_slots ? sw->nr_slots : 1, sizeof(*w->refs));
	}
	for (uint32_t i = 0; i < w->n; i++)
		w->refs[w->list[i]] = 0;
	w->n = 0;
}

void swap_walk_free(struct swap_area *sw)
{
	if (!sw->walk)
		return;
	free(sw->walk->refs);
	free(sw->walk->list);
	free(sw->walk);
	sw->walk = NULL;
}

static void name_slot(struct swap_walk *w, uint32_t slot)
{
	if (w->refs[slot])
		return;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->list = xrealloc(w->list, w->cap * sizeof(*w->list));
	}
	w->list[w->n++] = slot;
	w->refs[slot] = SW_NAMED;
}

void swap_walk_ref(struct swap_area *sw, uint32_t slot)
{
	name_slot(sw->walk, slot);
	sw->walk->refs[slot]++;
}

void swap_walk_cached(struct swap_area *sw, uint32_t slot)
{
	name_slot(sw->walk, slot);
}

/* The whole area: a slot in use that nothing named is added to the list,
 * where its count (no PTEs) or its cache entry fails below. */
static void name_unnamed(struct swap_area *sw)
{
	for (uint32_t s = 0; s < sw->nr_slots; s++)
		if (!sw->walk->refs[s] && (sw->map[s] || sw->cache[s] != PFN_NONE))
			name_slot(sw->walk, s);
}

bool swap_walk_check(struct mm *mm, FILE *err, bool whole)
{
	bool ok = true;
	struct swap_area *sw = &mm->swap;
	struct swap_walk *w = sw->walk;
	if (whole)
		name_unnamed(sw);
	uint32_t used = 0, cached = 0;
	uint64_t refs = 0;
	for (uint32_t i = 0; i < w->n; i++) {
		uint32_t s = w->list[i], n = w->refs[s] & ~SW_NAMED;
		if (n != sw->map[s])
			FAIL("swap slot %u: %u references counted, %u PTEs point to it", s, sw->map[s], n);
		pfn_t c = sw->cache[s];
		if (c != PFN_NONE && (c >= mm->fr.nr || mm->fr.pages[c].swap != s + 1))
			FAIL("swap slot %u: cached pfn %u does not point back", s, c);
		used += sw->map[s] || c != PFN_NONE;
		cached += c != PFN_NONE;
		refs += sw->map[s];
	}
	if (cached != sw->nr_cached)
		FAIL("swap: %u slots counted with a swap-cache page, %u cached", sw->nr_cached, cached);
	if (used != sw->used)
		FAIL("swap: %u slots counted in use, %u referenced or cached", sw->used, used);
	if (refs != sw->nr_refs)
		FAIL("swap: %llu references counted, %llu in the slots PTEs and pages name",
		     (unsigned long long)sw->nr_refs, (unsigned long long)refs);
	return ok;
}

uint32_t swap_walk_slots(const struct swap_area *sw, const uint32_t **slots)
{
	*slots = sw->walk->list;
	return sw->walk->n;
}
