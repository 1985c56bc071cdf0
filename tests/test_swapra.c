/* test_swapra.c - 6.18's swap readahead windows worked out by hand
 * (src/mm/swapin.c, mm/swap_state.c): swap_vma_ra_win() growing on a
 * sequential run of faults and shrinking by halves on random ones, cut
 * (not moved) at the VMA's start, its end and the fault's page table,
 * and both hit counts starting at 4; mglru reading ahead as linux6 does. */
#include "test.h"
#include "sim.h"
#include "../src/machine/machine.h"
#include "../src/mm/internal.h"
#include "../src/mm/swap.h"

#include <stdint.h>

/* One swap_vma_ra_window() call: the window and the pages it names. */
static void vma_window(struct vma *v, uint64_t off, uint32_t max_win, uint32_t win, uint64_t lo,
		       uint64_t hi)
{
	uint64_t a, b;
	CHECK_EQ(swap_vma_ra_window(v, off, max_win, &a, &b), win);
	CHECK_EQ(a, lo);
	CHECK_EQ(b, hi);
}

/* One fault of a hand-worked sequence: the hits and last fault the
 * fault finds (KEEP: what the previous call left), the window, [lo, hi). */
#define KEEP UINT64_MAX
struct ra_step {
	uint64_t hits, prev, off;
	uint32_t win;
	uint64_t lo, hi;
};

/* A VMA of 100 pages at virtual page 1000: its page 24 is the first of
 * the page table at 1024.  Page-cluster 3 (8 pages at most).  The hits
 * and ra_off set by hand stand for the faults that found readahead
 * pages in between (aspace.c, swap_update_readahead()). */
static const struct ra_step vma_steps[] = {
	/* First fault, at 50: 4 hits + 2 -> 8, around it: 50 - 3 .. 55. */
	{ KEEP, KEEP, 50, 8, 47, 55 },
	/* Random faults without hits: 1 page, but never below half the
	 * last window: 4 at 80 (80 - 1 .. 83), 2 at 20, then 1. */
	{ KEEP, KEEP, 80, 4, 79, 83 },
	{ KEEP, KEEP, 20, 2, 20, 22 },
	{ KEEP, KEEP, 60, 1, 60, 61 },
	/* Sequential: the next page without hits reads 2 ahead, one hit 4
	 * (3 rounded up), three hits (the last at 65) 8 ahead of 66. */
	{ KEEP, KEEP, 61, 2, 61, 63 },
	{ 1, KEEP, 62, 4, 62, 66 },
	{ 3, 65, 66, 8, 66, 74 },
	/* Backward (the last fault at 31): half of 8 = 4 behind, 27 .. 31. */
	{ KEEP, 31, 30, 4, 27, 31 },
	/* At the VMA's first page, 8 pages: 0 - 3 .. 5 cut to 0 .. 5. */
	{ 3, KEEP, 0, 8, 0, 5 },
	/* At its end: 98 - 3 .. 103 cut to 100. */
	{ 3, KEEP, 98, 8, 95, 100 },
	/* Page 25, in the page table at 1024: 22 .. 30 cut to 24. */
	{ 3, KEEP, 25, 8, 24, 30 },
};

void test_swapra_vma_window(void)
{
	struct vma v = { .start = 1000, .npages = 100, .ra_hits = SWAP_RA_INIT_HITS };
	for (size_t i = 0; i < sizeof(vma_steps) / sizeof(vma_steps[0]); i++) {
		const struct ra_step *s = &vma_steps[i];
		if (s->hits != KEEP)
			v.ra_hits = (uint32_t)s->hits;
		if (s->prev != KEEP)
			v.ra_off = s->prev;
		vma_window(&v, s->off, 8, s->win, s->lo, s->hi);
		CHECK(v.ra_set);
		CHECK_EQ(v.ra_hits, 0);
		CHECK_EQ(v.ra_off, s->off);
	}
	/* Page-cluster 0: one page, and nothing remembered. */
	v.ra_hits = 2;
	vma_window(&v, 70, 1, 1, 70, 71);
	CHECK_EQ(v.ra_hits, 2);
	CHECK_EQ(v.ra_off, 25);
}

/* A VMA's first fault with no hits yet reads 8 pages, not 1: the
 * kernel's swap_readahead_info of 0 reads as 4 hits. */
void test_swapra_vma_first_fault(void)
{
	struct vma v = { .start = 0, .npages = 64, .ra_hits = SWAP_RA_INIT_HITS };
	vma_window(&v, 10, 8, 8, 7, 15);
	struct vma w = { .start = 0, .npages = 64, .ra_hits = SWAP_RA_INIT_HITS };
	vma_window(&w, 10, 32, 8, 7, 15); /* page-cluster 5: still 6 -> 8 */
}

/* The global count (swap_cluster_readahead()) starts at 4 too: a new
 * swap area's first fault, at slot 40 (offset 41), reads the aligned 8
 * offsets 40..47, slots 39..46. */
void test_swapra_cluster_first_fault(void)
{
	struct swap_area sw = { 0 };
	swap_init(&sw, 100);
	uint32_t a, b;
	CHECK_EQ(swap_cluster_ra_window(&sw, 40, 8, &a, &b), 8);
	CHECK_EQ(a, 39);
	CHECK_EQ(b, 46);
	CHECK_EQ(sw.ra_hits, 0);
	/* Hits were had: the previous fault is not moved (still 0). */
	CHECK_EQ(sw.ra_prev, 0);
	swap_destroy(&sw);
}

/* usemem -r 2 80M in 64 MB on vmm-2008 under `policy`: a sequential
 * re-read of swapped-out memory. */
static struct machine *reread(const char *policy, const char *const *vm_sets)
{
	char a0[] = "usemem", a1[] = "-r", a2[] = "2", a3[] = "80M";
	char *av[] = { a0, a1, a2, a3, NULL };
	return sim_run_workload("vmm-2008", 64ULL << 20, policy, NULL, vm_sets, 4, av);
}

/* mglru reads swap ahead as linux6 does (6.18's swapin_readahead() does
 * not depend on the LRU): the VMA window, whose hits widen it, and from
 * a rotating disk the slot cluster - not 2.6's valid_swaphandles().  On
 * a sequential re-read both designs then read the same pages: the LRU
 * decides what is evicted, not what a fault reads around it. */
void test_swapra_mglru_is_6x(void)
{
	struct machine *m = reread("mglru", NULL);
	CHECK_EQ(m->mm.vm.swap_vma_ra, 1);
	uint64_t ra = m->mm.ev[SWAP_RA], hit = m->mm.ev[SWAP_RA_HIT], in = m->mm.ev[PSWPIN];
	CHECK(in > 1000);
	CHECK_EQ(in, m->mm.ev[PGMAJFAULT] + ra);
	CHECK(hit * 10 > in * 7);
	machine_free(m);
	const char *const rot[] = { "vm.swap_rotational", "1", NULL };
	m = reread("mglru", rot);
	CHECK_EQ(m->mm.vm.swap_vma_ra, 1);
	CHECK(m->mm.ev[SWAP_RA_HIT] > 0);
	machine_free(m);
}
