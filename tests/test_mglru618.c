/* test_mglru618.c - mglru's two 6.18 version switches on hand-checked
 * cases, each against the 6.6 default:
 *   folio_seq: include/linux/mm_inline.h lru_gen_folio_seq() (6.14+)
 *     files a faulted-in (PG_active) page in max_seq - 1, in max_seq only
 *     with PG_workingset, and a read() page in the oldest generation;
 *     6.6's lru_gen_add_folio() used max_seq and min_seq + 1.
 *   workingset_rework: "mm/mglru: rework workingset protection" (6.14):
 *     no keep of a mapped folio marked PG_referenced while isolated (6.6's
 *     shrink_folio_list() check), folio_update_gen() / lru_gen_set_refs()
 *     promote on a second sighting only, lru_gen_inc_refs() ends in
 *     PG_workingset, the last tier. */
#include "test.h"
#include "../src/mm/mm.h"
#include "../src/mm/filemap.h"
#include "../src/policy/mglru/mglru.h"
#include "../src/policy/policy.h"

#include <string.h>

/* An untimed mm of 64 frames under mglru, folio_seq and
 * workingset_rework as given, min_lru_batch 4, walk_mmu as given. */
static struct mglru *mm618(struct mm *mm, struct mm_costs *cost, struct mm_ctx *ctx, int seq618,
			   int rework, int walk)
{
	const struct policy_ops *ops = policy_find("mglru");
	double tun[32];
	for (int i = 0; i < policy_nr_tunables(ops); i++)
		tun[i] = ops->tunables[i].def;
	tun[policy_tunable_index(ops, "folio_seq")] = seq618;
	tun[policy_tunable_index(ops, "workingset_rework")] = rework;
	tun[policy_tunable_index(ops, "min_lru_batch")] = 4;
	tun[policy_tunable_index(ops, "walk_mmu")] = walk;
	struct mm_config cfg = { .ram_pages = 64, .swap_pages = 64, .no_watermarks = true, .untimed = true };
	mm_init(mm, &cfg, cost);
	mm_set_policy(mm, ops, tun);
	*ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	mm->cur = ctx;
	return mglru_of(mm);
}

static pfn_t fault_anon(struct mm *mm, struct mm_ctx *ctx, struct aspace *as, uint32_t v, uint64_t off)
{
	enum fault_status st;
	CHECK_EQ(mm_touch(mm, ctx, as, v, off, 1, 1, true, UINT64_MAX / 2, &st), 1);
	return pte_pfn(as->vmas[v].pte[off]);
}

/* A file of `size` pages whose first n are read() once, then made to
 * look never accessed through an fd: refs, PG_referenced and
 * PG_workingset cleared. */
static struct inode *read_cold(struct mm *mm, struct mm_ctx *ctx, uint64_t size, uint64_t n)
{
	struct inode *f = filemap_make_uncached(mm, "f", size);
	struct file_ra ra;
	memset(&ra, 0, sizeof(ra));
	enum fault_status st;
	CHECK_EQ(filemap_read(mm, ctx, f, &ra, 0, n, UINT64_MAX / 2, &st), n);
	for (uint64_t i = 0; i < n; i++) {
		struct page *p = mm_page(mm, pc_page(f, i));
		p->flags &= ~(PG_referenced | PG_workingset);
		p->pol32[1] = 0;
	}
	return f;
}

/* Where a fault and a read() file their pages: max_seq = 3, min_seq 0,
 * four generations (0..3) after lru_gen_init_lruvec(). */
static void placement(int seq618, uint64_t want_fault, uint64_t want_read)
{
	static struct mm mm;
	struct mm_costs cost = { 0 };
	struct mm_ctx ctx;
	struct mglru *g = mm618(&mm, &cost, &ctx, seq618, 0, 1);
	struct aspace *as = mm_aspace_new(&mm, -1);
	uint32_t v = mm_mmap_anon(&mm, as, 4, 0);
	CHECK_EQ(g->max_seq, 3);
	pfn_t a = fault_anon(&mm, &ctx, as, v, 0);
	CHECK_EQ(mglru_page_seq(g, a), want_fault);
	struct inode *f = filemap_make_uncached(&mm, "read", 4);
	struct file_ra ra;
	memset(&ra, 0, sizeof(ra));
	enum fault_status st;
	CHECK_EQ(filemap_read(&mm, &ctx, f, &ra, 0, 1, UINT64_MAX / 2, &st), 1);
	CHECK_EQ(mglru_page_seq(g, pc_page(f, 0)), want_read);
	CHECK(mm_check(&mm, stderr));
	mm_destroy(&mm);
}

/* 6.6: a fault's page in max_seq (3); a read() page in min_seq + 1 (1),
 * since min_seq + MIN_NR_GENS (2) < max_seq.  6.18: max_seq - 1 (2),
 * and max(max_seq + 1 - MAX_NR_GENS, min_seq) = 0. */
void test_mglru618_folio_seq_placement(void)
{
	placement(0, 3, 1);
	placement(1, 2, 0);
}

/* lru_gen_folio_seq() case by case on one file page (4 generations,
 * max_seq 3, min_seq 0; flags set by hand, the page is not moved). */
void test_mglru618_folio_seq_cases(void)
{
	static struct mm mm;
	struct mm_costs cost = { 0 };
	struct mm_ctx ctx;
	struct mglru *g = mm618(&mm, &cost, &ctx, 1, 0, 1);
	struct inode *f = filemap_make_uncached(&mm, "f", 4);
	struct file_ra ra;
	memset(&ra, 0, sizeof(ra));
	enum fault_status st;
	CHECK_EQ(filemap_read(&mm, &ctx, f, &ra, 0, 1, UINT64_MAX / 2, &st), 1);
	struct page *p = mm_page(&mm, pc_page(f, 0));
	uint32_t saved = p->flags;
	p->flags = saved | PG_active;
	CHECK_EQ(mg_folio_seq_618(g, p, false), 2);   /* max_seq - 1 */
	p->flags = saved | PG_active | PG_workingset;
	CHECK_EQ(mg_folio_seq_618(g, p, false), 3);   /* max_seq */
	p->flags = saved | PG_workingset;
	CHECK_EQ(mg_folio_seq_618(g, p, false), 1);   /* max_seq - 2 */
	CHECK_EQ(mg_folio_seq_618(g, p, true), 0);    /* reclaim's tail: oldest */
	p->flags = saved;
	CHECK_EQ(mg_folio_seq_618(g, p, false), 0);
	p->flags = saved | PG_dirty;
	p->pol32[2] |= MG_ROTATE;                     /* PG_reclaim, still dirty */
	CHECK_EQ(mg_folio_seq_618(g, p, false), 2);
	p->pol32[2] &= ~MG_ROTATE;
	p->flags = saved;
	/* two generations left (min_seq 2): never below min_seq */
	g->min_seq[MG_FILE] = 2;
	CHECK_EQ(mg_folio_seq_618(g, p, false), 2);
	p->flags = saved | PG_active;
	CHECK_EQ(mg_folio_seq_618(g, p, false), 2);
	p->flags = saved;
	g->min_seq[MG_FILE] = 0;
	CHECK(mm_check(&mm, stderr));
	mm_destroy(&mm);
}

/* Four anon pages faulted in (young PTEs) at seq 3, aged without walks
 * (walk_mmu=0 keeps the accessed bits) until theirs is the oldest
 * generation: max_seq 6, min_seq 3.  One eviction pass isolates all four
 * (MIN_LRU_BATCH 4); generations 3 and 4 are then empty and min_seq goes
 * to 5 before shrink_folio_list().  6.6: the rmap walk of the first page
 * finds it young and looks around: it harvests the other three
 * (isolated; la_young 3) and marks them PG_referenced, so the old check
 * keeps them (3 keeps) and the first is activated (it was referenced: 1
 * pgactivate).  6.14+: the look-around skips isolated folios (la_young
 * 0), each is found young by its own rmap walk and lru_gen_set_refs()
 * sets PG_referenced: FOLIOREF_KEEP, no pgactivate.  evict_folios():
 * lru_gen_folio_seq() would put them (anon, not in the swap cache) in
 * max(max_seq - 1, min_seq) = 5 = min_seq, so they get PG_active and lose
 * PG_referenced.  Nothing is reclaimed; they land in max_seq (6.6
 * placement) or max_seq - 1 = 5 (6.18's). */
static void isolated_referenced(int seq618, int rework, uint64_t want_kept, uint64_t want_activate,
				uint64_t want_la, uint64_t want_seq)
{
	static struct mm mm;
	struct mm_costs cost = { 0 };
	struct mm_ctx ctx;
	struct mglru *g = mm618(&mm, &cost, &ctx, seq618, rework, 0);
	struct aspace *as = mm_aspace_new(&mm, -1);
	uint32_t v = mm_mmap_anon(&mm, as, 4, 0);
	pfn_t pf[4];
	for (uint64_t i = 0; i < 4; i++)
		pf[i] = fault_anon(&mm, &ctx, as, v, i);
	CHECK_EQ(mglru_page_seq(g, pf[0]), seq618 ? 2 : 3);
	while (g->min_seq[MG_ANON] < mglru_page_seq(g, pf[0]))
		CHECK(mglru_age(g, false));
	CHECK_EQ(g->max_seq, seq618 ? 5 : 6);
	struct scan_control sc = { .nr_to_reclaim = 4, .priority = DEF_PRIORITY, .who = RECLAIM_DIRECT,
				   .may_swap = true, .may_writepage = true };
	mglru_evict(g, &sc);
	CHECK_EQ(sc.nr_reclaimed, 0);
	CHECK_EQ(g->nr_kept_referenced, want_kept);
	CHECK_EQ(mm.ev[PGACTIVATE], want_activate);
	CHECK_EQ(g->la_young, want_la);
	for (int i = 0; i < 4; i++) {
		CHECK(pte_present(as->vmas[v].pte[i]));
		CHECK_EQ(mm_page(&mm, pf[i])->flags & (PG_referenced | PG_active | PG_workingset), 0);
		CHECK_EQ(mglru_page_seq(g, pf[i]), want_seq);
	}
	CHECK(mm_check(&mm, stderr));
	mm_destroy(&mm);
}

void test_mglru618_rework_isolated_referenced(void)
{
	isolated_referenced(0, 0, 3, 1, 3, 6);
	isolated_referenced(0, 1, 0, 0, 0, 6);
	isolated_referenced(1, 1, 0, 0, 0, 4);   /* max_seq 5, min_seq 4 */
}

/* folio_update_gen() on one on-list page without PG_referenced or
 * PG_workingset: 6.6 promotes it at once; 6.14+ only sets PG_referenced
 * the first time and promotes the second, with PG_workingset. */
void test_mglru618_rework_update_gen(void)
{
	for (int rework = 0; rework < 2; rework++) {
		static struct mm mm;
		struct mm_costs cost = { 0 };
		struct mm_ctx ctx;
		struct mglru *g = mm618(&mm, &cost, &ctx, 0, rework, 1);
		struct aspace *as = mm_aspace_new(&mm, -1);
		uint32_t v = mm_mmap_anon(&mm, as, 4, 0);
		pfn_t a = fault_anon(&mm, &ctx, as, v, 0);
		struct page *p = mm_page(&mm, a);
		CHECK(mglru_age(g, false));            /* max_seq 4, min_seq 1 */
		CHECK_EQ(g->max_seq, 4);
		CHECK_EQ(mglru_page_seq(g, a), 3);
		p->flags &= ~(PG_referenced | PG_workingset);
		int young = mg_gen(g, g->max_seq);
		int first = mg_update_gen(g, a, young);
		if (!rework) {
			CHECK_EQ(first, mg_gen(g, 3));
			CHECK_EQ(mglru_page_seq(g, a), 4);
		} else {
			CHECK_EQ(first, -1);
			CHECK_EQ(mglru_page_seq(g, a), 3);
			CHECK(p->flags & PG_referenced);
			CHECK_EQ(mg_update_gen(g, a, young), mg_gen(g, 3));
			CHECK_EQ(mglru_page_seq(g, a), 4);
			CHECK((p->flags & (PG_referenced | PG_workingset)) == PG_workingset);
		}
		CHECK(mm_check(&mm, stderr));
		mm_destroy(&mm);
	}
}

/* Five read() accesses to one page (folio_mark_accessed): its tier after
 * each.  6.6: PG_referenced, PG_workingset, then the refs bits, tier
 * order_base_2(refs + 1): 0 1 2 2 3.  6.14+: PG_referenced, the refs bits
 * (2 of them: MAX_NR_TIERS 4), then PG_workingset, the last tier: tier
 * order_base_2(refs) = 0 1 2 2, then 3. */
void test_mglru618_rework_tiers(void)
{
	static const unsigned want[2][5] = { { 0, 1, 2, 2, 3 }, { 0, 1, 2, 2, 3 } };
	static const uint32_t ws_after[2] = { 2, 5 };  /* PG_workingset from the Nth */
	for (int rework = 0; rework < 2; rework++) {
		static struct mm mm;
		struct mm_costs cost = { 0 };
		struct mm_ctx ctx;
		struct mglru *g = mm618(&mm, &cost, &ctx, 0, rework, 1);
		struct inode *f = read_cold(&mm, &ctx, 4, 1);
		pfn_t pfn = pc_page(f, 0);
		struct page *p = mm_page(&mm, pfn);
		for (uint32_t n = 1; n <= 5; n++) {
			mm.pol.ops->mark_accessed(g, pfn);
			CHECK_EQ(mglru_page_tier(g, pfn), want[rework][n - 1]);
			CHECK_EQ((p->flags & PG_workingset) != 0, n >= ws_after[rework]);
		}
		CHECK(mm_check(&mm, stderr));
		mm_destroy(&mm);
	}
}

/* inc_min_seq() retiring a file generation that still holds 22 read()
 * pages (6.6 placement: min_seq + 1 = seq 1; the second aging finds four
 * generations and moves them to seq 2).  Accesses through fds per page
 * (6.14+ tiers, as in test_mglru618_rework_tiers): six with 0 or 1
 * access -> tier 0, two with 2 -> tier 1, four with 3 or 4 -> tier 2,
 * two with 5 -> refs full plus PG_workingset: lazily promoted, not
 * counted; eight with only PG_workingset (what folio_inc_gen() leaves
 * since 6.14) -> tier 3.  6.6's inc_min_seq() counts nothing, so the
 * averages reset_ctrl_pos() folds stay 0; 6.14+ adds each moved folio to
 * lrugen->protected[tier] ("rework aging feedback", less the lazy ones:
 * "rework workingset protection"), folded as protected / 2:
 * 6 / 2 = 3, 2 / 2 = 1, 4 / 2 = 2, 8 / 2 = 4. */
void test_mglru618_inc_min_seq_protected(void)
{
	static const unsigned accesses[22] = { 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5,
						0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint64_t want[2][4] = { { 0, 0, 0, 0 }, { 3, 1, 2, 4 } };
	for (int rework = 0; rework < 2; rework++) {
		static struct mm mm;
		struct mm_costs cost = { 0 };
		struct mm_ctx ctx;
		struct mglru *g = mm618(&mm, &cost, &ctx, 0, rework, 1);
		struct inode *f = read_cold(&mm, &ctx, 22, 22);
		for (uint64_t i = 0; i < 22; i++) {
			pfn_t pfn = pc_page(f, i);
			struct page *p = mm_page(&mm, pfn);
			CHECK_EQ(mglru_page_seq(g, pfn), 1);
			for (unsigned n = 0; n < accesses[i]; n++)
				mm.pol.ops->mark_accessed(g, pfn);
			if (i >= 14)
				p->flags |= PG_workingset;
		}
		CHECK(mglru_age(g, false));            /* gen 0 empty: min_seq 1 */
		CHECK_EQ(g->min_seq[MG_FILE], 1);
		CHECK(mglru_age(g, false));            /* retires seq 1 */
		CHECK_EQ(g->min_seq[MG_FILE], 2);
		for (uint64_t i = 0; i < 22; i++)
			CHECK_EQ(mglru_page_seq(g, pc_page(f, i)), 2);
		for (int t = 0; t < 4; t++)
			CHECK_EQ(g->avg_total[MG_FILE][t], want[rework][t]);
		CHECK_EQ(g->nr_protected, 0);          /* sort_folio()'s count */
		CHECK(mm_check(&mm, stderr));
		mm_destroy(&mm);
	}
}
