/* test_clock_index_walk.c - the clock's order walked through its index
 * (src/policy/clock_index.h: clock_index_first, clock_index_after), which
 * CLOCK-Pro's hands step through since the clock lost its list links: by
 * hand on a few entries, then across runs of thousands of empty keys
 * (the walk skips 512 a step) and renumberings, against a plain array. */
#include "test.h"
#include "../src/policy/clock_index.h"

#include <stdbool.h>
#include <stdint.h>

void test_clock_index_walk_by_hand(void)
{
	struct clock_index x;
	clock_index_init(&x);
	CHECK_EQ(clock_index_first(&x), CLOCK_INDEX_NONE);
	for (uint32_t id = 5; id <= 8; id++)
		clock_index_append(&x, id, false);
	CHECK_EQ(clock_index_first(&x), 5);
	CHECK_EQ(clock_index_after(&x, 5), 6);
	CHECK_EQ(clock_index_after(&x, 8), CLOCK_INDEX_NONE); /* the head */
	clock_index_remove(&x, 5);
	clock_index_remove(&x, 7);
	CHECK_EQ(clock_index_first(&x), 6);
	CHECK_EQ(clock_index_after(&x, 6), 8);
	clock_index_remove(&x, 6);
	clock_index_append(&x, 6, true); /* to the head: 8 6 */
	CHECK_EQ(clock_index_first(&x), 8);
	CHECK_EQ(clock_index_after(&x, 8), 6);
	CHECK_EQ(clock_index_after(&x, 6), CLOCK_INDEX_NONE);
	clock_index_remove(&x, 8);
	clock_index_remove(&x, 6);
	CHECK_EQ(clock_index_first(&x), CLOCK_INDEX_NONE);
	clock_index_append(&x, 9, false);
	CHECK_EQ(clock_index_first(&x), 9);
	clock_index_destroy(&x);
}

#define WALK_MAX 6000

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* Append v at the head; counts the renumberings it caused. */
static void append(struct clock_index *x, uint32_t v, uint32_t *renumbered)
{
	uint32_t next = x->next;
	clock_index_append(x, v, false);
	*renumbered += x->next != next + 1;
}

/* The index walked from the tail equals the model's order. */
static bool walk_ok(struct clock_index *x, const uint32_t *id, uint32_t n)
{
	uint32_t i = clock_index_first(x), k = 0;
	for (; i != CLOCK_INDEX_NONE && k < n; i = clock_index_after(x, i), k++)
		if (i != id[k])
			return false;
	return i == CLOCK_INDEX_NONE && k == n;
}

/* Rounds of filling to 5000 entries and removing most of them (from
 * random places, or a block of 3000 together, which leaves runs of empty
 * keys longer than 512), with moves to the head between: the walk after
 * each step of a round's last part, and after each round, is the
 * array's; the keys are renumbered on the way. */
void test_clock_index_walk_against_array(void)
{
	static uint32_t id[WALK_MAX];
	static bool on[WALK_MAX];
	struct clock_index x;
	clock_index_init(&x);
	uint32_t n = 0, renumbered = 0, walks = 0;
	uint64_t s = 42;
	for (int round = 0; round < 12; round++) {
		while (n < 5000) {
			uint32_t v = (uint32_t)(rnd(&s) % WALK_MAX);
			if (on[v])
				continue;
			append(&x, v, &renumbered);
			on[v] = true;
			id[n++] = v;
		}
		uint32_t keep = round % 2 ? 1000 : 200;
		if (round % 3 == 0) {
			/* a block from the middle */
			for (uint32_t k = 1000; k < 4000; k++) {
				clock_index_remove(&x, id[k]);
				on[id[k]] = false;
			}
			for (uint32_t k = 4000; k < n; k++)
				id[k - 3000] = id[k];
			n -= 3000;
		}
		while (n > keep) {
			uint32_t p = (uint32_t)(rnd(&s) % n);
			uint32_t v = id[p];
			clock_index_remove(&x, v);
			for (uint32_t k = p + 1; k < n; k++)
				id[k - 1] = id[k];
			if (rnd(&s) % 4 == 0) {
				id[n - 1] = v; /* to the head */
				append(&x, v, &renumbered);
			} else {
				on[v] = false;
				n--;
			}
			if (n < keep + 20) {
				walks++;
				if (!walk_ok(&x, id, n)) {
					CHECK(!"the walk left the clock's order");
					round = 12;
					break;
				}
			}
		}
		walks++;
		CHECK(walk_ok(&x, id, n));
	}
	CHECK(renumbered >= 4); /* 4 */
	CHECK(walks > 200);
	clock_index_destroy(&x);
}
