/* memcg_dirty.c - the cgroup's own dirty limits (cgroup writeback, 4.2+;
 * as 6.18 mm/page-writeback.c has them: mdtc_calc_avail(),
 * domain_dirty_limits() for a memcg domain, balance_dirty_pages() and
 * wb_over_bg_thresh() with both domains; mm/memcontrol.c
 * mem_cgroup_wb_stats()).
 *
 * With vm.cgroup_writeback and a cgroup v2 --memcg, the cgroup is a
 * second dirty domain beside the node: its dirtyable memory is its file
 * pages plus the room it has left (memory.max - memory.current), the
 * latter no more than the clean pages the rest of the node could give,
 * and its limits are the node's ratios of that (vm.dirty_bytes, when set,
 * taken as its share of the node's dirtyable memory, as the kernel does).
 * Writers are throttled, and the flusher writes in the background, when
 * either domain is over its limits.  cgroup v1 has no cgroup writeback:
 * only the node's limits apply there, as before 4.2.
 *
 * Simplified: every page the simulation allocates is the cgroup's (one
 * cgroup, memcg.c), so its dirty, writeback and file counts are the
 * node's; no memory.high; one bdi_writeback. */
#include "filemap.h"
#include "internal.h"

uint64_t mm_dirtyable(const struct mm *mm)
{
	/* determine_dirtyable_memory(): free + LRU pages; since 3.14
	 * ("mm: don't count anon pages as dirtyable") free + file pages. */
	return mm->stat.nr_free + mm->stat.nr_file + (mm->vm.flusher == FLUSHER_PERBDI ? 0 : mm->stat.nr_anon);
}

/* A limit of the memcg domain: the node's ratio, or its byte limit as a
 * share of the node's dirtyable memory (at most all of it). */
static uint64_t share(uint64_t mavail, uint64_t bytes, uint64_t ratio, uint64_t gavail)
{
	if (!bytes)
		return mavail * ratio / 100;
	uint64_t pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	if (!gavail || pages >= gavail)
		return mavail;
	return (uint64_t)((double)mavail * (double)pages / (double)gavail);
}

bool mm_memcg_dirty_limits(const struct mm *mm, uint64_t *background, uint64_t *throttle)
{
	const struct memcg *cg = &mm->memcg;
	if (!mm->vm.cgroup_writeback || !cg->limit || cg->v1 || mm->vm.flusher != FLUSHER_PERBDI)
		return false;
	uint64_t gavail = mm_dirtyable(mm);
	uint64_t gdirty = mm->stat.nr_dirty + mm->stat.nr_writeback;
	uint64_t filepages = mm->stat.nr_file, mdirty = gdirty;
	uint64_t headroom = cg->limit > cg->charged ? cg->limit - cg->charged : 0;
	/* mdtc_calc_avail() */
	uint64_t clean = filepages - (mdirty < filepages ? mdirty : filepages);
	uint64_t global_clean = gavail - (gdirty < gavail ? gdirty : gavail);
	uint64_t other_clean = global_clean - (clean < global_clean ? clean : global_clean);
	uint64_t mavail = filepages + (headroom < other_clean ? headroom : other_clean);
	uint64_t ratio = mm->vm.dirty_ratio, bg = mm->vm.dirty_background_ratio;
	*throttle = share(mavail, mm->vm.dirty_bytes, ratio, gavail);
	*background = share(mavail, mm->vm.dirty_background_bytes, bg, gavail);
	if (*background >= *throttle)
		*background = *throttle / 2;
	return true;
}

bool mm_over_bg_thresh(const struct mm *mm)
{
	uint64_t bg, thr;
	mm_dirty_limits(mm, &bg, &thr);
	if (mm->stat.nr_dirty > bg)
		return true;
	return mm_memcg_dirty_limits(mm, &bg, &thr) && mm->stat.nr_dirty > bg;
}
