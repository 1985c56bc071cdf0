/* test_linux6_retry.c - do_try_to_free_pages()'s retry with forced
 * deactivation (5.8+ mm/vmscan.c: sc->skipped_deactivate, then
 * sc->force_deactivate), on a hand-built mm: linux6 judges the
 * inactive:active balance from statistics that may be stale, so passes
 * down to priority 0 can reclaim nothing while an active list is never
 * aged; the reclaimer then runs them again ageing both types.
 * Cost: well under a second (an mm of 256 frames, untimed). */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/policy/linux6/linux6.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

void test_linux6_force_deactivate_retry(void);

struct hr {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	struct linux6 *l;
};

static void hr_init(struct hr *h)
{
	memset(h, 0, sizeof(*h));
	struct mm_config cfg = { .ram_pages = 256, .swap_pages = 256, .untimed = true };
	mm_init(&h->mm, &cfg, &h->cost);
	const struct policy_ops *ops = policy_find("linux6");
	int n = policy_nr_tunables(ops);
	double *tun = xcalloc((size_t)n, sizeof(double));
	for (int i = 0; i < n; i++)
		tun[i] = ops->tunables[i].def;
	/* The 2 s flush, the first due at 2 s: until then reclaim reads
	 * copies of 0 (inactive_is_low: 0 < 0 is false). */
	tun[policy_tunable_index(ops, "stats_flush_ms")] = 2000;
	tun[policy_tunable_index(ops, "stats_flush_phase_ms")] = 0;
	mm_set_policy(&h->mm, ops, tun);
	free(tun);
	h->l = h->mm.pol.priv;
	h->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	h->mm.cur = &h->ctx;
}

static pfn_t frame_at(struct aspace *as, uint32_t vma, uint64_t off)
{
	pte_t pte = as->vmas[vma].pte[off];
	return pte_present(pte) ? pte_pfn(pte) : PFN_NONE;
}

/* 4 inactive anon pages with young PTEs and 20 active ones whose PTEs are
 * old.  The live lists say inactive is low (4 < 20); the copies (0, 0) say
 * not, and no refault was seen: active anon may not be deactivated.
 * First descent: only priority 0 (SCAN_EQUAL) scans the 4 inactive pages
 * (4 >> 1 x 60/200 is 0 above it): each is young, gets PG_referenced and is
 * kept; the active list is skipped.  Nothing reclaimed, an active list
 * skipped: the retry forces deactivation.  Its priority 0: the 4 pages,
 * old now with PG_referenced, are anon FOLIOREF_RECLAIM - swapped out;
 * the 20 active pages are deactivated.  Without the retry (the 2.6.28-era
 * engine has none) the call returns 0 with all 20 still active. */
void test_linux6_force_deactivate_retry(void)
{
	struct hr h;
	hr_init(&h);
	struct aspace *as = mm_aspace_new(&h.mm, -1);
	uint32_t hot = mm_mmap_anon(&h.mm, as, 4, 0);
	uint32_t cold = mm_mmap_anon(&h.mm, as, 20, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, hot, 0, 4, 1, true, UINT64_MAX / 2, &st), 4);
	CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, cold, 0, 20, 1, true, UINT64_MAX / 2, &st), 20);
	const struct policy_ops *ops = h.mm.pol.ops;
	for (uint64_t i = 0; i < 20; i++) {
		pfn_t pfn = frame_at(as, cold, i);
		CHECK(mm_page_referenced(&h.mm, pfn)); /* clears the young bit */
		ops->remove(h.l, pfn);
		mm_page(&h.mm, pfn)->flags |= PG_active;
		ops->add(h.l, pfn, ADD_PUTBACK);
	}
	CHECK_EQ(l6_size(h.l, L6_INACTIVE_ANON), 4);
	CHECK_EQ(l6_size(h.l, L6_ACTIVE_ANON), 20);
	CHECK_EQ(l6_stat_lru(h.l, L6_ACTIVE_ANON), 0);

	bool congested = true;
	uint64_t got = do_try_to_free_pages(&h.mm, &h.ctx, SWAP_CLUSTER_MAX, true, DEF_PRIORITY - 2, &congested);
	CHECK(!congested);
	CHECK_EQ(got, 4);
	CHECK_EQ(h.mm.ev[PSWPOUT], 4);
	CHECK_EQ(h.mm.ev[PGDEACTIVATE], 20);
	CHECK_EQ(h.mm.ev[PGACTIVATE], 0);
	CHECK_EQ(l6_size(h.l, L6_ACTIVE_ANON), 0);
	CHECK_EQ(l6_size(h.l, L6_INACTIVE_ANON), 20);
	for (uint64_t i = 0; i < 4; i++)
		CHECK(pte_is_swap(as->vmas[hot].pte[i]));
	/* The first descent looked at each hot page once, the retry again:
	 * 8 anon pages scanned.  (The 20 refilled are not in the global
	 * pgrefill: limit reclaim, as the kernel's cgroup_reclaim().) */
	CHECK_EQ(h.mm.ev[PGSCAN_ANON], 8);
	CHECK_EQ(h.mm.ev[PGREFILL], 0);
	mm_destroy(&h.mm);
}
