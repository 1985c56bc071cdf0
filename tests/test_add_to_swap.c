/* test_add_to_swap.c - the add_to_swap row of reclaim's work
 * (src/mm/work.h): an anonymous folio reclaim gives a swap slot and puts
 * in the swap cache (6.18 shrink_folio_list() -> add_to_swap(); 2.2/2.4
 * try_to_swap_out() -> add_to_swap_cache()), counted once per slot given,
 * not for a swap-in's entry into the swap cache, and charged
 * cost.add_to_swap each (calib_derive.c measures it).  Hand-checked
 * small mms; well under a second. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/mm/ptescan.h"
#include "../src/policy/policy.h"
#include "../src/policy/linux6/linux6.h"
#include "../src/native/calibrate.h"

#include <string.h>

void test_add_to_swap_counted_per_slot(void);
void test_add_to_swap_charged(void);
void test_add_to_swap_swap_out_walk(void);
void test_add_to_swap_calibrated(void);

struct ats {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	struct aspace *as;
	uint32_t vma;
};

/* An untimed mm of 256 frames (I/O completes at once) under `policy`,
 * one mapping of n anonymous pages each written once; add_to_swap
 * charged `ns` (cost.add_to_swap). */
static void ats_init(struct ats *a, const char *policy, uint64_t n, uint64_t ns)
{
	memset(a, 0, sizeof(*a));
	a->cost.work_ns[W_ADD_TO_SWAP] = ns;
	struct mm_config cfg = { .ram_pages = 256, .swap_pages = 256, .untimed = true };
	mm_init(&a->mm, &cfg, &a->cost);
	mm_set_policy(&a->mm, policy_find(policy), NULL);
	a->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	a->mm.cur = &a->ctx;
	a->as = mm_aspace_new(&a->mm, -1);
	enum fault_status st;
	a->vma = mm_mmap_anon(&a->mm, a->as, n, 0);
	CHECK_EQ(mm_touch(&a->mm, &a->ctx, a->as, a->vma, 0, n, 1, TOUCH_WRITE, UINT64_MAX / 2, &st), n);
}

/* linux6, shrink_inactive_list() four times, 32 at a time, over 100
 * pages (test_workcount.c's case): the first three passes and the
 * fourth's first 4 find young PTEs and keep the pages; the fourth then
 * reclaims pages 0-27, each given a slot: 28 add_to_swap, one per
 * pageout. */
static uint64_t shrink4(struct ats *a)
{
	struct linux6 *l = a->mm.pol.priv;
	struct scan_control sc = { .nr_to_reclaim = 32, .who = RECLAIM_DIRECT, .may_swap = true, .may_writepage = true };
	uint64_t reclaimed = 0;
	for (int i = 0; i < 4; i++)
		reclaimed += l6_shrink_inactive_list(l, 32, &sc, 0, NULL);
	return reclaimed;
}

void test_add_to_swap_counted_per_slot(void)
{
	struct ats a;
	ats_init(&a, "linux6", 100, 0);
	CHECK_EQ(shrink4(&a), 28);
	CHECK_EQ(reclaim_work_total(&a.mm.work, W_ADD_TO_SWAP), 28);
	CHECK_EQ(a.mm.work.n[WHO_OTHER][W_ADD_TO_SWAP], 28);
	CHECK_EQ(reclaim_work_total(&a.mm.work, W_PAGEOUT), 28);
	CHECK(reclaim_work_present(&a.mm.work, W_ADD_TO_SWAP));
	/* Page 0 read back: the swap-in puts it in the swap cache with its
	 * old slot (swapin.c), which is not add_to_swap(). */
	enum fault_status st;
	CHECK_EQ(mm_touch(&a.mm, &a.ctx, a.as, a.vma, 0, 1, 1, TOUCH_READ, UINT64_MAX / 2, &st), 1);
	CHECK_EQ(a.mm.ev[PSWPIN], 1);
	uint64_t before = reclaim_work_total(&a.mm.work, W_ADD_TO_SWAP);
	pte_t pte = a.as->vmas[a.vma].pte[0];
	CHECK(pte_present(pte));
	pfn_t pfn = pte_pfn(pte);
	CHECK(mm_page(&a.mm, pfn)->flags & PG_swapcache);
	CHECK_EQ(reclaim_work_total(&a.mm.work, W_ADD_TO_SWAP), before);
	mm_destroy(&a.mm);
}

/* cost.add_to_swap is system time of the reclaimer, per row: the same
 * 28 reclaims at 1 000 ns each add exactly 28 000 ns. */
void test_add_to_swap_charged(void)
{
	struct ats a, b;
	ats_init(&a, "linux6", 100, 0);
	CHECK_EQ(shrink4(&a), 28);
	ats_init(&b, "linux6", 100, 1000);
	CHECK_EQ(shrink4(&b), 28);
	CHECK_EQ(b.ctx.sys_ns - a.ctx.sys_ns, 28000);
	mm_destroy(&a.mm);
	mm_destroy(&b.mm);
}

/* 2.2's swap_out() walk: unmapping two written anonymous pages puts
 * each in the swap cache, one add_to_swap each. */
void test_add_to_swap_swap_out_walk(void)
{
	struct ats a;
	ats_init(&a, "linux22", 4, 0);
	struct pte_cursor c = { 0, 0 };
	struct pte_ref r[4];
	int n = 0;
	while (n < 4 && ptescan_next(&a.mm, a.as, &c, &r[n]))
		n++;
	CHECK_EQ(n, 4);
	CHECK_EQ(ptescan_unmap(&a.mm, &r[0]), UNMAP_SWAPCACHE);
	CHECK_EQ(ptescan_unmap(&a.mm, &r[1]), UNMAP_SWAPCACHE);
	CHECK_EQ(reclaim_work_total(&a.mm.work, W_ADD_TO_SWAP), 2);
	mm_destroy(&a.mm);
}

/* --calibrate's figure, per round r: pageout_anon 40 000 + 20 r, less
 * unmap_walk (pageout_file 1 000 + 10 r - page_drop 100 - unmap_pte 50),
 * unmap_pte and io_submit (aio_4k 30 000 + r less io_page 400):
 * 9 500 + 9 r, so 9 545 (9 500..9 590); below 0 it is 0. */
void test_add_to_swap_calibrated(void)
{
	struct cal_fig f[NR_CAL];
	double ns[NR_CALP][CAL_ROUNDS];
	cal_init(f);
	for (int r = 0; r < CAL_ROUNDS; r++) {
		ns[CALP_DROP][r] = 100;
		ns[CALP_PAGEOUT_FILE][r] = 1000 + 10 * r;
		ns[CALP_ZAP][r] = 50;
		ns[CALP_PAGEOUT_ANON][r] = 40000 + 20 * r;
		ns[CALP_DIO_4K][r] = 50000;
		ns[CALP_DIO_1M][r] = 150000;
		ns[CALP_AIO_4K][r] = 30000 + r;
		ns[CALP_AIO_1M][r] = 30000 + r + 255 * 400;
	}
	cal_paths_figs(f, ns, CAL_ROUNDS, "");
	CHECK_EQ(f[CAL_ADD_SWAP].rounds, CAL_ROUNDS);
	CHECK(f[CAL_ADD_SWAP].median == 9545 && f[CAL_ADD_SWAP].min == 9500 && f[CAL_ADD_SWAP].max == 9590);
	CHECK(f[CAL_ADD_SWAP].value == 9545);
	CHECK(!strcmp(f[CAL_ADD_SWAP].param, "cost.add_to_swap"));
	for (int r = 0; r < CAL_ROUNDS; r++)
		ns[CALP_PAGEOUT_ANON][r] = 20000;
	cal_paths_figs(f, ns, CAL_ROUNDS, "");
	CHECK(f[CAL_ADD_SWAP].median < 0 && f[CAL_ADD_SWAP].value == 0);
}
