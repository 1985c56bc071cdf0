/* test_memcg_high.c - src/mm/memcg_high.c's memory.high penalty, worked
 * by hand from 6.x mm/memcontrol.c's integer arithmetic: high 100M =
 * 25600 pages, 1M = 256 pages, PRECISION 20 and SCALING 14 bits
 * (2^34 = 17179869184).  The HZ 1000 values are the kernel's own table
 * beside MEMCG_DELAY_SCALING_SHIFT. */
#include "test.h"
#include "../src/mm/memcg_high.h"

void test_memcg_high_overage(void);
void test_memcg_high_curve(void);
void test_memcg_high_batch_scaling(void);
void test_memcg_high_threshold_and_hz(void);
void test_memcg_high_ancestors_and_swap(void);
void test_memcg_high_retry_loop(void);

#define HIGH 25600u
#define MB(n) ((uint64_t)(n) * 256)

void test_memcg_high_overage(void)
{
	CHECK_EQ(memcg_calculate_overage(HIGH, HIGH), 0);
	CHECK_EQ(memcg_calculate_overage(HIGH - 1, HIGH), 0);
	/* 101M: (256 << 20) / 25600 = 268435456 / 25600 = 10485.76 */
	CHECK_EQ(memcg_calculate_overage(MB(101), HIGH), 10485);
	/* 110M: (2560 << 20) / 25600 = 104857.6 */
	CHECK_EQ(memcg_calculate_overage(MB(110), HIGH), 104857);
	/* high 0 counts as 1 page: (3 - 1) << 20 = 2097152 */
	CHECK_EQ(memcg_calculate_overage(3, 0), 2097152);
	CHECK_EQ(memcg_calculate_overage(0, 0), 0);
}

void test_memcg_high_curve(void)
{
	/* HZ 1000, a 64-page batch: penalty = o * o * 1000 >> 34. */
	/* 101M: 10485^2 = 109935225; * 1000 / 2^34 = 6.40 -> 6 */
	CHECK_EQ(memcg_high_delay_jiffies(10485, 64, 1000), 6);
	/* 102M: o = 536870912 / 25600 = 20971; 20971^2 = 439782841;
	 * * 1000 / 2^34 = 25.6 -> 25 */
	CHECK_EQ(memcg_high_delay_jiffies(memcg_calculate_overage(MB(102), HIGH), 64, 1000), 25);
	/* 105M: o = 1342177280 / 25600 = 52428; 52428^2 = 2748695184;
	 * * 1000 / 2^34 = 159.99 -> 159 */
	CHECK_EQ(memcg_high_delay_jiffies(memcg_calculate_overage(MB(105), HIGH), 64, 1000), 159);
	/* 110M: 104857^2 = 10994990449; * 1000 / 2^34 = 639.99 -> 639 */
	CHECK_EQ(memcg_high_delay_jiffies(104857, 64, 1000), 639);
	/* 117M: o = 178257; o^2 = 31775558049; * 1000 / 2^34 = 1849.6 */
	CHECK_EQ(memcg_high_delay_jiffies(memcg_calculate_overage(MB(117), HIGH), 64, 1000), 1849);
	/* 118M: o = 188743; o^2 = 35623920049; * 1000 / 2^34 = 2073.6,
	 * clamped to MEMCG_MAX_HIGH_DELAY_JIFFIES = 2 * HZ = 2000. */
	CHECK_EQ(memcg_high_delay_jiffies(188743, 64, 1000), 2073);
	CHECK_EQ(memcg_high_penalty(188743, 0, 64, 1000), 2000);
	/* As sleeps: jiffies * 10^9 / 1000. */
	CHECK_EQ(memcg_high_delay_ns(MB(110), HIGH, 64, 1000), 639000000ull);
	CHECK_EQ(memcg_high_delay_ns(MB(118), HIGH, 64, 1000), 2000000000ull);
	CHECK_EQ(memcg_high_delay_ns(MB(100), HIGH, 64, 1000), 0);
}

void test_memcg_high_batch_scaling(void)
{
	/* penalty * nr_pages / 64, truncated after the shift:
	 * 110M, 32 pages: 639 * 32 / 64 = 319.5 -> 319;
	 * 128 pages: 639 * 128 / 64 = 1278. */
	CHECK_EQ(memcg_high_delay_jiffies(104857, 32, 1000), 319);
	CHECK_EQ(memcg_high_delay_jiffies(104857, 128, 1000), 1278);
	/* 101M, 1 page: 6 * 1 / 64 = 0. */
	CHECK_EQ(memcg_high_delay_jiffies(10485, 1, 1000), 0);
	CHECK(!memcg_high_handle_now(64));
	CHECK(memcg_high_handle_now(65));
}

void test_memcg_high_threshold_and_hz(void)
{
	/* HZ 1000: no sleep up to HZ / 100 = 10 jiffies. 101M's 6 is
	 * forgiven; 102M's 25 sleeps 25 ms. */
	CHECK_EQ(memcg_high_delay_ns(MB(101), HIGH, 64, 1000), 0);
	CHECK_EQ(memcg_high_delay_ns(MB(102), HIGH, 64, 1000), 25000000ull);
	CHECK_EQ(memcg_high_sleep_ns(10, 1000), 0);
	CHECK_EQ(memcg_high_sleep_ns(11, 1000), 11000000ull);
	/* HZ 250: 110M: 10994990449 * 250 = 2748747612250 / 2^34 = 159.99
	 * -> 159 jiffies of 4 ms = 636 ms (not 639: HZ truncates). */
	CHECK_EQ(memcg_high_delay_jiffies(104857, 64, 250), 159);
	CHECK_EQ(memcg_high_delay_ns(MB(110), HIGH, 64, 250), 636000000ull);
	/* HZ 250, 102M: 439782841 * 250 / 2^34 = 6.4 -> 6 > 250 / 100 = 2:
	 * 6 jiffies = 24 ms. */
	CHECK_EQ(memcg_high_delay_ns(MB(102), HIGH, 64, 250), 24000000ull);
	/* HZ 250's cap: 500 jiffies = 2 s. */
	CHECK_EQ(memcg_high_penalty(188743, 188743, 64, 250), 500);
}

void test_memcg_high_ancestors_and_swap(void)
{
	/* The task's cgroup is under its high, its parent 10% over: the
	 * parent's overage is the one that counts. */
	uint64_t usage[2] = { 1000, MB(110) }, high[2] = { 2000, HIGH };

	CHECK_EQ(memcg_max_overage(usage, high, 2), 104857);
	CHECK_EQ(memcg_max_overage(usage, high, 1), 0);
	/* Memory and swap delays add before the cap: 159 + 25 = 184. */
	CHECK_EQ(memcg_high_penalty(52428, 20971, 64, 1000), 184);
}

void test_memcg_high_retry_loop(void)
{
	struct memcg_over_high s;
	int passes = 1;

	memcg_over_high_begin(&s, 96);
	CHECK_EQ(s.reclaim, 96);       /* the first pass: the whole batch */
	/* Under the threshold after a pass: done, no sleep. */
	CHECK_EQ(memcg_over_high_next(&s, 96, 10, 1000), MEMCG_HIGH_DONE);
	CHECK_EQ(s.sleep_ns, 0);
	/* Progress keeps it reclaiming, SWAP_CLUSTER_MAX at a time, with
	 * no retry spent. */
	memcg_over_high_begin(&s, 96);
	CHECK_EQ(memcg_over_high_next(&s, 5, 639, 1000), MEMCG_HIGH_RECLAIM);
	CHECK_EQ(s.reclaim, 32);
	CHECK_EQ(s.nr_retries, 16);
	/* No progress: 16 more passes (17 in all), then the sleep. */
	while (memcg_over_high_next(&s, 0, 639, 1000) == MEMCG_HIGH_RECLAIM)
		passes++;
	CHECK_EQ(passes, 17);
	CHECK_EQ(s.sleep_ns, 639000000ull);
}
