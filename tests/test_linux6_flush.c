/* test_linux6_flush.c - when linux6's first memcg statistics flush falls
 * (stats_flush_phase_ms, src/policy/linux6/linux6.c l6_first_flush_ns()): at the
 * phase given, at the period for 0, and for -1 at a time drawn from the
 * run's seed - the same for the same seed, spread over [0, period). */
#include "test.h"
#include "../src/policy/linux6/linux6.h"

void test_linux6_first_flush(void);

void test_linux6_first_flush(void)
{
	CHECK_EQ(l6_first_flush_ns(2000, 500, 1), 500000000ULL);
	CHECK_EQ(l6_first_flush_ns(2000, 0, 1), 2000000000ULL);
	CHECK_EQ(l6_first_flush_ns(2000, -1, 7), l6_first_flush_ns(2000, -1, 7));
	uint64_t lo = UINT64_MAX, hi = 0;
	int distinct = 0;
	uint64_t prev = UINT64_MAX;
	for (uint64_t seed = 1; seed <= 64; seed++) {
		uint64_t t = l6_first_flush_ns(2000, -1, seed);
		CHECK(t < 2000000000ULL);
		CHECK_EQ(t % 1000, 0); /* to the microsecond */
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
		distinct += t != prev;
		prev = t;
	}
	/* 64 draws from [0, 2 s): spread over most of it. */
	CHECK(lo < 250000000ULL);
	CHECK(hi > 1750000000ULL);
	CHECK(distinct > 60);
}
