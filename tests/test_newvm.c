/* test_newvm.c - the 2.6.26 / 2.6.28 / workingset policies, each pinned by
 * the behaviour that defines it on a small hand-checked scenario, plus
 * --check runs of whole workloads under each of them. */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/policy/splitlru.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a small mm driven directly through the policy hooks -------------- */

struct hmm {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	const struct policy_ops *ops;
};

/* sets: "name=value" strings, NULL-terminated (or NULL). */
static void hmm_init(struct hmm *h, const char *policy, uint64_t ram_pages, uint64_t swap_pages,
		     const char *const *sets)
{
	memset(h, 0, sizeof(*h));
	struct mm_config cfg = { .ram_pages = ram_pages, .swap_pages = swap_pages, .untimed = true };
	mm_init(&h->mm, &cfg, &h->cost);
	h->ops = policy_find(policy);
	if (!h->ops)
		panic("no policy %s", policy);
	int n = policy_nr_tunables(h->ops);
	double *tun = xcalloc((size_t)n + 1, sizeof(double));
	for (int i = 0; i < n; i++)
		tun[i] = h->ops->tunables[i].def;
	for (int i = 0; sets && sets[i]; i++) {
		char name[64];
		const char *eq = strchr(sets[i], '=');
		snprintf(name, sizeof(name), "%.*s", (int)(eq - sets[i]), sets[i]);
		int ti = policy_tunable_index(h->ops, name);
		if (ti < 0)
			panic("no tunable %s", name);
		tun[ti] = atof(eq + 1);
	}
	mm_set_policy(&h->mm, h->ops, tun);
	free(tun);
	h->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
}

static void *hmm_priv(struct hmm *h) { return h->mm.pol.priv; }

/* A frame taken off the free list by hand, standing for a page the core
 * would have set up (anon: swap-backed; file: page cache). */
static pfn_t hmm_page(struct hmm *h, uint32_t flags)
{
	struct mm *mm = &h->mm;
	pfn_t pfn = lru_head(&mm->fr, mm->zones[0].free_list);
	if (pfn == PFN_NONE)
		panic("test mm out of frames");
	lru_del(&mm->fr, pfn);
	mm->stat.nr_free--;
	struct page *p = mm_page(mm, pfn);
	p->flags = flags;
	if (flags & PG_anon)
		mm->stat.nr_anon++;
	return pfn;
}

/* Anonymous memory faulted in through the real fault path (mapped, with
 * young PTEs). */
static uint32_t hmm_anon(struct hmm *h, struct aspace *as, uint64_t npages)
{
	enum fault_status st;
	uint32_t v = mm_mmap_anon(&h->mm, as, npages, 0);
	uint64_t done = mm_touch(&h->mm, &h->ctx, as, v, 0, npages, 1, true, UINT64_MAX / 2, &st);
	CHECK_EQ(done, npages);
	return v;
}

static uint64_t on_list(struct hmm *h, int list) { return lru_count(&h->mm.fr, list); }

/* One direct-reclaim cycle as mm_alloc_page runs it: priorities 12..0
 * until 32 pages are reclaimed. */
static uint64_t hmm_reclaim(struct hmm *h)
{
	uint64_t got = 0;
	for (int prio = DEF_PRIORITY; prio >= 0 && got < SWAP_CLUSTER_MAX; prio--)
		got += mm_shrink(&h->mm, &h->ctx, SWAP_CLUSTER_MAX - got, prio);
	return got;
}

static uint64_t scanned(struct hmm *h)
{
	return h->mm.ev[PGSCAN_DIRECT] + h->mm.ev[PGSCAN_KSWAPD] + h->mm.ev[PGREFILL];
}

/* ---- splitlru ------------------------------------------------------- */

/* Anon pages (half active, half inactive: not "inactive_anon_is_low") next
 * to plenty of hot page cache.  With swappiness 0 get_scan_ratio() gives
 * anon nothing, and reclaim touches only file pages; with swappiness 100
 * the same scenario swaps. */
static void noforce_scenario(struct hmm *h, unsigned swappiness, int noforce)
{
	char set[32], set2[32];
	snprintf(set, sizeof(set), "swappiness=%u", swappiness);
	snprintf(set2, sizeof(set2), "noforce=%d", noforce);
	const char *sets[] = { set, set2, NULL };
	hmm_init(h, "splitlru", 4096, 4096, sets);
	void *pol = hmm_priv(h);
	for (int i = 0; i < 1024; i++) {
		pfn_t pfn = hmm_page(h, PG_anon);
		h->ops->add(pol, pfn, i < 512 ? ADD_NEW_ANON : ADD_PUTBACK);
	}
	for (int i = 0; i < 2048; i++) {
		pfn_t pfn = hmm_page(h, PG_file);
		h->ops->add(pol, pfn, ADD_PAGECACHE);
		/* read twice: mark_page_accessed() promotes it (hot cache) */
		h->ops->mark_accessed(pol, pfn);
		h->ops->mark_accessed(pol, pfn);
	}
}

static void swappiness_scenario(struct hmm *h, unsigned swappiness)
{
	noforce_scenario(h, swappiness, 1);
}

void test_splitlru_swappiness0(void);
void test_splitlru_swappiness0(void)
{
	struct hmm h;
	swappiness_scenario(&h, 0);
	struct splitlru *s = hmm_priv(&h);
	CHECK_EQ(splitlru_size(s, LRU_ACTIVE_ANON), 512);
	CHECK_EQ(splitlru_size(s, LRU_INACTIVE_ANON), 512);
	CHECK_EQ(splitlru_size(s, LRU_ACTIVE_FILE), 2048);
	unsigned long pct[2];
	splitlru_get_scan_ratio(s, pct);
	/* recent_scanned/rotated anon 1024/512 -> halved 512/256; file
	 * 4096/2048 -> 2048/1024: ap = 1*513/257 = 1, fp = 201*2049/1025 = 401,
	 * percent[0] = 100*1/403 = 0. */
	CHECK_EQ(pct[0], 0);
	CHECK_EQ(pct[1], 100);
	uint64_t got = 0;
	for (int i = 0; i < 20; i++)
		got += hmm_reclaim(&h);
	CHECK(got >= 20 * SWAP_CLUSTER_MAX);
	CHECK_EQ(splitlru_size(s, LRU_ACTIVE_ANON), 512);
	CHECK_EQ(splitlru_size(s, LRU_INACTIVE_ANON), 512);
	CHECK_EQ(h.mm.ev[PSWPOUT], 0);
	CHECK_EQ(h.mm.stat.nr_anon, 1024);
	mm_destroy(&h.mm);

	/* The same with swappiness 100: ap = 101*513/257 = 201, fp =
	 * 101*2049/1025 = 201, anon gets 49% of the pressure and swaps. */
	swappiness_scenario(&h, 100);
	s = hmm_priv(&h);
	splitlru_get_scan_ratio(s, pct);
	CHECK_EQ(pct[0], 49);
	for (int i = 0; i < 20; i++)
		hmm_reclaim(&h);
	CHECK(h.mm.ev[PSWPOUT] > 0);
	CHECK(h.mm.stat.nr_anon < 1024);
	mm_destroy(&h.mm);
}

/* The PERF thread's "-mm" (noforce=0) adds one page of pressure to every
 * list on every shrink_zone(), so after 32 calls even a list the ratio gave
 * nothing is scanned; 2.6.28 (noforce=1) leaves it alone. */
void test_splitlru_noforce(void);
void test_splitlru_noforce(void)
{
	struct hmm h;
	for (int noforce = 0; noforce <= 1; noforce++) {
		noforce_scenario(&h, 0, noforce);
		/* At DEF_PRIORITY every list >> 12 is 0 pages. */
		for (int i = 0; i < 31; i++)
			mm_shrink(&h.mm, &h.ctx, SWAP_CLUSTER_MAX, DEF_PRIORITY);
		CHECK_EQ(scanned(&h), 0);
		mm_shrink(&h.mm, &h.ctx, SWAP_CLUSTER_MAX, DEF_PRIORITY);
		if (noforce) {
			CHECK_EQ(scanned(&h), 0);
			CHECK_EQ(h.mm.ev[PSWPOUT], 0);
		} else {
			/* Every list's nr_scan reached 32: 32 inactive anon
			 * pages scanned and swapped; the inactive file list was
			 * empty when its turn came (lists go 0..3), then 32
			 * active file pages were deactivated; with 480 inactive
			 * against 512 active anon, the closing rebalance
			 * deactivates 32 more. */
			CHECK_EQ(h.mm.ev[PGSCAN_DIRECT], 32);
			CHECK_EQ(h.mm.ev[PGREFILL], 64);
			CHECK_EQ(h.mm.ev[PSWPOUT], 32);
		}
		mm_destroy(&h.mm);
	}
}

/* 32 mlocked pages beside 32 ordinary ones.  The scanner culls each mlocked
 * page once onto the unevictable list; once the others are gone, reclaim
 * has nothing left to scan.  2.6.26 keeps finding and rotating them. */
static void mlock_scenario(struct hmm *h, const char *policy, struct aspace **asp, uint32_t *locked)
{
	const char *sets[] = { NULL };
	hmm_init(h, policy, 1024, 1024, sets);
	struct aspace *as = mm_aspace_new(&h->mm, -1);
	*locked = hmm_anon(h, as, 32);
	hmm_anon(h, as, 32);
	enum fault_status st;
	CHECK_EQ(mm_mlock(&h->mm, &h->ctx, as, *locked, 0, 32, UINT64_MAX / 2, &st), 32);
	CHECK_EQ(h->mm.stat.nr_mlock, 32);
	*asp = as;
}

void test_splitlru_unevictable(void);
void test_splitlru_unevictable(void)
{
	struct hmm h;
	struct aspace *as;
	uint32_t locked;
	mlock_scenario(&h, "splitlru", &as, &locked);
	struct splitlru *s = hmm_priv(&h);
	for (int i = 0; i < 8 && h.mm.stat.nr_anon > 32; i++)
		hmm_reclaim(&h);
	/* Every evictable page is gone, every mlocked page culled once. */
	CHECK_EQ(h.mm.stat.nr_anon, 32);
	CHECK_EQ(h.mm.ev[UNEVICTABLE_PGS_CULLED], 32);
	CHECK_EQ(on_list(&h, h.mm.list_unevictable), 32);
	for (int l = 0; l < NR_EVICTABLE_LRU; l++)
		CHECK_EQ(splitlru_size(s, l), 0);
	/* From now on reclaim scans nothing at all. */
	uint64_t before = scanned(&h);
	for (int i = 0; i < 10; i++)
		CHECK_EQ(hmm_reclaim(&h), 0);
	CHECK_EQ(scanned(&h), before);
	CHECK_EQ(h.mm.ev[UNEVICTABLE_PGS_CULLED], 32);
	CHECK(mm_check(&h.mm, stderr));
	/* munlock rescues them onto the inactive anon list. */
	mm_munlock(&h.mm, &h.ctx, as, locked);
	CHECK_EQ(h.mm.ev[UNEVICTABLE_PGS_RESCUED], 32);
	CHECK_EQ(on_list(&h, h.mm.list_unevictable), 0);
	CHECK_EQ(splitlru_size(s, LRU_INACTIVE_ANON), 32);
	CHECK(mm_check(&h.mm, stderr));
	mm_destroy(&h.mm);

	/* 2.6.26: the mlocked pages stay on the LRU and every reclaim cycle
	 * scans them again. */
	mlock_scenario(&h, "linux26", &as, &locked);
	for (int i = 0; i < 8 && h.mm.stat.nr_anon > 32; i++)
		hmm_reclaim(&h);
	CHECK_EQ(h.mm.stat.nr_anon, 32);
	CHECK_EQ(h.mm.ev[UNEVICTABLE_PGS_CULLED], 0);
	before = scanned(&h);
	for (int i = 0; i < 10; i++)
		CHECK_EQ(hmm_reclaim(&h), 0);
	CHECK(scanned(&h) >= before + 10 * 32);
	CHECK(mm_check(&h.mm, stderr));
	mm_destroy(&h.mm);
}

/* 2.6.28's shrink_active_list() deactivates every page it scans; the
 * referenced ones only count in recent_rotated.  (2.6.26 keeps referenced
 * mapped pages on the active list.) */
void test_splitlru_deactivates_all(void);
void test_splitlru_deactivates_all(void)
{
	struct hmm h;
	const char *sets[] = { NULL };
	hmm_init(&h, "splitlru", 1024, 1024, sets);
	struct splitlru *s = hmm_priv(&h);
	struct aspace *as = mm_aspace_new(&h.mm, -1);
	hmm_anon(&h, as, 64);           /* 64 active anon pages, PTEs young */
	CHECK_EQ(splitlru_size(s, LRU_ACTIVE_ANON), 64);
	uint64_t rot0 = s->recent_rotated[0], scan0 = s->recent_scanned[0];
	/* Make the 16 oldest (at the tail) unreferenced. */
	pfn_t pfn = lru_tail(&h.mm.fr, s->list[LRU_ACTIVE_ANON]);
	for (int i = 0; i < 16; i++, pfn = lru_prev(&h.mm.fr, pfn))
		mm_page_referenced(&h.mm, pfn);
	struct scan_control sc = { .nr_to_reclaim = 32, .priority = DEF_PRIORITY, .who = RECLAIM_DIRECT,
				   .may_swap = true, .may_writepage = true };
	splitlru_shrink_active_list(s, 32, &sc, 0);
	CHECK_EQ(splitlru_size(s, LRU_ACTIVE_ANON), 32);
	CHECK_EQ(splitlru_size(s, LRU_INACTIVE_ANON), 32);
	CHECK_EQ(h.mm.ev[PGDEACTIVATE], 32);
	CHECK_EQ(h.mm.ev[PGREFILL], 32);
	CHECK_EQ(s->recent_rotated[0] - rot0, 16);  /* the 16 referenced ones */
	CHECK_EQ(s->recent_scanned[0] - scan0, 32);
	/* page_referenced() cleared the young bits it found. */
	for (pfn = lru_head(&h.mm.fr, s->list[LRU_INACTIVE_ANON]); pfn != PFN_NONE; pfn = lru_next(&h.mm.fr, pfn)) {
		CHECK(!mm_page_young(&h.mm, pfn));
		CHECK(!(mm_page(&h.mm, pfn)->flags & PG_active));
	}
	CHECK(mm_check(&h.mm, stderr));
	mm_destroy(&h.mm);

	/* linux26 on the same pages: the 16 referenced ones rotate back. */
	hmm_init(&h, "linux26", 1024, 1024, sets);
	as = mm_aspace_new(&h.mm, -1);
	hmm_anon(&h, as, 64);
	sc.nr_scanned = sc.nr_reclaimed = 0;
	int active = h.mm.fr.nr_lists - 2, inactive = h.mm.fr.nr_lists - 1;
	pfn = lru_tail(&h.mm.fr, active);
	for (int i = 0; i < 16; i++, pfn = lru_prev(&h.mm.fr, pfn))
		mm_page_referenced(&h.mm, pfn);
	/* One shrink_zone at priority 1: 64 >> 1 + 1 = 33 active pages scanned
	 * (one batch of 32, then 1); the 16 unreferenced are deactivated. */
	mm_shrink(&h.mm, &h.ctx, 32, 1);
	CHECK_EQ(h.mm.ev[PGREFILL], 33);
	CHECK_EQ(on_list(&h, inactive), 16);
	CHECK_EQ(h.mm.ev[PGDEACTIVATE], 16);
	mm_destroy(&h.mm);
}

void test_inactive_ratio(void);
void test_inactive_ratio(void)
{
	const uint64_t gb = 1ull << (30 - PAGE_SHIFT);
	CHECK_EQ(splitlru_inactive_ratio(gb / 2), 1);
	CHECK_EQ(splitlru_inactive_ratio(900ull << (20 - PAGE_SHIFT)), 1);
	CHECK_EQ(splitlru_inactive_ratio(gb), 3);
	CHECK_EQ(splitlru_inactive_ratio(10 * gb), 10);
	CHECK_EQ(splitlru_inactive_ratio(16 * gb), 12);
	CHECK_EQ(splitlru_inactive_ratio(100 * gb), 31);
	CHECK_EQ(splitlru_inactive_ratio(1024 * gb), 101);
	struct hmm h;
	hmm_init(&h, "splitlru", 1024, 0, NULL);
	CHECK_EQ(((struct splitlru *)hmm_priv(&h))->inactive_ratio, 1);
	/* inactive_anon_is_low: inactive * ratio < active */
	struct splitlru *s = hmm_priv(&h);
	for (int i = 0; i < 4; i++)
		h.ops->add(s, hmm_page(&h, PG_anon), ADD_NEW_ANON);
	h.ops->add(s, hmm_page(&h, PG_anon), ADD_PUTBACK);
	CHECK(splitlru_inactive_anon_is_low(s));      /* 1 * 1 < 4 */
	mm_destroy(&h.mm);
	const char *sets[] = { "inactive_ratio=4", NULL };
	hmm_init(&h, "splitlru", 1024, 0, sets);
	s = hmm_priv(&h);
	CHECK_EQ(s->inactive_ratio, 4);
	for (int i = 0; i < 4; i++)
		h.ops->add(s, hmm_page(&h, PG_anon), ADD_NEW_ANON);
	h.ops->add(s, hmm_page(&h, PG_anon), ADD_PUTBACK);
	CHECK(!splitlru_inactive_anon_is_low(s));     /* 1 * 4 < 4 is false */
	mm_destroy(&h.mm);
}

/* ---- workingset ---------------------------------------------------- */

/* Evict `victim` (taking its shadow), then let `age` more evictions go by,
 * then refault it into a fresh page. */
static pfn_t refault_after(struct hmm *h, uint32_t type, bool was_active, uint64_t age)
{
	void *pol = hmm_priv(h);
	pfn_t victim = hmm_page(h, type);
	if (was_active)
		mm_page(&h->mm, victim)->flags |= PG_workingset;
	uint64_t shadow = h->ops->evict_shadow(pol, victim);
	pfn_t other = hmm_page(h, PG_file);
	for (uint64_t i = 0; i < age; i++)
		h->ops->evict_shadow(pol, other);
	pfn_t pfn = hmm_page(h, type);
	h->ops->refault(pol, pfn, shadow);
	h->ops->add(pol, pfn, ADD_REFAULT);
	return pfn;
}

void test_workingset_refault_distance(void);
void test_workingset_refault_distance(void)
{
	struct hmm h;
	hmm_init(&h, "workingset", 1024, 1024, NULL);
	struct splitlru *s = hmm_priv(&h);
	/* An active file list of 10 pages, promoted by two reads each. */
	for (int i = 0; i < 10; i++) {
		pfn_t pfn = hmm_page(&h, PG_file);
		h.ops->add(s, pfn, ADD_PAGECACHE);
		h.ops->mark_accessed(s, pfn);
		h.ops->mark_accessed(s, pfn);
	}
	CHECK_EQ(splitlru_size(s, LRU_ACTIVE_FILE), 10);
	/* File (3.15): the distance counts the victim's own eviction and the
	 * `age` after it, here 1 + 9 = 10 <= NR_ACTIVE_FILE = 10: activate. */
	pfn_t a = refault_after(&h, PG_file, false, 9);
	CHECK(mm_page(&h.mm, a)->flags & PG_active);
	CHECK_EQ(lru_on(&h.mm.fr, a), s->list[LRU_ACTIVE_FILE]);
	CHECK_EQ(h.mm.ev[WORKINGSET_REFAULT_FILE], 1);
	CHECK_EQ(h.mm.ev[WORKINGSET_ACTIVATE_FILE], 1);
	CHECK_EQ(h.mm.ev[WORKINGSET_RESTORE_FILE], 0);
	/* 11 pages now active; distance 12 > 11: stays inactive. */
	pfn_t b = refault_after(&h, PG_file, false, 11);
	CHECK(!(mm_page(&h.mm, b)->flags & PG_active));
	CHECK_EQ(lru_on(&h.mm.fr, b), s->list[LRU_INACTIVE_FILE]);
	CHECK_EQ(h.mm.ev[WORKINGSET_REFAULT_FILE], 2);
	CHECK_EQ(h.mm.ev[WORKINGSET_ACTIVATE_FILE], 1);
	/* A page that was active before eviction and fits is "restored". */
	pfn_t c = refault_after(&h, PG_file, true, 10);   /* 11 <= 11 */
	CHECK(mm_page(&h.mm, c)->flags & PG_workingset);
	CHECK_EQ(h.mm.ev[WORKINGSET_ACTIVATE_FILE], 2);
	CHECK_EQ(h.mm.ev[WORKINGSET_RESTORE_FILE], 1);
	/* Anon (5.9): compared with active_file + inactive_file + active_anon
	 * = 12 + 1 + 0 = 13 (swap is free). */
	CHECK_EQ(splitlru_size(s, LRU_ACTIVE_FILE) + splitlru_size(s, LRU_INACTIVE_FILE), 13);
	pfn_t d = refault_after(&h, PG_anon, false, 12);  /* 13 <= 13 */
	CHECK_EQ(lru_on(&h.mm.fr, d), s->list[LRU_ACTIVE_ANON]);
	pfn_t e = refault_after(&h, PG_anon, false, 14);  /* 15 > 14 */
	CHECK_EQ(lru_on(&h.mm.fr, e), s->list[LRU_INACTIVE_ANON]);
	CHECK_EQ(h.mm.ev[WORKINGSET_REFAULT_ANON], 2);
	CHECK_EQ(h.mm.ev[WORKINGSET_ACTIVATE_ANON], 1);
	mm_destroy(&h.mm);
}

/* ---- whole runs with --check ------------------------------------------ */

static struct machine *run_checked(const char *policy, const char *machine, uint64_t ram, uint64_t swap,
				   int argc, char **argv)
{
	static struct machine m;
	struct profile prof = *profile_find(machine);
	prof.ram = ram;
	prof.swap = swap;
	struct machine_opts mo = { .seed = 1, .check = true, .max_time_ns = 3600ULL * 1000000000ULL };
	char err[256];
	if (!machine_init(&m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	const struct workload_ops *wo = workload_find(argv[0]);
	void *w = wo->create(argc, argv, 1, err, sizeof(err));
	if (!w)
		panic("%s", err);
	machine_set_policy(&m, policy_find(policy), NULL);
	machine_add_workload(&m, wo, w, argv[0]);
	machine_run(&m);
	return &m;
}

void test_newvm_check_runs(void);
void test_newvm_check_runs(void)
{
	static const char *const pols[] = { "linux26", "splitlru", "workingset" };
	char path[] = "/tmp/pagelab-newvm-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct rng r;
	rng_seed(&r, 7);
	/* A loop over 60 pages with a hot set of 10 and random writes. */
	for (int i = 0; i < 3000; i++) {
		uint64_t pg = i % 3 ? (uint64_t)(i % 60) : rng_below(&r, 10);
		fprintf(f, "%llu %c\n", (unsigned long long)pg, rng_below(&r, 4) ? 'r' : 'w');
	}
	fclose(f);
	for (int i = 0; i < 3; i++) {
		/* usemem, 3 sweeps of 8 MB through ~3.6 MB of frames. */
		char a0[] = "usemem", a1[] = "-r", a2[] = "3", a3[] = "8M";
		char *av[] = { a0, a1, a2, a3, NULL };
		struct machine *m = run_checked(pols[i], "vmm-2008", 12ULL << 20, 16ULL << 20, 4, av);
		CHECK(!m->check_failed);
		CHECK(m->mm.ev[PSWPOUT] > 0);
		CHECK(m->mm.ev[PSWPIN] > 0);
		CHECK(m->mm.ev[PGSTEAL_KSWAPD] + m->mm.ev[PGSTEAL_DIRECT] > 0);
		if (!strcmp(pols[i], "workingset"))
			CHECK(m->mm.ev[WORKINGSET_REFAULT_ANON] > 0);
		else
			CHECK_EQ(m->mm.ev[WORKINGSET_REFAULT_ANON], 0);
		machine_free(m);
		/* the trace, 40 frames */
		char t0[] = "trace";
		char *tv[] = { t0, path, NULL };
		m = run_checked(pols[i], "ideal", 40 * PAGE_SIZE, 1ULL << 20, 2, tv);
		CHECK(!m->check_failed);
		CHECK(m->mm.ev[PGFAULT] > 60);
		machine_free(m);
	}
	unlink(path);
}
