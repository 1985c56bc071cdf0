/* swapin.c - reading a swapped-out page back: the swap cache entry a
 * fault sets up (swapin_page) and the era's swap readahead around it,
 * 2.6's slot clusters (swapin_readahead), 4.14+'s VMA window
 * (swap_vma_readahead, mm/swap_state.c) or, when the swap device is
 * rotational, 4.14+'s adaptive slot cluster (swap_cluster_readahead).
 * The modern ones follow Linux 6.18's mm/swap_state.c: swapin_readahead()
 * choosing by swap_use_vma_readahead(), __swapin_nr_pages() for the
 * window, swap_vma_ra_win() placing it, swap_update_readahead() counting
 * the hits (aspace.c), both counts starting at 4 (GET_SWAP_RA_VAL(),
 * swapin_readahead_hits = ATOMIC_INIT(4)); readahead pages count swap_ra,
 * their first fault swap_ra_hit.  On zram (SWP_SYNCHRONOUS_IO) 6.18's
 * do_swap_page() skips the swap cache and readahead for a slot with one
 * user (memory.c).  A readahead page with no frame ends 2.6.28's
 * window (`if (!page) break;`) but only skips its slot in 4.14+'s two
 * (`if (!page) continue;`, 6.1's mm/swap_state.c; `if (!folio)
 * continue;` later).  do_swap_page() itself, which maps the page, is in
 * aspace.c. */
#include "internal.h"
#include "swap.h"
#include "cgtree.h"
#include "zram.h"
#include "zswap.h"
#include "../lib/util.h"

/* Put frame pfn in the swap cache at slot, locked for the read, and tell
 * the policy (a shadow left in the slot makes it a refault). */
void swapin_page(struct mm *mm, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot,
		 uint32_t owner, uint64_t index)
{
	struct page *p = mm_page(mm, pfn);
	p->flags = PG_anon | PG_locked;
	p->owner = owner;
	p->index = index;
	mm->stat.nr_anon++;
	swap_cache_add(mm, pfn, slot);
	if (mm->integrity)
		integrity_swapin(mm, pfn, slot);
	mm->stat.nr_reading++;
	if (!mm->swap.zswap || !zswap_has(mm->swap.zswap, slot)) {
		/* zswap_load() reads no device: no pswpin */
		mm->ev[PSWPIN]++;
		mm->ev[PGPGIN] += PAGE_SIZE / 1024;
		if (!mm->swap.zram) {
			/* the faulting task's work: mm->cur is a reclaim
			 * pass's, NULL in a fault */
			struct mm_ctx *saved = mm->cur;
			mm->cur = ctx;
			mm_work(mm, W_READ_SWAP_CACHE, 1);
			mm->cur = saved;
		}
		io_request(mm, ctx, NULL, slot); /* swap_read_folio(): a bio per folio */
	}
	uint64_t shadow = mm->swap.shadow ? mm->swap.shadow[slot] : 0;
	if (shadow) {
		mm->swap.shadow[slot] = 0;
		if (mm->cgt)
			cgtree_count(mm, mm_page(mm, pfn)->memcg, CGS_REFAULT_ANON, 1);
		mm_refault(mm, pfn, shadow);
		mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_REFAULT);
	} else {
		mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_SWAPIN);
	}
}

static void swapin_submit(struct mm *mm, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot)
{
	struct zswap *z = mm->swap.zswap;
	if (z && zswap_has(z, slot)) {
		/* swap_read_folio(): zswap_load() first, synchronous */
		zswap_load(z, ctx, pfn, slot);
		mm_io_done(mm, IO_READ, pfn);
		return;
	}
	if (z)  /* zswap_folio_swapin(): a read from the disk */
		zswap_disk_swapin(z, mm_page(mm, pfn)->memcg);
	if (mm->untimed)
		mm_io_done(mm, IO_READ, pfn);
	else
		mm->io.submit_swap(mm->io.arg, IO_READ, slot, pfn, ctx_now(ctx));
}

/* A page read besides the faulting one, into the swap cache unmapped.
 * 6.x: SetPageReadahead + count_vm_event(SWAP_RA); its first fault finds
 * it marked and counts swap_ra_hit (swap_cache_get_folio). */
static void read_ahead_page(struct mm *mm, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot)
{
	swapin_page(mm, ctx, pfn, slot, 0, 0);
	mm_page(mm, pfn)->flags |= PG_readahead;
	mm->ev[SWAP_RA]++;
	swapin_submit(mm, ctx, pfn, slot);
}

/* A frame for a readahead page, or PFN_NONE.  Its charge cannot wait
 * for writes in flight (mm->charge_nowait: memcg.c wait_for_writes()
 * charges it past the limit instead, as the kernel's would succeed after
 * sleeping); it fails only when reclaim does.  The failure is the
 * readahead's alone: the fault's own page has its frame, so no OOM kill
 * it queued (a charge's oom_pending / oom_cg) is left for a later one,
 * and the fault does not wait on reclaim for it. */
pfn_t swap_ra_alloc(struct mm *mm, struct mm_ctx *ctx)
{
	enum fault_status st;
	bool pending = mm->memcg.oom_pending, wait = ctx && ctx->reclaim_wait;
	int oom_cg = mm->cgt ? mm->cgt->oom_cg : 0;
	mm->charge_nowait = true;
	pfn_t pfn = mm_alloc_page(mm, ctx, &st);
	mm->charge_nowait = false;
	if (pfn != PFN_NONE)
		return pfn;
	mm->memcg.oom_pending = pending;
	if (mm->cgt)
		mm->cgt->oom_cg = oom_cg;
	if (ctx)
		ctx->reclaim_wait = wait;
	return PFN_NONE;
}

/* Read slots [lo, hi) in ascending order (one plug, one disk request):
 * the faulting page at `target` (set up in tpfn) and every other slot in
 * use that the swap cache does not hold.  A readahead page that finds no
 * frame (alloc) ends the window with stop_on_fail (2.6.28's
 * swapin_readahead(): `if (!page) break;`); without, the slot is skipped
 * and the next one allocates again, reclaiming again if it must (4.14+'s
 * swap_cluster_readahead(), `if (!page) continue;` in 6.1, `if (!folio)
 * continue;` later). */
void swap_ra_read_slots(struct mm *mm, struct mm_ctx *ctx, uint32_t lo, uint32_t hi,
			uint32_t target, pfn_t tpfn, bool stop_on_fail, swap_ra_alloc_fn alloc)
{
	struct swap_area *sw = &mm->swap;
	bool give_up = false;
	for (uint32_t s = lo; s < hi; s++) {
		if (s == target) {
			swapin_submit(mm, ctx, tpfn, target);
			continue;
		}
		if (give_up || !sw->map[s] || sw->cache[s] != PFN_NONE)
			continue;
		pfn_t pfn = alloc(mm, ctx);
		if (pfn == PFN_NONE) {
			give_up = stop_on_fail;
			continue;
		}
		/* The allocation may have reclaimed: look again. */
		if (sw->cache[s] != PFN_NONE || !sw->map[s]) {
			free_frame(mm, pfn);
			continue;
		}
		read_ahead_page(mm, ctx, pfn, s);
	}
}

/* swapin_readahead() with 2.6's valid_swaphandles(): the slots in use
 * around the faulting one, within its aligned cluster of 1 << page_cluster
 * slots, stopping at a free slot; read in ascending order (one disk
 * request) into the swap cache, unmapped until they are faulted.  The
 * target page `tpfn` is set up but not yet submitted. */
static void swapin_readahead(struct mm *mm, struct mm_ctx *ctx, uint32_t target, pfn_t tpfn)
{
	struct swap_area *sw = &mm->swap;
	uint64_t n = 1ULL << mm->vm.page_cluster;
	uint64_t base = (uint64_t)target / n * n, end = base + n;
	if (end > sw->nr_slots)
		end = sw->nr_slots;
	uint64_t lo = target, hi = target + 1;
	while (lo > base && sw->map[lo - 1])
		lo--;
	while (hi < end && sw->map[hi])
		hi++;
	swap_ra_read_slots(mm, ctx, (uint32_t)lo, (uint32_t)hi, target, tpfn, true,
			   swap_ra_alloc);
}

#define SWAP_RA_ORDER_CEILING 5   /* mm/swap_state.c: at most 32 pages */
#define PMD_PAGES 512             /* the window stays within one page table */

/* __swapin_nr_pages(): the readahead window from the hits the last window
 * earned.  "This heuristic has been found to work well on both sequential
 * and random loads, swapping to hard disk or to SSD: please don't ask what
 * the '+ 2' means, it just happens to work well, that's all."  With no hits
 * to judge by, a fault next to the previous one still reads 2 pages;
 * otherwise 1.  It never shrinks by more than half at a time. */
uint32_t swapin_nr_pages(uint64_t prev_off, uint64_t off, uint32_t hits, uint32_t max_pages,
			 uint32_t prev_win)
{
	uint32_t pages = hits + 2;
	if (pages == 2) {
		if (off != prev_off + 1 && off + 1 != prev_off)
			pages = 1;
	} else {
		uint32_t roundup = 4;
		while (roundup < pages)
			roundup <<= 1;
		pages = roundup;
	}
	if (pages > max_pages)
		pages = max_pages;
	if (pages < prev_win / 2)
		pages = prev_win / 2;
	return pages;
}

/* The window (mm.h): swap_vma_ra_win() in pages of v.  A fault on the
 * page after the last one reads ahead of it, on the page before reads
 * behind it, any other around it; the range is computed first and then
 * cut at the VMA's ends and the fault's page table, so a window near
 * the VMA's start is shorter, not moved.  A VMA with no fault yet has no
 * previous page (the kernel's address 0) and 4 hits. */
uint32_t swap_vma_ra_window(struct vma *v, uint64_t off, uint32_t max_win, uint64_t *lo,
			    uint64_t *hi)
{
	*lo = off;
	*hi = off + 1;
	if (max_win <= 1)
		return 1;
	bool set = v->ra_set;
	uint64_t prev = v->ra_off;
	uint32_t win = swapin_nr_pages(set ? prev : off + 2, off, v->ra_hits, max_win, v->ra_win);
	v->ra_off = off;
	v->ra_win = win;
	v->ra_hits = 0;
	v->ra_set = true;
	if (win == 1)
		return 1;
	int64_t left;
	if (set && off == prev + 1)
		left = (int64_t)off;
	else if (set && prev == off + 1)
		left = (int64_t)off + 1 - (int64_t)win;
	else
		left = (int64_t)off - (int64_t)((win - 1) / 2);
	int64_t right = left + (int64_t)win;
	uint64_t vpn = v->start + off, pmd = vpn / PMD_PAGES * PMD_PAGES;
	int64_t pmd_lo = (int64_t)pmd - (int64_t)v->start, pmd_hi = pmd_lo + PMD_PAGES;
	if (left < 0)
		left = 0;
	if (left < pmd_lo)
		left = pmd_lo;
	if (right > pmd_hi)
		right = pmd_hi;
	if (right > (int64_t)v->npages)
		right = (int64_t)v->npages;
	*lo = (uint64_t)left;
	*hi = (uint64_t)right;
	return win;
}

/* swap_vma_readahead() (4.14+, the default since): read the swapped-out
 * pages of the faulting VMA in swap_vma_ra_window() (1 << page_cluster
 * pages at most, 32 at most), ascending.  Readahead pages go to the swap
 * cache unmapped with PG_readahead (swap_ra); a fault that finds one
 * there counts swap_ra_hit and widens the next window.  alloc is
 * swap_ra_alloc but in tests. */
void swap_vma_readahead(struct mm *mm, struct mm_ctx *ctx, struct vma *v, uint64_t off,
			uint32_t target, pfn_t tpfn, swap_ra_alloc_fn alloc)
{
	uint64_t cluster = mm->vm.page_cluster < SWAP_RA_ORDER_CEILING ? mm->vm.page_cluster
								      : SWAP_RA_ORDER_CEILING;
	uint64_t lo, hi;
	swap_vma_ra_window(v, off, 1u << cluster, &lo, &hi);
	for (uint64_t o = lo; o < hi; o++) {
		if (o == off) {
			swapin_submit(mm, ctx, tpfn, target);
			continue;
		}
		if (!pte_is_swap(v->pte[o]))
			continue;
		uint32_t slot = pte_slot(v->pte[o]);
		if (mm->swap.cache[slot] != PFN_NONE)
			continue;
		pfn_t pfn = alloc(mm, ctx);
		if (pfn == PFN_NONE)
			continue; /* `if (!folio) continue;`: the next may get one */
		/* The allocation may have reclaimed: look again. */
		if (!pte_is_swap(v->pte[o]) || pte_slot(v->pte[o]) != slot ||
		    mm->swap.cache[slot] != PFN_NONE || !mm->swap.map[slot]) {
			free_frame(mm, pfn);
			continue;
		}
		read_ahead_page(mm, ctx, pfn, slot);
	}
}

/* The window (mm.h): swapin_nr_pages() in the kernel's offsets. */
uint32_t swap_cluster_ra_window(struct swap_area *sw, uint32_t target, uint32_t max_win,
				uint32_t *first, uint32_t *last)
{
	uint64_t off = (uint64_t)target + 1;
	uint32_t win = 1;
	if (max_win > 1) {
		uint32_t hits = sw->ra_hits;
		sw->ra_hits = 0;
		win = swapin_nr_pages(sw->ra_prev, off, hits, max_win, sw->ra_win);
		if (!hits)
			sw->ra_prev = (uint32_t)off;
		sw->ra_win = win;
	}
	uint64_t mask = win - 1;
	uint64_t start = off & ~mask, end = off | mask;
	if (!start)
		start = 1; /* offset 0 is the swap header */
	if (end > sw->nr_slots)
		end = sw->nr_slots;
	*first = (uint32_t)(start - 1);
	*last = (uint32_t)(end - 1);
	return win;
}

/* swap_cluster_readahead() (mm/swap_state.c, 4.4+ with Shaohua Li's
 * adaptive window): what 4.14+ reads when swap_use_vma_readahead() is
 * false because a swap device is rotational (vm.swap_rotational), even
 * with vma_ra_enabled.  The window is swapin_nr_pages() of the global
 * readahead hits, slot numbers standing for swap offsets (the kernel's
 * offset is pagelab's slot + 1: offset 0 is the swap header); every slot
 * in use in the aligned window of that size around the faulting one is
 * read, ascending, into the swap cache, skipping those already there - no
 * stop at a free slot as 2.6's valid_swaphandles() made.  A window of one
 * reads the faulting page alone. */
static void swap_cluster_readahead(struct mm *mm, struct mm_ctx *ctx, uint32_t target, pfn_t tpfn)
{
	uint32_t first, last;
	swap_cluster_ra_window(&mm->swap, target, 1u << mm->vm.page_cluster, &first, &last);
	swap_ra_read_slots(mm, ctx, first, last + 1, target, tpfn, false,
			   swap_ra_alloc);
}

void swapin_read(struct mm *mm, struct mm_ctx *ctx, struct vma *v, uint64_t off, uint32_t slot,
		 pfn_t pfn)
{
	if (mm->swap.zram) {
		/* SWP_SYNCHRONOUS_IO: 6.18's do_swap_page() reads the one page
		 * synchronously, no readahead (swap_read_folio() ->
		 * zram_read_page()), when __swap_count(entry) == 1 - always
		 * here: no anonymous page has two mappers (no fork sharing). */
		uint64_t block;
		if (zram_read(mm->swap.zram, ctx, pfn, slot, &block)) {
			mm_io_done(mm, IO_READ, pfn);
			return;
		}
		/* written back (zram_wb.c): read_from_bdev(), a bio of
		 * its own (submit_bio() counts its pgpgin) that the fault
		 * waits for, the page locked till it completes */
		mm->ev[PGPGIN] += PAGE_SIZE / 1024;
		io_request(mm, ctx, NULL, block);
		mm->io.submit_block(mm->io.arg, IO_READ, block, pfn, ctx_now(ctx));
		return;
	}
	/* Trace mode is a cache simulator: a miss reads one page. */
	if (mm->untimed)
		swapin_submit(mm, ctx, pfn, slot);
	else if (swap_use_vma_readahead(mm))
		swap_vma_readahead(mm, ctx, v, off, slot, pfn, swap_ra_alloc);
	else if (mm->vm.swap_vma_ra)
		swap_cluster_readahead(mm, ctx, slot, pfn);
	else
		swapin_readahead(mm, ctx, slot, pfn);
}
