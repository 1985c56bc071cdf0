/* test_clock_index_wide.c - the clock index over more keys than
 * test_clock_index.c's 300 entries reach: its counts per 512 and per
 * 32768 keys (clock_index.c) answer a jump's distance over whole runs of
 * them, and a removal leaves holes in the keys.  200 000 entries, every
 * third removed, a few marked: next-marked distances and advances checked
 * against a walk of the live ids in order; then 700 000 entries with
 * three marks far apart, across the marks' second summary.  About 60 ms. */
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

/* Marks far apart: the search for the next marked key crosses words of
 * the second summary (262 144 keys each, clock_index.h), whole ones
 * between two marks, and wraps from the head to the tail; the hands'
 * key-to-key steps (clock_index_key_next) and the search by key
 * (clock_index_marked_key) agree with the walk by id.  700 000 entries,
 * marked at 5, 300 000 and 690 000: gaps of 299 995 and 389 999 keys. */
void test_clock_index_wide_far_marks(void)
{
	enum { FAR = 700000 };
	static const uint32_t marks[] = { 5, 300000, 690000 };
	struct clock_index x;
	clock_index_init(&x);
	for (uint32_t id = 0; id < FAR; id++)
		clock_index_append(&x, id, id == marks[0] || id == marks[1] || id == marks[2]);
	static const uint32_t from[] = { 0, 5, 6, 262143, 262144, 299999, 300001, 524288, 689999, 690001, FAR - 1 };
	for (size_t f = 0; f < sizeof(from) / sizeof(from[0]); f++) {
		uint32_t want = from[f] <= 5 ? 5 : from[f] <= 300000 ? 300000 : from[f] <= 690000 ? 690000 : 5;
		uint64_t d = UINT64_MAX;
		CHECK_EQ(clock_index_next_marked(&x, from[f], &d), want);
		CHECK_EQ(d, want >= from[f] ? want - from[f] : FAR - from[f] + want);
		uint32_t k = clock_index_key(&x, from[f]);
		CHECK_EQ(clock_index_id_at(&x, clock_index_marked_key(&x, k)), want);
		CHECK_EQ(clock_index_distance(&x, from[f], want), d);
	}
	/* a mark cleared: its summary words clear with it (300 000 was the
	 * only mark of its words), and the search passes on to 690 000 */
	clock_index_mark(&x, 300000, false);
	uint64_t d;
	CHECK_EQ(clock_index_next_marked(&x, 6, &d), 690000);
	CHECK_EQ(d, 689994);
	/* key to key: the next entry after each, none after the head */
	uint32_t k = clock_index_key(&x, 262143);
	CHECK_EQ(clock_index_id_at(&x, clock_index_key_next(&x, k)), 262144);
	clock_index_remove(&x, 262144);
	CHECK_EQ(clock_index_id_at(&x, clock_index_key_next(&x, k)), 262145);
	CHECK_EQ(clock_index_key_next(&x, clock_index_key(&x, FAR - 1)), CLOCK_INDEX_NONE);
	clock_index_destroy(&x);
}
