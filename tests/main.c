/* main.c - runs every unit test. */
#include "test.h"
#include <stdio.h>

int test_failures;

#define TESTS(X) \
	X(test_belady_anomaly) \
	X(test_reproduce_verdicts) \
	X(test_reproduce_runs) \
	X(test_reproduce_templates)

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
