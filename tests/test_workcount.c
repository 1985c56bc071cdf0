/* test_workcount.c - reclaim's work, counted (src/mm/work.h): exact counts
 * on small hand-checked mms (linux6's isolation batches and LRU lock, the
 * rmap walks of a page mapped by two processes, MGLRU's page-table
 * walks), who a pass is counted for, and invariants on a whole run.
 * Cost: well under a second (mms of 256-2048 frames; one 1000 MB usemem
 * run of 0.1 s). */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/workload/workload.h"
#include "sim.h"
#include "../src/mm/internal.h"
#include "../src/mm/filemap.h"
#include "../src/mm/ptescan.h"
#include "../src/policy/policy.h"
#include "../src/policy/linux6/linux6.h"
#include "../src/policy/mglru/mglru.h"
#include "../src/lib/util.h"

#include <string.h>

void test_work_linux6_isolation_batches(void);
void test_work_rmap_two_mappers(void);
void test_work_mglru_page_table_walk(void);
void test_work_counted_for_its_reclaimer(void);
void test_work_invariants_usemem(void);
void test_work_swap_out_ptes(void);
void test_work_isolate_lru_pages_26(void);

struct wk {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
};

/* An untimed mm (I/O completes at once) of `frames` frames under `policy`
 * with its defaults. */
static void wk_init(struct wk *w, const char *policy, uint64_t frames)
{
	memset(w, 0, sizeof(*w));
	struct mm_config cfg = { .ram_pages = frames, .swap_pages = frames, .untimed = true };
	mm_init(&w->mm, &cfg, &w->cost);
	mm_set_policy(&w->mm, policy_find(policy), NULL);
	w->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	w->mm.cur = &w->ctx;
}

/* n anonymous pages of a new mapping, each written once. */
static uint32_t wk_anon(struct wk *w, struct aspace *as, uint64_t n)
{
	enum fault_status st;
	uint32_t v = mm_mmap_anon(&w->mm, as, n, 0);
	CHECK_EQ(mm_touch(&w->mm, &w->ctx, as, v, 0, n, 1, TOUCH_WRITE, UINT64_MAX / 2, &st), n);
	return v;
}

static uint64_t wk(const struct wk *w, enum work_who who, enum work_op op) { return w->mm.work.n[who][op]; }

/* 100 anonymous pages written once start inactive, the first fault's
 * young PTE each.  shrink_inactive_list() four times with nr = 32:
 * batches of 32 from the tail.  The first three look at pages 0-95 once:
 * young, so PG_referenced and kept (put back at the head).  The fourth
 * takes 96-99 (kept likewise), then 0-27: no young PTE now but
 * PG_referenced, anon: reclaimed, each unmapped (one PTE) and written.
 * 128 isolated in 4 batches, 100 put back in 4, 8 lru_lock holds, 128
 * rmap walks of one PTE each, 28 unmapped and written; nothing else.
 * Outside a reclaim pass the work is counted as `other`. */
void test_work_linux6_isolation_batches(void)
{
	struct wk w;
	wk_init(&w, "linux6", 256);
	struct aspace *as = mm_aspace_new(&w.mm, -1);
	wk_anon(&w, as, 100);
	struct linux6 *l = w.mm.pol.priv;
	struct scan_control sc = { .nr_to_reclaim = 32, .who = RECLAIM_DIRECT, .may_swap = true, .may_writepage = true };
	uint64_t reclaimed = 0;
	for (int i = 0; i < 4; i++)
		reclaimed += l6_shrink_inactive_list(l, 32, &sc, 0, NULL);
	CHECK_EQ(reclaimed, 28);
	CHECK_EQ(wk(&w, WHO_OTHER, W_ISOLATE_LRU_FOLIOS), 128);
	CHECK_EQ(wk(&w, WHO_OTHER, W_ISOLATE_BATCHES), 4);
	CHECK_EQ(wk(&w, WHO_OTHER, W_MOVE_FOLIOS_TO_LRU), 100);
	CHECK_EQ(wk(&w, WHO_OTHER, W_PUTBACK_BATCHES), 4);
	CHECK_EQ(wk(&w, WHO_OTHER, W_LRU_LOCK), 8);
	CHECK_EQ(wk(&w, WHO_OTHER, W_FOLIO_REFERENCED), 128);
	CHECK_EQ(wk(&w, WHO_OTHER, W_FOLIO_REFERENCED_PTES), 128);
	CHECK_EQ(wk(&w, WHO_OTHER, W_TRY_TO_UNMAP), 28);
	CHECK_EQ(wk(&w, WHO_OTHER, W_TRY_TO_UNMAP_PTES), 28);
	CHECK_EQ(wk(&w, WHO_OTHER, W_PAGEOUT), 28);
	CHECK_EQ(w.mm.ev[PSWPOUT], 28);
	/* the 100 faults zeroed their pages */
	CHECK_EQ(wk(&w, WHO_OTHER, W_CLEAR_BYTES), 100 * PAGE_SIZE);
	/* no machine, no remote flush to ask for */
	CHECK_EQ(reclaim_work_total(&w.mm.work, W_TLB_FLUSH_DIRTY), 0);
	/* linux6 keeps the classic rows, not MGLRU's */
	CHECK(reclaim_work_present(&w.mm.work, W_ISOLATE_LRU_FOLIOS));
	CHECK(!reclaim_work_present(&w.mm.work, W_ISOLATE_FOLIOS));
	CHECK(!reclaim_work_present(&w.mm.work, W_WALK_PTES));
	CHECK(reclaim_work_present(&w.mm.work, W_FOLIO_REFERENCED));
	mm_destroy(&w.mm);
}

/* A file page mapped shared by two processes and read by both: one rmap
 * walk checks 2 PTEs (both young); reclaiming it, clean, unmaps both in
 * one try_to_unmap() and writes nothing.  An anonymous page beside it:
 * one walk, one PTE. */
void test_work_rmap_two_mappers(void)
{
	struct wk w;
	wk_init(&w, "linux6", 256);
	enum fault_status st;
	struct inode *ino = filemap_create(&w.mm, &w.ctx, "shared");
	CHECK_EQ(filemap_write(&w.mm, &w.ctx, ino, 0, 1, UINT64_MAX / 2, &st), 1);
	while (!filemap_fsync(&w.mm, &w.ctx, ino))
		;
	struct aspace *a = mm_aspace_new(&w.mm, -1), *b = mm_aspace_new(&w.mm, -1);
	uint32_t va = mm_mmap_file(&w.mm, a, ino, 0, 1, true), vb = mm_mmap_file(&w.mm, b, ino, 0, 1, true);
	CHECK_EQ(mm_touch(&w.mm, &w.ctx, a, va, 0, 1, 1, TOUCH_READ, UINT64_MAX / 2, &st), 1);
	CHECK_EQ(mm_touch(&w.mm, &w.ctx, b, vb, 0, 1, 1, TOUCH_READ, UINT64_MAX / 2, &st), 1);
	pfn_t pfn = pte_pfn(a->vmas[va].pte[0]);
	CHECK_EQ(pte_pfn(b->vmas[vb].pte[0]), pfn);
	CHECK_EQ(mm_page(&w.mm, pfn)->mapcount, 2);
	CHECK_EQ(mm_page_referenced(&w.mm, pfn), 2);
	CHECK_EQ(wk(&w, WHO_OTHER, W_FOLIO_REFERENCED), 1);
	CHECK_EQ(wk(&w, WHO_OTHER, W_FOLIO_REFERENCED_PTES), 2);
	/* write() copied the page in from a user buffer: no page-to-page copy */
	CHECK_EQ(wk(&w, WHO_OTHER, W_COPY_USER_BYTES), PAGE_SIZE);
	CHECK_EQ(wk(&w, WHO_OTHER, W_COPY_BYTES), 0);
	struct scan_control sc = { .nr_to_reclaim = 32, .who = RECLAIM_DIRECT, .may_swap = true, .may_writepage = true };
	w.mm.pol.ops->remove(w.mm.pol.priv, pfn);
	CHECK_EQ(mm_reclaim_page(&w.mm, &sc, pfn), EVICT_FREED);
	CHECK_EQ(wk(&w, WHO_OTHER, W_TRY_TO_UNMAP), 1);
	CHECK_EQ(wk(&w, WHO_OTHER, W_TRY_TO_UNMAP_PTES), 2);
	CHECK_EQ(wk(&w, WHO_OTHER, W_PAGEOUT), 0);
	struct aspace *c = mm_aspace_new(&w.mm, -1);
	uint32_t vc = wk_anon(&w, c, 1);
	CHECK_EQ(mm_page_referenced(&w.mm, pte_pfn(c->vmas[vc].pte[0])), 1);
	CHECK_EQ(wk(&w, WHO_OTHER, W_FOLIO_REFERENCED), 2);
	CHECK_EQ(wk(&w, WHO_OTHER, W_FOLIO_REFERENCED_PTES), 3);
	mm_destroy(&w.mm);
}

/* MGLRU aging of one process with 1024 anonymous pages written once:
 * two PTE tables of 512.  The first walk (forced: a new mm) reads both
 * tables, 1024 PTEs, all young; the pages are already in max_seq (just
 * faulted), so none changes generation and walk_mm() takes no lock:
 * inc_max_seq()'s one hold, with nothing left in the oldest generations
 * to move.  600 pages written again; the second walk, through the Bloom
 * filter the first one filled (every table dense in young PTEs), reads
 * both tables again, 600 young, each promoted from the previous
 * generation: one batch under one more lock. */
void test_work_mglru_page_table_walk(void)
{
	struct wk w;
	wk_init(&w, "mglru", 2048);
	struct aspace *as = mm_aspace_new(&w.mm, -1);
	uint32_t v = wk_anon(&w, as, 1024);
	struct mglru *g = mglru_of(&w.mm);
	CHECK(mglru_age(g, true));
	static const enum work_op rows[] = { W_INC_MAX_SEQ, W_WALK_MM, W_WALK_PMD_FOUND, W_WALK_PMD_SKIPPED,
					     W_WALK_PTES, W_WALK_PTES_YOUNG, W_LRU_LOCK };
	static const uint64_t first[] = { 1, 1, 2, 0, 1024, 1024, 1 }, second[] = { 2, 2, 4, 0, 2048, 1624, 3 };
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		CHECK_EQ(wk(&w, WHO_OTHER, rows[i]), first[i]);
	enum fault_status st;
	CHECK_EQ(mm_touch(&w.mm, &w.ctx, as, v, 0, 600, 1, TOUCH_WRITE, UINT64_MAX / 2, &st), 600);
	CHECK(mglru_age(g, false));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		CHECK_EQ(wk(&w, WHO_OTHER, rows[i]), second[i]);
	/* MGLRU keeps its rows, not the classic LRU's */
	CHECK(reclaim_work_present(&w.mm.work, W_WALK_PTES));
	CHECK(!reclaim_work_present(&w.mm.work, W_ISOLATE_LRU_FOLIOS));
	mm_destroy(&w.mm);
}

/* A pass is counted for who runs it: limit reclaim (shrink_pass with
 * cgroup) in the memcg column, a direct pass in the direct column, and
 * nothing of either in the other columns. */
void test_work_counted_for_its_reclaimer(void)
{
	struct wk w;
	wk_init(&w, "linux6", 256);
	struct aspace *as = mm_aspace_new(&w.mm, -1);
	wk_anon(&w, as, 100);
	shrink_pass(&w.mm, &w.ctx, 32, 0, true, false, NULL);
	uint64_t memcg = wk(&w, WHO_MEMCG, W_ISOLATE_LRU_FOLIOS);
	CHECK(memcg > 0);
	CHECK_EQ(wk(&w, WHO_MEMCG, W_ISOLATE_BATCHES), wk(&w, WHO_MEMCG, W_LRU_LOCK) / 2);
	CHECK_EQ(reclaim_work_total(&w.mm.work, W_ISOLATE_LRU_FOLIOS), memcg);
	shrink_pass(&w.mm, &w.ctx, 32, 0, false, false, NULL);
	CHECK(wk(&w, WHO_DIRECT, W_ISOLATE_LRU_FOLIOS) > 0);
	CHECK_EQ(wk(&w, WHO_MEMCG, W_ISOLATE_LRU_FOLIOS), memcg);
	CHECK_EQ(wk(&w, WHO_KSWAPD, W_ISOLATE_LRU_FOLIOS) + wk(&w, WHO_AGING, W_ISOLATE_LRU_FOLIOS) +
		 wk(&w, WHO_OTHER, W_ISOLATE_LRU_FOLIOS), 0);
	CHECK_EQ(w.mm.work_who, WHO_OTHER);
	mm_destroy(&w.mm);
}

/* usemem -m 1000 in a 900M cgroup on vmm-2008 (RAM as `pagelab run
 * --memcg 900M` sizes it: LIMIT * 5/4 + 64M) under `policy`. */
static void run_usemem_memcg(struct machine *m, const char *policy)
{
	struct profile prof = *profile_find("vmm-2008");
	prof.ram = (900ULL << 20) * 5 / 4 + (64ULL << 20);
	struct machine_opts mo = { .seed = 1, .max_time_ns = 3600ULL * 1000000000ULL, .memcg_pages = (900ULL << 20) / PAGE_SIZE };
	char err[256], *argv[] = { "usemem", "-m", "1000", NULL };
	if (!machine_init(m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	const struct workload_ops *wo = workload_find("usemem");
	void *w = wo->create(3, argv, 1, err, sizeof(err));
	if (!w)
		panic("%s", err);
	machine_set_policy(m, policy_find(policy), NULL);
	machine_add_workload(m, wo, w, "usemem -m 1000");
	machine_run(m);
}

/* The whole run under each design: every folio isolated was either freed
 * or put back (isolated = pgsteal + move_folios_to_lru), every page
 * reclaim wrote was unmapped first (anon only), each isolation or putback
 * batch at least one lock, all of it in the memcg column, and the faults
 * zeroed the 1000 MB. */
void test_work_invariants_usemem(void)
{
	static const char *const designs[] = { "linux6", "mglru" };
	for (int d = 0; d < 2; d++) {
		static struct machine m;
		run_usemem_memcg(&m, designs[d]);
		const struct reclaim_work *rw = &m.mm.work;
		enum work_op iso = d ? W_ISOLATE_FOLIOS : W_ISOLATE_LRU_FOLIOS;
		uint64_t isolated = reclaim_work_total(rw, iso);
		CHECK(isolated > 0);
		CHECK_EQ(isolated, rw->n[WHO_MEMCG][iso]);
		CHECK_EQ(isolated, m.mm.ev[PGSTEAL_ANON] + reclaim_work_total(rw, W_MOVE_FOLIOS_TO_LRU));
		CHECK(isolated >= m.mm.ev[PGSTEAL_ANON]);
		CHECK_EQ(reclaim_work_total(rw, W_PAGEOUT), m.mm.ev[PSWPOUT]);
		CHECK(reclaim_work_total(rw, W_TRY_TO_UNMAP_PTES) >= m.mm.ev[PSWPOUT]);
		CHECK(reclaim_work_total(rw, W_LRU_LOCK) >=
		      reclaim_work_total(rw, W_ISOLATE_BATCHES) + reclaim_work_total(rw, W_PUTBACK_BATCHES));
		CHECK(reclaim_work_total(rw, W_FOLIO_REFERENCED_PTES) >= reclaim_work_total(rw, W_FOLIO_REFERENCED));
		CHECK_EQ(reclaim_work_total(rw, W_CLEAR_BYTES), 1000ULL << 20);
		machine_free(&m);
	}
}

/* 2.2's swap_out() walk (src/mm/ptescan.c) over two mappings: 4 pages
 * all written, and 3 of which only the first was: 7 PTEs read, 5 present
 * ones handed to try_to_swap_out(); unmapping two counts two.  The rows
 * are linux22's (and vhand's, riel24's, aa24's), not linux6's. */
void test_work_swap_out_ptes(void)
{
	struct wk w;
	wk_init(&w, "linux22", 256);
	struct aspace *as = mm_aspace_new(&w.mm, -1);
	wk_anon(&w, as, 4);
	uint32_t v2 = mm_mmap_anon(&w.mm, as, 3, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(&w.mm, &w.ctx, as, v2, 0, 1, 1, TOUCH_WRITE, UINT64_MAX / 2, &st), 1);
	struct pte_cursor c = { 0, 0 };
	struct pte_ref r, first[2];
	int n = 0;
	while (ptescan_next(&w.mm, as, &c, &r))
		if (n++ < 2)
			first[n - 1] = r;
	CHECK_EQ(n, 5);
	CHECK_EQ(wk(&w, WHO_OTHER, W_SWAP_OUT_PTES), 7);
	CHECK_EQ(wk(&w, WHO_OTHER, W_TRY_TO_SWAP_OUT), 5);
	CHECK_EQ(ptescan_unmap(&w.mm, &first[0]), UNMAP_SWAPCACHE);
	CHECK_EQ(ptescan_unmap(&w.mm, &first[1]), UNMAP_SWAPCACHE);
	CHECK_EQ(wk(&w, WHO_OTHER, W_TRY_TO_SWAP_OUT_UNMAP), 2);
	CHECK(reclaim_work_present(&w.mm.work, W_SWAP_OUT_PTES));
	CHECK(!reclaim_work_present(&w.mm.work, W_ISOLATE_LRU_FOLIOS));
	mm_destroy(&w.mm);
	wk_init(&w, "linux6", 64);
	CHECK(!reclaim_work_present(&w.mm.work, W_SWAP_OUT_PTES));
	mm_destroy(&w.mm);
}

/* The 2.6 designs (linux26; splitlru and workingset share one engine):
 * every page isolate_lru_pages() took was counted by the kernel's own
 * scan counters, pgscan for the inactive lists and pgrefill for the
 * active ones, so the two agree exactly on a run with global reclaim
 * (usemem -m 80 in 64 MB). */
void test_work_isolate_lru_pages_26(void)
{
	static const char *const designs[] = { "linux26", "splitlru", "workingset" };
	for (int d = 0; d < 3; d++) {
		char *argv[] = { "usemem", "-m", "80", NULL };
		struct machine *m = sim_run_workload("vmm-2008", 64ULL << 20, designs[d], NULL, NULL, 3, argv);
		const struct reclaim_work *rw = &m->mm.work;
		uint64_t iso = reclaim_work_total(rw, W_ISOLATE_LRU_PAGES);
		CHECK(iso > 0);
		CHECK_EQ(iso, m->mm.ev[PGSCAN_ANON] + m->mm.ev[PGSCAN_FILE] + m->mm.ev[PGREFILL]);
		CHECK(reclaim_work_total(rw, W_ISOLATE_BATCHES) * SWAP_CLUSTER_MAX >= iso);
		CHECK(reclaim_work_present(rw, W_ISOLATE_BATCHES));
		CHECK(!reclaim_work_present(rw, W_LRU_LOCK));
		machine_free(m);
	}
}
