/* filemap_mmap_ra.c - readahead on faults of a file mapping, by era
 * (vm.ra_era):
 *
 *  22, 24  2.2 / 2.4 filemap_nopage(): a miss reads the aligned cluster of
 *          1 << page_cluster pages holding the page (readahead_old.c);
 *          a hit reads nothing.
 *  26      2.6.23-2.6.30 filemap_fault(): a miss reads ra_pages centred on
 *          the page (2.6.26 do_page_cache_readahead), keeping no state and
 *          setting no PG_readahead marker; a hit reads nothing (only a
 *          VM_SequentialReadHint mapping, madvise(MADV_SEQUENTIAL), which no
 *          workload issues, took the on-demand path).
 *  30      3.0+ do_sync_mmap_readahead() / do_async_mmap_readahead()
 *          (mm/filemap.c; the read-around as in 6.8 and in 6.16+, which
 *          adds ra->order = 0): the read-around is recorded in the file's
 *          readahead state - ra->start = index - ra_pages / 2 (at least 0),
 *          ra->size = ra_pages, ra->async_size = ra_pages / 4 - so its page
 *          at start + size - async_size carries PG_readahead; a fault that
 *          finds a page with the marker (and is not a retry: !FAULT_FLAG_
 *          TRIED) runs page_cache_async_ra() with req_count = ra_pages, the
 *          on-demand logic of readahead.c, which pushes the window forward
 *          (ra_window: start += size, size ramped up to ra_pages, async_size
 *          = size, the folio order raised by 2).  So a sequential walk of a
 *          mapping faults major once, as a read() stream misses once.
 *          do_async_mmap_readahead() arrived in 2.6.31 (Linus Torvalds'
 *          split of filemap_fault's readahead), but its read-around kept
 *          async_size 0 - no marker - until Wu Fengguang's "readahead:
 *          trigger mmap sequential readahead on PG_readahead" (3.0), which
 *          set async_size = ra_pages / 4 and dropped the prev_pos test of
 *          2.6.31-2.6.39; 30 models 3.0 on (workingset, linux6, mglru).
 *
 * page_cache_async_ra() leaves a folio under writeback alone (PG_readahead
 * shares its bit with PG_reclaim there): so does mmap_async_readahead().
 * Its window's pages are charged with __GFP_NORETRY: one reclaim pass in
 * the faulting task, which in cgroup v1 sleeps on writeback; where
 * pagelab's charge says to wait for reclaim's writes, the fault waits and
 * comes back to the same marker (dropping the window instead broke the
 * chain of markers under a limit: mmap001 -m 24576 in a 64 MB v1 cgroup
 * faulted major 92 times for linux6, 2 with the wait).
 * Not modelled: ra->mmap_miss (MMAP_LOTSAMISS: read-around stops once a
 * file's misses outnumber its hits by 100), VM_SEQ_READ / VM_RAND_READ
 * (madvise), VM_HUGEPAGE's PMD-sized windows, VM_EXEC's folio order, and
 * 6.10+'s marker test against the folio's first page (pagelab marks
 * pages). */
#include "filemap.h"
#include "internal.h"

enum fault_status mmap_sync_readahead(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
				      uint64_t index)
{
	const struct vm_sysctl *vs = &mm->vm;
	uint64_t start, nr, async = 0;
	struct file_ra *ra = NULL;
	if (vs->ra_era < 26) {
		nr = ra_old_cluster(vs, index, &start);
	} else {
		nr = vs->ra_pages ? vs->ra_pages : 1;
		start = index > nr / 2 ? index - nr / 2 : 0;
		if (vs->ra_era >= 30 && vs->ra_pages) {
			ra = &ino->ra;
			async = nr / 4;
			*ra = (struct file_ra){ .start = start, .size = nr, .async_size = async,
						.prev = ra->prev };
		}
	}
	return filemap_readaround(mm, ctx, ino, ra, start, nr, async, index);
}

enum fault_status mmap_async_readahead(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
				       pfn_t pfn, uint64_t index)
{
	const struct vm_sysctl *vs = &mm->vm;
	struct page *p = mm_page(mm, pfn);
	if (vs->ra_era < 30 || !vs->ra_pages || !(p->flags & PG_readahead) ||
	    (p->flags & PG_writeback))
		return FAULT_DONE;
	struct file_ra was = ino->ra;
	p->flags &= ~PG_readahead;
	uint64_t start, async;
	uint64_t nr = ra_window(vs, ino, &ino->ra, index, vs->ra_pages, true, &start, &async);
	if (!nr)
		return FAULT_DONE;
	/* filemap_fault() holds a reference on the folio it found, so the
	 * window's reclaim cannot free it (__remove_mapping's ref freeze
	 * fails: kept).  The stand-in here: it is locked meanwhile, which
	 * reclaim keeps too (folio_trylock fails), unless its read is still
	 * in flight and it is locked already. */
	uint32_t pin = PG_locked & ~p->flags;
	p->flags |= pin;
	enum fault_status st = filemap_ra_submit(mm, ctx, ino, &ino->ra, start, nr, async, UINT64_MAX);
	p->flags &= ~pin;
	if (st != FAULT_WAIT_RECLAIM)
		return FAULT_DONE;
	/* A page of the window must wait for reclaim's writes to be
	 * charged.  The kernel's readahead charge (__GFP_NORETRY, in the
	 * faulting task) reclaims and, in cgroup v1, sleeps on writeback
	 * inside the window; here the fault waits and comes back to the
	 * marker and window as they were, the pages read so far cached. */
	ino->ra = was;
	p->flags |= PG_readahead;
	return st;
}
