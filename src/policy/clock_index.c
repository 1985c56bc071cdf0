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
	free(x->marked_sum);
	free(x->block_n);
	memset(x, 0, sizeof(*x));
}

#define BLOCK_SHIFT 12 /* 4096 keys, 64 words, a block */
#define BIT(k) (1ULL << ((k) & 63))

static void set_all(struct clock_index *x, uint32_t key, bool on)
{
	if (on) {
		x->all[key >> 6] |= BIT(key);
		x->block_n[key >> BLOCK_SHIFT]++;
	} else {
		x->all[key >> 6] &= ~BIT(key);
		x->block_n[key >> BLOCK_SHIFT]--;
	}
}

static void set_marked(struct clock_index *x, uint32_t key, bool on)
{
	uint32_t w = key >> 6;
	x->marked[w] = on ? x->marked[w] | BIT(key) : x->marked[w] & ~BIT(key);
	if (x->marked[w])
		x->marked_sum[w >> 6] |= BIT(w);
	else
		x->marked_sum[w >> 6] &= ~BIT(w);
}

/* Entries with keys in [a, b), both in one block (b may be its end). */
static uint64_t count_words(const struct clock_index *x, uint32_t a, uint32_t b)
{
	uint64_t n = 0;
	for (uint32_t w = a >> 6; a < b; w++, a = w << 6) {
		uint64_t v = x->all[w] & (~0ULL << (a & 63));
		if (b - (w << 6) < 64)
			v &= BIT(b) - 1;
		n += (uint64_t)__builtin_popcountll(v);
	}
	return n;
}

/* Entries with keys in [a, b), a <= b. */
static uint64_t count_in(const struct clock_index *x, uint32_t a, uint32_t b)
{
	uint32_t ba = a >> BLOCK_SHIFT, bb = b >> BLOCK_SHIFT;
	if (ba == bb)
		return count_words(x, a, b);
	uint64_t n = count_words(x, a, (ba + 1) << BLOCK_SHIFT) + count_words(x, bb << BLOCK_SHIFT, b);
	for (uint32_t k = ba + 1; k < bb; k++)
		n += x->block_n[k];
	return n;
}

/* The first marked key at or after key, or CLOCK_INDEX_NONE. */
static uint32_t next_marked_key(const struct clock_index *x, uint32_t key)
{
	uint32_t w = key >> 6, nwords = x->cap >> 6;
	uint64_t v = x->marked[w] & (~0ULL << (key & 63));
	if (!v) {
		if (++w >= nwords)
			return CLOCK_INDEX_NONE;
		uint32_t sw = w >> 6, nsum = (nwords + 63) >> 6;
		uint64_t sv = x->marked_sum[sw] & (~0ULL << (w & 63));
		while (!sv) {
			if (++sw >= nsum)
				return CLOCK_INDEX_NONE;
			sv = x->marked_sum[sw];
		}
		w = sw << 6 | (uint32_t)__builtin_ctzll(sv);
		v = x->marked[w];
	}
	return w << 6 | (uint32_t)__builtin_ctzll(v);
}

/* The key of the entry with r entries below it (r < n). */
static uint32_t select_key(const struct clock_index *x, uint64_t r)
{
	uint32_t b = 0, w;
	while (r >= x->block_n[b])
		r -= x->block_n[b++];
	for (w = b << (BLOCK_SHIFT - 6);; w++) {
		uint64_t c = (uint64_t)__builtin_popcountll(x->all[w]);
		if (r < c)
			break;
		r -= c;
	}
	uint64_t v = x->all[w];
	while (r--)
		v &= v - 1;
	return w << 6 | (uint32_t)__builtin_ctzll(v);
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
	for (uint32_t i = k; i < cap; i++) {
		x->id_at[i] = CLOCK_INDEX_NONE;
		x->marked_at[i] = 0;
	}
	uint32_t nwords = cap >> 6;
	free(x->all);
	free(x->marked);
	free(x->marked_sum);
	free(x->block_n);
	x->all = xcalloc(nwords, sizeof(*x->all));
	x->marked = xcalloc(nwords, sizeof(*x->marked));
	x->marked_sum = xcalloc((nwords + 63) >> 6, sizeof(*x->marked_sum));
	x->block_n = xcalloc((cap >> BLOCK_SHIFT) + 1, sizeof(*x->block_n));
	for (uint32_t i = 0; i < k; i++) {
		set_all(x, i, true);
		if (x->marked_at[i])
			set_marked(x, i, true);
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
	set_all(x, k, true);
	if (marked) {
		set_marked(x, k, true);
		x->nmarked++;
	}
	x->n++;
}

void clock_index_remove(struct clock_index *x, uint32_t id)
{
	if (!clock_index_has(x, id))
		return;
	uint32_t k = x->key_of[id] - 1;
	set_all(x, k, false);
	if (x->marked_at[k]) {
		set_marked(x, k, false);
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
	set_marked(x, k, marked);
	x->nmarked += marked ? 1 : UINT32_MAX;
}

uint32_t clock_index_next_marked(const struct clock_index *x, uint32_t id, uint64_t *dist)
{
	if (!x->nmarked)
		return CLOCK_INDEX_NONE;
	uint32_t k = x->key_of[id] - 1;
	/* None at or after k: the first one from the tail. */
	uint32_t km = next_marked_key(x, k);
	if (km == CLOCK_INDEX_NONE)
		km = next_marked_key(x, 0);
	*dist = km >= k ? count_in(x, k, km) : x->n - count_in(x, km, k);
	return x->id_at[km];
}

uint32_t clock_index_advance(const struct clock_index *x, uint32_t id, uint64_t places)
{
	uint64_t r = (count_in(x, 0, x->key_of[id] - 1) + places % x->n) % x->n;
	return x->id_at[select_key(x, r)];
}
