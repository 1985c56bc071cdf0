/* test_stats_same.c - seeds that all gave the same figure have no spread:
 * summarize() must say so exactly (sd 0, the mean the value itself),
 * not leave rounding noise of the sum, which made Welch's test of two
 * such sets a sampled p and hid pagelab ablate's "every seed gave the
 * same figures" note (linux6 --off cost_balance,bailout --pairs --seeds
 * 10 under usemem -m 80: elapsed 0.850948 ten times, sd 1.2e-16). */
#include "test.h"
#include "../src/engine/stats.h"

void test_stats_same_values_no_spread(void)
{
	double a[10], b[10];
	for (int i = 0; i < 10; i++) {
		a[i] = 0.850948;
		b[i] = 0.781412;
	}
	struct summary s = summarize(a, 10);
	CHECK(s.sd == 0);
	CHECK(s.mean == 0.850948);
	/* no spread on either side: the difference is exact, p 0 */
	CHECK(welch_p(a, 10, b, 10) == 0);
	CHECK(welch_p(a, 10, a, 10) == 1);
}
