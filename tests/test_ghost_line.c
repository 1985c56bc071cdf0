/* test_ghost_line.c - a ghost entry is one host cache line (ghost.h:
 * struct gh_entry, 64 bytes) and the pool stays on a line boundary as it
 * grows past 2 MB, where a prefetch of an entry's start fetches all of
 * it; the entries copied into the grown pool keep their keys.  A few ms. */
#include "test.h"
#include "../src/policy/ghost.h"

#include <stdint.h>

void test_ghost_line_pool_aligned_after_growth(void)
{
	struct ghost g;
	ghost_init(&g, 1024);
	const uint32_t n = 40000; /* 1024 doubled to 65536 entries: 4 MB */
	for (uint32_t k = 0; k < n; k++)
		CHECK_EQ(ghost_new(&g, ghost_okey(1, false), k), k);
	CHECK(g.cap >= n);
	CHECK_EQ((uintptr_t)g.e % 64, 0);
	for (uint32_t k = 0; k < n; k += 997)
		CHECK_EQ(ghost_find(&g, ghost_okey(1, false), k), k);
	ghost_destroy(&g);
}
