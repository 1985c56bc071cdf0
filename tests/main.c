/* main.c - runs every unit test. */
#include "test.h"
#include <stdio.h>

int test_failures;

#define TESTS(X) \
	X(test_belady_anomaly) \
	X(test_second_chance) \
	X(test_clock_all_referenced_is_fifo) \
	X(test_lru_vs_fifo) \
	X(test_dirty_eviction_costs_a_write) \
	X(test_opt_is_optimal) \
	X(test_disk_positioning) \
	X(test_disk_sequential_no_seek) \
	X(test_disk_merging) \
	X(test_disk_clook) \
	X(test_disk_deadline) \
	X(test_disk_ssd_queue_depth) \
	X(test_parse_size) \
	X(test_parse_numbers) \
	X(test_trace_parser) \
	X(test_time_lines) \
	X(test_vmstat_format) \
	X(test_check_catches_corruption) \
	X(test_check_in_machine) \
	X(test_mutated_traces) \
	X(test_mutated_options)

#define DECLARE(t) void t(void);
TESTS(DECLARE)

int main(void)
{
	int n = 0;
#define RUN(t) do { int before = test_failures; t(); n++; \
	printf("%-40s %s\n", #t, test_failures == before ? "ok" : "FAILED"); } while (0);
	TESTS(RUN)
	printf("%d tests, %d failed checks\n", n, test_failures);
	return test_failures ? 1 : 0;
}
