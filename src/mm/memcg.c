/* memcg.c - `--memcg LIMIT`: the workloads run in one memory cgroup.
 *
 * Follows 6.x mm/memcontrol.c try_charge_memcg() and mm/vmscan.c
 * try_to_free_mem_cgroup_pages(): a charge that would take the cgroup past
 * its limit makes the charging task reclaim from the cgroup's own LRU,
 * synchronously (no kswapd, no watermarks), SWAP_CLUSTER_MAX pages at a
 * time, up to MAX_RECLAIM_RETRIES times, and then the cgroup's OOM killer
 * runs.  The reclaim is counted in pgscan_anon/file and pgsteal_anon/file
 * but not in pgscan_kswapd/direct, pgsteal_kswapd/direct, allocstall or
 * pgrefill (account_pass() in mm.c).
 *
 * Simplifications.  Every page the simulation allocates is a workload's,
 * so the cgroup's LRU is the node's LRU and limit reclaim is the policy's
 * shrink() on it.  The per-CPU charge stock (MEMCG_CHARGE_BATCH) is left
 * out: the limit is exact to the page.  Writeback: cgroup v1 reclaim
 * waits for a page it finds under writeback with PG_reclaim
 * (shrink_folio_list's case 3, !writeback_throttling_sane()); v2 does not.
 * pagelab's swap writes complete only as simulated time passes, so both
 * let the charging task wait for writes already in flight when their ends
 * would free enough to bring the cgroup under its limit (the stand-in for
 * the writes that finish during a real reclaim pass) - a textbook policy's
 * evicted pages, freed as their writes end; the kernel's (linux6's) are
 * not: folio_end_writeback() rotates a PG_reclaim folio to the inactive
 * tail, charged until a later pass frees it, so try_charge_memcg() goes
 * on reclaiming (6.18: no wait on writes in flight before
 * try_to_free_mem_cgroup_pages()) - and stall below DEF_PRIORITY - 2 like
 * the global allocator, after starting more writeback.  Case 3 itself: a
 * policy with POLICY_V1_WAIT_WRITEBACK (linux6) reports the folio it met
 * (sc->nr_wait_writeback) and the task sleeps until a write completes;
 * for the other policies v1 stalls as soon as a pass falls short with
 * writeback pending, at any priority - far more often than the kernel,
 * which waits only for a folio met again while still being written.
 * Out of retries, a charge also waits (rather than OOM-kill) while a
 * flusher woken by reclaim (6.18 wakeup_flusher_threads(WB_REASON_VMSCAN))
 * has not started its writes: the kernel's runs beside the charging task.
 * A charge that cannot wait - a swap readahead page's, which 6.18's
 * __read_swap_cache_async() charges with the fault's GFP_HIGHUSER_MOVABLE
 * (mem_cgroup_swapin_charge_folio(): it reclaims and sleeps as any) - is
 * made past the limit where it would wait (wait_for_writes()). */
#include "internal.h"

#define MAX_RECLAIM_RETRIES 16

void mm_memcg_init(struct mm *mm, uint64_t limit_pages, bool v1)
{
	mm->memcg = (struct memcg){ .limit = limit_pages, .v1 = v1 };
	/* Frames allocated before (none, normally) are the cgroup's too. */
	mm->memcg.charged = mm->fr.nr - mm->stat.nr_free;
	mm->memcg.peak = mm->memcg.charged;
}

static bool charge_one(struct memcg *cg)
{
	if (cg->charged >= cg->limit)
		return false;
	if (++cg->charged > cg->peak)
		cg->peak = cg->charged;
	return true;
}

/* The charge must wait for writes in flight.  A charge that cannot wait
 * (mm->charge_nowait: a swap readahead page, swapin.c) is made past the
 * limit instead, when its cgroup can be: the kernel's charge would sleep
 * in reclaim until they end (v1: folio_wait_writeback() in
 * shrink_folio_list()) and then succeed, so the page is read as it is
 * there; only the sleep is not charged to the fault. */
static bool wait_for_writes(struct mm *mm, enum fault_status *st, const struct charge_ops *co)
{
	if (mm->charge_nowait && co->force) {
		co->force(co->arg);
		return true;
	}
	*st = FAULT_WAIT_RECLAIM;
	return false;
}

/* try_charge_memcg()'s retry loop after a failed charge, for --memcg's
 * one cgroup and for a tree's (cgtree.c): limit reclaim, then the charge
 * again, up to MAX_RECLAIM_RETRIES times.  false: *st says whether to
 * wait for writes in flight or to OOM. */
bool limit_charge(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st, int stall_below,
		  const struct charge_ops *co)
{
	for (int retries = 0; retries < MAX_RECLAIM_RETRIES; retries++) {
		/* Writes in flight will uncharge enough: wait for them rather
		 * than evict more.  Only a textbook policy's evicted pages are
		 * freed as their writes end; the kernel's (linux6's PG_reclaim
		 * folios) rotate to the inactive tail and stay charged until a
		 * later pass frees them, so its charge reclaims on at once. */
		uint64_t freeing = mm_writes_will_free(mm);
		if (freeing && co->pending_enough(co->arg, freeing))
			return wait_for_writes(mm, st, co);
		bool congested;
		if (co->reclaiming)
			co->reclaiming(co->arg);
		do_try_to_free_pages(mm, ctx, SWAP_CLUSTER_MAX, true, stall_below, &congested);
		if (co->charge(mm, co->arg))
			return true;
		if (congested)
			return wait_for_writes(mm, st, co);
	}
	if (co->charge(mm, co->arg))
		return true;
	/* Writes in flight, or a flusher woken by reclaim that has not
	 * started them yet (it runs beside the charging task in the kernel,
	 * so its writes end during the retries): wait for them. */
	if (mm->stat.nr_writeback || mm->stat.nr_reading || mm->flush_all)
		return wait_for_writes(mm, st, co);
	*st = FAULT_OOM;
	return false;
}

static bool memcg_charge(struct mm *mm, void *arg)
{
	(void)mm;
	return charge_one(arg);
}

/* wait_for_writes()'s charge past the limit: memory.peak stays what the
 * kernel's would show, at most the limit (its charge waited instead). */
static void memcg_force(void *arg)
{
	struct memcg *cg = arg;
	cg->charged++;
}

static bool memcg_pending_enough(void *arg, uint64_t freeing)
{
	const struct memcg *cg = arg;
	return cg->charged - freeing < cg->limit;
}

bool memcg_try_charge(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st)
{
	struct memcg *cg = &mm->memcg;
	*st = FAULT_DONE;
	if (charge_one(cg))
		return true;
	cg->failcnt++;
	/* v1's wait on writeback: a policy that models shrink_folio_list's
	 * case 3 reports the folios it must wait for itself; for the others
	 * v1 stalls at the first pass that falls short with writes pending. */
	bool coarse_v1 = cg->v1 && !(mm->pol.ops->flags & POLICY_V1_WAIT_WRITEBACK);
	int stall_below = coarse_v1 ? DEF_PRIORITY + 1 : DEF_PRIORITY - 2;
	if (limit_charge(mm, ctx, st, stall_below, &(struct charge_ops){ memcg_charge, memcg_pending_enough, cg, NULL, memcg_force }))
		return true;
	if (*st != FAULT_OOM)
		return false;
	/* mem_cgroup_oom(): the kill happens inside the cgroup. */
	cg->oom++;
	cg->oom_pending = true;
	return false;
}
