/* memcg_high.h - memory.high's penalty: the reclaim a task does on its
 * way back to user space after charging past memory.high, and the sleep
 * it is throttled by when that reclaim cannot keep up.  Pure arithmetic
 * (6.x mm/memcontrol.c mem_cgroup_handle_over_high(), reclaim_high(),
 * calculate_high_delay(), calculate_overage()); the cgroup tree
 * (src/mm/memcg.c) does the reclaim and the sleeping. */
#ifndef PAGELAB_MM_MEMCG_HIGH_H
#define PAGELAB_MM_MEMCG_HIGH_H

#include <stdbool.h>
#include <stdint.h>

#define MEMCG_CHARGE_BATCH 64u          /* include/linux/memcontrol.h, 6.1 on */
#define MEMCG_DELAY_PRECISION_SHIFT 20
#define MEMCG_DELAY_SCALING_SHIFT 14
#define MEMCG_HIGH_RETRY_PAGES 32u      /* SWAP_CLUSTER_MAX: a retry's target */
#define MEMCG_HIGH_RETRIES 16           /* MAX_RECLAIM_RETRIES */

/* MEMCG_MAX_HIGH_DELAY_JIFFIES: 2 s of jiffies. */
static inline uint64_t memcg_max_high_delay_jiffies(unsigned hz) { return 2ull * hz; }

/* calculate_overage(): (usage - high) / high in 1/2^20ths, high taken
 * as at least 1 page; 0 at or below high. */
uint64_t memcg_calculate_overage(uint64_t usage, uint64_t high);

/* mem_find_max_overage(): the largest overage of the task's cgroup and
 * its ancestors, root excluded: usage[0], high[0] the task's cgroup,
 * [1] its parent and so on, nr levels. */
uint64_t memcg_max_overage(const uint64_t *usage, const uint64_t *high, int nr);

/* calculate_high_delay(): jiffies for max_overage, scaled by the task's
 * nr_pages over high against the nominal MEMCG_CHARGE_BATCH.  The
 * kernel's u64 product overage^2 * HZ wraps past a usage about 130
 * times high (HZ 1000); so does this. */
uint64_t memcg_high_delay_jiffies(uint64_t max_overage, unsigned nr_pages, unsigned hz);

/* The penalty mem_cgroup_handle_over_high() computes after a reclaim
 * pass: memory's and swap's delays summed, clamped to 2 s. */
uint64_t memcg_high_penalty(uint64_t mem_overage, uint64_t swap_overage, unsigned nr_pages,
			    unsigned hz);

/* The sleep: 0 when penalty <= HZ / 100 ("not even worth doing"), else
 * the penalty in ns (jiffies * 10^9 / HZ). */
uint64_t memcg_high_sleep_ns(uint64_t penalty_jiffies, unsigned hz);

/* One level, memory only, no reclaim progress: the sleep a task with
 * nr_pages over high is given at this usage. */
uint64_t memcg_high_delay_ns(uint64_t usage, uint64_t high, unsigned nr_pages, unsigned hz);

/* try_charge_memcg(): handle it synchronously, not only on the return
 * to user space, once a task's pages over high pass one batch. */
static inline bool memcg_high_handle_now(unsigned nr_pages_over_high)
{
	return nr_pages_over_high > MEMCG_CHARGE_BATCH;
}

/* mem_cgroup_handle_over_high()'s loop, driven by the caller:
 *   memcg_over_high_begin(&s, nr_pages);
 *   do { reclaim s.reclaim pages from every level whose usage > high
 *        (reclaim_high(): the task's cgroup up to, not incl., the root),
 *        then compute penalty from the new usage;
 *   } while ((next = memcg_over_high_next(&s, reclaimed, penalty, hz))
 *            == MEMCG_HIGH_RECLAIM);
 *   if (next == MEMCG_HIGH_SLEEP) sleep s.sleep_ns, in memstall. */
enum memcg_high_next { MEMCG_HIGH_DONE, MEMCG_HIGH_RECLAIM, MEMCG_HIGH_SLEEP };
struct memcg_over_high {
	unsigned nr_pages;      /* current->memcg_nr_pages_over_high */
	int nr_retries;
	unsigned reclaim;       /* pages to reclaim at each level over high */
	uint64_t sleep_ns;      /* MEMCG_HIGH_SLEEP: how long */
};
void memcg_over_high_begin(struct memcg_over_high *s, unsigned nr_pages);
enum memcg_high_next memcg_over_high_next(struct memcg_over_high *s, uint64_t nr_reclaimed,
					  uint64_t penalty_jiffies, unsigned hz);

#endif
