/* test_mglru.c - the multi-gen LRU on small hand-checked scenarios, driving
 * the mm core directly (untimed, no watermarks) so that aging and eviction
 * run exactly when the test says, plus invariants on random runs and on the
 * simulated machine. */
#include "test.h"
#include "sim.h"
#include "../src/mm/mm.h"
#include "../src/policy/mglru/mglru.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

struct rig {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	struct aspace *as;
	uint32_t vma;
	struct mglru *g;
};

static void rig_init(struct rig *r, uint64_t frames, uint64_t npages, const char *const *set)
{
	memset(r, 0, sizeof(*r));
	struct mm_config cfg = { .ram_pages = frames, .swap_pages = 256, .no_watermarks = true, .untimed = true };
	mm_init(&r->mm, &cfg, &r->cost);
	const struct policy_ops *ops = policy_find("mglru");
	double tun[32];
	int n = policy_nr_tunables(ops);
	for (int i = 0; i < n; i++)
		tun[i] = ops->tunables[i].def;
	for (; set && *set; set += 2)
		tun[policy_tunable_index(ops, set[0])] = atof(set[1]);
	mm_set_policy(&r->mm, ops, tun);
	r->g = mglru_of(&r->mm);
	r->as = mm_aspace_new(&r->mm, 0);
	r->vma = mm_mmap_anon(&r->mm, r->as, npages, 0);
	r->ctx.wait_pfn = PFN_NONE;
}

static void rig_free(struct rig *r)
{
	CHECK(mm_check(&r->mm, stderr));
	mm_destroy(&r->mm);
}

static void touch(struct rig *r, uint64_t off)
{
	enum fault_status st;
	CHECK_EQ(mm_touch(&r->mm, &r->ctx, r->as, r->vma, off, 1, 1, true, UINT64_MAX, &st), 1);
}

static pte_t pte(struct rig *r, uint64_t off) { return r->as->vmas[r->vma].pte[off]; }
static pfn_t pfn_of(struct rig *r, uint64_t off) { return pte_pfn(pte(r, off)); }
static uint64_t seq_of(struct rig *r, uint64_t off) { return mglru_page_seq(r->g, pfn_of(r, off)); }

static uint64_t evict(struct rig *r, uint64_t nr_to_reclaim, uint64_t *reclaimed)
{
	struct scan_control sc = { .nr_to_reclaim = nr_to_reclaim, .priority = DEF_PRIORITY,
				   .who = RECLAIM_DIRECT, .may_swap = true, .may_writepage = true };
	uint64_t scanned = mglru_evict(r->g, &sc);
	*reclaimed = sc.nr_reclaimed;
	return scanned;
}

static void window_ok(struct rig *r)
{
	for (int type = 0; type < 2; type++) {
		uint64_t d = r->g->max_seq - r->g->min_seq[type];
		CHECK(d >= r->g->min_nr_gens - 1 && d <= r->g->max_nr_gens - 1);
	}
}

static const char *const small_batch[] = { "min_lru_batch", "4", NULL };

/* Eviction takes the oldest generation; a page referenced since the last
 * aging is found young by the page-table walk, promoted, and survives. */
void test_mglru_oldest_gen_and_walk(void);
void test_mglru_oldest_gen_and_walk(void)
{
	struct rig r;
	rig_init(&r, 16, 32, small_batch);
	struct mglru *g = r.g;
	/* lru_gen_init_lruvec: max_seq = MIN_NR_GENS + 1, min_seq 0. */
	CHECK_EQ(g->max_seq, 3);
	for (uint64_t i = 0; i < 8; i++)
		touch(&r, i);
	for (uint64_t i = 0; i < 8; i++)
		CHECK_EQ(seq_of(&r, i), 3);          /* faulted in: youngest */
	/* Aging: the walk clears the 8 accessed bits; four generations
	 * exist (0..3), so the oldest retires first: min_seq 1, max_seq 4. */
	CHECK(mglru_age(g, false));
	CHECK_EQ(g->max_seq, 4);
	CHECK_EQ(g->min_seq[MG_ANON], 1);
	CHECK_EQ(g->ptes_young, 8);
	for (uint64_t i = 0; i < 8; i++)
		CHECK(!(pte(&r, i) & PTE_ACCESSED));
	window_ok(&r);
	for (uint64_t i = 8; i < 12; i++)
		touch(&r, i);                        /* new pages: seq 4 */
	touch(&r, 2);                                /* referenced since the aging */
	CHECK(mglru_age(g, false));
	CHECK_EQ(g->max_seq, 5);
	CHECK_EQ(g->min_seq[MG_ANON], 2);
	CHECK_EQ(g->ptes_young, 8 + 5);
	CHECK_EQ(g->walk_promoted, 1);
	CHECK_EQ(seq_of(&r, 2), 4);                  /* promoted to the then youngest */
	CHECK_EQ(seq_of(&r, 0), 3);
	CHECK_EQ(seq_of(&r, 8), 4);
	window_ok(&r);
	/* First eviction pass: generation 2 is empty, min_seq steps to 3
	 * (one "scanned" for the step), nothing isolated. */
	uint64_t reclaimed;
	CHECK_EQ(evict(&r, 4, &reclaimed), 1);
	CHECK_EQ(reclaimed, 0);
	CHECK_EQ(g->min_seq[MG_ANON], 3);
	/* Second: from the tail of generation 3 (pages 0..7 in fault order),
	 * page 2 is sorted to its recorded generation and the next four
	 * unreferenced pages are isolated (MIN_LRU_BATCH) and swapped out. */
	CHECK_EQ(evict(&r, 4, &reclaimed), 5);
	CHECK_EQ(reclaimed, 4);
	CHECK_EQ(g->nr_sorted, 1);
	CHECK(pte_is_swap(pte(&r, 0)) && pte_is_swap(pte(&r, 1)));
	CHECK(pte_is_swap(pte(&r, 3)) && pte_is_swap(pte(&r, 4)));
	CHECK(pte_present(pte(&r, 2)));
	for (uint64_t i = 5; i < 12; i++)
		CHECK(pte_present(pte(&r, i)));
	CHECK_EQ(r.mm.ev[PSWPOUT], 4);
	CHECK_EQ(g->evicted[MG_ANON][0], 4);
	window_ok(&r);

	/* Refault within the generation window (min_seq still 3): detected,
	 * counted as refault and activation, and restored (a fault). */
	touch(&r, 0);
	CHECK_EQ(r.mm.ev[WORKINGSET_REFAULT_ANON], 1);
	CHECK_EQ(r.mm.ev[WORKINGSET_ACTIVATE_ANON], 1);
	CHECK_EQ(r.mm.ev[WORKINGSET_RESTORE_ANON], 1);
	CHECK_EQ(g->refaulted[MG_ANON][0], 1);
	CHECK_EQ(seq_of(&r, 0), 5);
	CHECK(mm_page(&r.mm, pfn_of(&r, 0))->flags & PG_workingset);
	/* Two agings later the generation page 1 left from is gone
	 * (min_seq 4): its refault is counted but not recent. */
	CHECK(mglru_age(g, false));
	CHECK(mglru_age(g, false));
	CHECK_EQ(g->max_seq, 7);
	CHECK_EQ(g->min_seq[MG_ANON], 4);
	window_ok(&r);
	/* (the min_seq steps folded the counts into the halved averages) */
	CHECK_EQ(g->refaulted[MG_ANON][0], 0);
	touch(&r, 1);
	CHECK_EQ(r.mm.ev[WORKINGSET_REFAULT_ANON], 2);
	CHECK_EQ(r.mm.ev[WORKINGSET_ACTIVATE_ANON], 1);
	CHECK_EQ(g->refaulted[MG_ANON][0], 0);
	rig_free(&r);
}

static void fd_access(struct rig *r, uint64_t off, int times)
{
	for (int i = 0; i < times; i++)
		r->mm.pol.ops->mark_accessed(r->mm.pol.priv, pfn_of(r, off));
}

/* Tiers and the refault feedback loop: pages accessed three times through
 * fds are tier 2; when tier 2 refaults at more than twice tier 0's rate,
 * get_tier_idx() protects it: its pages in the oldest generation move to
 * the next one instead of being evicted. */
void test_mglru_tier_protection(void);
void test_mglru_tier_protection(void)
{
	struct rig r;
	rig_init(&r, 32, 40, small_batch);
	struct mglru *g = r.g;
	uint64_t reclaimed;
	for (uint64_t i = 0; i < 16; i++)
		touch(&r, i);
	CHECK(mglru_age(g, false));               /* clears the accessed bits */
	for (uint64_t i = 0; i < 8; i++)
		fd_access(&r, i, 3);
	CHECK_EQ(mglru_page_tier(g, pfn_of(&r, 0)), 2);  /* 3 accesses: tier 2 */
	CHECK_EQ(mglru_page_tier(g, pfn_of(&r, 8)), 0);
	fd_access(&r, 8, 1);
	CHECK_EQ(mglru_page_tier(g, pfn_of(&r, 8)), 0);  /* 1 access: tier 0 */
	fd_access(&r, 8, 1);
	CHECK_EQ(mglru_page_tier(g, pfn_of(&r, 8)), 1);  /* 2: tier 1 */
	fd_access(&r, 8, 3);
	CHECK_EQ(mglru_page_tier(g, pfn_of(&r, 8)), 3);  /* 5: tier 3 */
	CHECK(mglru_age(g, false));               /* nothing young: all stay at seq 3 */
	CHECK_EQ(g->walk_promoted, 0);
	CHECK_EQ(seq_of(&r, 0), 3);
	CHECK_EQ(mglru_tier_idx(g, MG_ANON), 3);  /* no refaults: nothing protected */
	CHECK_EQ(evict(&r, 4, &reclaimed), 1);    /* min_seq 2 -> 3 */
	CHECK_EQ(evict(&r, 4, &reclaimed), 4);
	CHECK_EQ(evict(&r, 4, &reclaimed), 4);
	CHECK_EQ(g->evicted[MG_ANON][2], 8);      /* pages 0..7 left from tier 2 */
	for (uint64_t i = 0; i < 8; i++)
		touch(&r, i);                     /* all refault at once */
	CHECK_EQ(g->min_seq[MG_ANON], 3);
	CHECK_EQ(r.mm.ev[WORKINGSET_ACTIVATE_ANON], 8);
	CHECK_EQ(g->refaulted[MG_ANON][2], 8);
	/* tier 2: 8 refaulted of 8 evicted; tier 0: 0 of 0.  8 * (0 + 4) * 1
	 * > (0 + 1) * 8 * 2: tier 2 is worse than tier 0, protect it. */
	CHECK_EQ(mglru_tier_idx(g, MG_ANON), 1);
	/* Pages 9..11 get three fd accesses (tier 2), 8 had five (tier 3). */
	for (uint64_t i = 9; i < 12; i++)
		fd_access(&r, i, 3);
	/* 8 scanned: 4 protected, 4 isolated; generation 3 is then empty,
	 * min_seq steps to 4 and only MIN_NR_GENS remain: evict_folios()
	 * reports 0 so the caller ages next. */
	CHECK_EQ(evict(&r, 4, &reclaimed), 0);
	CHECK_EQ(reclaimed, 4);
	CHECK_EQ(g->nr_protected, 4);
	CHECK_EQ(g->min_seq[MG_ANON], 4);
	/* The step (taken after isolation, before the isolated pages were
	 * freed) folded the counts into the averages, halved: tier 2
	 * refaulted (0 + 8) / 2, total (0 + 8 evicted + 3 protected) / 2;
	 * the four tier-0 evictions count in the new generation.
	 * 4 * (4 + 4) > 1 * 5 * 2: tier 2 stays protected. */
	CHECK_EQ(g->avg_refaulted[MG_ANON][2], 4);
	CHECK_EQ(g->avg_total[MG_ANON][2], 5);
	CHECK_EQ(g->avg_total[MG_ANON][0], 0);
	CHECK_EQ(g->evicted[MG_ANON][0], 4);
	CHECK_EQ(g->avg_total[MG_ANON][3], 0);
	CHECK_EQ(mglru_tier_idx(g, MG_ANON), 1);
	for (uint64_t i = 8; i < 12; i++) {
		CHECK(pte_present(pte(&r, i)));
		CHECK_EQ(seq_of(&r, i), 4);       /* folio_inc_gen: min_seq + 1 */
		CHECK_EQ(mglru_page_tier(g, pfn_of(&r, i)), 0);  /* refs dropped */
	}
	for (uint64_t i = 12; i < 16; i++)
		CHECK(pte_is_swap(pte(&r, i)));
	rig_free(&r);
}

/* Eviction's rmap walk finds page 3 young: look-around harvests the
 * PTEs around it in the same page table (MIN_LRU_BATCH of them) and
 * promotes young page 4, still on the oldest generation's list, to the
 * youngest generation; page 3 itself survives there too. */
void test_mglru_look_around(void);
void test_mglru_look_around(void)
{
	struct rig r;
	rig_init(&r, 32, 40, small_batch);
	struct mglru *g = r.g;
	uint64_t reclaimed;
	for (uint64_t i = 0; i < 16; i++)
		touch(&r, i);
	CHECK(mglru_age(g, false));
	CHECK(mglru_age(g, false));
	CHECK_EQ(g->max_seq, 5);
	touch(&r, 3);
	touch(&r, 4);
	CHECK_EQ(evict(&r, 4, &reclaimed), 1);    /* min_seq 2 -> 3 */
	CHECK_EQ(evict(&r, 4, &reclaimed), 4);    /* isolates pages 0..3 */
	CHECK_EQ(reclaimed, 3);
	CHECK(pte_is_swap(pte(&r, 0)) && pte_is_swap(pte(&r, 1)) && pte_is_swap(pte(&r, 2)));
	CHECK_EQ(g->la_young, 1);                 /* window: pages 1..4 */
	CHECK_EQ(seq_of(&r, 3), 5);
	CHECK_EQ(seq_of(&r, 4), 5);
	CHECK(!(pte(&r, 4) & PTE_ACCESSED));
	CHECK_EQ(seq_of(&r, 5), 3);
	/* Without look-around page 4 stays in the oldest generation. */
	rig_free(&r);
	static const char *const no_la[] = { "min_lru_batch", "4", "look_around", "0", NULL };
	rig_init(&r, 32, 40, no_la);
	g = r.g;
	for (uint64_t i = 0; i < 16; i++)
		touch(&r, i);
	CHECK(mglru_age(g, false));
	CHECK(mglru_age(g, false));
	touch(&r, 3);
	touch(&r, 4);
	evict(&r, 4, &reclaimed);
	evict(&r, 4, &reclaimed);
	CHECK_EQ(reclaimed, 3);
	CHECK_EQ(seq_of(&r, 3), 5);
	CHECK_EQ(seq_of(&r, 4), 3);
	CHECK(pte(&r, 4) & PTE_ACCESSED);
	rig_free(&r);
}

/* Random references through a region three times RAM, reclaim running
 * whenever the allocator needs it, aging every 200 references: the
 * generation window and the mm invariants hold throughout. */
void test_mglru_random_invariants(void);
void test_mglru_random_invariants(void)
{
	struct rig r;
	static const char *const set[] = { "min_lru_batch", "8", NULL };
	rig_init(&r, 64, 192, set);
	struct rng rng;
	rng_seed(&rng, 42);
	bool ok = true;
	for (int i = 0; i < 6000 && ok; i++) {
		/* A hot quarter referenced 3/4 of the time. */
		uint64_t off = rng_below(&rng, 4) ? rng_below(&rng, 48) : 48 + rng_below(&rng, 144);
		touch(&r, off);
		if (i % 200 == 199)
			mglru_age(r.g, false);
		window_ok(&r);
		if (i % 500 == 0)
			ok = mm_check(&r.mm, stderr);
	}
	CHECK(ok);
	CHECK(r.mm.ev[PSWPOUT] > 0);
	CHECK(r.mm.ev[WORKINGSET_REFAULT_ANON] > 0);
	CHECK(r.mm.ev[WORKINGSET_ACTIVATE_ANON] > 0);
	CHECK(r.g->nr_agings > 30);
	rig_free(&r);
	/* Through the machine with --check, as a cache simulation: mglru
	 * never beats Belady's OPT, and keeps the hot set better than FIFO. */
	uint64_t refs[4000];
	rng_seed(&rng, 7);
	for (int i = 0; i < 4000; i++)
		refs[i] = rng_below(&rng, 4) ? rng_below(&rng, 40) : 40 + rng_below(&rng, 400);
	uint64_t f_mglru = sim_trace_faults("mglru", refs, 4000, 100, 0);
	uint64_t f_opt = sim_trace_faults("opt", refs, 4000, 100, 0);
	uint64_t f_fifo = sim_trace_faults("fifo", refs, 4000, 100, 0);
	CHECK(f_opt <= f_mglru);
	CHECK(f_mglru < f_fifo);
}

/* The walk's CPU time lands on whoever runs reclaim: one scan unit per
 * cache line of PTEs read (8 PTEs) and per young PTE updated. */
void test_mglru_walk_cost(void);
void test_mglru_walk_cost(void)
{
	struct rig r;
	rig_init(&r, 16, 32, small_batch);
	r.cost.scan_ns = 100;
	for (uint64_t i = 0; i < 8; i++)
		touch(&r, i);
	r.mm.cur = &r.ctx;
	uint64_t before = r.ctx.sys_ns;
	CHECK(mglru_age(r.g, false));
	/* 32 PTEs of the VMA in one table = 4 lines, 8 young. */
	CHECK_EQ(r.ctx.sys_ns - before, (4 + 8) * 100);
	CHECK_EQ(r.g->ptes_walked, 32);
	r.mm.cur = NULL;
	rig_free(&r);
}

/* swappiness 0: anon is never scanned (and never aged by the walk). */
void test_mglru_swappiness(void);
void test_mglru_swappiness(void)
{
	struct rig r;
	static const char *const s0[] = { "min_lru_batch", "4", "swappiness", "0", NULL };
	rig_init(&r, 16, 32, s0);
	uint64_t reclaimed;
	for (uint64_t i = 0; i < 8; i++)
		touch(&r, i);
	for (int k = 0; k < 4; k++) {
		struct scan_control sc = { .nr_to_reclaim = 4, .priority = DEF_PRIORITY - 4 * k,
					   .who = RECLAIM_DIRECT, .may_swap = true };
		r.mm.pol.ops->shrink(r.mm.pol.priv, &sc);
		CHECK_EQ(sc.nr_scanned, 0);
		evict(&r, 4, &reclaimed);
		CHECK_EQ(reclaimed, 0);
	}
	CHECK_EQ(r.mm.ev[PSWPOUT], 0);
	CHECK_EQ(r.g->ptes_young, 0);            /* anon VMAs not walked */
	CHECK(r.g->nr_agings > 0);
	rig_free(&r);
}

/* kswapd owns an mm_walk: look-around only records the new generation
 * (folio_update_gen), and the page is filed by sort_folio() when the
 * eviction scan reaches it. */
void test_mglru_lazy_promotion(void);
void test_mglru_lazy_promotion(void)
{
	struct rig r;
	rig_init(&r, 32, 40, small_batch);
	struct mglru *g = r.g;
	r.mm.zones[0].wmark_high = 1000;          /* keep kswapd from stopping early */
	for (uint64_t i = 0; i < 16; i++)
		touch(&r, i);
	CHECK(mglru_age(g, false));
	CHECK(mglru_age(g, false));
	touch(&r, 3);
	touch(&r, 4);
	struct scan_control sc = { .nr_to_reclaim = 4, .priority = 0, .who = RECLAIM_KSWAPD,
				   .may_swap = true, .may_writepage = true };
	r.mm.pol.ops->shrink(r.mm.pol.priv, &sc);
	/* Passes: min_seq 2 -> 3; pages 0..3 isolated, 0..2 freed, 3 young
	 * (look-around records page 4 in generation 5); then page 4 is
	 * sorted to generation 5 and pages 5..8 are freed. */
	CHECK_EQ(sc.nr_reclaimed, 7);
	CHECK_EQ(g->nr_sorted, 1);
	CHECK_EQ(seq_of(&r, 4), 5);
	CHECK_EQ(seq_of(&r, 3), 5);
	for (uint64_t i = 5; i < 9; i++)
		CHECK(pte_is_swap(pte(&r, i)));
	CHECK(pte_present(pte(&r, 9)));
	rig_free(&r);
}
