/* test_shards_adj.c - fixed-size SHARDS' SHARDS_adj (src/mrc/shards.c):
 * a reference seen at rate R_i weighs 1/R_i, so the corrected histogram
 * holds exactly the trace's N references, and at a size beyond every
 * distance the miss ratio is the weight of first references over N. */
#include "test.h"
#include "../src/mrc/shards.h"

#include <math.h>

/* 400 pages, each referenced 5 times in a cycle, tracked 20 at a time:
 * the threshold drops many times, and the stored weights do not add up
 * to N (the case the correction is for). */
void test_shards_size_adj_total(void)
{
	struct shards s;
	shards_init_size(&s, 20, 1);
	for (int round = 0; round < 5; round++)
		for (uint64_t p = 0; p < 400; p++)
			shards_access(&s, p, 1);
	double held = s.cold;
	for (uint64_t i = 0; i < s.hist_cap; i++)
		held += s.hist[i];
	CHECK(s.t < SHARDS_P);
	CHECK(fabs(held - 2000) > 1);
	uint64_t sizes[] = { 1, 1000000 };
	double mr[2];
	shards_curve(&s, sizes, 2, mr);
	/* cycles of 400 pages: every reuse is at distance 400, so no cache
	 * of one page hits; the largest size misses only first references */
	CHECK(fabs(mr[1] - s.cold / 2000) < 1e-12);
	shards_free(&s);
}
