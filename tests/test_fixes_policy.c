/* test_fixes_policy.c - fidelity fixes in the kernel policies, each pinned
 * on a small hand-checked case:
 *  - linux26: calc_reclaim_mapped()'s mapped_ratio counts mapped file pages
 *    (NR_FILE_MAPPED) as well as mapped anonymous ones (NR_ANON_PAGES);
 *  - the mm core's NR_FILE_MAPPED / NR_ANON_PAGES gauges;
 *  - splitlru exec_active: only a reference through a VM_EXEC mapping keeps
 *    a file page on the active list (2.6.31 page_referenced's vm_flags);
 *  - kbuild maps cc1 PROT_EXEC. */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/mm/filemap.h"
#include "../src/policy/splitlru.h"
#include "../src/workload/workload.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

struct fx {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	const struct policy_ops *ops;
};

/* An untimed mm of `ram` frames under `policy` with its default tunables
 * but `sets` ("name=value", NULL-terminated). */
static void fx_init(struct fx *f, const char *policy, uint64_t ram, const char *const *sets)
{
	memset(f, 0, sizeof(*f));
	struct mm_config cfg = { .ram_pages = ram, .swap_pages = ram, .untimed = true };
	mm_init(&f->mm, &cfg, &f->cost);
	f->ops = policy_find(policy);
	if (!f->ops)
		panic("no policy %s", policy);
	int n = policy_nr_tunables(f->ops);
	double *tun = xcalloc((size_t)n + 1, sizeof(double));
	for (int i = 0; i < n; i++)
		tun[i] = f->ops->tunables[i].def;
	for (int i = 0; sets && sets[i]; i++) {
		char name[64];
		const char *eq = strchr(sets[i], '=');
		snprintf(name, sizeof(name), "%.*s", (int)(eq - sets[i]), sets[i]);
		int ti = policy_tunable_index(f->ops, name);
		if (ti < 0)
			panic("no tunable %s", name);
		tun[ti] = atof(eq + 1);
	}
	mm_set_policy(&f->mm, f->ops, tun);
	free(tun);
	f->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
}

/* A file of n pages written through the page cache and fsync'ed. */
static struct inode *fx_file(struct fx *f, const char *name, uint64_t n)
{
	enum fault_status st;
	struct inode *ino = filemap_create(&f->mm, &f->ctx, name);
	CHECK_EQ(filemap_write(&f->mm, &f->ctx, ino, 0, n, UINT64_MAX / 2, &st), n);
	while (!filemap_fsync(&f->mm, &f->ctx, ino))
		;
	return ino;
}

/* mmap the whole file (private, PROT_EXEC if exec) and read every page:
 * each page mapped once, its PTE young. */
static uint32_t fx_map(struct fx *f, struct aspace *as, struct inode *ino, uint64_t n, bool exec)
{
	enum fault_status st;
	uint32_t v = mm_mmap_file(&f->mm, as, ino, 0, n, false);
	if (exec)
		as->vmas[v].flags |= VMA_EXEC;
	CHECK_EQ(mm_touch(&f->mm, &f->ctx, as, v, 0, n, 1, false, UINT64_MAX / 2, &st), n);
	return v;
}

static uint32_t fx_anon(struct fx *f, struct aspace *as, uint64_t n)
{
	enum fault_status st;
	uint32_t v = mm_mmap_anon(&f->mm, as, n, 0);
	CHECK_EQ(mm_touch(&f->mm, &f->ctx, as, v, 0, n, 1, true, UINT64_MAX / 2, &st), n);
	return v;
}

static pfn_t vma_pfn(struct aspace *as, uint32_t v, uint64_t off)
{
	pte_t pte = as->vmas[v].pte[off];
	return pte_present(pte) ? pte_pfn(pte) : PFN_NONE;
}

/* ---- the gauges -------------------------------------------------------- */

void test_mapped_gauges(void);
void test_mapped_gauges(void)
{
	struct fx f;
	fx_init(&f, "linux26", 256, NULL);
	struct aspace *as = mm_aspace_new(&f.mm, -1);
	struct inode *ino = fx_file(&f, "g", 10);
	CHECK_EQ(f.mm.stat.nr_file_mapped, 0);          /* cached, not mapped */
	uint32_t a = fx_map(&f, as, ino, 10, false);
	CHECK_EQ(f.mm.stat.nr_file_mapped, 10);
	/* A second mapping of the same pages: still 10 pages mapped. */
	uint32_t b = fx_map(&f, as, ino, 4, false);
	CHECK_EQ(f.mm.stat.nr_file_mapped, 10);
	CHECK_EQ(mm_page(&f.mm, vma_pfn(as, a, 0))->mapcount, 2);
	mm_munmap(&f.mm, &f.ctx, as, a);
	CHECK_EQ(f.mm.stat.nr_file_mapped, 4);          /* b still maps 4 */
	fx_anon(&f, as, 7);
	CHECK_EQ(f.mm.stat.nr_anon_mapped, 7);
	CHECK(mm_check(&f.mm, stderr));
	/* A write to the private file mapping copies the page: one anon page
	 * more, one file page unmapped. */
	enum fault_status st;
	CHECK_EQ(mm_touch(&f.mm, &f.ctx, as, b, 0, 1, 1, true, UINT64_MAX / 2, &st), 1);
	CHECK_EQ(f.mm.stat.nr_file_mapped, 3);
	CHECK_EQ(f.mm.stat.nr_anon_mapped, 8);
	CHECK(mm_check(&f.mm, stderr));
	/* --check catches a gauge that drifts. */
	f.mm.stat.nr_file_mapped++;
	FILE *devnull = fopen("/dev/null", "w");
	CHECK(!mm_check(&f.mm, devnull));
	f.mm.stat.nr_file_mapped--;
	f.mm.stat.nr_anon_mapped--;
	CHECK(!mm_check(&f.mm, devnull));
	f.mm.stat.nr_anon_mapped++;
	fclose(devnull);
	mm_aspace_exit(&f.mm, &f.ctx, as);
	CHECK_EQ(f.mm.stat.nr_file_mapped, 0);
	CHECK_EQ(f.mm.stat.nr_anon_mapped, 0);
	CHECK(mm_check(&f.mm, stderr));
	mm_destroy(&f.mm);
}

/* ---- linux26: mapped_ratio = (NR_FILE_MAPPED + NR_ANON_PAGES) / total -- */

/* 1024 frames; 410 anonymous pages (active, PTE young bits cleared: not
 * referenced) and `file` mapped file pages (inactive).  32 shrink_zone()
 * passes at priority 12 accumulate nr_scan_active to 32 ((410 >> 12) + 1
 * per pass), so the 32nd runs one shrink_active_list() of 32 pages, before
 * any page is reclaimed.  There calc_reclaim_mapped() has distress =
 * 100 >> 12 = 0, imbalance = 410 / (inactive + 1) = 0 and swappiness 60:
 *   file 410: mapped_ratio = 820 * 100 / 1024 = 80, 80 / 2 + 60 = 100 -> reclaim
 *   file 409: mapped_ratio = 819 * 100 / 1024 = 79, 39 + 60 = 99    -> rotate
 * Counting anonymous pages only (40%: 20 + 60 = 80) never reclaims. */
static uint64_t linux26_deactivated(uint64_t file)
{
	struct fx f;
	fx_init(&f, "linux26", 1024, NULL);
	/* The mapping faults must leave the file pages inactive: without
	 * this, 2.6.26's filemap_fault mark_page_accessed() would be their
	 * second touch and activate them (changing the imbalance term). */
	f.mm.vm.fault_mark_accessed = 0;
	struct aspace *as = mm_aspace_new(&f.mm, -1);
	uint32_t v = fx_anon(&f, as, 410);
	for (uint64_t i = 0; i < 410; i++)
		mm_page_referenced(&f.mm, vma_pfn(as, v, i));
	struct inode *ino = fx_file(&f, "m", file);
	fx_map(&f, as, ino, file, false);
	CHECK_EQ(f.mm.stat.nr_anon_mapped, 410);
	CHECK_EQ(f.mm.stat.nr_file_mapped, file);
	CHECK_EQ(f.mm.zones[0].managed, 1024);
	uint64_t refill0 = f.mm.ev[PGREFILL];
	for (int i = 0; i < 32; i++)
		mm_shrink(&f.mm, &f.ctx, SWAP_CLUSTER_MAX, DEF_PRIORITY);
	CHECK_EQ(f.mm.ev[PGREFILL] - refill0, 32);
	uint64_t d = f.mm.ev[PGDEACTIVATE];
	CHECK(mm_check(&f.mm, stderr));
	mm_destroy(&f.mm);
	return d;
}

void test_linux26_mapped_ratio_counts_file(void);
void test_linux26_mapped_ratio_counts_file(void)
{
	CHECK_EQ(linux26_deactivated(410), 32);
	CHECK_EQ(linux26_deactivated(409), 0);
}

/* ---- splitlru exec_active: VM_EXEC through rmap ------------------------ */

/* Two 8-page files on the active file list: "text" mapped PROT_EXEC, "data"
 * mapped without.  Text pages 0-3 have young PTEs, 4-5 only PG_referenced
 * (a read(), no PTE reference: page_referenced()'s vm_flags stay 0), 6-7
 * nothing; every data page has a young PTE.  One shrink_active_list() of
 * the 16 pages. */
static void exec_scenario(int exec_active, uint64_t *active, uint64_t *deactivated, uint64_t *rotated)
{
	struct fx f;
	const char *sets[] = { exec_active ? "exec_active=1" : "exec_active=0", NULL };
	fx_init(&f, "splitlru", 1024, sets);
	struct splitlru *s = f.mm.pol.priv;
	struct aspace *as = mm_aspace_new(&f.mm, -1);
	struct inode *text = fx_file(&f, "text", 8), *data = fx_file(&f, "data", 8);
	uint32_t vt = fx_map(&f, as, text, 8, true), vd = fx_map(&f, as, data, 8, false);
	CHECK(as->vmas[vt].flags & VMA_EXEC);
	CHECK(!(as->vmas[vd].flags & VMA_EXEC));
	/* Activate all 16 (mark_page_accessed until active), then set up the
	 * references. */
	for (int k = 0; k < 2; k++)
		for (uint64_t i = 0; i < 8; i++) {
			pfn_t pfn = vma_pfn(as, k ? vd : vt, i);
			while (!(mm_page(&f.mm, pfn)->flags & PG_active))
				splitlru_mark_accessed(s, pfn);
			mm_page(&f.mm, pfn)->flags &= ~PG_referenced;
		}
	CHECK_EQ(splitlru_size(s, LRU_ACTIVE_FILE), 16);
	for (uint64_t i = 4; i < 8; i++) {
		pfn_t pfn = vma_pfn(as, vt, i);
		mm_page_referenced(&f.mm, pfn);            /* PTE old */
		if (i < 6)
			mm_page(&f.mm, pfn)->flags |= PG_referenced;
	}
	uint64_t rot0 = s->recent_rotated[1];
	struct scan_control sc = { .nr_to_reclaim = 32, .priority = DEF_PRIORITY, .who = RECLAIM_DIRECT,
				   .may_swap = true, .may_writepage = true };
	splitlru_shrink_active_list(s, 16, &sc, 1);
	*active = splitlru_size(s, LRU_ACTIVE_FILE);
	*deactivated = f.mm.ev[PGDEACTIVATE];
	*rotated = s->recent_rotated[1] - rot0;
	/* The pages kept active are exactly text pages 0-3. */
	for (uint64_t i = 0; i < 8; i++) {
		CHECK_EQ(!!(mm_page(&f.mm, vma_pfn(as, vt, i))->flags & PG_active), exec_active && i < 4);
		CHECK(!(mm_page(&f.mm, vma_pfn(as, vd, i))->flags & PG_active));
	}
	CHECK(mm_check(&f.mm, stderr));
	mm_destroy(&f.mm);
}

void test_splitlru_exec_active_vm_exec(void);
void test_splitlru_exec_active_vm_exec(void)
{
	uint64_t active, deactivated, rotated;
	exec_scenario(1, &active, &deactivated, &rotated);
	CHECK_EQ(active, 4);
	CHECK_EQ(deactivated, 12);
	CHECK_EQ(rotated, 14);      /* text 0-5 and data 0-7 were referenced */
	/* 2.6.28 as merged: every scanned page is deactivated. */
	exec_scenario(0, &active, &deactivated, &rotated);
	CHECK_EQ(active, 0);
	CHECK_EQ(deactivated, 16);
	CHECK_EQ(rotated, 14);
}

/* kbuild's compile jobs map cc1 PROT_EXEC; its other mappings are not. */
void test_kbuild_maps_cc1_exec(void);
void test_kbuild_maps_cc1_exec(void)
{
	const struct workload_ops *ops = workload_find("kbuild");
	CHECK(ops != NULL);
	char err[128];
	char *argv[] = { "kbuild", NULL };
	void *w = ops->create(1, argv, 1, err, sizeof(err));
	CHECK(w != NULL);
	struct op op;
	int file_maps = 0, exec_maps = 0;
	for (int i = 0; i < 64 && ops->next_op(w, 1, &op); i++) {
		if (op.kind == OP_MMAP_FILE) {
			file_maps++;
			exec_maps += op.exec;
		} else {
			CHECK(!op.exec);
		}
	}
	CHECK(file_maps >= 1);
	CHECK_EQ(exec_maps, file_maps);
	ops->destroy(w);
}

/* ---- aa24: 2.4.17 out_of_memory() ------------------------------------- */

/* 64 frames, all held by one process's anonymous pages (mlocked if
 * `locked`), no watermarks, no CPU costs (the clock is ctx.t0); allocate
 * at time t (ms) and return the fault status. */
static struct fx *oom_mm(uint64_t swap_pages, bool locked)
{
	struct fx *f = xcalloc(1, sizeof(*f));
	struct mm_config cfg = { .ram_pages = 64, .swap_pages = swap_pages, .no_watermarks = true,
				 .untimed = true };
	mm_init(&f->mm, &cfg, &f->cost);
	f->ops = policy_find("aa24");
	mm_set_policy(&f->mm, f->ops, NULL);
	f->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	struct aspace *as = mm_aspace_new(&f->mm, 0);
	enum fault_status st;
	uint32_t v = mm_mmap_anon(&f->mm, as, 64, 0);
	if (locked)
		CHECK_EQ(mm_mlock(&f->mm, &f->ctx, as, v, 0, 64, UINT64_MAX / 2, &st), 64);
	else
		CHECK_EQ(mm_touch(&f->mm, &f->ctx, as, v, 0, 64, 1, true, UINT64_MAX / 2, &st), 64);
	CHECK_EQ(f->mm.stat.nr_free, 0);
	return f;
}

static enum fault_status alloc_at(struct fx *f, uint64_t ms)
{
	struct mm_ctx ctx = { .task = 0, .wait_pfn = PFN_NONE, .t0 = ms * 1000000ULL };
	enum fault_status st;
	CHECK_EQ(mm_alloc_page(&f->mm, &ctx, &st), PFN_NONE);
	return st;
}

/* Each failed allocation is two failed try_to_free_pages_zone() passes
 * (the allocator gives up after two fruitless cycles), so two calls of
 * out_of_memory().  Without swap: at 0.5 s, under a second since `first`
 * (0): wait; from 1.0 s the failures count, and the 10th (the second at
 * 1.4 s) kills.  Then first = 1.4 s, count = 0: the next second only waits;
 * a pause over 5 s resets the count again. */
void test_aa24_out_of_memory_rule(void);
void test_aa24_out_of_memory_rule(void)
{
	struct fx *f = oom_mm(0, false);
	static const uint64_t wait_ms[] = { 500, 1000, 1100, 1200, 1300 };
	for (unsigned i = 0; i < ARRAY_SIZE(wait_ms); i++)
		CHECK_EQ(alloc_at(f, wait_ms[i]), FAULT_WAIT_RECLAIM);
	CHECK_EQ(alloc_at(f, 1400), FAULT_OOM);
	/* first = 1.4 s: under a second later, no kill however many fail. */
	for (uint64_t ms = 1500; ms < 2400; ms += 100)
		CHECK_EQ(alloc_at(f, ms), FAULT_WAIT_RECLAIM);
	/* 2.4 s: 2 more failures (count 2..); 5.1 s later the count resets. */
	CHECK_EQ(alloc_at(f, 2400), FAULT_WAIT_RECLAIM);
	CHECK_EQ(alloc_at(f, 7600), FAULT_WAIT_RECLAIM);  /* since > 5 s: reset, first = 7.6 s */
	for (uint64_t ms = 8600; ms < 9000; ms += 100)
		CHECK_EQ(alloc_at(f, ms), FAULT_WAIT_RECLAIM);  /* counts 1..8 */
	CHECK_EQ(alloc_at(f, 9000), FAULT_OOM);             /* 9, 10 */
	CHECK(mm_check(&f->mm, stderr));
	mm_destroy(&f->mm);
	free(f);

	/* Swap space left (nr_swap_pages > 0): never OOM, the allocator
	 * loops, even with nothing reclaimable (all mlocked). */
	f = oom_mm(16, true);
	for (uint64_t ms = 0; ms < 20000; ms += 250)
		CHECK_EQ(alloc_at(f, ms), FAULT_WAIT_RECLAIM);
	CHECK_EQ(f->mm.swap.used, 0);
	mm_destroy(&f->mm);
	free(f);
}

/* ---- riel24: 2.4.0's eager swap-out of a single-touch sweep ------------ */

/* One process, 240 of 256 frames, each page written once (young PTE, age
 * PAGE_AGE_START 2); freepages.high 200 makes kswapd's refill_inactive()
 * count = inactive_shortage + free_shortage = 372 swap_out() calls
 * (inactive_target = memory_pressure 240 >> 6 = 3: inactive_shortage =
 * 200 + 3 - 16 free = 187, free_shortage = 200 + 3 / 3 - 16 = 185).  Each
 * call scans swap_cnt = max(240 >> 5, SWAP_MIN 8) PTEs and skips the 9th
 * (2.4.0 advances swap_address before try_to_swap_out() finds swap_cnt
 * used up); a sweep is 27 calls, 26 of them "successful".  Sweep 1 ages the
 * 214 visited pages up (young: 2 + 3 = 5), sweeps 2-4 halve them (2, 1, 0)
 * and the 4th unmaps all 214 into the swap cache, onto inactive_dirty, in
 * this one kswapd pass: their ages move in lockstep because nothing touched
 * them since.  The 26 skipped pages stay mapped.  Then one direct reclaim:
 * page_launder() writes every dirty inactive page on its second pass (only
 * buffer pages are limited by MAX_LAUNDER), each exactly once. */
void test_riel24_lockstep_swapout(void);
void test_riel24_lockstep_swapout(void)
{
	struct fx f;
	memset(&f, 0, sizeof(f));
	struct mm_config cfg = { .ram_pages = 256, .swap_pages = 1024, .no_watermarks = true, .untimed = true };
	mm_init(&f.mm, &cfg, &f.cost);
	const struct policy_ops *ops = policy_find("riel24");
	int n = policy_nr_tunables(ops);
	double *tun = xcalloc((size_t)n, sizeof(double));
	for (int i = 0; i < n; i++)
		tun[i] = ops->tunables[i].def;
	tun[policy_tunable_index(ops, "freepages.high")] = 200;
	mm_set_policy(&f.mm, ops, tun);
	free(tun);
	struct mm_ctx ctx = { .task = 0, .wait_pfn = PFN_NONE };
	struct aspace *as = mm_aspace_new(&f.mm, 0);
	uint32_t v = mm_mmap_anon(&f.mm, as, 240, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(&f.mm, &ctx, as, v, 0, 240, 1, true, UINT64_MAX / 2, &st), 240);
	CHECK_EQ(f.mm.stat.nr_free, 16);
	struct mm_ctx kswapd = { .task = -1, .kswapd = true, .wait_pfn = PFN_NONE };
	mm_shrink(&f.mm, &kswapd, SWAP_CLUSTER_MAX, DEF_PRIORITY);
	CHECK_EQ(f.mm.ev[PGDEACTIVATE], 214);
	CHECK_EQ(f.mm.ev[PSWPOUT], 0);               /* swap_out does no I/O */
	CHECK_EQ(as->rss, 26);
	for (uint64_t off = 0; off < 240; off++)     /* the skipped ones: every 9th */
		CHECK_EQ(pte_present(as->vmas[v].pte[off]), off % 9 == 8 && off < 234);
	/* Present PTEs visited: 4 sweeps of 214 processed + 26 skipped. */
	CHECK_EQ(f.mm.ev[PGSCAN_KSWAPD], 4 * 240);
	ctx.t0 = 1;
	mm_shrink(&f.mm, &ctx, SWAP_CLUSTER_MAX, DEF_PRIORITY);
	CHECK_EQ(f.mm.ev[PSWPOUT], 214);             /* all of them, once each */
	CHECK_EQ(f.mm.ev[PGSTEAL_DIRECT], 214);
	CHECK_EQ(f.mm.stat.nr_free, 16 + 214);
	CHECK(mm_check(&f.mm, stderr));
	mm_destroy(&f.mm);
}
