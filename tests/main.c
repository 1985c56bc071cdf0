/* main.c - runs every unit test. */
#include "test.h"
#include <stdio.h>

int test_failures;

#define TESTS(X) \
	X(test_belady_anomaly) \
	X(test_pagecache_readahead) \
	X(test_pagecache_evict_clean_dirty) \
	X(test_pagecache_shadows) \
	X(test_pagecache_refault_calls) \
	X(test_pagecache_mark_accessed) \
	X(test_pagecache_mmap) \
	X(test_pagecache_direct_io) \
	X(test_pagecache_unevictable) \
	X(test_pagecache_swap_readahead) \
	X(test_pagecache_policies)

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
