/* cacheonly.c - the mm core as a cache, for the cache-only replay of
 * --machine ideal (src/cachesim): frames, page tables and the policy, but
 * no swap area, no swap cache, no disk and no time.  A page leaves memory
 * by having its PTE marked PTE_EVICTED and its frame freed; a reference
 * to it faults it back at once.  Everything the policy sees is what the
 * full core shows it on the untimed ideal machine, where every read and
 * write completes before the fault returns: the same add() calls with the
 * same reasons in the same order around the same frames, the same
 * allocator and reclaim driver (mm_alloc_page, direct reclaim's
 * priorities), the same PTE bits for mm_page_referenced().  So a policy's
 * decisions, and the fault counts, are the full path's (tests/cli.d/
 * fastpath.sh); what differs is the swap I/O accounting: pswpout counts a
 * page written back when evicted (written since it came in, or never
 * stored yet), with no swap slot kept for a clean copy. */
#include "internal.h"
#include "../lib/util.h"

const struct scan_control cache_sc_direct = {
	.nr_to_reclaim = 1,
	.who = RECLAIM_DIRECT,
	.may_swap = true,
	.may_writepage = true,
};

/* What the allocator below relies on, checked once. */
void mm_cache_only_enable(struct mm *mm)
{
	const struct zone *z = &mm->zones[0];
	if (mm->nr_zones != 1 || z->wmark_min || z->wmark_low || mm->memcg.limit || !mm->untimed || mm->integrity ||
	    mm->cost->scan_ns)
		panic("cache-only mm: needs one zone, no watermarks, no memcg, untimed, no costs, no integrity check");
	mm->cache.only = true;
	mm->cache.freed = PFN_NONE;
}

/* The allocator and direct reclaim of a cache: alloc_frame() and
 * do_try_to_free_pages() (mm.c) as they run on the untimed ideal
 * machine, without the tests that cannot hold there.  With no watermarks
 * (min = low = high = 0), one zone, no memcg, and nothing ever under
 * writeback or being read (so nothing pending free and no congestion),
 * alloc_frame() takes a free frame if there is one; otherwise it counts
 * an allocstall and asks do_try_to_free_pages() for one page: passes from
 * DEF_PRIORITY down until one is reclaimed, up to 16 times, giving up
 * after two fruitless cycles.  The policy's shrink() gets the same
 * scan_control (shrink_pass) with the same nr_to_reclaim and priority in
 * the same order, so it chooses the same victims.  Why not just call
 * mm_alloc_page(): its watermark, zone, memcg, catch-up and congestion
 * tests were 7% of a cache-only replay's instructions on a Zipf trace
 * that misses one reference in five (callgrind).
 *
 * cache_alloc() (cacheonly.h) runs the first pass, which finds the page
 * on nearly every miss; the rest of the loop, from the next priority on,
 * is mm_cache_alloc_retry()'s, out of line. */
pfn_t mm_cache_alloc_retry(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st, uint64_t got)
{
	int fruitless = 0;
	for (int tries = 0; tries < 16; tries++) {
		for (int prio = tries ? DEF_PRIORITY : DEF_PRIORITY - 1; prio >= 0 && !got; prio--)
			got += cache_shrink_pass(mm, ctx, prio);
		if (mm->stat.nr_free)
			return cache_take_frame(mm);
		if (!got && !mm->stat.nr_writeback && ++fruitless >= 2)
			break;
		got = 0;
	}
	/* As alloc_frame(): wait if I/O could still free a page (never here),
	 * else OOM unless the design says to retry. */
	const struct policy_ops *ops = mm->pol.ops;
	*st = mm->stat.nr_writeback || mm->stat.nr_reading || (ops->out_of_memory && !ops->out_of_memory(mm->pol.priv, ctx_now(ctx)))
		      ? FAULT_WAIT_RECLAIM : FAULT_OOM;
	return PFN_NONE;
}

void mm_cache_records(struct mm *mm, void *const *recs, size_t rec_size)
{
	mm->cache.recs = recs;
	mm->cache.rec_size = rec_size;
}

void mm_cache_record_links(struct mm *mm, size_t prev, size_t next)
{
	mm->cache.rec_prev = prev;
	mm->cache.rec_next = next;
}

void mm_cache_frame_records(struct mm *mm, void *const *frecs, size_t frec_size)
{
	mm->cache.frecs = frecs;
	mm->cache.frec_size = frec_size;
}

void mm_cache_hit_hook(struct mm *mm, void (*hit)(void *priv, pfn_t pfn, uint32_t rec))
{
	mm->cache.hit = hit;
}

void mm_cache_unlisted(struct mm *mm)
{
	mm->cache.unlisted = true;
}
