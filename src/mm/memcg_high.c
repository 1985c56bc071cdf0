/* memcg_high.c - memory.high's reclaim and throttling arithmetic.
 *
 * Models 6.x mm/memcontrol.c (the form since 5.9, Chris Down's and Jakub
 * Kicinski's rework; 6.1 raised MEMCG_CHARGE_BATCH to 64):
 * calculate_overage(), mem_find_max_overage(), calculate_high_delay(),
 * mem_cgroup_handle_over_high() and the reclaim target of reclaim_high().
 * The delay grows with the square of the overage ratio: with high at
 * 100M and HZ 1000, 101M gives 6 ms per 64-page batch, 110M 639 ms,
 * 118M the 2 s cap (the kernel's own table beside the constants).
 * Integer arithmetic in the kernel's order, so the same truncations. */
#include "memcg_high.h"

uint64_t memcg_calculate_overage(uint64_t usage, uint64_t high)
{
	if (usage <= high)
		return 0;
	if (high < 1)
		high = 1; /* no division by 0: a threshold of 1 page */
	return ((usage - high) << MEMCG_DELAY_PRECISION_SHIFT) / high;
}

uint64_t memcg_max_overage(const uint64_t *usage, const uint64_t *high, int nr)
{
	uint64_t max = 0;

	for (int i = 0; i < nr; i++) {
		uint64_t o = memcg_calculate_overage(usage[i], high[i]);

		if (o > max)
			max = o;
	}
	return max;
}

uint64_t memcg_high_delay_jiffies(uint64_t max_overage, unsigned nr_pages, unsigned hz)
{
	uint64_t penalty;

	if (!max_overage)
		return 0;
	penalty = max_overage * max_overage * hz;
	penalty >>= MEMCG_DELAY_PRECISION_SHIFT;
	penalty >>= MEMCG_DELAY_SCALING_SHIFT;
	/* Four N-page charges throttled about as one 4N-page charge. */
	return penalty * nr_pages / MEMCG_CHARGE_BATCH;
}

uint64_t memcg_high_penalty(uint64_t mem_overage, uint64_t swap_overage, unsigned nr_pages,
			    unsigned hz)
{
	uint64_t p = memcg_high_delay_jiffies(mem_overage, nr_pages, hz) +
		     memcg_high_delay_jiffies(swap_overage, nr_pages, hz);
	uint64_t cap = memcg_max_high_delay_jiffies(hz);

	return p < cap ? p : cap;
}

uint64_t memcg_high_sleep_ns(uint64_t penalty_jiffies, unsigned hz)
{
	if (!hz || penalty_jiffies <= hz / 100)
		return 0;
	return penalty_jiffies * 1000000000ull / hz;
}

uint64_t memcg_high_delay_ns(uint64_t usage, uint64_t high, unsigned nr_pages, unsigned hz)
{
	uint64_t o = memcg_calculate_overage(usage, high);

	return memcg_high_sleep_ns(memcg_high_penalty(o, 0, nr_pages, hz), hz);
}

void memcg_over_high_begin(struct memcg_over_high *s, unsigned nr_pages)
{
	/* The first pass reclaims the whole batch the task charged. */
	*s = (struct memcg_over_high){ .nr_pages = nr_pages, .nr_retries = MEMCG_HIGH_RETRIES,
				       .reclaim = nr_pages };
}

enum memcg_high_next memcg_over_high_next(struct memcg_over_high *s, uint64_t nr_reclaimed,
					  uint64_t penalty_jiffies, unsigned hz)
{
	s->sleep_ns = 0;
	if (penalty_jiffies <= hz / 100)
		return MEMCG_HIGH_DONE;
	/* Reclaim still making progress is preferred to throttling; with
	 * none, MAX_RECLAIM_RETRIES more tries (the kernel's nr_retries--
	 * tests before it decrements). */
	if (nr_reclaimed || s->nr_retries-- > 0) {
		s->reclaim = MEMCG_HIGH_RETRY_PAGES; /* only what is needed now */
		return MEMCG_HIGH_RECLAIM;
	}
	s->sleep_ns = memcg_high_sleep_ns(penalty_jiffies, hz);
	return MEMCG_HIGH_SLEEP;
}
