/* main.c - runs every unit test. */
#include "test.h"
#include <stdio.h>

int test_failures;

#define TESTS(X) \
	X(test_belady_anomaly) \
	X(test_splitlru_swappiness0) \
	X(test_splitlru_noforce) \
	X(test_splitlru_unevictable) \
	X(test_splitlru_deactivates_all) \
	X(test_inactive_ratio) \
	X(test_workingset_refault_distance) \
	X(test_newvm_check_runs)

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
