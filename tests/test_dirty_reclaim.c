/* test_dirty_reclaim.c - dirty file pages meeting linux6's limit reclaim
 * (6.18 mm/vmscan.c shrink_folio_list() and shrink_inactive_list(),
 * mm/memory.c fault_dirty_shared_page(), fs/fs-writeback.c
 * wb_start_writeback()): reclaim outside kswapd never writes a file page,
 * it marks it PG_reclaim and activates it (nr_vmscan_immediate_reclaim),
 * a batch of nothing but unqueued dirty pages wakes the flusher, which
 * writes them all, and each write's end rotates its page to the inactive
 * tail (pgrotated), where the next look frees it.  Small hand-built mms
 * with a fake disk whose writes complete only when the test says. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/mm/filemap.h"
#include "../src/policy/linux6/linux6.h"
#include "../src/policy/mglru/mglru.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

struct dr {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	struct linux6 *l;
	uint64_t writes;        /* block writes queued, none completed */
	pfn_t written[8];
};

static void dr_submit_block(void *arg, enum io_dir dir, uint64_t block, pfn_t pfn, uint64_t t)
{
	(void)block; (void)t;
	struct dr *d = arg;
	if (dir == IO_WRITE && d->writes < 8)
		d->written[d->writes] = pfn;
	d->writes += dir == IO_WRITE;
}

/* linux6 on 256 frames (stats read live); a file of n pages written and
 * fsync'ed while I/O is instant, so its pages are clean in the cache,
 * then mapped MAP_SHARED; from then on writes go to the fake disk. */
/* pol's tunables at their defaults but `off`, each set to 0. */
static void dr_policy(struct dr *d, const char *pol, const char *const *off)
{
	const struct policy_ops *ops = policy_find(pol);
	int nt = policy_nr_tunables(ops);
	double *tun = xcalloc((size_t)nt, sizeof(double));
	for (int i = 0; i < nt; i++)
		tun[i] = ops->tunables[i].def;
	for (; *off; off++)
		tun[policy_tunable_index(ops, *off)] = 0;
	mm_set_policy(&d->mm, ops, tun);
	free(tun);
}

static const char *const l6_off[] = { "stats_flush_ms", NULL };
/* mglru ages by generation numbers alone: no page-table walk or
 * look-around to see (and clear) the accessed bits. */
static const char *const mg_off[] = { "walk_mmu", "look_around", NULL };

static uint32_t dr_init_pol(struct dr *d, const char *pol, uint64_t n, struct aspace **as)
{
	memset(d, 0, sizeof(*d));
	struct mm_config cfg = { .ram_pages = 256, .swap_pages = 256, .untimed = true };
	mm_init(&d->mm, &cfg, &d->cost);
	bool l6 = !strcmp(pol, "linux6");
	dr_policy(d, pol, l6 ? l6_off : mg_off);
	d->l = l6 ? d->mm.pol.priv : NULL;
	d->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	d->mm.cur = &d->ctx;
	enum fault_status st;
	struct inode *ino = filemap_create(&d->mm, &d->ctx, "f");
	CHECK_EQ(filemap_write(&d->mm, &d->ctx, ino, 0, n, UINT64_MAX / 2, &st), n);
	while (!filemap_fsync(&d->mm, &d->ctx, ino))
		;
	/* write() marked them accessed: start from pages nobody used. */
	for (uint64_t i = 0; i < n; i++)
		mm_page(&d->mm, pc_page(ino, i))->flags &= ~PG_referenced;
	if (l6)
		CHECK_EQ(l6_size(d->l, L6_INACTIVE_FILE), n);
	*as = mm_aspace_new(&d->mm, -1);
	uint32_t v = mm_mmap_file(&d->mm, *as, ino, 0, n, true);
	d->mm.untimed = false;
	d->mm.io = (struct mm_io){ .arg = d, .submit_block = dr_submit_block };
	return v;
}

static uint32_t dr_init(struct dr *d, uint64_t n, struct aspace **as)
{
	return dr_init_pol(d, "linux6", n, as);
}

/* Touch n pages of the mapping from the start: stores or loads. */
static uint64_t touch(struct dr *d, struct aspace *as, uint32_t v, uint64_t n, bool store)
{
	enum fault_status st;
	return mm_touch(&d->mm, &d->ctx, as, v, 0, n, 1, store ? TOUCH_WRITE : TOUCH_READ, UINT64_MAX / 2, &st);
}

/* One batch of limit reclaim from the inactive file list; *waits: the
 * folios or throttles it reported (sc->nr_wait_writeback). */
static uint64_t limit_look_waits(struct dr *d, uint64_t nr, uint64_t *waits)
{
	struct scan_control sc = { .nr_to_reclaim = 32, .priority = DEF_PRIORITY, .who = RECLAIM_DIRECT,
				   .cgroup = true, .may_swap = true, .may_writepage = true };
	uint64_t got = l6_shrink_inactive_list(d->l, nr, &sc, 1, NULL);
	*waits = sc.nr_wait_writeback;
	return got;
}

static uint64_t limit_look(struct dr *d, uint64_t nr)
{
	uint64_t waits;
	return limit_look_waits(d, nr, &waits);
}

/* Four clean cached pages of a shared mapping, each written once through
 * it.  linux6 sets vm.dirty_fault: the write faults dirty them (nr_dirty
 * 4).  First look: young PTEs, kept with PG_referenced; the batch is all
 * unqueued dirty, so the flusher is asked for.  Second look: unmapped,
 * dirty, so limit reclaim writes nothing (nr_vmscan_write 0) and activates
 * all four (nr_vmscan_immediate_reclaim 4, pgactivate 4).  The flusher
 * writes the four; as each write ends, its page rotates to the inactive
 * tail (pgrotated 4), and a third look frees them. */
void test_dirty_shared_mapping_limit_reclaim(void)
{
	struct dr d;
	struct aspace *as;
	uint32_t v = dr_init(&d, 4, &as);
	CHECK_EQ(d.mm.vm.dirty_fault, 1);
	CHECK_EQ(d.mm.stat.nr_dirty, 0);
	CHECK_EQ(touch(&d, as, v, 4, true), 4);
	CHECK_EQ(d.mm.stat.nr_dirty, 4);
	CHECK_EQ(limit_look(&d, 32), 0);
	CHECK_EQ(d.mm.flush_all, FLUSH_ALL_ASKED);
	CHECK_EQ(d.mm.ev[PGACTIVATE], 0);
	CHECK_EQ(limit_look(&d, 32), 0);
	CHECK_EQ(d.writes, 0);
	CHECK_EQ(d.mm.ev[NR_VMSCAN_WRITE], 0);
	CHECK_EQ(d.mm.ev[NR_VMSCAN_IMMEDIATE], 4);
	CHECK_EQ(d.mm.ev[PGACTIVATE], 4);
	CHECK_EQ(l6_size(d.l, L6_ACTIVE_FILE), 4);
	CHECK_EQ(as->rss, 0);
	CHECK_EQ(pdflush_run(&d.mm, &d.ctx), FLUSH_SLEEP);
	CHECK_EQ(d.writes, 4);
	CHECK_EQ(d.mm.flush_all, 0);
	for (unsigned i = 0; i < 4; i++)
		mm_io_done(&d.mm, IO_WRITE, d.written[i]);
	CHECK_EQ(d.mm.ev[PGROTATED], 4);
	CHECK_EQ(l6_size(d.l, L6_INACTIVE_FILE), 4);
	CHECK_EQ(limit_look(&d, 32), 4);
	CHECK_EQ(d.mm.stat.nr_file, 0);
	mm_destroy(&d.mm);
}

/* The same without vm.dirty_fault (the pre-2.6.19 scheme: the write only
 * sets the PTE dirty bit, nr_dirty stays 0): the unmap before the dirty
 * test still finds the page dirty, so limit reclaim activates it rather
 * than write it, and the flusher is not asked for (no page was dirty when
 * the batch was taken). */
void test_dirty_pte_found_by_unmap(void)
{
	struct dr d;
	struct aspace *as;
	uint32_t v = dr_init(&d, 4, &as);
	d.mm.vm.dirty_fault = 0;
	CHECK_EQ(touch(&d, as, v, 4, true), 4);
	CHECK_EQ(d.mm.stat.nr_dirty, 0);
	CHECK_EQ(limit_look(&d, 32), 0);
	CHECK_EQ(limit_look(&d, 32), 0);
	CHECK_EQ(d.writes, 0);
	CHECK_EQ(d.mm.stat.nr_dirty, 4);
	CHECK_EQ(d.mm.ev[NR_VMSCAN_IMMEDIATE], 4);
	CHECK_EQ(d.mm.ev[PGACTIVATE], 4);
	CHECK_EQ(d.mm.flush_all, 0);
	mm_destroy(&d.mm);
}

/* vm.dirty_fault: a page written back is write-protected again, and the
 * next write faults (a minor fault) and dirties it once more. */
void test_dirty_fault_after_writeback(void)
{
	struct dr d;
	struct aspace *as;
	uint32_t v = dr_init(&d, 1, &as);
	CHECK_EQ(touch(&d, as, v, 1, false), 1);
	CHECK(as->vmas[v].pte[0] & PTE_WP);
	CHECK_EQ(d.mm.stat.nr_dirty, 0);
	uint64_t faults = d.mm.ev[PGFAULT];
	CHECK_EQ(touch(&d, as, v, 1, true), 1);
	CHECK_EQ(d.mm.ev[PGFAULT], faults + 1);
	CHECK_EQ(d.mm.stat.nr_dirty, 1);
	CHECK(!(as->vmas[v].pte[0] & PTE_WP));
	struct inode *ino = filemap_lookup(&d.mm, "f");
	CHECK_EQ(filemap_writeback(&d.mm, &d.ctx, ino, 0), 1);
	CHECK_EQ(d.mm.stat.nr_dirty, 0);
	CHECK_EQ(as->vmas[v].pte[0] & (PTE_WP | PTE_DIRTY), PTE_WP);
	mm_io_done(&d.mm, IO_WRITE, d.written[0]);
	CHECK_EQ(touch(&d, as, v, 1, true), 1);
	CHECK_EQ(d.mm.ev[PGFAULT], faults + 2);
	CHECK_EQ(d.mm.stat.nr_dirty, 1);
	mm_destroy(&d.mm);
}

/* vm.dirty_bytes and vm.dirty_background_bytes replace the ratios,
 * rounded up to pages; a background limit not below the limit is halved
 * (domain_dirty_limits()). */
void test_dirty_bytes_limits(void)
{
	struct dr d;
	struct aspace *as;
	dr_init(&d, 1, &as);
	uint64_t bg, thr;
	d.mm.vm.dirty_bytes = 10 * PAGE_SIZE + 1;
	d.mm.vm.dirty_background_bytes = 4 * PAGE_SIZE;
	mm_dirty_limits(&d.mm, &bg, &thr);
	CHECK_EQ(thr, 11);
	CHECK_EQ(bg, 4);
	d.mm.vm.dirty_background_bytes = 12 * PAGE_SIZE;
	mm_dirty_limits(&d.mm, &bg, &thr);
	CHECK_EQ(bg, 5);
	mm_destroy(&d.mm);
}

/* cgroup v1 (!writeback_throttling_sane()): after waking the flushers on a
 * batch of nothing but unqueued dirty pages, limit reclaim sleeps
 * (reclaim_throttle): the pass reports one wait.  v2 does not; nor does
 * v1 once the pages are under writeback (not unqueued). */
void test_dirty_batch_throttles_v1(void)
{
	for (int v1 = 0; v1 < 2; v1++) {
		struct dr d;
		struct aspace *as;
		uint32_t v = dr_init(&d, 4, &as);
		d.mm.memcg.v1 = v1;
		CHECK_EQ(touch(&d, as, v, 4, true), 4);
		uint64_t waits;
		CHECK_EQ(limit_look_waits(&d, 32, &waits), 0);
		CHECK_EQ(waits, (uint64_t)v1);
		CHECK_EQ(d.mm.flush_all, FLUSH_ALL_ASKED);
		CHECK_EQ(pdflush_run(&d.mm, &d.ctx), FLUSH_SLEEP);
		CHECK_EQ(d.writes, 4);
		CHECK_EQ(limit_look_waits(&d, 32, &waits), 0);
		CHECK_EQ(waits, 0);
		CHECK_EQ(d.mm.ev[PGACTIVATE], 4);   /* case 2: under writeback */
		mm_destroy(&d.mm);
	}
}

/* The cgroup's dirty domain (mdtc_calc_avail, domain_dirty_limits): a
 * node of 10 000 free and 500 file pages (100 dirty), a cgroup of 1 000
 * pages with 600 charged.  Its clean file pages 400, the node's clean
 * dirtyable 10 400, so 10 000 clean beside the cgroup's; its room 400:
 * dirtyable 500 + min(400, 10 000) = 900, limits 20 % = 180 and 10 % =
 * 90.  vm.dirty_bytes of 2 100 pages is 2 100 / 10 500 of the node's
 * dirtyable memory: 180 again.  None under cgroup v1, nor without
 * vm.cgroup_writeback. */
void test_dirty_memcg_domain(void)
{
	struct dr d;
	struct aspace *as;
	dr_init(&d, 1, &as);
	struct mm saved = d.mm;
	d.mm.vm.flusher = FLUSHER_PERBDI;
	d.mm.vm.dirty_ratio = 20;
	d.mm.vm.dirty_background_ratio = 10;
	d.mm.stat.nr_free = 10000;
	d.mm.stat.nr_file = 500;
	d.mm.stat.nr_dirty = 100;
	d.mm.stat.nr_writeback = 0;
	d.mm.memcg = (struct memcg){ .limit = 1000, .charged = 600 };
	uint64_t bg = 0, thr = 0;
	CHECK(d.mm.vm.cgroup_writeback);
	CHECK(mm_memcg_dirty_limits(&d.mm, &bg, &thr));
	CHECK_EQ(thr, 180);
	CHECK_EQ(bg, 90);
	CHECK(mm_over_bg_thresh(&d.mm));
	d.mm.stat.nr_dirty = 90;
	CHECK(!mm_over_bg_thresh(&d.mm));
	d.mm.stat.nr_dirty = 100;
	d.mm.vm.dirty_bytes = 2100 * PAGE_SIZE;
	CHECK(mm_memcg_dirty_limits(&d.mm, &bg, &thr));
	CHECK_EQ(thr, 180);
	d.mm.memcg.v1 = true;
	CHECK(!mm_memcg_dirty_limits(&d.mm, &bg, &thr));
	d.mm.memcg.v1 = false;
	d.mm.vm.cgroup_writeback = 0;
	CHECK(!mm_memcg_dirty_limits(&d.mm, &bg, &thr));
	d.mm = saved;
	mm_destroy(&d.mm);
}

/* mglru shares shrink_folio_list(): without vm.dirty_fault, four pages
 * written through a shared mapping are dirty in their PTEs only.  Their
 * accessed bits cleared and three agings later they are the oldest
 * generation; eviction unmaps them before the dirty test, so limit
 * reclaim writes none of them (it did: pageout) and activates all four
 * (nr_vmscan_immediate_reclaim 4). */
void test_dirty_mglru_unmaps_before_dirty_test(void)
{
	struct dr d;
	struct aspace *as;
	uint32_t v = dr_init_pol(&d, "mglru", 4, &as);
	d.mm.vm.dirty_fault = 0;
	CHECK_EQ(touch(&d, as, v, 4, true), 4);
	CHECK_EQ(d.mm.stat.nr_dirty, 0);
	for (uint64_t i = 0; i < 4; i++)
		as->vmas[v].pte[i] &= ~PTE_ACCESSED;
	struct mglru *g = mglru_of(&d.mm);
	for (int i = 0; i < 3; i++)
		CHECK(mglru_age(g, true));
	struct scan_control sc = { .nr_to_reclaim = 32, .priority = DEF_PRIORITY, .who = RECLAIM_DIRECT,
				   .cgroup = true, .may_swap = true, .may_writepage = true };
	mglru_evict(g, &sc);
	CHECK_EQ(sc.nr_scanned, 4);
	CHECK_EQ(sc.nr_reclaimed, 0);
	CHECK_EQ(d.writes, 0);
	CHECK_EQ(d.mm.ev[NR_VMSCAN_WRITE], 0);
	CHECK_EQ(d.mm.ev[NR_VMSCAN_IMMEDIATE], 4);
	CHECK_EQ(d.mm.ev[PGACTIVATE], 4);
	CHECK_EQ(d.mm.stat.nr_dirty, 4);
	mm_destroy(&d.mm);
}
