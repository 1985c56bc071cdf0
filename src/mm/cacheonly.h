/* cacheonly.h - the cache-only mm's (cacheonly.c) fault, with its
 * allocation of a frame and the first pass of its direct reclaim, inline
 * (what reclaim does to a page, for the policies too: cachepage.h).  For
 * the mm core's files and the cache-only replay's reference loop
 * (src/cachesim), which inlines mm_cache_fault() into its miss: as a call
 * into cacheonly.c from a call out of the loop, the fault's entry, exit
 * and arguments were 30 of a miss's 431 instructions, and the fault found
 * again (as, VMA, table) the PTE the loop had in hand (callgrind).
 * internal.h includes it. */
#ifndef PAGELAB_MM_CACHEONLY_H
#define PAGELAB_MM_CACHEONLY_H

#include <string.h>

/* take_zone_frame() of the cache's one zone: the frame freed last. */
static inline pfn_t cache_take_frame(struct mm *mm)
{
	pfn_t pfn = mm->cache.freed;
	if (pfn != PFN_NONE) {
		mm->cache.freed = PFN_NONE;
	} else {
		pfn = lru_head(&mm->fr, mm->zones[0].free_list);
		lru_del(&mm->fr, pfn);
	}
	mm_page(mm, pfn)->flags = 0;
	mm->zones[0].nr_free--;
	mm->stat.nr_free--;
	mm->ev[PGALLOC]++;
	return pfn;
}

/* shrink_pass() (mm.c) of direct reclaim for one page in a cache: the
 * same scan_control, the same call of the policy, the same counters,
 * without what cannot happen there - a zone to choose (there is one),
 * kswapd's need_balance, writeback started, time charged (the cache's
 * costs are all zero). */
/* The scan_control of a cache's direct reclaim pass, but its priority
 * (cacheonly.c).  Copied from here, not built by an initializer: gcc
 * makes the initializer's zeroing of the other 80 bytes a `rep stosq`,
 * whose start-up was a third of a SIEVE replay's miss path outside the
 * policy (perf); a copy from a constant it cannot see is six 16-byte
 * moves. */
extern const struct scan_control cache_sc_direct;

__attribute__((always_inline)) static inline uint64_t cache_shrink_pass(struct mm *mm, struct mm_ctx *ctx, int priority)
{
	struct scan_control sc = cache_sc_direct;
	sc.priority = priority;
	policy_shrink(mm, ctx, &sc);
	/* account_pass() of direct reclaim outside a cgroup, as the pass's
	 * who and cgroup are (a fifth of the pass's own instructions went
	 * to its tests of them, reloaded after the policy's call). */
	account_scan_steal(mm, &sc);
	mm->ev[PGSCAN_DIRECT] += sc.nr_scanned;
	mm->ev[PGSTEAL_DIRECT] += sc.nr_reclaimed;
	return sc.nr_reclaimed;
}

/* The rest of cache_alloc()'s reclaim, from the next priority on, out of
 * line (cacheonly.c). */
pfn_t mm_cache_alloc_retry(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st, uint64_t got);

/* The allocator of a cache (cacheonly.c says how it stands for
 * alloc_frame() and do_try_to_free_pages()): a free frame if there is one,
 * else an allocstall and the first reclaim pass, which finds the page on
 * nearly every miss. */
__attribute__((always_inline)) static inline pfn_t cache_alloc(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st)
{
	*st = FAULT_DONE;
	if (mm->stat.nr_free)
		return cache_take_frame(mm);
	count_allocstall(mm, 0);
	uint64_t got = cache_shrink_pass(mm, ctx, DEF_PRIORITY);
	if (__builtin_expect(mm->stat.nr_free != 0, 1))
		return cache_take_frame(mm);
	return mm_cache_alloc_retry(mm, ctx, st, got);
}

/* mm->cache.only: the fault of page `off` of vma (never touched, or
 * PTE_EVICTED), whose PTE is mm->cache.ptes[id], served at once:
 * FAULT_DONE with the page mapped, or the allocator's failure (a policy
 * that found no victim).
 *
 * The full path's do_swap_page() puts the page in the swap cache and
 * tells the policy (ADD_SWAPIN) before it maps the PTE; a first touch
 * (do_anonymous_page on trace data) maps it, then tells the policy. */
__attribute__((always_inline)) static inline enum fault_status mm_cache_fault(struct mm *mm, struct mm_ctx *ctx,
									     struct aspace *as, uint32_t vma,
									     uint64_t off, uint32_t id)
{
	pte_t *pt = &mm->cache.ptes[id];
	bool again = (*pt & PTE_EVICTED) != 0;
	mm->fault.owner = as->id + 1;
	mm->fault.file = false;
	mm->fault.index = ANON_INDEX(vma, off);
	mm->cache.fault_id = id;
	enum fault_status st;
	pfn_t pfn = cache_alloc(mm, ctx, &st);
	if (pfn == PFN_NONE) {
		mm->fault.owner = 0;
		return st;
	}
	struct page *p = mm_page(mm, pfn);
	/* PG_dirty on a new page: no copy of it is stored anywhere yet, so
	 * its first eviction writes it, as add_to_swap() makes it do. */
	p->flags = again ? PG_anon : PG_anon | PG_dirty;
	p->owner = as->id + 1;
	p->index = ANON_INDEX(vma, off);
	p->swap = id; /* cache_pte() */
	mm->stat.nr_anon++;
	mm->ev[PGFAULT]++;
	if (again) {
		mm->ev[PGMAJFAULT]++;
		mm->ev[PSWPIN]++;
		mm->ev[PGPGIN] += PAGE_SIZE / 1024;
		ctx->majflt++;
		as->swapents--;
		mm->pol.ops->add(mm->pol.priv, pfn, ADD_SWAPIN);
	}
	page_add_rmap(mm, p);
	as->rss++;
	*pt = mk_pte(pfn);
	if (!again) {
		ctx->minflt++;
		mm->pol.ops->add(mm->pol.priv, pfn, ADD_NEW_ANON);
	}
	mm->fault.owner = 0;
	return FAULT_DONE;
}

#endif
