/* oldvm.h - what the pre-rmap designs (linux22, vhand, riel24, aa24) share:
 * per-mm swap_out() state (swap_cnt, swap_address), the 2.2/2.4 watermark
 * formulas, and handing an isolated page to the mm core's reclaim. */
#ifndef PAGELAB_OLDVM_H
#define PAGELAB_OLDVM_H

#include "../mm/mm.h"
#include "../mm/ptescan.h"

/* struct mm_struct's swap_out fields, one per address space (by id). */
struct mmstate {
	int64_t swap_cnt;          /* 2.2: shadow RSS; 2.4.0: PTEs left to scan */
	struct pte_cursor addr;    /* swap_address */
};

struct mmstates {
	struct mmstate *s;
	uint32_t n;
};

struct mmstate *mmstate_get(struct mmstates *ms, uint32_t id);
void mmstates_free(struct mmstates *ms);
/* A live address space with resident pages (swap_out's candidates). */
bool mm_swappable(const struct aspace *as);
/* Live address spaces (2.2's nr_tasks, 2.4's mmlist_nr / nr_threads). */
uint32_t nr_live_aspaces(const struct mm *mm);

/* 2.2 free_area_init(): i = num_physpages >> 7 clamped to [10, 256];
 * freepages = { i, 2i, 3i }. */
void freepages_22(uint64_t pages, uint64_t *min, uint64_t *low, uint64_t *high);
/* 2.4 free_area_init_core(): mask = realsize / zone_balance_ratio (128)
 * clamped to [zone_balance_min 20, zone_balance_max 255]; pages_min = mask,
 * pages_low = 2 mask, pages_high = 3 mask. */
void zone_watermarks_24(struct zone *z);

/* The page's per-policy age (2.0 page->age, 2.4.0 page->age). */
static inline uint32_t page_age(const struct page *p) { return p->pol32[0]; }
static inline void set_page_age(struct page *p, uint32_t a) { p->pol32[0] = a; }

/* Free or launder an isolated page through the core (shrink_page_list()'s
 * body).  Returns the core's verdict; on anything but EVICT_FREED the page
 * is still isolated and the caller puts it back. */
enum evict_result oldvm_reclaim(struct mm *mm, struct scan_control *sc, pfn_t pfn);

/* I/O inside the design's own reclaim loops (docs/design.md, "I/O completes
 * inside reclaim passes"): once the pass has put SWAP_CLUSTER_MAX more pages
 * under writeback since *mark, the disk completes every write and read due
 * by the reclaimer's clock before the loop takes its next page.  The
 * kernels of 1998-2001 submitted swap writes asynchronously and their
 * completions were interrupts, so a long page_launder() or shrink_cache()
 * met pages whose write had ended; without this the simulated disk
 * completes nothing until the pass returns.  Call it only where the loop
 * holds no page (completions free pages and put read ones on the lists). */
void oldvm_io_catch_up(struct mm *mm, struct scan_control *sc, uint64_t *mark);

/* Pages a process maps or the cache holds, i.e. 2.x page_count() minus
 * transient references: mapcount plus one if in the swap or page cache. */
static inline int page_users(const struct page *p)
{
	return p->mapcount + ((p->flags & (PG_swapcache | PG_file)) ? 1 : 0);
}

#endif
