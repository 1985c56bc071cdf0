/* test_switches.c - the mechanism switches of mglru and linux6 whose
 * effect no printed figure shows (docs/policies.md, "Mechanism
 * switches"): each scenario runs with the switch on (the kernel's code)
 * and off, and checks what the mechanism did and did not do.  The
 * switches whose effect shows in the work counters or /proc/vmstat are
 * tested on whole runs in tests/cli.d/switches.sh. */
#include "test.h"
#include "../src/mm/mm.h"
#include "../src/policy/mglru/mglru.h"
#include "../src/policy/linux6/linux6.h"
#include "../src/policy/policy.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>

struct sw {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	const struct policy_ops *ops;
};

/* An untimed mm of `frames` pages under policy `pol`, its tunables at
 * their defaults but NAME=VALUE pairs in `sets` (NULL-terminated). */
static void sw_init(struct sw *s, const char *pol, uint64_t frames, const char *const *sets)
{
	memset(s, 0, sizeof(*s));
	struct mm_config cfg = { .ram_pages = frames, .swap_pages = frames, .no_watermarks = true,
				 .untimed = true };
	mm_init(&s->mm, &cfg, &s->cost);
	s->ops = policy_find(pol);
	int n = policy_nr_tunables(s->ops);
	double *tun = xcalloc((size_t)n + 1, sizeof(double));
	for (int i = 0; i < n; i++)
		tun[i] = s->ops->tunables[i].def;
	for (; sets && *sets; sets += 2) {
		int ti = policy_tunable_index(s->ops, sets[0]);
		if (ti < 0)
			panic("no tunable %s in %s", sets[0], pol);
		tun[ti] = atof(sets[1]);
	}
	mm_set_policy(&s->mm, s->ops, tun);
	free(tun);
	s->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	s->mm.cur = &s->ctx;
}

/* A frame from the allocator (no watermarks: never reclaims) with
 * `flags`, handed to the policy as added for `why`. */
static pfn_t sw_page(struct sw *s, uint32_t flags, enum add_reason why)
{
	enum fault_status st;
	pfn_t pfn = mm_alloc_page(&s->mm, &s->ctx, &st);
	mm_page(&s->mm, pfn)->flags = flags;
	if (flags & PG_anon)
		s->mm.stat.nr_anon++;
	s->ops->add(s->mm.pol.priv, pfn, why);
	return pfn;
}

static struct scan_control sw_sc(enum reclaimer who, int priority, uint64_t nr_to_reclaim)
{
	return (struct scan_control){ .nr_to_reclaim = nr_to_reclaim, .priority = priority, .who = who,
				      .may_swap = true, .may_writepage = true };
}

/* ---- mglru ------------------------------------------------------------ */

/* tiers: 16 anonymous pages aged into the oldest generation, 0..7 read
 * three times through fds (tier 2), and tier 2's refault record worse
 * than tier 0's (8 of 8 refaulted).  On: get_tier_idx() says 1 and
 * sort_folio() protects the tier-2 pages it meets (folio_inc_gen), so
 * the batch of 4 isolates only tier-0 pages.  Off: nothing is protected,
 * and the batch takes the first four pages at the tail, of tier 2. */
static uint64_t tiers_run(const char *on, uint64_t *protected_)
{
	const char *sets[] = { "min_lru_batch", "4", "tiers", on, NULL };
	struct sw s;
	sw_init(&s, "mglru", 64, sets);
	struct mglru *g = mglru_of(&s.mm);
	struct aspace *as = mm_aspace_new(&s.mm, 0);
	uint32_t v = mm_mmap_anon(&s.mm, as, 16, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(&s.mm, &s.ctx, as, v, 0, 16, 1, true, UINT64_MAX, &st), 16);
	CHECK(mglru_age(g, false));                 /* clears the accessed bits */
	for (uint64_t i = 0; i < 8; i++)
		for (int k = 0; k < 3; k++)
			s.ops->mark_accessed(g, pte_pfn(as->vmas[v].pte[i]));
	CHECK(mglru_age(g, false));                 /* nothing young: seq 3 is oldest + 1 */
	g->refaulted[MG_ANON][2] = 8;
	g->evicted[MG_ANON][2] = 8;
	CHECK_EQ(mglru_tier_idx(g, MG_ANON), 1);
	uint64_t reclaimed = 0, tier2_gone = 0;
	struct scan_control sc = sw_sc(RECLAIM_DIRECT, DEF_PRIORITY, 4);
	while (!reclaimed && mglru_evict(g, &sc))
		reclaimed = sc.nr_reclaimed;
	CHECK_EQ(reclaimed, 4);
	for (uint64_t i = 0; i < 8; i++)
		tier2_gone += pte_is_swap(as->vmas[v].pte[i]);
	*protected_ = g->nr_protected;
	CHECK(mm_check(&s.mm, stderr));
	mm_destroy(&s.mm);
	return tier2_gone;
}

void test_switch_mglru_tiers(void)
{
	uint64_t prot;
	CHECK_EQ(tiers_run("1", &prot), 0);
	CHECK(prot > 0);
	CHECK_EQ(tiers_run("0", &prot), 4);
	CHECK_EQ(prot, 0);
}

/* ---- linux6 ----------------------------------------------------------- */

/* refault_activate: an anonymous shadow refaulting within the workingset
 * (test_linux6_refault_distance's numbers: distance 10, workingset 10).
 * On: the folio starts active.  Off: inactive, the nonresident clock not
 * ticked by an activation, but the refault still judged and counted. */
void test_switch_linux6_refault_activate(void)
{
	for (int off = 0; off < 2; off++) {
		const char *sets[] = { "refault_activate", off ? "0" : "1", "stats_flush_ms", "0", NULL };
		struct sw s;
		sw_init(&s, "linux6", 256, sets);
		struct linux6 *l = s.mm.pol.priv;
		for (int i = 0; i < 6; i++)
			sw_page(&s, PG_file, ADD_PAGECACHE);
		for (int i = 0; i < 4; i++)
			sw_page(&s, PG_anon | PG_active, ADD_PUTBACK);
		pfn_t victim = sw_page(&s, PG_anon | PG_workingset, ADD_PUTBACK);
		s.ops->remove(l, victim);
		uint64_t shadow = l6_evict_shadow(l, victim);
		l->nonresident_age = 10;
		struct page *p = mm_page(&s.mm, victim);
		p->flags = PG_anon;
		l6_refault(l, victim, shadow);
		CHECK_EQ(!!(p->flags & PG_active), !off);
		CHECK_EQ(l->nonresident_age, off ? 10 : 11);
		CHECK_EQ(s.mm.ev[WORKINGSET_ACTIVATE_ANON], 1);
		CHECK_EQ(s.mm.ev[WORKINGSET_RESTORE_ANON], 1);
		s.ops->add(l, victim, ADD_REFAULT);
		CHECK_EQ(l6_size(l, L6_ACTIVE_ANON), off ? 4 : 5);
		mm_destroy(&s.mm);
	}
}

/* linux6 with 1000 anon and 1000 file pages, kswapd's prepare_scan_
 * control() at priority 2 done (250 pages of each type in reach). */
static struct linux6 *mixed(struct sw *s, const char *const *sets)
{
	sw_init(s, "linux6", 4096, sets);
	for (int i = 0; i < 1000; i++) {
		sw_page(s, PG_anon, ADD_NEW_ANON);
		sw_page(s, PG_file, ADD_PAGECACHE);
	}
	struct linux6 *l = s->mm.pol.priv;
	struct scan_control sc = sw_sc(RECLAIM_KSWAPD, 2, 32);
	l6_prepare_scan_control(l, &sc);
	return l;
}

/* cost_balance: 1000 anon and 1000 file pages, priority 2 (250 of each
 * in reach), anon_cost 100, file_cost 0 (test_linux6_cost_model: anon
 * 43, file 206).  Off: swappiness alone, 60 : 140 of 200 -> 75 and 175,
 * whatever the costs. */
void test_switch_linux6_cost_balance(void)
{
	static const uint64_t want[2][2] = { { 43, 206 }, { 75, 175 } };
	for (int off = 0; off < 2; off++) {
		const char *sets[] = { "cache_trim", "0", "cost_balance", off ? "0" : "1", NULL };
		struct sw s;
		struct linux6 *l = mixed(&s, sets);
		uint64_t nr[L6_NR_LRU];
		struct scan_control sc = sw_sc(RECLAIM_KSWAPD, 2, 32);
		l->anon_cost = 100;
		l->file_cost = 0;
		l6_get_scan_count(l, &sc, nr);
		CHECK_EQ(l->balance, SCAN_FRACT);
		CHECK_EQ(nr[L6_INACTIVE_ANON], want[off][0]);
		CHECK_EQ(nr[L6_INACTIVE_FILE], want[off][1]);
		mm_destroy(&s.mm);
	}
}

/* bailout: 4000 clean file pages, direct reclaim at priority 4 asking
 * for 32 (cache_trim_mode: file only, target 4000 >> 4 = 250).  On: the
 * pass stops at the first batch of 32 (test_linux6_bailout_at_nr_to_
 * reclaim).  Off: it scans and frees the whole target. */
void test_switch_linux6_bailout(void)
{
	for (int off = 0; off < 2; off++) {
		const char *sets[] = { "bailout", off ? "0" : "1", "stats_flush_ms", "0", NULL };
		struct sw s;
		sw_init(&s, "linux6", 8192, sets);
		for (int i = 0; i < 4000; i++)
			sw_page(&s, PG_file, ADD_PAGECACHE);
		struct scan_control sc = sw_sc(RECLAIM_DIRECT, 4, 32);
		s.ops->shrink(s.mm.pol.priv, &sc);
		CHECK_EQ(sc.nr_scanned, off ? 250 : 32);
		CHECK_EQ(sc.nr_reclaimed, off ? 250 : 32);
		mm_destroy(&s.mm);
	}
}

/* cache_trim: 1000 anon and 1000 file pages, nothing refaulting.  On:
 * plenty of inactive file, cache_trim_mode, file only (SCAN_FILE, anon
 * 0).  Off: the cost split, anon 75 of 250 (test_linux6_cache_trim_mode). */
void test_switch_linux6_cache_trim(void)
{
	for (int off = 0; off < 2; off++) {
		const char *sets[] = { "cache_trim", off ? "0" : "1", "stats_flush_ms", "0", NULL };
		struct sw s;
		struct linux6 *l = mixed(&s, sets);
		uint64_t nr[L6_NR_LRU];
		struct scan_control sc = sw_sc(RECLAIM_KSWAPD, 2, 32);
		CHECK_EQ(l->cache_trim_mode, !off);
		l6_get_scan_count(l, &sc, nr);
		CHECK_EQ(l->balance, off ? SCAN_FRACT : SCAN_FILE);
		CHECK_EQ(nr[L6_INACTIVE_ANON], off ? 75 : 0);
		mm_destroy(&s.mm);
	}
}
