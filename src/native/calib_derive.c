/* calib_derive.c - the kernel paths' figures (calib_paths.c's rounds)
 * and the costs derived from them, each round's difference taken before
 * the median so the spread is the difference's own (calibrate.h).
 *
 *  - unmap_walk = pageout_file - page_drop - unmap_pte: what
 *    shrink_folio_list() -> try_to_unmap() (Linux 6.18 mm/rmap.c:
 *    rmap_walk_file() -> try_to_unmap_one() -> page_vma_mapped_walk())
 *    spends on a mapped page beyond removing it from the page cache and
 *    freeing it (page_drop) and beyond clearing its PTE (unmap_pte): the
 *    i_mmap lock and interval tree, the VMA, the page-table descent.
 *    madvise_cold_or_pageout_pte_range()'s own PTE read and isolation
 *    are left inside it (no user-space call isolates without unmapping).
 *    It stands for cost.try_to_unmap and for cost.folio_referenced
 *    (folio_referenced_one() walks the same rmap to the same PTE);
 *    cost.rmap, charged per PTE of both, is unmap_pte.
 *  - io_page = (aio_1m - aio_4k) / 255 and io_submit = aio_4k - io_page:
 *    the CPU time of io_submit(2) per request, for a batch of 32 O_DIRECT
 *    reads (aio_submit_one() -> iomap_dio_rw() returning -EIOCBQUEUED:
 *    the bio built and submitted under the syscall's blk_plug, the
 *    device's kick at blk_finish_plug()), split into its fixed part and
 *    its part per page (pinning and adding each page to the bio).  An
 *    asynchronous batch is how pagelab's requests are submitted (the
 *    readahead window, a writeback pass, shrink_folio_list()'s pageouts
 *    under shrink_lruvec()'s plug): the task does not sleep on each.
 *    cost.io_submit is the fixed part, charged per request
 *    (src/mm/io_request.c).  dio_4k and dio_1m, a synchronous pread()
 *    each, add the sleep, the wakeup and an unbatched kick: printed, not
 *    used.
 *  - add_to_swap = pageout_anon - unmap_walk - unmap_pte - io_submit:
 *    what shrink_folio_list() (6.18 mm/vmscan.c) spends on a dirty
 *    anonymous folio beyond the costs pagelab already charges for the
 *    same steps (the rmap walk with madvise's isolation inside it, the
 *    PTE, the bio): add_to_swap() -> folio_alloc_swap() (the slot and
 *    mem_cgroup_try_charge_swap()) and swap_cache_add_folio(), the local
 *    TLB flush, the per-folio tests.  A perf profile of limit reclaim
 *    puts 0.1-0.3 s of an anonymous case there (docs/fidelity.md,
 *    "Where the kernel's system time goes"); cost.add_to_swap is charged
 *    per add_to_swap row (src/mm/reclaim.c).
 *  - read_swap = swapin - swapin_faults x cost.fault -
 *    io_submit: the CPU time of writing back pages swapped out (their
 *    swap cache dropped), per page read from swap, less what pagelab
 *    charges for the same steps (cost.fault per fault, a major one's
 *    retry included, and a bio per page: swap_read_folio()): 6.18
 *    __read_swap_cache_async() (the folio's memcg charge,
 *    swap_cache_add_folio()), swap_cache_get_folio() on the fault, the
 *    slot freed on the write (folio_free_swap()) and the major fault's
 *    sleep and wakeup; charged per read_swap_cache row
 *    (src/mm/swapin.c).
 *  - the write path's (syscall, folio_mark_dirty, write_begin,
 *    writepages): calib_write.c.
 *  - io_complete is not separable: blk_mq_complete_request() and
 *    bio_endio() run in the device's interrupt, on no task's clock. */
#include "calibrate.h"

#include <stdio.h>
#include <string.h>

static void fig(struct cal_fig *f, const double *src, int rounds, uint64_t per_round)
{
	double ns[CAL_ROUNDS];
	memcpy(ns, src, sizeof(double) * (size_t)rounds);
	f->per_round = per_round;
	cal_settle(f, ns, rounds);
}

/* A derived figure's value is never below 0 (noise can take it there). */
static void at_least_0(struct cal_fig *f)
{
	if (f->value < 0)
		f->value = 0;
}

void cal_paths_figs(struct cal_fig *f, double ns[NR_CALP][CAL_ROUNDS], int rounds, const char *why)
{
	if (rounds <= 0) {
		for (int i = CAL_DROP; i < NR_CAL; i++)
			snprintf(f[i].why, sizeof(f[i].why), "%s", why);
		return;
	}
	double unmap[CAL_ROUNDS], page[CAL_ROUNDS], submit[CAL_ROUNDS], swap[CAL_ROUNDS], rsc[CAL_ROUNDS];
	double fault = f[CAL_FAULT].rounds ? f[CAL_FAULT].value : 0; /* the parameter: less zero_page */
	for (int r = 0; r < rounds; r++) {
		unmap[r] = ns[CALP_PAGEOUT_FILE][r] - ns[CALP_DROP][r] - ns[CALP_ZAP][r];
		page[r] = (ns[CALP_AIO_1M][r] - ns[CALP_AIO_4K][r]) / 255.0;
		submit[r] = ns[CALP_AIO_4K][r] - page[r];
		swap[r] = ns[CALP_PAGEOUT_ANON][r] - unmap[r] - ns[CALP_ZAP][r] - submit[r];
		rsc[r] = ns[CALP_SWAPIN][r] - ns[CALP_SWAPIN_FAULTS][r] * fault - submit[r];
	}
	fig(&f[CAL_DROP], ns[CALP_DROP], rounds, CALP_PAGES);
	fig(&f[CAL_PAGEOUT_FILE], ns[CALP_PAGEOUT_FILE], rounds, CALP_PAGES);
	fig(&f[CAL_ZAP], ns[CALP_ZAP], rounds, CALP_PAGES);
	fig(&f[CAL_PAGEOUT_ANON], ns[CALP_PAGEOUT_ANON], rounds, CALP_PAGES);
	fig(&f[CAL_DIO_4K], ns[CALP_DIO_4K], rounds, CALP_DIO_SMALL);
	fig(&f[CAL_DIO_1M], ns[CALP_DIO_1M], rounds, CALP_DIO_BIG);
	fig(&f[CAL_AIO_4K], ns[CALP_AIO_4K], rounds, CALP_AIO_SMALL);
	fig(&f[CAL_AIO_1M], ns[CALP_AIO_1M], rounds, CALP_AIO_BIG);
	fig(&f[CAL_UNMAP], unmap, rounds, 0);
	fig(&f[CAL_REFWALK], unmap, rounds, 0);
	fig(&f[CAL_IO_PAGE], page, rounds, 0);
	fig(&f[CAL_IO_SUBMIT], submit, rounds, 0);
	fig(&f[CAL_ADD_SWAP], swap, rounds, 0);
	fig(&f[CAL_SWAPIN], ns[CALP_SWAPIN], rounds, 0);
	fig(&f[CAL_SWAPIN_FAULTS], ns[CALP_SWAPIN_FAULTS], rounds, 0);
	fig(&f[CAL_READ_SWAP], rsc, rounds, 0);
	at_least_0(&f[CAL_READ_SWAP]);
	at_least_0(&f[CAL_UNMAP]);
	at_least_0(&f[CAL_ADD_SWAP]);
	at_least_0(&f[CAL_REFWALK]);
	at_least_0(&f[CAL_IO_SUBMIT]);
	calw_figs(f, ns, rounds, submit);
	snprintf(f[CAL_IO_COMPLETE].why, sizeof(f[CAL_IO_COMPLETE].why),
		 "not separable from user space: the completion interrupt runs on no task's clock");
}
