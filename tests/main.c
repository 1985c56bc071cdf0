/* main.c - runs every unit test. */
#include "test.h"
#include <stdio.h>

int test_failures;

#define TESTS(X) \
	X(test_belady_anomaly) \
	X(test_usemem_stream) \
	X(test_qsbench_sorts) \
	X(test_qsbench_page_sequence) \
	X(test_mtest01_stream) \
	X(test_memeater_serialized) \
	X(test_dd_stream) \
	X(test_dbench_counts) \
	X(test_streams_well_formed) \
	X(test_bonnie_and_mmap001_streams)

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
