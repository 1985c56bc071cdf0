/* test_clock_index_wide.c - the clock index over more keys than
 * test_clock_index.c's 300 entries reach: its counts per 512 and per
 * 32768 keys (clock_index.c) answer a jump's distance over whole runs of
 * them, and a removal leaves holes in the keys.  200 000 entries, every
 * third removed, a few marked: next-marked distances and advances checked
 * against a walk of the live ids in order.  About 20 ms. */
#include "test.h"
#include "../src/policy/clock_index.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

enum { WIDE = 200000 };

/* Live ids in clock order (tail first): every id not a multiple of 3. */
static uint32_t live_id(uint32_t r) { return r / 2 * 3 + 1 + r % 2; }

static bool marked_id(uint32_t id) { return id % 40009 == 7 || id == WIDE - 1; }

void test_clock_index_wide_counts(void)
{
	struct clock_index x;
	clock_index_init(&x);
	for (uint32_t id = 0; id < WIDE; id++)
		clock_index_append(&x, id, marked_id(id));
	for (uint32_t id = 0; id < WIDE; id += 3)
		clock_index_remove(&x, id);
	uint32_t n = 0;
	uint32_t *order = malloc(WIDE * sizeof(*order));
	for (uint32_t id = 0; id < WIDE; id++)
		if (id % 3)
			order[n++] = id;
	CHECK_EQ(clock_index_count(&x), n);
	for (uint32_t r = 0; r < n; r++)
		CHECK_EQ(order[r], live_id(r));
	/* From spread-out places: the model walks the live ids. */
	for (uint32_t r = 0; r < n; r += 4999) {
		uint64_t want = 0, d = UINT64_MAX;
		while (!marked_id(order[(r + want) % n]))
			want++;
		CHECK_EQ(clock_index_next_marked(&x, order[r], &d), order[(r + want) % n]);
		CHECK_EQ(d, want);
		uint64_t places = (uint64_t)r * 7 + 12345;
		CHECK_EQ(clock_index_advance(&x, order[r], places), order[(r + places) % n]);
	}
	free(order);
	clock_index_destroy(&x);
}
