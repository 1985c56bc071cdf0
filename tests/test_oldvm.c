/* test_oldvm.c - the behaviour that defines each pre-2.6 design, pinned on
 * small hand-checked scenarios (issue 3, "Must show"). */
#include "test.h"
#include "../src/mm/mm.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

static const struct mm_costs test_cost = { .scan_ns = 1000, .rmap_ns = 100 };

/* An untimed mm (I/O completes at once, no watermarks) under `policy`,
 * its tunables at their defaults except name=value pairs in `set`. */
static struct mm *mk_mm(uint64_t frames, const char *policy, const char *set, double value)
{
	struct mm *mm = xcalloc(1, sizeof(*mm));
	struct mm_config cfg = { .ram_pages = frames, .swap_pages = 4 * frames,
				 .no_watermarks = true, .untimed = true };
	mm_init(mm, &cfg, &test_cost);
	const struct policy_ops *ops = policy_find(policy);
	CHECK(ops != NULL);
	double tun[32];
	int n = policy_nr_tunables(ops);
	for (int i = 0; i < n && i < 32; i++)
		tun[i] = ops->tunables[i].def;
	if (set) {
		int i = policy_tunable_index(ops, set);
		CHECK(i >= 0);
		if (i >= 0)
			tun[i] = value;
	}
	mm_set_policy(mm, ops, tun);
	return mm;
}

static void free_mm(struct mm *mm)
{
	mm_destroy(mm);
	free(mm);
}

static const char *list_name(struct mm *mm, pfn_t pfn)
{
	return mm->fr.lists[lru_on(&mm->fr, pfn)].name;
}

/* A page-cache page as the page-cache layer will insert it. */
static pfn_t fake_cache_page(struct mm *mm)
{
	struct mm_ctx ctx = { .task = -1 };
	enum fault_status st;
	pfn_t pfn = mm_alloc_page(mm, &ctx, &st);
	CHECK(pfn != PFN_NONE);
	mm_page(mm, pfn)->flags = PG_file;
	mm->pol.ops->add(mm->pol.priv, pfn, ADD_PAGECACHE);
	return pfn;
}

/* aa24: a new cache page enters the inactive list; the first
 * mark_page_accessed only sets PG_referenced, the second activates it. */
void test_aa24_two_touch(void);
void test_aa24_two_touch(void)
{
	struct mm *mm = mk_mm(64, "aa24", NULL, 0);
	pfn_t pfn = fake_cache_page(mm);
	struct page *p = mm_page(mm, pfn);
	CHECK(!strcmp(list_name(mm, pfn), "inactive"));
	CHECK(!(p->flags & (PG_active | PG_referenced)));
	mm->pol.ops->mark_accessed(mm->pol.priv, pfn);
	CHECK(!strcmp(list_name(mm, pfn), "inactive"));
	CHECK(p->flags & PG_referenced);
	CHECK_EQ(mm->ev[PGACTIVATE], 0);
	mm->pol.ops->mark_accessed(mm->pol.priv, pfn);
	CHECK(!strcmp(list_name(mm, pfn), "active"));
	CHECK(p->flags & PG_active);
	CHECK(!(p->flags & PG_referenced));
	CHECK_EQ(mm->ev[PGACTIVATE], 1);
	/* A third touch leaves it active and referenced. */
	mm->pol.ops->mark_accessed(mm->pol.priv, pfn);
	CHECK(!strcmp(list_name(mm, pfn), "active"));
	CHECK(p->flags & PG_referenced);
	CHECK_EQ(mm->ev[PGACTIVATE], 1);
	CHECK(mm_check(mm, stderr));
	free_mm(mm);
}

/* linux22: shrink_mmap's hand clears PG_referenced on every frame it
 * passes, also on frames that do not use its budget (locked); its budget
 * (num_physpages >> priority) counts only frames with one user. */
void test_linux22_clock_clears_referenced(void);
void test_linux22_clock_clears_referenced(void)
{
	/* priority=0: one shrink_mmap with a budget of all 8 frames. */
	struct mm *mm = mk_mm(8, "linux22", "priority", 0);
	struct aspace *as = mm_aspace_new(mm, 0);
	uint32_t v = mm_mmap_anon(mm, as, 6, 0);
	struct mm_ctx ctx = { .task = 0 };
	enum fault_status st;
	/* mlock: swap_out skips VM_LOCKED areas, so only the clock acts. */
	CHECK_EQ(mm_mlock(mm, &ctx, as, v, 0, 6, UINT64_MAX, &st), 6);
	for (pfn_t pfn = 0; pfn < 6; pfn++)
		CHECK(!(mm_page(mm, pfn)->flags & PG_free));
	for (pfn_t pfn = 0; pfn < 6; pfn++)
		mm_page(mm, pfn)->flags |= PG_referenced;
	mm_page(mm, 3)->flags |= PG_locked;  /* passed without using budget */
	struct mm_ctx rc = { .task = 0 };
	CHECK_EQ(mm_shrink(mm, &rc, 1, DEF_PRIORITY), 0);
	for (pfn_t pfn = 0; pfn < 6; pfn++)
		CHECK(!(mm_page(mm, pfn)->flags & PG_referenced));
	/* Budget 8: frames 0,1,2,4,5 then (6, 7 free) 0,1,2; plus swap_out
	 * at priority 0 (counter = nr_tasks / 1 = 1, so two rounds) walking
	 * the 6 locked PTEs it skips, twice. */
	CHECK_EQ(mm->ev[PGSCAN_DIRECT], 8 + 2 * 6);
	CHECK_EQ(mm->ev[PGSTEAL_DIRECT], 0);
	CHECK_EQ(mm->stat.nr_free, 2);
	/* The next pass starts where the hand stopped (frame 3). */
	mm_page(mm, 3)->flags &= ~PG_locked;
	mm_page(mm, 4)->flags |= PG_referenced;
	mm_page(mm, 1)->flags |= PG_referenced;
	CHECK_EQ(mm_shrink(mm, &rc, 1, DEF_PRIORITY), 0);
	CHECK(!(mm_page(mm, 4)->flags & PG_referenced));
	CHECK(!(mm_page(mm, 1)->flags & PG_referenced));
	CHECK(mm_check(mm, stderr));
	free_mm(mm);
}

static uint32_t age(struct mm *mm, pfn_t pfn) { return mm_page(mm, pfn)->pol32[0]; }

/* riel24: a new page starts at PAGE_AGE_START (2); a reference adds
 * PAGE_AGE_ADV (3) up to PAGE_AGE_MAX (64); each scan of the active list
 * without a reference halves the age, and at 0 an unmapped page is
 * deactivated to inactive_dirty. */
void test_riel24_aging(void);
void test_riel24_aging(void)
{
	/* DEF_PRIORITY=0: kswapd's once-a-second refill_inactive_scan
	 * (run from kreclaimd's thread) scans the whole active list. */
	struct mm *mm = mk_mm(64, "riel24", "DEF_PRIORITY", 0);
	pfn_t pfn = fake_cache_page(mm);
	CHECK(!strcmp(list_name(mm, pfn), "active"));
	CHECK_EQ(age(mm, pfn), 2);
	mm->pol.ops->mark_accessed(mm->pol.priv, pfn);
	CHECK_EQ(age(mm, pfn), 5);
	for (int i = 0; i < 19; i++)
		mm->pol.ops->mark_accessed(mm->pol.priv, pfn);
	CHECK_EQ(age(mm, pfn), 62);
	mm->pol.ops->mark_accessed(mm->pol.priv, pfn);
	CHECK_EQ(age(mm, pfn), 64);
	mm->pol.ops->mark_accessed(mm->pol.priv, pfn);
	CHECK_EQ(age(mm, pfn), 64);
	static const uint32_t halves[] = { 32, 16, 8, 4, 2, 1 };
	struct mm_ctx ctx = { .task = -1, .kswapd = true };
	for (unsigned s = 0; s < ARRAY_SIZE(halves); s++) {
		for (int t = 0; t < 100; t++)  /* 100 kreclaimd ticks = 1 s */
			mm_tick(mm, &ctx);
		CHECK_EQ(age(mm, pfn), halves[s]);
		CHECK(!strcmp(list_name(mm, pfn), "active"));
	}
	for (int t = 0; t < 100; t++)
		mm_tick(mm, &ctx);
	CHECK_EQ(age(mm, pfn), 0);
	CHECK(!strcmp(list_name(mm, pfn), "inactive_dirty"));
	CHECK_EQ(mm->ev[PGDEACTIVATE], 1);
	CHECK_EQ(mm->ev[PGREFILL], 7);
	/* A reference to a page of age 0 activates it again (2 + 3). */
	mm->pol.ops->mark_accessed(mm->pol.priv, pfn);
	CHECK(!strcmp(list_name(mm, pfn), "active"));
	CHECK_EQ(age(mm, pfn), 5);
	CHECK(mm_check(mm, stderr));
	free_mm(mm);
}

/* vhand: the aging thread scans page tables on its own, and that work is
 * CPU time of the thread: max(rss * 32 / 1024, 2^4) PTEs per run. */
void test_vhand_thread_cpu(void);
void test_vhand_thread_cpu(void)
{
	struct mm *mm = mk_mm(64, "vhand", NULL, 0);
	struct aspace *as = mm_aspace_new(mm, 0);
	uint32_t v = mm_mmap_anon(mm, as, 32, 0);
	struct mm_ctx ctx = { .task = 0 };
	enum fault_status st;
	CHECK_EQ(mm_touch(mm, &ctx, as, v, 0, 32, 1, true, UINT64_MAX, &st), 32);
	for (pfn_t pfn = 0; pfn < 32; pfn++)
		CHECK_EQ(age(mm, pfn), 3);  /* PAGE_INITIAL_AGE */
	struct mm_ctx kt = { .task = -1, .kswapd = true };
	mm_tick(mm, &kt);
	/* 16 young PTEs: touch_page, 3 + 3. */
	CHECK_EQ(mm->ev[PGSCAN_AGING], 16);
	CHECK_EQ(kt.sys_ns, 16 * test_cost.scan_ns);
	for (pfn_t pfn = 0; pfn < 32; pfn++)
		CHECK_EQ(age(mm, pfn), pfn < 16 ? 6 : 3);
	mm_tick(mm, &kt);
	mm_tick(mm, &kt);  /* pages 0..15 again, no longer young */
	CHECK_EQ(mm->ev[PGSCAN_AGING], 48);
	CHECK_EQ(kt.sys_ns, 48 * test_cost.scan_ns);
	for (pfn_t pfn = 0; pfn < 32; pfn++)
		CHECK_EQ(age(mm, pfn), pfn < 16 ? 5 : 6);
	CHECK(mm_check(mm, stderr));
	free_mm(mm);
}

/* Multi-zone support: aa24 splits a 32 MB machine into DMA (16 MB) and
 * Normal; allocation walks the zonelist from Normal down, keeping the
 * cumulative watermarks, and a single-zone machine is untouched. */
void test_aa24_zones(void);
void test_aa24_zones(void)
{
	struct mm *mm = xcalloc(1, sizeof(*mm));
	struct mm_config cfg = { .ram_pages = 8192, .swap_pages = 8192 };
	mm_init(mm, &cfg, &test_cost);
	mm_set_policy(mm, policy_find("aa24"), NULL);
	CHECK_EQ(mm->nr_zones, 2);
	CHECK_EQ(mm->zones[0].managed, 4096);
	CHECK_EQ(mm->zones[1].managed, 4096);
	/* realsize/128 = 32: min 32, low 64, high 96. */
	CHECK_EQ(mm->zones[1].wmark_min, 32);
	CHECK_EQ(mm->zones[1].wmark_high, 96);
	struct mm_ctx ctx = { .task = 0 };
	enum fault_status st;
	pfn_t pfn = mm_alloc_page(mm, &ctx, &st);
	CHECK_EQ(mm_page(mm, pfn)->zone, 1);
	CHECK_EQ(mm->zones[1].nr_free, 4095);
	CHECK_EQ(mm->zones[0].nr_free, 4096);
	/* Drain Normal to its cumulative low mark: 1 + 64 free stay. */
	while (mm->zones[1].nr_free > 65)
		mm_page(mm, mm_alloc_page(mm, &ctx, &st))->flags = PG_file;
	pfn = mm_alloc_page(mm, &ctx, &st);
	mm_page(mm, pfn)->flags = PG_file;
	CHECK_EQ(mm_page(mm, pfn)->zone, 0);   /* falls back to DMA */
	CHECK_EQ(mm->zones[1].need_balance, 0);
	CHECK(!mm->wake.kswapd);
	/* DMA keeps 1 + 64 + 64 free for allocations that need it. */
	while (mm->zones[0].nr_free > 129)
		mm_page(mm, mm_alloc_page(mm, &ctx, &st))->flags = PG_file;
	CHECK_EQ(mm->zones[1].nr_free, 65);
	/* Below every cumulative low mark: the classzone is flagged, kswapd
	 * woken, and the min pass (1 + 32 for Normal) succeeds. */
	pfn = mm_alloc_page(mm, &ctx, &st);
	CHECK_EQ(mm_page(mm, pfn)->zone, 1);
	CHECK_EQ(mm->zones[1].need_balance, 1);
	CHECK(mm->wake.kswapd);
	CHECK(!mm_kswapd_balanced(mm, 0));  /* owed one pass first */
	free_mm(mm);
	struct mm *one = mk_mm(8192, "linux22", NULL, 0);
	CHECK_EQ(one->nr_zones, 1);
	free_mm(one);
}
