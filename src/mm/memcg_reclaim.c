/* memcg_reclaim.c - memory.reclaim: proactive reclaim of N pages from a
 * cgroup's subtree, as a write of "SIZE [swappiness=N]" to the file does.
 *
 * Follows 6.9-6.15 mm/memcontrol.c memory_reclaim() (6.16 moved it to
 * mm/vmscan.c as user_proactive_reclaim(), the same loop): while fewer
 * than N pages are reclaimed, try_to_free_mem_cgroup_pages() with
 * MEMCG_RECLAIM_MAY_SWAP | MEMCG_RECLAIM_PROACTIVE for a quarter of what
 * is left (6.8's T.J. Mercier fix, 287d5fedb377: "Will converge on zero,
 * but reclaim enforces a minimum"), at least SWAP_CLUSTER_MAX
 * (try_to_free_mem_cgroup_pages()'s max(nr_pages, SWAP_CLUSTER_MAX));
 * a call that reclaimed nothing spends one of MAX_RECLAIM_RETRIES (16)
 * retries, and with none left the write fails with -EAGAIN.  Pages
 * reclaimed on the way stay reclaimed.
 *
 * Time: the kernel's loop runs while the swap and file writes it started
 * complete, and a later pass frees those folios (folio_end_writeback()'s
 * folio_rotate_reclaimable() puts them at the inactive tail,
 * reclaim_throttle() when a pass meets only folios under writeback).
 * pagelab runs a try at once, so when a try falls short, or the writes
 * in flight would free what is left, with pages under writeback pending
 * free, the writer blocks until writes complete (MEMCG_RECLAIM_WAIT: the
 * caller waits as reclaim_throttle() does, then calls again), and the
 * next try frees the written pages.  A wait counts nothing as reclaimed:
 * nr_reclaimed is only what try_to_free_mem_cgroup_pages() returned,
 * never memory.current's drop meanwhile (a task of the cgroup exiting,
 * a file truncated, kswapd's reclaim: none is this write's), so what the
 * write reports is the subtree's pgsteal_proactive.  A wait spends no
 * retry, and the writer tries again before it waits again (in the
 * kernel the throttle is inside a try): the node's pending-free pages
 * stand in for the cgroup's (as for limit reclaim, cgtree.c), and other
 * cgroups' writes must not keep it waiting for ever.  swappiness= (6.9, Dan
 * Schatzberg's 68cd9050d871, 0 to 200) is sc->proactive_swappiness, which
 * get_scan_count() uses in place of the cgroup's (mm_reclaim_swappiness()).
 *
 * The reclaim is the limit reclaim of the tree (target: the cgroup,
 * priority DEF_PRIORITY down to 0, may_writepage and may_swap, honouring
 * memory.min/low below the target, cgtree_lru.c, memcg_hooks.c); v2
 * reclaim never waits for writeback (stall_below 0).  Unlike a charge's
 * reclaim (try_charge_memcg()) or memory.high's (reclaim_high()), the
 * writer is not in a memory stall: memory_reclaim() has no
 * psi_memstall_enter().  Its CPU time is the writer's system time.
 * Counted: memory.stat pgscan_proactive / pgsteal_proactive (6.15, Hao
 * Jia's split of proactive from direct reclaim) in each cgroup whose
 * lruvec was scanned / whose pages were freed, besides pgscan / pgsteal.
 *
 * Left out: lru_add_drain_all() before the last try (pagelab has no
 * per-CPU LRU caches), signal_pending()'s -EINTR, swappiness=max (6.15's
 * SWAPPINESS_ANON_ONLY). */
#include "internal.h"

#include <errno.h>

#define MEMCG_RECLAIM_RETRIES 16     /* MAX_RECLAIM_RETRIES */

void mm_memcg_reclaim_begin(struct memcg_reclaim *r, int cg, uint64_t nr_to_reclaim, int swappiness)
{
	*r = (struct memcg_reclaim){ .cg = cg, .nr_to_reclaim = nr_to_reclaim, .swappiness = swappiness,
				     .nr_retries = MEMCG_RECLAIM_RETRIES };
}

int mm_memcg_reclaim(struct mm *mm, struct mm_ctx *ctx, struct memcg_reclaim *r)
{
	struct cgtree *t = mm->cgt;
	int ret = 0;
	t->proactive = true;
	t->proactive_swappiness = r->swappiness;
	while (r->done < r->nr_to_reclaim) {
		uint64_t left = r->nr_to_reclaim - r->done;
		/* Writes this reclaim started will free enough, or the last
		 * try fell short with writes in flight: wait for them. */
		if (!r->woken && mm->stat.nr_pending_free &&
		    (mm->stat.nr_pending_free >= left || r->short_try)) {
			r->woken = true;
			r->short_try = false;
			ret = MEMCG_RECLAIM_WAIT;
			break;
		}
		r->woken = false;
		uint64_t batch = left / 4;
		if (batch < SWAP_CLUSTER_MAX)
			batch = SWAP_CLUSTER_MAX;
		bool congested;
		t->target = r->cg;
		uint64_t got = try_to_free(mm, ctx, batch, true, 0, &congested);
		t->target = 0;
		r->short_try = got < batch;
		if (!got && mm->stat.nr_pending_free)
			continue;     /* a wait, not a retry spent */
		if (!got && !r->nr_retries--) {
			ret = -EAGAIN;
			break;
		}
		r->done += got;
	}
	t->proactive = false;
	t->proactive_swappiness = -1;
	return ret;
}

int mm_reclaim_swappiness(const struct mm *mm, int own)
{
	const struct cgtree *t = mm->cgt;
	return t && t->proactive && t->proactive_swappiness >= 0 ? t->proactive_swappiness : own;
}

void cgtree_count_proactive(struct mm *mm, int cg, uint64_t scanned, uint64_t stolen)
{
	struct cgtree *t = mm->cgt;
	if (!t || !t->proactive)
		return;
	t->cg[cg].pgscan_proactive += scanned;
	t->cg[cg].pgsteal_proactive += stolen;
}
