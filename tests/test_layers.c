/* test_layers.c - a policy changes the core's behaviour through its
 * policy_ops (src/mm/policy_ops.h), not by writing struct mm's fields:
 * POLICY_FAULT_NOT_YOUNG as a static flag or from tunable_flags() (clock's
 * first_ref=0), read by mm_set_policy(). */
#include "test.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"

/* Misses of clock-like OPS with TUN on 3 frames over 0 1 2 0 3 0 1: 6
 * when a fault leaves the page referenced, 5 when it does not
 * (test_cachesim_clock_referenced_bit walks through both). */
static uint64_t clock_misses(const struct policy_ops *ops, const double *tun)
{
	static const uint32_t refs[] = { 0, 1, 2, 0, 3, 0, 1 };
	struct cachesim *cs = cachesim_new(ops, tun, 3);
	cachesim_refs(cs, refs, NULL, 7);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	cachesim_free(cs);
	return st.misses;
}

void test_layers_clock_tunable_flags(void)
{
	const struct policy_ops *clock = policy_find("clock");
	static const double first_ref0[] = { 0 }, first_ref1[] = { 1 };
	CHECK(clock->tunable_flags != NULL);
	CHECK_EQ(clock->tunable_flags(first_ref0), POLICY_FAULT_NOT_YOUNG);
	CHECK_EQ(clock->tunable_flags(first_ref1), 0);
	CHECK_EQ(clock->tunable_flags(NULL), 0);
	CHECK_EQ(clock->flags & POLICY_FAULT_NOT_YOUNG, 0);
}

void test_layers_fault_not_young_flag(void)
{
	const struct policy_ops *clock = policy_find("clock");
	static const double first_ref0[] = { 0 };
	CHECK_EQ(clock_misses(clock, NULL), 6);
	CHECK_EQ(clock_misses(clock, first_ref0), 5);
	/* The same behaviour as a static flag, with no tunable_flags(). */
	struct policy_ops flagged = *clock;
	flagged.flags |= POLICY_FAULT_NOT_YOUNG;
	flagged.tunable_flags = NULL;
	CHECK_EQ(clock_misses(&flagged, NULL), 5);
}
