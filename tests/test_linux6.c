/* test_linux6.c - the `linux6` design (6.x classic LRU), one hand-checked
 * scenario per rule, and the execution model's I/O inside reclaim passes
 * (disk_run_until, and the write storm it prevents on a fast disk).
 * Cost: under a second (small mms; two 64 MB machine runs). */
#include "test.h"
#include "sim.h"
#include "../src/machine/machine.h"
#include "../src/policy/linux6/linux6.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

/* ---- a small mm driven through the policy hooks ----------------------- */

struct h6 {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	const struct policy_ops *ops;
	struct linux6 *l;
	uint64_t submitted;  /* timed mode: I/O queued, never completed by itself */
};

static void fake_submit_swap(void *arg, enum io_dir dir, uint32_t block, pfn_t pfn, uint64_t t)
{
	(void)dir; (void)block; (void)pfn; (void)t;
	((struct h6 *)arg)->submitted++;
}

static void fake_submit_block(void *arg, enum io_dir dir, uint64_t block, pfn_t pfn, uint64_t t)
{
	(void)dir; (void)block; (void)pfn; (void)t;
	((struct h6 *)arg)->submitted++;
}

/* timed: I/O goes to the fake disk and completes only when the test calls
 * mm_io_done(); untimed: it completes at once (trace mode). */
static void h6_init(struct h6 *h, uint64_t frames, bool timed, const char *const *sets)
{
	memset(h, 0, sizeof(*h));
	struct mm_config cfg = { .ram_pages = frames, .swap_pages = frames, .untimed = !timed };
	mm_init(&h->mm, &cfg, &h->cost);
	h->ops = policy_find("linux6");
	int n = policy_nr_tunables(h->ops);
	double *tun = xcalloc((size_t)n, sizeof(double));
	for (int i = 0; i < n; i++)
		tun[i] = h->ops->tunables[i].def;
	/* The rule tests read live counts: the periodic statistics flush
	 * (default every 2 s) has its own test below. */
	tun[policy_tunable_index(h->ops, "stats_flush_ms")] = 0;
	for (int i = 0; sets && sets[i]; i++) {
		const char *eq = strchr(sets[i], '=');
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)(eq - sets[i]), sets[i]);
		int ti = policy_tunable_index(h->ops, name);
		if (ti < 0)
			panic("no tunable %s", name);
		tun[ti] = atof(eq + 1);
	}
	mm_set_policy(&h->mm, h->ops, tun);
	free(tun);
	h->l = h->mm.pol.priv;
	h->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	h->mm.cur = &h->ctx;
	if (timed)
		h->mm.io = (struct mm_io){ .arg = h, .submit_swap = fake_submit_swap,
					   .submit_block = fake_submit_block };
}

/* A frame standing for a page the core set up (anon, or file without an
 * inode: clean, it is simply freed), added to the policy. */
static pfn_t h6_page(struct h6 *h, uint32_t flags, enum add_reason why)
{
	struct mm *mm = &h->mm;
	pfn_t pfn = lru_head(&mm->fr, mm->zones[0].free_list);
	lru_del(&mm->fr, pfn);
	mm->stat.nr_free--;
	mm->zones[0].nr_free--;
	mm_page(mm, pfn)->flags = flags;
	if (flags & PG_anon)
		mm->stat.nr_anon++;
	h->ops->add(h->mm.pol.priv, pfn, why);
	return pfn;
}

static struct scan_control h6_sc(enum reclaimer who, int priority, uint64_t nr_to_reclaim)
{
	return (struct scan_control){ .nr_to_reclaim = nr_to_reclaim, .priority = priority, .who = who,
				      .may_swap = true, .may_writepage = true };
}

static uint64_t on(struct h6 *h, int lru) { return l6_size(h->l, lru); }

static pfn_t pte_frame(struct aspace *as, uint32_t vma, uint64_t off)
{
	pte_t pte = as->vmas[vma].pte[off];
	return pte_present(pte) ? pte_pfn(pte) : PFN_NONE;
}

/* ---- folio_check_references ------------------------------------------- */

/* Four anonymous pages written once (one young PTE each) start inactive.
 * First scan: PG_referenced set, all kept inactive, nothing activated or
 * written.  Pages 0 and 1 are written again; second scan: 0 and 1 are
 * activated (young + PG_referenced), 2 and 3 (PG_referenced only: anon,
 * so FOLIOREF_RECLAIM) are swapped out. */
void test_linux6_two_touch_activation(void)
{
	struct h6 h;
	h6_init(&h, 256, false, NULL);
	struct aspace *as = mm_aspace_new(&h.mm, -1);
	uint32_t v = mm_mmap_anon(&h.mm, as, 4, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 4, 1, true, UINT64_MAX / 2, &st), 4);
	CHECK_EQ(on(&h, L6_INACTIVE_ANON), 4);
	struct scan_control sc = h6_sc(RECLAIM_DIRECT, 0, 32);
	CHECK_EQ(l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL), 0);
	CHECK_EQ(on(&h, L6_INACTIVE_ANON), 4);
	CHECK_EQ(on(&h, L6_ACTIVE_ANON), 0);
	for (int i = 0; i < 4; i++)
		CHECK(mm_page(&h.mm, pte_frame(as, v, (uint64_t)i))->flags & PG_referenced);
	CHECK_EQ(h.mm.ev[PGACTIVATE], 0);
	CHECK_EQ(h.mm.ev[PSWPOUT], 0);
	CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 2, 1, true, UINT64_MAX / 2, &st), 2);
	sc = h6_sc(RECLAIM_DIRECT, 0, 32);
	CHECK_EQ(l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL), 2);
	CHECK_EQ(on(&h, L6_ACTIVE_ANON), 2);
	CHECK_EQ(on(&h, L6_INACTIVE_ANON), 0);
	CHECK_EQ(h.mm.ev[PGACTIVATE], 2);
	CHECK_EQ(h.mm.ev[PSWPOUT], 2);
	CHECK(pte_is_swap(as->vmas[v].pte[2]) && pte_is_swap(as->vmas[v].pte[3]));
	mm_destroy(&h.mm);

	/* two_touch=0 is 2.6.28's rule: the first young PTE activates. */
	const char *sets[] = { "two_touch=0", NULL };
	h6_init(&h, 256, false, sets);
	as = mm_aspace_new(&h.mm, -1);
	v = mm_mmap_anon(&h.mm, as, 4, 0);
	CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 4, 1, true, UINT64_MAX / 2, &st), 4);
	sc = h6_sc(RECLAIM_DIRECT, 0, 32);
	l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL);
	CHECK_EQ(on(&h, L6_ACTIVE_ANON), 4);
	CHECK_EQ(h.mm.ev[PGACTIVATE], 4);
	mm_destroy(&h.mm);
}

/* A page swapped out (two looks without a new reference) and faulted back
 * starts without PG_referenced in 6.x; swapin_referenced=1 (2.6.28's
 * do_swap_page mark_page_accessed) sets it. */
void test_linux6_swapin_not_referenced(void)
{
	for (int old = 0; old < 2; old++) {
		const char *sets[] = { old ? "swapin_referenced=1" : "swapin_referenced=0", NULL };
		struct h6 h;
		h6_init(&h, 256, false, sets);
		struct aspace *as = mm_aspace_new(&h.mm, -1);
		uint32_t v = mm_mmap_anon(&h.mm, as, 1, 0);
		enum fault_status st;
		mm_touch(&h.mm, &h.ctx, as, v, 0, 1, 1, true, UINT64_MAX / 2, &st);
		struct scan_control sc = h6_sc(RECLAIM_DIRECT, 0, 32);
		l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL);  /* keep, PG_referenced */
		sc = h6_sc(RECLAIM_DIRECT, 0, 32);
		CHECK_EQ(l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL), 1);
		CHECK(pte_is_swap(as->vmas[v].pte[0]));
		CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 1, 1, false, UINT64_MAX / 2, &st), 1);
		CHECK_EQ(h.mm.ev[PSWPIN], 1);
		pfn_t pfn = pte_frame(as, v, 0);
		CHECK(pfn != PFN_NONE);
		CHECK_EQ(!!(mm_page(&h.mm, pfn)->flags & PG_referenced), old);
		mm_destroy(&h.mm);
	}
}

/* A page swapped out and loaded before it is stored to (qsbench's compare,
 * then swap): with vm.anon_exclusive (linux6's, 5.19+) the load's read
 * fault keeps the slot, the store dirties the page without a fault, and
 * the next eviction writes it back to the same slot; with 0, or with a
 * store-first touch, the fault frees the slot and the next eviction takes
 * the next free one. */
void test_linux6_load_store_keeps_slot(void)
{
	for (int c = 0; c < 3; c++) {
		bool keeps = c == 0;
		struct h6 h;
		h6_init(&h, 256, false, NULL);
		CHECK_EQ(h.mm.vm.anon_exclusive, 1);
		if (c == 1)
			h.mm.vm.anon_exclusive = 0;
		struct aspace *as = mm_aspace_new(&h.mm, -1);
		uint32_t v = mm_mmap_anon(&h.mm, as, 1, 0);
		enum fault_status st;
		mm_touch(&h.mm, &h.ctx, as, v, 0, 1, 1, TOUCH_WRITE, UINT64_MAX / 2, &st);
		for (int look = 0; look < 2; look++) {
			struct scan_control sc = h6_sc(RECLAIM_DIRECT, 0, 32);
			l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL);
		}
		CHECK(pte_is_swap(as->vmas[v].pte[0]));
		uint32_t slot = pte_slot(as->vmas[v].pte[0]);
		CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 1, 1, c == 2 ? TOUCH_WRITE : TOUCH_LOAD_STORE,
				  UINT64_MAX / 2, &st), 1);
		CHECK_EQ(h.mm.ev[PSWPIN], 1);
		CHECK_EQ(h.mm.ev[PGMAJFAULT], 1);
		CHECK_EQ(h.mm.ev[PGFAULT], 2); /* the first write and the swap-in: no second fault */
		pfn_t pfn = pte_frame(as, v, 0);
		CHECK(pfn != PFN_NONE);
		CHECK(as->vmas[v].pte[0] & PTE_DIRTY);
		CHECK_EQ(!!(mm_page(&h.mm, pfn)->flags & PG_swapcache), keeps);
		CHECK_EQ(h.mm.swap.used, keeps ? 1 : 0);
		for (int look = 0; look < 2; look++) {
			struct scan_control sc = h6_sc(RECLAIM_DIRECT, 0, 32);
			l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL);
		}
		CHECK(pte_is_swap(as->vmas[v].pte[0]));
		CHECK_EQ(h.mm.ev[PSWPOUT], 2); /* dirty: written again either way */
		CHECK_EQ(pte_slot(as->vmas[v].pte[0]), keeps ? slot : slot + 1);
		mm_destroy(&h.mm);
	}
}

/* folio_mark_accessed(): the first call sets PG_referenced, the second
 * activates (PGACTIVATE, nonresident age +1), a third does nothing more. */
void test_linux6_mark_accessed(void)
{
	struct h6 h;
	h6_init(&h, 64, false, NULL);
	pfn_t pfn = h6_page(&h, PG_file, ADD_PAGECACHE);
	CHECK_EQ(on(&h, L6_INACTIVE_FILE), 1);
	h.ops->mark_accessed(h.l, pfn);
	CHECK_EQ(on(&h, L6_INACTIVE_FILE), 1);
	CHECK(mm_page(&h.mm, pfn)->flags & PG_referenced);
	h.ops->mark_accessed(h.l, pfn);
	CHECK_EQ(on(&h, L6_ACTIVE_FILE), 1);
	CHECK(!(mm_page(&h.mm, pfn)->flags & PG_referenced));
	CHECK_EQ(h.mm.ev[PGACTIVATE], 1);
	CHECK_EQ(h.l->nonresident_age, 1);
	h.ops->mark_accessed(h.l, pfn);
	h.ops->mark_accessed(h.l, pfn);
	CHECK_EQ(h.mm.ev[PGACTIVATE], 1);
	mm_destroy(&h.mm);
}

/* ---- shrink_lruvec's bail-out ------------------------------------------- */

/* 4000 clean inactive file pages (cache_trim_mode: file only).  Direct
 * reclaim at priority 4 is asked for 32 and targets 4000 >> 4 = 250: it
 * stops after the first batch, 32 scanned, 32 freed.  At DEF_PRIORITY it
 * does not bail out (proportional_reclaim) but scans only 4000 >> 12 = 0. */
void test_linux6_bailout_at_nr_to_reclaim(void)
{
	struct h6 h;
	h6_init(&h, 8192, false, NULL);
	for (int i = 0; i < 4000; i++)
		h6_page(&h, PG_file, ADD_PAGECACHE);
	struct scan_control sc = h6_sc(RECLAIM_DIRECT, 4, 32);
	h.ops->shrink(h.l, &sc);
	CHECK_EQ(sc.nr_scanned, 32);
	CHECK_EQ(sc.nr_reclaimed, 32);
	CHECK_EQ(h.l->balance, SCAN_FILE);
	sc = h6_sc(RECLAIM_KSWAPD, 4, 64);
	h.ops->shrink(h.l, &sc);
	CHECK_EQ(sc.nr_scanned, 64);
	CHECK_EQ(sc.nr_reclaimed, 64);
	sc = h6_sc(RECLAIM_DIRECT, DEF_PRIORITY, 32);
	h.ops->shrink(h.l, &sc);
	CHECK_EQ(sc.nr_scanned, 0);
	mm_destroy(&h.mm);
}

/* 200 unreferenced anonymous pages on a disk that does not complete
 * writes.  Priority 2 targets 200 >> 2 = 50 (swappiness 200: all of the
 * pressure on anon).  bailout_writeback=1: the 32 pages of the first batch
 * are put under writeback and the pass stops; 0 (freed pages only): both
 * batches, 50 written, nothing freed. */
void test_linux6_bailout_counts_writeback(void)
{
	for (int literal = 0; literal < 2; literal++) {
		const char *sets[] = { "swappiness=200", literal ? "bailout_writeback=0" : "bailout_writeback=1", NULL };
		struct h6 h;
		h6_init(&h, 1024, true, sets);
		for (int i = 0; i < 200; i++)
			h6_page(&h, PG_anon, ADD_NEW_ANON);
		struct scan_control sc = h6_sc(RECLAIM_DIRECT, 2, 32);
		h.ops->shrink(h.l, &sc);
		CHECK_EQ(h.l->balance, SCAN_FRACT);
		CHECK_EQ(sc.nr_reclaimed, 0);
		CHECK_EQ(sc.nr_scanned, literal ? 50 : 32);
		CHECK_EQ(h.submitted, literal ? 50 : 32);
		CHECK_EQ(h.mm.ev[PSWPOUT], literal ? 50 : 32);
		mm_destroy(&h.mm);
	}
}

/* Writeback of a page reclaim wrote ends with folio_rotate_reclaimable():
 * to the inactive tail (PGROTATED), where the next batch frees it.  Found
 * again while still under writeback, a page is activated, and still
 * rotated back to the inactive tail when its write ends. */
void test_linux6_rotate_when_writeback_ends(void)
{
	struct h6 h;
	h6_init(&h, 1024, true, NULL);
	struct aspace *as = mm_aspace_new(&h.mm, -1);
	uint32_t v = mm_mmap_anon(&h.mm, as, 2, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 2, 1, true, UINT64_MAX / 2, &st), 2);
	pfn_t a = pte_frame(as, v, 0), b = pte_frame(as, v, 1);
	struct scan_control sc = h6_sc(RECLAIM_DIRECT, 0, 32);
	l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL);  /* young: kept, PG_referenced */
	CHECK_EQ(h.submitted, 0);
	sc = h6_sc(RECLAIM_DIRECT, 0, 32);
	l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL);  /* written, back at the head */
	CHECK_EQ(h.submitted, 2);
	CHECK(mm_page(&h.mm, a)->flags & PG_writeback);
	CHECK_EQ(h.mm.ev[PGROTATED], 0);
	mm_io_done(&h.mm, IO_WRITE, a);
	CHECK_EQ(h.mm.ev[PGROTATED], 1);
	CHECK_EQ(lru_tail(&h.mm.fr, h.l->list[L6_INACTIVE_ANON]), a);
	sc = h6_sc(RECLAIM_DIRECT, 0, 32);
	CHECK_EQ(l6_shrink_inactive_list(h.l, 1, &sc, 0, NULL), 1);
	CHECK(mm_page(&h.mm, a)->flags & PG_free);
	/* b, found again still under writeback: activated */
	sc = h6_sc(RECLAIM_DIRECT, 0, 32);
	l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL);
	CHECK_EQ(lru_on(&h.mm.fr, b), h.l->list[L6_ACTIVE_ANON]);
	CHECK_EQ(h.mm.ev[PGACTIVATE], 1);
	mm_io_done(&h.mm, IO_WRITE, b);
	CHECK_EQ(h.mm.ev[PGROTATED], 2);
	CHECK_EQ(lru_tail(&h.mm.fr, h.l->list[L6_INACTIVE_ANON]), b);
	CHECK(!(mm_page(&h.mm, b)->flags & PG_active));
	mm_destroy(&h.mm);
}

/* ---- the balance -------------------------------------------------------- */

/* 1000 inactive anon + 1000 inactive file pages, priority 2.  Plenty of
 * inactive file (1000 >> 2) not refaulting: cache_trim_mode, file only.
 * A workingset activation of a file page since the last snapshot: the file
 * list may be deactivated, no trim, SCAN_FRACT with both types.  A snapshot
 * (reclaim ended) restores the trim.  At priority 10 the inactive file
 * list is not "plentiful" (1000 >> 10 = 0): no trim. */
void test_linux6_cache_trim_mode(void)
{
	struct h6 h;
	h6_init(&h, 4096, false, NULL);
	for (int i = 0; i < 1000; i++) {
		h6_page(&h, PG_anon, ADD_NEW_ANON);
		h6_page(&h, PG_file, ADD_PAGECACHE);
	}
	uint64_t nr[L6_NR_LRU];
	struct scan_control sc = h6_sc(RECLAIM_KSWAPD, 2, 32);
	l6_prepare_scan_control(h.l, &sc);
	CHECK(h.l->cache_trim_mode);
	l6_get_scan_count(h.l, &sc, nr);
	CHECK_EQ(h.l->balance, SCAN_FILE);
	CHECK_EQ(nr[L6_INACTIVE_ANON], 0);
	CHECK_EQ(nr[L6_INACTIVE_FILE], 250);
	h.mm.ev[WORKINGSET_ACTIVATE_FILE]++;
	l6_prepare_scan_control(h.l, &sc);
	CHECK(!h.l->cache_trim_mode);
	CHECK(h.l->may_deactivate & L6_DEACTIVATE_FILE);
	l6_get_scan_count(h.l, &sc, nr);
	CHECK_EQ(h.l->balance, SCAN_FRACT);
	/* no cost yet: ap = 60, fp = 140 of 200 */
	CHECK_EQ(nr[L6_INACTIVE_ANON], 75);
	CHECK_EQ(nr[L6_INACTIVE_FILE], 175);
	l6_snapshot_refaults(h.l);
	l6_prepare_scan_control(h.l, &sc);
	CHECK(h.l->cache_trim_mode);
	sc.priority = 10;
	l6_prepare_scan_control(h.l, &sc);
	CHECK(!h.l->cache_trim_mode);
	mm_destroy(&h.mm);
}

/* The cost model (cache_trim=0, priority 2, 250 pages of each type in
 * reach).  file_cost 100, anon_cost 0: total 100, anon 100, file 200, of
 * 300; ap = 60 * 301 / 101 = 178, fp = 140 * 301 / 201 = 209: anon
 * 250 * 178 / 387 = 114, file 250 * 209 / 387 = 135.  Costs swapped: ap =
 * 60 * 301 / 201 = 89, fp = 140 * 301 / 101 = 417: anon 43, file 206.
 * lru_note_cost(): 2 pages of I/O and 5 rotations cost 2 x 32 + 5 = 69;
 * past a quarter of the 2000 LRU pages both costs halve. */
void test_linux6_cost_model(void)
{
	const char *sets[] = { "cache_trim=0", NULL };
	struct h6 h;
	h6_init(&h, 4096, false, sets);
	for (int i = 0; i < 1000; i++) {
		h6_page(&h, PG_anon, ADD_NEW_ANON);
		h6_page(&h, PG_file, ADD_PAGECACHE);
	}
	uint64_t nr[L6_NR_LRU];
	struct scan_control sc = h6_sc(RECLAIM_KSWAPD, 2, 32);
	l6_prepare_scan_control(h.l, &sc);
	h.l->anon_cost = 0;
	h.l->file_cost = 100;
	l6_get_scan_count(h.l, &sc, nr);
	CHECK_EQ(nr[L6_INACTIVE_ANON], 114);
	CHECK_EQ(nr[L6_INACTIVE_FILE], 135);
	h.l->anon_cost = 100;
	h.l->file_cost = 0;
	l6_get_scan_count(h.l, &sc, nr);
	CHECK_EQ(nr[L6_INACTIVE_ANON], 43);
	CHECK_EQ(nr[L6_INACTIVE_FILE], 206);
	h.l->anon_cost = h.l->file_cost = 0;
	l6_lru_note_cost(h.l, 0, 2, 5);
	CHECK_EQ(h.l->anon_cost, 69);
	l6_lru_note_cost(h.l, 1, 14, 0);  /* file 448: 517 > 500 */
	CHECK_EQ(h.l->anon_cost, 34);
	CHECK_EQ(h.l->file_cost, 224);
	/* swappiness 0: anon gets nothing; at priority 0: SCAN_EQUAL */
	mm_destroy(&h.mm);
	const char *sets0[] = { "cache_trim=0", "swappiness=0", NULL };
	h6_init(&h, 4096, false, sets0);
	for (int i = 0; i < 1000; i++) {
		h6_page(&h, PG_anon, ADD_NEW_ANON);
		h6_page(&h, PG_file, ADD_PAGECACHE);
	}
	l6_prepare_scan_control(h.l, &sc);
	l6_get_scan_count(h.l, &sc, nr);
	CHECK_EQ(nr[L6_INACTIVE_ANON], 0);
	CHECK_EQ(nr[L6_INACTIVE_FILE], 250);
	mm_destroy(&h.mm);
}

/* Refault distance against the 6.x workingset: an anon shadow taken when
 * the age was 0 refaults at distance 10; the workingset is active file +
 * inactive file + active anon (swap free) = 0 + 6 + 4 = 10: activated.
 * With the age at 11 (distance 11) it is not. */
void test_linux6_refault_distance(void)
{
	struct h6 h;
	h6_init(&h, 256, false, NULL);
	for (int i = 0; i < 6; i++)
		h6_page(&h, PG_file, ADD_PAGECACHE);
	for (int i = 0; i < 4; i++)
		h6_page(&h, PG_anon | PG_active, ADD_PUTBACK);
	pfn_t victim = h6_page(&h, PG_anon | PG_workingset, ADD_PUTBACK);
	h.ops->remove(h.l, victim);
	uint64_t shadow = l6_evict_shadow(h.l, victim);   /* age 0, then 1 */
	CHECK_EQ(h.l->nonresident_age, 1);
	h.l->nonresident_age = 10;
	struct page *p = mm_page(&h.mm, victim);
	p->flags = PG_anon;
	l6_refault(h.l, victim, shadow);
	CHECK(p->flags & PG_active);
	CHECK(p->flags & PG_workingset);
	CHECK_EQ(h.mm.ev[WORKINGSET_ACTIVATE_ANON], 1);
	CHECK_EQ(h.mm.ev[WORKINGSET_RESTORE_ANON], 1);
	/* lru_note_cost_refault(): 32, halved at once (10 LRU pages) */
	CHECK_EQ(h.l->anon_cost, 16);
	h.l->nonresident_age = 12;                        /* the refault aged it: 11 -> 12 */
	p->flags = PG_anon;
	l6_refault(h.l, victim, shadow);
	CHECK(!(p->flags & PG_active));
	CHECK_EQ(h.mm.ev[WORKINGSET_REFAULT_ANON], 2);
	CHECK_EQ(h.mm.ev[WORKINGSET_ACTIVATE_ANON], 1);
	h.ops->add(h.l, victim, ADD_REFAULT);
	mm_destroy(&h.mm);
}

/* ---- the memcg statistics reclaim reads ---------------------------------- */

/* stats_flush_ms=2000: reclaim reads the copies of the last flush.  10
 * inactive + 20 active anon pages; before the first flush (due at 2 s) the
 * copies are 0: inactive_is_low() is false (0 < 0), where the live lists
 * (10 < 20) say it is low.  The flush at the first pass after 2 s copies
 * them: low.  30 more inactive pages change nothing until the flush due
 * at 4 s (40 >= 20: not low).  A workingset activation is seen by
 * prepare_scan_control() only once flushed; the refault test weighs the
 * flushed active list (20), not the live one (0 after deactivating all). */
void test_linux6_stats_flush(void)
{
	const char *sets[] = { "stats_flush_ms=2000", "stats_flush_phase_ms=0", NULL };
	struct h6 h;
	h6_init(&h, 256, false, sets);
	for (int i = 0; i < 10; i++)
		h6_page(&h, PG_anon, ADD_NEW_ANON);
	for (int i = 0; i < 20; i++)
		h6_page(&h, PG_anon | PG_active, ADD_PUTBACK);
	CHECK_EQ(l6_stat_lru(h.l, L6_ACTIVE_ANON), 0);
	CHECK(!l6_inactive_is_low(h.l, 0));
	l6_stats_flush_due(h.l, 1999999999);
	CHECK(!l6_inactive_is_low(h.l, 0));
	CHECK_EQ(h.l->nr_flushes, 0);
	l6_stats_flush_due(h.l, 2500000000);
	CHECK_EQ(h.l->nr_flushes, 1);
	CHECK_EQ(l6_stat_lru(h.l, L6_INACTIVE_ANON), 10);
	CHECK_EQ(l6_stat_lru(h.l, L6_ACTIVE_ANON), 20);
	CHECK(l6_inactive_is_low(h.l, 0));
	for (int i = 0; i < 30; i++)
		h6_page(&h, PG_anon, ADD_NEW_ANON);
	l6_stats_flush_due(h.l, 3999999999);
	CHECK(l6_inactive_is_low(h.l, 0));
	l6_stats_flush_due(h.l, 4000000000);
	CHECK_EQ(h.l->nr_flushes, 2);
	CHECK_EQ(l6_stat_lru(h.l, L6_INACTIVE_ANON), 40);
	CHECK(!l6_inactive_is_low(h.l, 0));
	/* A refault activation since the snapshot: unseen until flushed. */
	struct scan_control sc = h6_sc(RECLAIM_DIRECT, DEF_PRIORITY, 32);
	l6_snapshot_refaults(h.l);
	h.mm.ev[WORKINGSET_ACTIVATE_ANON]++;
	l6_prepare_scan_control(h.l, &sc);
	CHECK(!(h.l->may_deactivate & L6_DEACTIVATE_ANON));
	l6_stats_flush_due(h.l, 6000000000);
	l6_prepare_scan_control(h.l, &sc);
	CHECK(h.l->may_deactivate & L6_DEACTIVATE_ANON);
	/* The workingset size is the flushed 20 active pages: a shadow at
	 * distance 20 is recent although the live active list is empty. */
	l6_shrink_active_list(h.l, 20, &sc, 0);
	CHECK_EQ(on(&h, L6_ACTIVE_ANON), 0);
	pfn_t victim = lru_tail(&h.mm.fr, h.l->list[L6_INACTIVE_ANON]);
	h.ops->remove(h.l, victim);
	uint64_t shadow = l6_evict_shadow(h.l, victim);
	h.l->nonresident_age = (shadow >> 2) + 20;
	mm_page(&h.mm, victim)->flags = PG_anon;
	l6_refault(h.l, victim, shadow);
	CHECK(mm_page(&h.mm, victim)->flags & PG_active);
	h.ops->add(h.l, victim, ADD_REFAULT);
	mm_destroy(&h.mm);
}

/* ---- swap readahead ------------------------------------------------------ */

/* __swapin_nr_pages() with page-cluster 3 (8 pages at most). */
void test_linux6_swapin_nr_pages(void)
{
	CHECK_EQ(swapin_nr_pages(10, 11, 0, 8, 0), 2);   /* adjacent, no hits */
	CHECK_EQ(swapin_nr_pages(10, 9, 0, 8, 0), 2);
	CHECK_EQ(swapin_nr_pages(10, 20, 0, 8, 0), 1);   /* random, no hits */
	CHECK_EQ(swapin_nr_pages(10, 20, 1, 8, 0), 4);   /* 3 -> rounded up to 4 */
	CHECK_EQ(swapin_nr_pages(10, 20, 3, 8, 0), 8);   /* 5 -> 8 */
	CHECK_EQ(swapin_nr_pages(10, 20, 10, 8, 0), 8);  /* capped */
	/* without hits it shrinks, by half at a time */
	CHECK_EQ(swapin_nr_pages(10, 20, 0, 8, 8), 4);
	CHECK_EQ(swapin_nr_pages(10, 20, 0, 8, 4), 2);
	CHECK_EQ(swapin_nr_pages(10, 20, 0, 8, 2), 1);
}

static struct machine *run_usemem(const char *machine, const char *policy, const char *const *sets,
				  const char *const *vm_sets, int argc, char **argv)
{
	return sim_run_workload(machine, 64ULL << 20, policy, sets, vm_sets, argc, argv);
}

/* linux6 on vmm-2008 with 64 MB: usemem writes 80 MB and reads it back
 * twice, under the machine parameters vm_sets. */
static struct machine *run_reread(const char *const *vm_sets)
{
	char a0[] = "usemem", a1[] = "-r", a2[] = "2", a3[] = "80M";
	char *av[] = { a0, a1, a2, a3, NULL };
	return run_usemem("vmm-2008", "linux6", NULL, vm_sets, 4, av);
}

/* A sequential re-read of swapped-out memory: the VMA readahead window
 * grows with its hits, so most swap-ins are readahead hits; with
 * page-cluster 0 there is no readahead at all. */
void test_linux6_swap_vma_readahead_hits(void)
{
	struct machine *m = run_reread(NULL);
	uint64_t ra = m->mm.ev[SWAP_RA], hit = m->mm.ev[SWAP_RA_HIT], in = m->mm.ev[PSWPIN];
	CHECK(in > 1000);
	CHECK(hit <= ra && ra < in);
	CHECK(hit * 10 > in * 7);          /* most swap-ins were read ahead */
	CHECK(m->mm.ev[PGMAJFAULT] * 4 < in);
	machine_free(m);
	const char *const vm0[] = { "vm.page_cluster", "0", NULL };
	m = run_reread(vm0);
	CHECK_EQ(m->mm.ev[SWAP_RA], 0);
	CHECK_EQ(m->mm.ev[PGMAJFAULT], m->mm.ev[PSWPIN]);
	machine_free(m);
}

/* One swap_cluster_ra_window() call for a fault at `target`: the window
 * it returns and the slots it names. */
static void check_window(struct swap_area *sw, uint32_t target, uint32_t max_win, uint32_t win,
			 uint32_t first, uint32_t last)
{
	uint32_t a, b;
	CHECK_EQ(swap_cluster_ra_window(sw, target, max_win, &a, &b), win);
	CHECK_EQ(a, first);
	CHECK_EQ(b, last);
}

/* swap_cluster_readahead()'s window, the reads of a host whose swap device
 * is rotational (vm.swap_rotational), worked out by hand from 6.18's
 * swapin_nr_pages() on 100 slots with page-cluster 3.  Slot s is the
 * kernel's offset s + 1 (offset 0 is the header). */
void test_linux6_swap_cluster_window(void)
{
	struct swap_area sw = { .nr_slots = 100 };
	/* Offset 41, no previous fault next to it, no hits: the page alone. */
	check_window(&sw, 40, 8, 1, 40, 40);
	/* Offset 42 follows 41: 2 pages, aligned: offsets 42-43. */
	check_window(&sw, 41, 8, 2, 41, 42);
	/* One hit since: 1 + 2 -> 4, offsets 44-47; a call with hits leaves
	 * the previous fault at 42 and takes the hits. */
	sw.ra_hits = 1;
	check_window(&sw, 43, 8, 4, 43, 46);
	CHECK_EQ(sw.ra_hits, 0);
	CHECK_EQ(sw.ra_prev, 42);
	/* Three hits: 5 -> 8, offsets 48-55. */
	sw.ra_hits = 3;
	check_window(&sw, 47, 8, 8, 47, 54);
	/* No hits, far away: it shrinks by half only, 4 pages at 88-91. */
	check_window(&sw, 90, 8, 4, 87, 90);
	CHECK_EQ(sw.ra_prev, 91);
	/* 2 pages at offsets 0-1: the header is not read. */
	check_window(&sw, 0, 8, 2, 0, 0);
	/* 8 pages at offsets 96-103, cut at the area's last offset, 100. */
	sw.ra_hits = 5;
	check_window(&sw, 98, 8, 8, 95, 99);
	/* page-cluster 0: one page, the hits stay for later. */
	sw.ra_hits = 2;
	check_window(&sw, 10, 1, 1, 10, 10);
	CHECK_EQ(sw.ra_hits, 2);
}

/* The same re-read with the swap device rotational: slot clusters, not
 * the VMA window, and the hits that widen them are the global count.
 * The swap-in identity holds and the pages read differ from the VMA
 * window's. */
void test_linux6_swap_cluster_readahead(void)
{
	struct machine *m = run_reread(NULL);
	uint64_t vma_ra = m->mm.ev[SWAP_RA];
	machine_free(m);
	const char *const rot[] = { "vm.swap_rotational", "1", NULL };
	m = run_reread(rot);
	uint64_t ra = m->mm.ev[SWAP_RA], hit = m->mm.ev[SWAP_RA_HIT], in = m->mm.ev[PSWPIN];
	CHECK(in > 1000);
	CHECK_EQ(in, m->mm.ev[PGMAJFAULT] + ra);
	CHECK(hit <= ra && ra > in / 2);
	CHECK(ra != vma_ra);
	machine_free(m);
}

/* ---- I/O inside reclaim passes ------------------------------------------ */

static unsigned completions;
static void count_done(void *arg, enum io_dir dir, struct disk_bio *bios, uint64_t now)
{
	(void)arg; (void)dir; (void)now;
	for (; bios; bios = bios->next)
		completions++;
}

/* An SSD serving one request at a time, 1 ms latency + 4 KiB in 1 ms (4 MB/s
 * decimal-ish: bandwidth 4096000).  Three writes far apart, submitted at 0:
 * dispatch at the 0.1 ms plug, done at 2.1, 4.1, 6.1 ms.  disk_run_until(5
 * ms) completes the first two, in order; their events, popped later, are
 * dropped; the third completes from its event. */
void test_linux6_disk_run_until(void)
{
	struct disk_params p = { .kind = DISK_SSD, .capacity = 1ULL << 30, .bandwidth = 4096000,
				 .latency_ns = 1000000, .queue_depth = 1, .max_request = 4096,
				 .plug_ns = 100000 };
	struct evq q;
	struct disk d;
	evq_init(&q);
	disk_init(&d, &p, &q, 0, count_done, NULL);
	completions = 0;
	disk_submit(&d, IO_WRITE, 100, 1, 0);
	disk_submit(&d, IO_WRITE, 5000, 2, 0);
	disk_submit(&d, IO_WRITE, 9000, 3, 0);
	CHECK_EQ(disk_run_until(&d, 5000000), 2);
	CHECK_EQ(completions, 2);
	CHECK_EQ(d.nr_inflight, 1);
	CHECK_EQ(disk_run_until(&d, 5000000), 0);
	struct event e;
	unsigned events = 0;
	while (evq_pop(&q, &e)) {
		disk_event(&d, e.kind, e.t, e.token);
		events++;
	}
	CHECK_EQ(completions, 3);
	CHECK_EQ(d.nr_inflight, 0);
	CHECK_EQ(d.nr_early, 0);
	CHECK(events >= 4);
	disk_free(&d);
	evq_free(&q);
}

/* The kernel's literal bail-out (freed pages only) on an NVMe disk: with
 * writes completing inside the pass, rotated pages are freed and the pass
 * stops; with vm.io_in_reclaim=0 (completions only between events) one
 * pass found nothing freeable and wrote most of memory. */
void test_linux6_no_write_storm_on_fast_disk(void)
{
	char a0[] = "usemem", a1[] = "-m", a2[] = "80";
	char *av[] = { a0, a1, a2, NULL };
	const char *const lit[] = { "bailout_writeback", "0", NULL };
	const char *const off[] = { "vm.io_in_reclaim", "0", NULL };
	struct machine *m = run_usemem("modern", "linux6", lit, off, 3, av);
	uint64_t storm = m->mm.test.max_pass_writeback;
	machine_free(m);
	m = run_usemem("modern", "linux6", lit, NULL, 3, av);
	uint64_t bounded = m->mm.test.max_pass_writeback;
	CHECK(m->mm.ev[PSWPOUT] > 4000);
	machine_free(m);
	m = run_usemem("modern", "linux6", NULL, NULL, 3, av);
	uint64_t dflt = m->mm.test.max_pass_writeback;
	machine_free(m);
	if (storm <= 4000 || bounded >= 1000 || dflt > 256)
		fprintf(stderr, "max pages written by one pass: %llu without I/O in passes, %llu with, %llu default\n",
			(unsigned long long)storm, (unsigned long long)bounded, (unsigned long long)dflt);
	CHECK(storm > 4000);
	CHECK(bounded < 1000);
	CHECK(dflt <= 256);
}

/* ---- the reclaimer's block plug (src/mm/plug.c) ------------------------ */

/* A disk that finishes every write it was given by the next catch-up. */
static pfn_t plug_q[64];
static unsigned plug_nq;
static struct mm *plug_mm;

static void plug_submit(void *arg, enum io_dir dir, uint32_t block, pfn_t pfn, uint64_t t)
{
	(void)dir; (void)block; (void)t;
	((struct h6 *)arg)->submitted++;
	plug_q[plug_nq++] = pfn;
}

static uint64_t plug_catch_up(void *arg, uint64_t t)
{
	(void)arg; (void)t;
	uint64_t n = plug_nq;
	for (unsigned i = 0; i < n; i++)
		mm_io_done(plug_mm, IO_WRITE, plug_q[i]);
	plug_nq = 0;
	return n;
}

/* 6.18 shrink_lruvec() plugs its loop: 40 pages written by one pass reach
 * the disk when it ends, so none is freed by it although the disk would
 * finish them at its first catch-up (without the plug the second batch
 * freed 8 rotated pages: written and stolen in one pass).  A fault on a
 * page still being written is a swap-cache hit (no major fault, no
 * pswpin); its write ends, it is rotated with the others, and the next
 * pass frees the 39 others and keeps it (young: PG_referenced, kept). */
void test_linux6_plugged_pass_frees_no_write_of_its_own(void)
{
	struct h6 h;
	h6_init(&h, 1024, true, NULL);
	h.mm.io = (struct mm_io){ .arg = &h, .submit_swap = plug_submit, .catch_up = plug_catch_up };
	h.mm.vm.io_in_reclaim = 1;
	plug_mm = &h.mm;
	plug_nq = 0;
	struct aspace *as = mm_aspace_new(&h.mm, -1);
	uint32_t v = mm_mmap_anon(&h.mm, as, 40, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 40, 1, TOUCH_WRITE, UINT64_MAX / 2, &st), 40);
	pfn_t first = pte_frame(as, v, 0);
	struct scan_control sc = h6_sc(RECLAIM_DIRECT, 0, 64);
	l6_shrink_lruvec(h.l, &sc);          /* young: all kept, PG_referenced */
	CHECK_EQ(h.submitted, 0);
	sc = h6_sc(RECLAIM_DIRECT, 0, 64);
	l6_shrink_lruvec(h.l, &sc);
	CHECK_EQ(sc.nr_reclaimed, 0);
	CHECK_EQ(h.submitted, 40);
	CHECK_EQ(h.mm.ev[PSWPOUT], 40);
	CHECK_EQ(h.mm.ev[PGROTATED], 0);
	CHECK(mm_page(&h.mm, first)->flags & PG_writeback);
	CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 1, 1, TOUCH_READ, UINT64_MAX / 2, &st), 1);
	CHECK_EQ(pte_frame(as, v, 0), first);
	CHECK_EQ(h.mm.ev[PGMAJFAULT], 0);
	CHECK_EQ(h.mm.ev[PSWPIN], 0);
	CHECK_EQ(plug_catch_up(NULL, 0), 40);
	CHECK_EQ(h.mm.ev[PGROTATED], 40);
	sc = h6_sc(RECLAIM_DIRECT, 0, 64);
	l6_shrink_lruvec(h.l, &sc);
	CHECK_EQ(sc.nr_reclaimed, 39);
	CHECK(!(mm_page(&h.mm, first)->flags & PG_free));
	CHECK_EQ(h.mm.ev[PSWPOUT], 40);
	mm_destroy(&h.mm);
}
