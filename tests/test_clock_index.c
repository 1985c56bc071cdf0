/* test_clock_index.c - the clock-order index CLOCK-Pro's cold hand jumps
 * through (src/policy/clock_index.h): next marked entry and distance,
 * advance, both wrapping, by hand on five entries; then random appends,
 * removals, moves to the head and marks against a plain array across many
 * renumberings.  A fraction of a second. */
#include "test.h"
#include "../src/policy/clock_index.h"

#include <stdbool.h>
#include <stdint.h>

static uint32_t next_marked(const struct clock_index *x, uint32_t id, uint64_t *dist)
{
	*dist = UINT64_MAX;
	return clock_index_next_marked(x, id, dist);
}

void test_clock_index_by_hand(void)
{
	struct clock_index x;
	clock_index_init(&x);
	uint64_t d;
	/* Tail to head: 10 11 12 13 14; 11 and 13 marked. */
	for (uint32_t id = 10; id <= 14; id++)
		clock_index_append(&x, id, id == 11 || id == 13);
	CHECK_EQ(clock_index_count(&x), 5);
	CHECK_EQ(clock_index_nr_marked(&x), 2);
	CHECK(!clock_index_has(&x, 9) && !clock_index_has(&x, 15) && !clock_index_has(&x, 1000));
	CHECK_EQ(next_marked(&x, 10, &d), 11);
	CHECK_EQ(d, 1);
	CHECK_EQ(next_marked(&x, 11, &d), 11); /* at or after: itself */
	CHECK_EQ(d, 0);
	CHECK_EQ(next_marked(&x, 12, &d), 13);
	CHECK_EQ(d, 1);
	CHECK_EQ(next_marked(&x, 14, &d), 11); /* wraps: 14 -> 10 -> 11 */
	CHECK_EQ(d, 2);
	CHECK_EQ(clock_index_advance(&x, 10, 0), 10);
	CHECK_EQ(clock_index_advance(&x, 10, 4), 14);
	CHECK_EQ(clock_index_advance(&x, 13, 2), 10);
	CHECK_EQ(clock_index_advance(&x, 12, 5 * 3 + 1), 13); /* three rounds and one */

	/* 13 leaves: 10 11 12 14; from 12 the next marked is 11, round the
	 * head: 12 -> 14 -> 10 -> 11. */
	clock_index_remove(&x, 13);
	clock_index_remove(&x, 13); /* not there: nothing */
	CHECK(!clock_index_has(&x, 13));
	CHECK_EQ(clock_index_count(&x), 4);
	CHECK_EQ(clock_index_nr_marked(&x), 1);
	CHECK_EQ(next_marked(&x, 12, &d), 11);
	CHECK_EQ(d, 3);
	CHECK_EQ(clock_index_advance(&x, 12, 1), 14);

	/* 14 marked, 11 not: from 12, 14 is next; from 10 too, two on. */
	clock_index_mark(&x, 14, true);
	clock_index_mark(&x, 11, false);
	clock_index_mark(&x, 11, false); /* unchanged: counted once */
	CHECK_EQ(clock_index_nr_marked(&x), 1);
	CHECK(clock_index_marked(&x, 14) && !clock_index_marked(&x, 11));
	CHECK_EQ(next_marked(&x, 12, &d), 14);
	CHECK_EQ(d, 1);
	CHECK_EQ(next_marked(&x, 10, &d), 14);
	CHECK_EQ(d, 3);

	/* 10 moves to the head: 11 12 14 10; the tail is 11 now. */
	clock_index_remove(&x, 10);
	clock_index_append(&x, 10, false);
	CHECK(clock_index_key(&x, 10) > clock_index_key(&x, 14));
	CHECK_EQ(clock_index_advance(&x, 10, 1), 11);
	CHECK_EQ(next_marked(&x, 10, &d), 14);
	CHECK_EQ(d, 3);

	clock_index_mark(&x, 14, false);
	CHECK_EQ(next_marked(&x, 12, &d), CLOCK_INDEX_NONE);
	clock_index_destroy(&x);
}

/* A model: the clock as an array, tail first. */
#define MODEL_MAX 300
struct model {
	uint32_t id[MODEL_MAX];
	int marked[MODEL_MAX];
	uint32_t n;
};

static uint32_t model_pos(const struct model *m, uint32_t id)
{
	for (uint32_t p = 0; p < m->n; p++)
		if (m->id[p] == id)
			return p;
	return UINT32_MAX;
}

static void model_remove(struct model *m, uint32_t p)
{
	for (uint32_t q = p; q + 1 < m->n; q++) {
		m->id[q] = m->id[q + 1];
		m->marked[q] = m->marked[q + 1];
	}
	m->n--;
}

/* Append to both; true if the index renumbered its keys for it. */
static bool model_append(struct model *m, struct clock_index *x, uint32_t id, int mk)
{
	uint32_t next = x->next;
	m->id[m->n] = id;
	m->marked[m->n++] = mk;
	clock_index_append(x, id, mk);
	return x->next != next + 1;
}

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* 200 000 operations on up to 300 entries: the keys run out and are
 * renumbered hundreds of times, the tables grow from 64 keys and 64 ids,
 * and thousands of next-marked answers wrap; every answer is the
 * array's. */
void test_clock_index_against_array(void)
{
	struct clock_index x;
	struct model m = { .n = 0 };
	clock_index_init(&x);
	uint64_t s = 12, renumbered = 0, wrapped = 0;
	uint32_t next_id = 0;
	for (int op = 0; op < 200000; op++) {
		uint64_t r = rnd(&s) % 100;
		if (m.n < 3 || (r < 20 && m.n < MODEL_MAX)) {
			/* a new id at the head */
			uint32_t id = next_id++ % 1000;
			if (model_pos(&m, id) != UINT32_MAX)
				continue;
			renumbered += model_append(&m, &x, id, rnd(&s) % 3 == 0);
		} else if (r < 40) {
			uint32_t p = (uint32_t)(rnd(&s) % m.n);
			clock_index_remove(&x, m.id[p]);
			model_remove(&m, p);
		} else if (r < 70) {
			/* to the head, perhaps marked otherwise */
			uint32_t p = (uint32_t)(rnd(&s) % m.n), id = m.id[p];
			model_remove(&m, p);
			clock_index_remove(&x, id);
			renumbered += model_append(&m, &x, id, rnd(&s) % 3 == 0);
		} else {
			uint32_t p = (uint32_t)(rnd(&s) % m.n);
			m.marked[p] = rnd(&s) % 2;
			clock_index_mark(&x, m.id[p], m.marked[p]);
		}
		/* One query of each kind from a random entry. */
		uint32_t p = (uint32_t)(rnd(&s) % m.n), nm = 0;
		for (uint32_t q = 0; q < m.n; q++)
			nm += m.marked[q] != 0;
		if (clock_index_count(&x) != m.n || clock_index_nr_marked(&x) != nm) {
			CHECK_EQ(clock_index_count(&x), m.n);
			CHECK_EQ(clock_index_nr_marked(&x), nm);
			break;
		}
		uint64_t d, want_d = 0;
		uint32_t got = next_marked(&x, m.id[p], &d), want = CLOCK_INDEX_NONE;
		for (uint32_t k = 0; nm && k < m.n; k++)
			if (m.marked[(p + k) % m.n]) {
				want = m.id[(p + k) % m.n];
				want_d = k;
				break;
			}
		uint64_t places = rnd(&s) % (3 * m.n);
		uint32_t adv = clock_index_advance(&x, m.id[p], places);
		if (got != want || (want != CLOCK_INDEX_NONE && d != want_d) ||
		    adv != m.id[(p + places) % m.n]) {
			CHECK_EQ(got, want);
			CHECK_EQ(d, want_d);
			CHECK_EQ(adv, m.id[(p + places) % m.n]);
			break;
		}
		wrapped += want != CLOCK_INDEX_NONE && want_d > 0 && (p + want_d) >= m.n;
		for (uint32_t q = 1; q < m.n; q++)
			if (clock_index_key(&x, m.id[q - 1]) >= clock_index_key(&x, m.id[q])) {
				CHECK(!"keys out of clock order");
				op = 200000;
				break;
			}
	}
	/* The case covered what it is for. */
	CHECK(renumbered > 100); /* 344 */
	CHECK(wrapped > 1000);
	CHECK(x.nids >= 1000);
	clock_index_destroy(&x);
}
