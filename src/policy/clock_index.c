/* clock_index.c - see clock_index.h. */
#include "clock_index.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

void clock_index_init(struct clock_index *x) { memset(x, 0, sizeof(*x)); }

void clock_index_destroy(struct clock_index *x)
{
	free(x->key_of);
	free(x->id_at);
	free(x->marked_at);
	free(x->all);
	free(x->marked);
	memset(x, 0, sizeof(*x));
}

/* Fenwick tree t over keys 0..cap-1 (t[key + 1] holds its node). */
static void fw_add(uint32_t *t, uint32_t cap, uint32_t key, uint32_t delta)
{
	for (uint32_t i = key + 1; i <= cap; i += i & (~i + 1))
		t[i] += delta; /* unsigned: delta UINT32_MAX subtracts one */
}

/* How many counted keys are below key. */
static uint32_t fw_below(const uint32_t *t, uint32_t key)
{
	uint32_t s = 0;
	for (uint32_t i = key; i; i &= i - 1)
		s += t[i];
	return s;
}

/* The key of the counted entry with r counted ones below it (r < total). */
static uint32_t fw_find(const uint32_t *t, uint32_t cap, uint32_t r)
{
	uint32_t pos = 0;
	for (uint32_t step = cap; step; step >>= 1)
		if (pos + step <= cap && t[pos + step] <= r) {
			pos += step;
			r -= t[pos];
		}
	return pos;
}

/* The keys ran out (next == cap): the live entries take keys 0..n-1 in
 * their order, and cap doubles until at least half of it is free, so
 * renumbering (O(cap)) comes at most once per cap / 2 appends. */
static void renumber(struct clock_index *x)
{
	uint32_t k = 0;
	for (uint32_t old = 0; old < x->next; old++) {
		uint32_t id = x->id_at[old];
		if (id == CLOCK_INDEX_NONE)
			continue;
		x->id_at[k] = id;
		x->marked_at[k] = x->marked_at[old];
		x->key_of[id] = k + 1;
		k++;
	}
	uint32_t cap = x->cap ? x->cap : 64;
	while (2ULL * x->n >= cap)
		cap *= 2;
	x->id_at = xrealloc(x->id_at, cap * sizeof(*x->id_at));
	x->marked_at = xrealloc(x->marked_at, cap);
	x->all = xrealloc(x->all, (cap + 1ULL) * sizeof(*x->all));
	x->marked = xrealloc(x->marked, (cap + 1ULL) * sizeof(*x->marked));
	for (uint32_t i = k; i < cap; i++) {
		x->id_at[i] = CLOCK_INDEX_NONE;
		x->marked_at[i] = 0;
	}
	/* Each node holds its own key, then passes its sum to its parent. */
	x->all[0] = x->marked[0] = 0;
	for (uint32_t i = 1; i <= cap; i++) {
		x->all[i] = i <= k;
		x->marked[i] = x->marked_at[i - 1];
	}
	for (uint32_t i = 1; i <= cap; i++) {
		uint32_t parent = i + (i & (~i + 1));
		if (parent <= cap) {
			x->all[parent] += x->all[i];
			x->marked[parent] += x->marked[i];
		}
	}
	x->cap = cap;
	x->next = k;
}

void clock_index_append(struct clock_index *x, uint32_t id, bool marked)
{
	if (id >= x->nids) {
		uint32_t nids = x->nids ? x->nids : 64;
		while (nids <= id)
			nids *= 2;
		x->key_of = xrealloc(x->key_of, nids * sizeof(*x->key_of));
		memset(x->key_of + x->nids, 0, (nids - x->nids) * sizeof(*x->key_of));
		x->nids = nids;
	}
	if (x->next == x->cap)
		renumber(x);
	uint32_t k = x->next++;
	x->id_at[k] = id;
	x->marked_at[k] = marked;
	x->key_of[id] = k + 1;
	fw_add(x->all, x->cap, k, 1);
	if (marked) {
		fw_add(x->marked, x->cap, k, 1);
		x->nmarked++;
	}
	x->n++;
}

void clock_index_remove(struct clock_index *x, uint32_t id)
{
	if (!clock_index_has(x, id))
		return;
	uint32_t k = x->key_of[id] - 1;
	fw_add(x->all, x->cap, k, UINT32_MAX);
	if (x->marked_at[k]) {
		fw_add(x->marked, x->cap, k, UINT32_MAX);
		x->nmarked--;
		x->marked_at[k] = 0;
	}
	x->id_at[k] = CLOCK_INDEX_NONE;
	x->key_of[id] = 0;
	x->n--;
}

void clock_index_mark(struct clock_index *x, uint32_t id, bool marked)
{
	uint32_t k = x->key_of[id] - 1;
	if (x->marked_at[k] == marked)
		return;
	x->marked_at[k] = marked;
	fw_add(x->marked, x->cap, k, marked ? 1 : UINT32_MAX);
	x->nmarked += marked ? 1 : UINT32_MAX;
}

uint32_t clock_index_next_marked(const struct clock_index *x, uint32_t id, uint64_t *dist)
{
	if (!x->nmarked)
		return CLOCK_INDEX_NONE;
	uint32_t k = x->key_of[id] - 1;
	uint32_t before = fw_below(x->marked, k);
	/* None at or after k: the first one from the tail. */
	uint32_t km = fw_find(x->marked, x->cap, before < x->nmarked ? before : 0);
	uint32_t rk = fw_below(x->all, k), rm = fw_below(x->all, km);
	*dist = km >= k ? rm - rk : x->n - rk + rm;
	return x->id_at[km];
}

uint32_t clock_index_advance(const struct clock_index *x, uint32_t id, uint64_t places)
{
	uint64_t r = (fw_below(x->all, x->key_of[id] - 1) + places % x->n) % x->n;
	return x->id_at[fw_find(x->all, x->cap, (uint32_t)r)];
}
