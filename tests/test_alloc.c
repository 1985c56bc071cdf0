/* test_alloc.c - xcalloc_huge() (src/lib/util.h): the large tables it
 * returns are zeroed and 2 MiB aligned (so the host can back them with
 * huge pages), small ones are plain xcalloc()s, and free() takes both.
 * Milliseconds. */
#include "test.h"
#include "../src/lib/util.h"

#include <stdlib.h>

void test_alloc_huge_zeroed_aligned(void)
{
	size_t n = (3u << 20) / sizeof(uint64_t) + 5; /* a little over 3 MiB */
	uint64_t *t = xcalloc_huge(n, sizeof(*t));
	CHECK_EQ((uintptr_t)t % (2u << 20), 0);
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum |= t[i];
	CHECK_EQ(sum, 0);
	t[n - 1] = 1; /* the last element is inside the allocation */
	free(t);
	/* Below 2 MiB it is xcalloc(): zeroed, whatever the alignment. */
	uint32_t *s = xcalloc_huge(1000, sizeof(*s));
	uint32_t any = 0;
	for (size_t i = 0; i < 1000; i++)
		any |= s[i];
	CHECK_EQ(any, 0);
	free(s);
}
