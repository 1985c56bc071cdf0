/* test_read_swap_cache.c - the read_swap_cache row (src/mm/work.h):
 * a page read back from a swap device (6.18 do_swap_page() ->
 * swapin_readahead() -> __read_swap_cache_async(): the folio, its memcg
 * charge, swap_cache_add_folio()), counted once per pswpin and charged
 * cost.read_swap_cache each (calib_derive.c measures it).  A
 * hand-built untimed mm of four pages; well under a second. */
#include "test.h"
#include "sim.h"
#include "../src/mm/internal.h"
#include "../src/native/calibrate.h"

#include <string.h>

void test_read_swap_cache_counted_per_read(void);
void test_read_swap_cache_calibrated(void);

/* Four written pages, each reclaimed (swapped out: the untimed write
 * ends at once, the frame is freed) and read back; the fault of page 3
 * finds it in the swap cache again if a readahead brought it in.  The
 * row is the device reads, pswpin, whatever the readahead did; each
 * costs the faulting task `ns` of system time. */
static uint64_t swap_round_trip(uint64_t ns, uint64_t *reads, uint64_t *sys)
{
	struct mm mm;
	struct mm_costs cost;
	memset(&cost, 0, sizeof(cost));
	cost.work_ns[W_READ_SWAP_CACHE] = ns;
	struct mm_ctx ctx;
	uint32_t v;
	struct aspace *as = sim_swapped_out(&mm, &cost, &ctx, 4, &v);
	enum fault_status st;
	CHECK_EQ(reclaim_work_total(&mm.work, W_READ_SWAP_CACHE), 0);
	uint64_t sys0 = ctx.sys_ns; /* the fault runs as the machine runs it: no reclaim pass */
	CHECK_EQ(mm_touch(&mm, &ctx, as, v, 0, 4, 1, TOUCH_READ, UINT64_MAX / 2, &st), 4);
	*reads = mm.ev[PSWPIN];
	*sys = ctx.sys_ns - sys0;
	uint64_t row = reclaim_work_total(&mm.work, W_READ_SWAP_CACHE);
	CHECK_EQ(mm.work.n[WHO_OTHER][W_READ_SWAP_CACHE], row);
	mm_destroy(&mm);
	return row;
}

/* Every page was read from the device once: 4 reads, 4 rows, and the
 * same run with the cost at 700 ns takes exactly 2 800 ns more. */
void test_read_swap_cache_counted_per_read(void)
{
	uint64_t reads, sys0, sys1;
	CHECK_EQ(swap_round_trip(0, &reads, &sys0), 4);
	CHECK_EQ(reads, 4);
	CHECK_EQ(swap_round_trip(700, &reads, &sys1), 4);
	CHECK_EQ(sys1 - sys0, 2800);
}

/* --calibrate's figure, per round r: swapin 40 000 + 10 r a page read,
 * 1.125 faults a read at cost.fault 2 000 (2 250), and io_submit
 * (aio_4k 30 000 + r less io_page 400): 8 150 + 9 r, so 8 195
 * (8 150..8 240).  With no fault figure (not measured) only the bio is
 * taken off: 10 400 + 9 r. */
void test_read_swap_cache_calibrated(void)
{
	struct cal_fig f[NR_CAL];
	double ns[NR_CALP][CAL_ROUNDS] = { { 0 } };
	cal_init(f);
	f[CAL_FAULT].rounds = CAL_ROUNDS;
	f[CAL_FAULT].value = 2000;
	for (int r = 0; r < CAL_ROUNDS; r++) {
		ns[CALP_AIO_4K][r] = 30000 + r;
		ns[CALP_AIO_1M][r] = 30000 + r + 255 * 400;
		ns[CALP_SWAPIN][r] = 40000 + 10 * r;
		ns[CALP_SWAPIN_FAULTS][r] = 1.125;
	}
	cal_paths_figs(f, ns, CAL_ROUNDS, "");
	CHECK_EQ(f[CAL_READ_SWAP].rounds, CAL_ROUNDS);
	CHECK(f[CAL_READ_SWAP].median == 8195 && f[CAL_READ_SWAP].min == 8150 && f[CAL_READ_SWAP].max == 8240);
	CHECK(f[CAL_READ_SWAP].value == 8195);
	CHECK(!strcmp(f[CAL_READ_SWAP].param, "cost.read_swap_cache"));
	f[CAL_FAULT].rounds = 0;
	cal_paths_figs(f, ns, CAL_ROUNDS, "");
	CHECK(f[CAL_READ_SWAP].median == 10445);
}
