/* test_policies.c - textbook policies on hand-checked reference strings. */
#include "test.h"
#include "sim.h"

void test_belady_anomaly(void);
void test_belady_anomaly(void)
{
	/* Belady, Nelson, Shedler (1969): FIFO faults more with more frames. */
	static const uint64_t s[] = { 1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5 };
	CHECK_EQ(sim_trace_faults("fifo", s, 12, 3, 0), 9);
	CHECK_EQ(sim_trace_faults("fifo", s, 12, 4, 0), 10);
	CHECK_EQ(sim_trace_faults("lru", s, 12, 3, 0), 10);
	CHECK_EQ(sim_trace_faults("lru", s, 12, 4, 0), 8);
	CHECK_EQ(sim_trace_faults("opt", s, 12, 3, 0), 7);
	CHECK_EQ(sim_trace_faults("opt", s, 12, 4, 0), 6);
}
