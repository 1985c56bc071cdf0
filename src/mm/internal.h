/* internal.h - helpers shared by the mm core's files; not for policies. */
#ifndef PAGELAB_MM_INTERNAL_H
#define PAGELAB_MM_INTERNAL_H

#include "mm.h"
#include "filemap.h"
#include "integrity.h"
#include "../lib/util.h"

/* Return a frame to its zone's free list. */
void free_frame(struct mm *mm, pfn_t pfn);
void free_frame_uncharged(struct mm *mm, pfn_t pfn);
/* Take the frame at the head of a zone's free list (PFN_NONE if empty). */
pfn_t take_zone_frame(struct mm *mm, int zone);
/* An allocation entered direct reclaim: ALLOCSTALL and its zone's counter. */
static inline void count_allocstall(struct mm *mm, int zone)
{
	mm->ev[ALLOCSTALL]++;
	mm->ev[mm->zones[zone].allocstall_item]++;
}
/* Take a page off whatever list holds it: the policy's (through remove())
 * or one of the core's own lists. */
void detach_page(struct mm *mm, pfn_t pfn);
/* Free a page nobody maps and no swap PTE refers to, once its I/O is done. */
void free_if_orphan(struct mm *mm, pfn_t pfn);
/* Pages whose writes in flight free them as they end: a textbook policy's
 * evicted dirty pages (list_wb_free).  A PG_reclaim page of a policy that
 * keeps it on its LRU (linux6) is not among them: its write's end rotates
 * it (folio_rotate_reclaimable()) and a later pass frees it. */
uint64_t mm_writes_will_free(const struct mm *mm);
/* Handle a fault at (vma, off); see mm_touch. */
enum fault_status handle_fault(struct mm *mm, struct mm_ctx *ctx, struct aspace *as,
			       uint32_t vma, uint64_t off, bool write);

/* What one reclaim pass reports besides the pages it reclaimed. */
struct pass_result {
	uint64_t nr_wait;         /* folios the policy must wait for (sc->nr_wait_writeback) */
	bool skipped_deactivate;  /* an active list left unaged (sc->skipped_deactivate) */
};
/* One reclaim pass (mm_shrink); cgroup: memcg limit reclaim;
 * force_deactivate: sc->force_deactivate.  *res may be NULL. */
uint64_t shrink_pass(struct mm *mm, struct mm_ctx *ctx, uint64_t nr_to_reclaim, int priority, bool cgroup,
		     bool force_deactivate, struct pass_result *res);
/* Passes from DEF_PRIORITY down until `want` pages are reclaimed; below
 * priority stall_below, with writeback pending, or at once when a pass
 * reports a folio to wait for, stop (*congested) so that the caller waits
 * for it.  Passes that reclaimed nothing and skipped an active list run
 * once more from DEF_PRIORITY with sc->force_deactivate. */
uint64_t do_try_to_free_pages(struct mm *mm, struct mm_ctx *ctx, uint64_t want, bool cgroup,
			      int stall_below, bool *congested);
/* The same outside a memory stall (memory.reclaim: memcg_reclaim.c). */
uint64_t try_to_free(struct mm *mm, struct mm_ctx *ctx, uint64_t want, bool cgroup, int stall_below,
		     bool *congested);
/* memcg.c: charge one page to the cgroup (reclaiming from it at the
 * limit).  false: *st says why not (wait for writeback, or OOM). */
bool memcg_try_charge(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st);
/* What limit_charge()'s retries ask of the counter being charged. */
struct charge_ops {
	bool (*charge)(struct mm *mm, void *arg);          /* charge once: true if it fits */
	/* pages that writes in flight will free would make room */
	bool (*pending_enough)(void *arg, uint64_t freeing);
	void *arg;
	void (*reclaiming)(void *arg);                     /* before each reclaim (may be NULL) */
	void (*force)(void *arg);                          /* charge past the limit (may be NULL) */
};
bool limit_charge(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st, int stall_below,
		  const struct charge_ops *co);

/* cgtree.c: a tree of cgroups (cgtree.h). */
bool cgtree_try_charge(struct mm *mm, struct mm_ctx *ctx, int cg, enum fault_status *st);
bool cgtree_charge_page(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st, int *cg);
void cgtree_uncharge(struct mm *mm, int cg);
/* A swap slot for an anonymous page of cgroup cg, charged to its
 * memory.swap.max (UINT32_MAX: none; swap_alloc_slot() without a tree). */
uint32_t cgtree_swap_alloc(struct mm *mm, int cg);
/* Per-cgroup lruvecs (cgtree_lru.c): the instances of a POLICY_MEMCG_LRU
 * policy beside the first (mm->pol.priv, the root's), made in
 * mm_set_policy() and destroyed with the tree; check and tick each; a
 * reclaim pass over the target's subtree. */
void cgtree_lru_init(struct mm *mm, const double *tun);
void cgtree_lru_destroy(struct mm *mm);
/* A one-instance policy's cgroup_init() for each cgroup (cgroup_exit()
 * runs in cgtree_lru_destroy()). */
void cgtree_cgroups_init(struct mm *mm);
bool cgtree_lru_check(struct mm *mm, FILE *err);
void cgtree_lru_tick(struct mm *mm, struct scan_control *sc);
void cgtree_lru_shrink(struct mm *mm, struct scan_control *sc);
/* shrink_lruvec() of cgroup c's instance for the pass sc, into *sub
 * (progress: sub->nr_progress) and the pass's totals. */
void cgtree_lruvec_shrink(struct mm *mm, struct scan_control *sc, int c, uint64_t progress,
			  struct scan_control *sub);
/* --check of the tree's charges (cgtree_check.c), after mm_check's walk
 * of the swap slots (check_swap.c), whose slots it counts. */
bool cgtree_check(const struct mm *mm, FILE *err);
/* Limit reclaim passes over the page (cgtree.c). */
bool cgtree_skip(struct mm *mm, const struct page *p);
void cgtree_count(struct mm *mm, int cg, enum cg_stat s, uint64_t n);
/* The hooks where the protection and memory.high code plugs in
 * (memcg_hooks.c): the effective memory.min (low false) or memory.low
 * (low true) of cgroup cg in the reclaim running now, as 6.6
 * mem_cgroup_calculate_protection() leaves it for mem_cgroup_below_min()
 * and mem_cgroup_below_low(); and mem_cgroup_handle_over_high(), run as
 * the charging task returns to user space. */
uint64_t memcg_protection(struct mm *mm, int cg, bool low);
void memcg_handle_over_high(struct mm *mm, struct mm_ctx *ctx, int cg);
/* A reclaim pass's protection (memcg_hooks.c): computed from the
 * target at the pass's start, cleared at its end; the memcg_low_reclaim
 * retry of do_try_to_free_pages() (true: retry breaking memory.low). */
void memcg_prot_begin(struct mm *mm);
void memcg_prot_end(struct mm *mm);
void memcg_low_reset(struct mm *mm);
bool memcg_low_retry(struct mm *mm);

/* Start writing a dirty page (swap slot or file block); clears PG_dirty.
 * run: the request ->writepages is building (NULL: a bio of its own). */
void page_writeback(struct mm *mm, struct mm_ctx *ctx, pfn_t pfn, struct io_run *run);

/* The swap token (thrash.c). */
void grab_swap_token(struct mm *mm, struct aspace *as);
void put_swap_token(struct mm *mm, const struct aspace *as);
/* page_referenced_one()'s "pretend the page is referenced" rule. */
bool swap_token_referenced(const struct mm *mm, const struct aspace *as);

/* A PTE starts mapping the page: its mapcount and, on the first map, the
 * NR_FILE_MAPPED / NR_ANON_PAGES gauges (page_remove_rmap, cachepage.h,
 * undoes it). */
static inline void page_add_rmap(struct mm *mm, struct page *p)
{
	if (p->mapcount++ == 0) {
		if (p->flags & PG_file)
			mm->stat.nr_file_mapped++;
		else
			mm->stat.nr_anon_mapped++;
	}
}

/* Whose reclaim work a pass is (work.h): limit reclaim runs in the
 * charging task like direct reclaim but is counted apart, as the kernel's
 * cgroup_reclaim() counts it apart. */
static inline enum work_who work_who_of(const struct scan_control *sc)
{
	if (sc->cgroup)
		return WHO_MEMCG;
	return sc->who == RECLAIM_KSWAPD ? WHO_KSWAPD : sc->who == RECLAIM_DIRECT ? WHO_DIRECT : WHO_AGING;
}

/* The policy's shrink() for a pass run by ctx (shrink_pass, cacheonly.c's
 * cache_shrink_pass). */
static inline void policy_shrink(struct mm *mm, struct mm_ctx *ctx, struct scan_control *sc)
{
	/* do_try_to_free_pages / balance_pgdat: the swap token gets in the
	 * way of swapout once reclaim is desperate. */
	if (sc->priority == 0)
		mm->swap_token_mm = 0;
	struct mm_ctx *saved = mm->cur;
	enum work_who saved_who = mm->work_who;
	mm->cur = ctx;
	mm->work_who = work_who_of(sc);
	if (mm->cgt)
		memcg_prot_begin(mm);
	if (mm->cgt && mm->cgt->per_cg)
		cgtree_lru_shrink(mm, sc);   /* each cgroup's lruvec of the subtree */
	else
		mm->pol.ops->shrink(mm->pol.priv, sc);
	if (mm->cgt)
		memcg_prot_end(mm);
	mm->cur = saved;
	mm->work_who = saved_who;
}

/* What a pass did, in /proc/vmstat's counters (mm.c's shrink_pass and
 * mm_tick; cacheonly.c's cache_shrink_pass() adds the direct-reclaim
 * branch to account_scan_steal() itself).  Limit reclaim in a cgroup counts
 * only in pgscan_anon/file and pgsteal_anon/file (and the cgroup's own
 * memory.stat), not in the kswapd/direct counters and not in pgrefill
 * (6.x: "if (!cgroup_reclaim(sc))" around them). */
static inline void account_scan_steal(struct mm *mm, const struct scan_control *sc)
{
	mm->ev[PGSCAN_ANON] += sc->nr_scanned - sc->nr_scanned_file;
	mm->ev[PGSCAN_FILE] += sc->nr_scanned_file;
	mm->ev[PGSTEAL_ANON] += sc->nr_reclaimed - sc->nr_reclaimed_file;
	mm->ev[PGSTEAL_FILE] += sc->nr_reclaimed_file;
}

static inline void account_pass(struct mm *mm, const struct scan_control *sc, uint64_t refill_before)
{
	account_scan_steal(mm, sc);
	/* memory.stat pgscan: the reclaim's target (the root's: the node's);
	 * for memory.reclaim also pgscan_proactive, which 6.15's
	 * shrink_inactive_list() counts where it counts pgscan (the
	 * reclaimer_offset() of a proactive sc). */
	if (mm->cgt && !mm->cgt->per_cg) {
		cgtree_count(mm, mm->cgt->target, CGS_PGSCAN, sc->nr_scanned);
		cgtree_count_proactive(mm, mm->cgt->target, sc->nr_scanned, 0);
	}
	if (sc->cgroup) {
		mm->memcg.pgrefill += mm->ev[PGREFILL] - refill_before;
		mm->ev[PGREFILL] = refill_before;
	} else if (sc->who == RECLAIM_KSWAPD) {
		mm->ev[PGSCAN_KSWAPD] += sc->nr_scanned;
		mm->ev[PGSTEAL_KSWAPD] += sc->nr_reclaimed;
	} else if (sc->who == RECLAIM_DIRECT) {
		mm->ev[PGSCAN_DIRECT] += sc->nr_scanned;
		mm->ev[PGSTEAL_DIRECT] += sc->nr_reclaimed;
	} else {
		mm->ev[PGSCAN_AGING] += sc->nr_scanned;
		mm->ev[PGSTEAL_AGING] += sc->nr_reclaimed;
	}
}

#include "cacheonly.h"

/* Writeback (writeback.c).  Pages under writeback at which the disk queue
 * counts as congested: flushers stop feeding it and wait (2.6: nr_requests
 * 128 requests of up to 32 pages; the same queue stands in for 2.2/2.4's
 * request lists, where ll_rw_block() slept for a free request). */
#define WRITEBACK_CONGESTED 4096
/* Up to `max` dirty pages, oldest inode first (by dirtied_when), each
 * inode from where its last writeback stopped; only inodes dirtied at or
 * before `older_than`; `background`: stop at the background threshold. */
uint64_t writeback_inodes(struct mm *mm, struct mm_ctx *ctx, uint64_t max, uint64_t older_than,
			  bool background);
/* The 2.6.26 forms (writeback.c) behind the era dispatch (flusher_era.c). */
enum flush_next pdflush_run(struct mm *mm, struct mm_ctx *ctx);
bool pdflush_balance_dirty_pages(struct mm *mm, struct mm_ctx *ctx);

/* A fault is counted once, as it ends: a retried one (ctx->retry, set when
 * it waited for a read) is the same fault come back. */
static inline void count_fault(struct mm *mm, struct mm_ctx *ctx, bool major)
{
	if (ctx->retry) {
		ctx->retry = false;
		return;
	}
	mm->ev[PGFAULT]++;
	if (major) {
		mm->ev[PGMAJFAULT]++;
		ctx->majflt++;
		if (mm->cgt)
			cgtree_count(mm, cgtree_task_cg(mm->cgt, ctx->task), CGS_PGMAJFAULT, 1);
	} else {
		ctx->minflt++;
	}
}

/* swapin.c: frame pfn into the swap cache at slot, locked for the read
 * (owner/index: the faulting PTE's, or 0 for a readahead page); the
 * policy is told, as a refault if the slot kept a shadow. */
void swapin_page(struct mm *mm, struct mm_ctx *ctx, pfn_t pfn, uint32_t slot,
		 uint32_t owner, uint64_t index);
/* swapin.c: submit the read of the faulting page (pfn, set up by
 * swapin_page at slot) with the era's readahead around it. */
void swapin_read(struct mm *mm, struct mm_ctx *ctx, struct vma *v, uint64_t off, uint32_t slot,
		 pfn_t pfn);
/* swapin.c: a readahead page's frame (swap_ra_alloc, PFN_NONE when the
 * allocator has none) and the slot readahead loop of 2.6 (stop_on_fail:
 * the first failure ends the window) and of 4.14+'s cluster readahead
 * (a failure skips the slot); alloc is swap_ra_alloc but in tests. */
typedef pfn_t (*swap_ra_alloc_fn)(struct mm *mm, struct mm_ctx *ctx);
pfn_t swap_ra_alloc(struct mm *mm, struct mm_ctx *ctx);
void swap_ra_read_slots(struct mm *mm, struct mm_ctx *ctx, uint32_t lo, uint32_t hi,
			uint32_t target, pfn_t tpfn, bool stop_on_fail, swap_ra_alloc_fn alloc);
/* swapin.c: 4.14+'s VMA window around the fault at off of v (a failure
 * skips the page too). */
void swap_vma_readahead(struct mm *mm, struct mm_ctx *ctx, struct vma *v, uint64_t off,
			uint32_t target, pfn_t tpfn, swap_ra_alloc_fn alloc);
/* SWAP_RA_HITS_MASK with 4 KiB pages: the hits a VMA window remembers. */
#define SWAP_RA_HITS_MAX 63

/* swap_use_vma_readahead(): 4.14+ reads around the faulting address only
 * while no swap device is rotational; otherwise it reads slot clusters
 * (src/mm/swapin.c). */
static inline bool swap_use_vma_readahead(const struct mm *mm)
{
	return mm->vm.swap_vma_ra && !mm->vm.swap_rotational;
}

static inline void charge(struct mm_ctx *ctx, uint64_t ns) { if (ctx) ctx->sys_ns += ns; }
/* A page read() or write() copies between the page cache and a user
 * buffer: counted, and charged mm_copy_user_ns(). */
static inline void mm_copy_user_page(struct mm *mm, struct mm_ctx *ctx)
{
	charge(ctx, mm_copy_user_ns(mm->cost));
	mm_work(mm, W_COPY_USER_BYTES, PAGE_SIZE);
}
static inline uint64_t ctx_now(const struct mm_ctx *ctx)
{
	return ctx ? ctx->t0 + ctx->user_ns + ctx->sys_ns : 0;
}

#endif
