/* stackdist.c - LRU stack distances over a bitmap of last-reference times
 * with a Fenwick tree of its words' counts (stackdist.h says which papers
 * it follows). */
#include "stackdist.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define SD_CAP0 1024ULL
/* Slots are 32-bit; a trace with more live pages than half of this cannot
 * be numbered by pagemap.h either. */
#define SD_CAP_MAX (1ULL << 32)

static uint64_t lowbit(uint64_t i) { return i & (~i + 1); }

static void tree_add(struct stackdist *s, uint64_t word, int32_t v)
{
	uint64_t nw = s->cap / 64;
	for (uint64_t i = word + 1; i <= nw; i += lowbit(i))
		s->tree[i] = (uint32_t)((int64_t)s->tree[i] + v);
}

/* Live slots in words [0, word). */
static uint64_t tree_prefix(const struct stackdist *s, uint64_t word)
{
	uint64_t sum = 0;
	for (uint64_t i = word; i > 0; i -= lowbit(i))
		sum += s->tree[i];
	return sum;
}

/* Live slots in [0, slot]. */
static uint64_t rank(const struct stackdist *s, uint64_t slot)
{
	uint64_t w = slot / 64, below = s->bits[w] & (~0ULL >> (63 - slot % 64));
	return tree_prefix(s, w) + (uint64_t)__builtin_popcountll(below);
}

static void set_slot(struct stackdist *s, uint64_t slot)
{
	s->bits[slot / 64] |= 1ULL << (slot % 64);
	tree_add(s, slot / 64, 1);
}

static void clear_slot(struct stackdist *s, uint64_t slot)
{
	s->bits[slot / 64] &= ~(1ULL << (slot % 64));
	tree_add(s, slot / 64, -1);
}

/* Renumber the live slots 0..live-1 in time order (their order is all a
 * distance depends on): a page's new slot is its rank among them.  The
 * bitmap doubles when more than half of it is live, so a compaction frees
 * at least half: each costs O(pages + cap / 64) and comes after at least
 * cap / 2 references. */
static void compact(struct stackdist *s)
{
	uint64_t ncap = s->cap ? s->cap : SD_CAP0;
	while (s->live * 2 > ncap)
		ncap *= 2;
	if (ncap > SD_CAP_MAX)
		die_usage("mrc: more than %llu live pages", (unsigned long long)(SD_CAP_MAX / 2));
	uint64_t nw = s->cap / 64;
	/* words' exclusive prefix counts, in place of the tree */
	uint64_t *before = xmalloc((nw + 1) * sizeof(*before));
	before[0] = 0;
	for (uint64_t w = 0; w < nw; w++)
		before[w + 1] = before[w] + (uint64_t)__builtin_popcountll(s->bits[w]);
	for (uint64_t p = 0; p < s->nr_ids; p++) {
		uint32_t o = s->slot[p];
		if (o == SD_NONE)
			continue;
		uint64_t below = s->bits[o / 64] & ((1ULL << (o % 64)) - 1);
		s->slot[p] = (uint32_t)(before[o / 64] + (uint64_t)__builtin_popcountll(below));
	}
	free(before);
	if (ncap != s->cap) {
		free(s->bits);
		free(s->tree);
		s->cap = ncap;
		s->bits = xmalloc(ncap / 64 * sizeof(*s->bits));
		s->tree = xmalloc((ncap / 64 + 1) * sizeof(*s->tree));
	}
	nw = s->cap / 64;
	uint64_t k = s->live;
	memset(s->bits, 0, nw * sizeof(*s->bits));
	for (uint64_t w = 0; w < k / 64; w++)
		s->bits[w] = ~0ULL;
	if (k % 64)
		s->bits[k / 64] = (1ULL << (k % 64)) - 1;
	/* Linear build: each node passes its sum to its parent. */
	memset(s->tree, 0, (nw + 1) * sizeof(*s->tree));
	for (uint64_t i = 1; i <= nw; i++) {
		s->tree[i] += (uint32_t)__builtin_popcountll(s->bits[i - 1]);
		uint64_t j = i + lowbit(i);
		if (j <= nw)
			s->tree[j] += s->tree[i];
	}
	s->next = k;
}

static void grow_ids(struct stackdist *s, uint32_t page)
{
	uint64_t n = s->nr_ids ? s->nr_ids : SD_CAP0;
	while (n <= page)
		n *= 2;
	s->slot = xrealloc(s->slot, n * sizeof(*s->slot));
	for (uint64_t i = s->nr_ids; i < n; i++)
		s->slot[i] = SD_NONE;
	s->nr_ids = n;
}

uint64_t stackdist_access(struct stackdist *s, uint32_t page)
{
	if (page >= s->nr_ids)
		grow_ids(s, page);
	uint64_t dist = 0;
	uint32_t old = s->slot[page];
	if (old != SD_NONE) {
		/* pages whose last reference came after this page's, plus itself */
		dist = s->live - rank(s, old) + 1;
		clear_slot(s, old);
		s->slot[page] = SD_NONE;
		s->live--;
	}
	if (s->next == s->cap)
		compact(s);
	uint64_t now = s->next++;
	s->slot[page] = (uint32_t)now;
	set_slot(s, now);
	s->live++;
	return dist;
}

void stackdist_remove(struct stackdist *s, uint32_t page)
{
	if (page >= s->nr_ids || s->slot[page] == SD_NONE)
		return;
	clear_slot(s, s->slot[page]);
	s->slot[page] = SD_NONE;
	s->live--;
}

size_t stackdist_host_bytes(const struct stackdist *s)
{
	return (size_t)(s->nr_ids * sizeof(*s->slot) + s->cap / 64 * sizeof(*s->bits) +
			(s->cap ? s->cap / 64 + 1 : 0) * sizeof(*s->tree));
}

void stackdist_free(struct stackdist *s)
{
	free(s->slot);
	free(s->bits);
	free(s->tree);
	memset(s, 0, sizeof(*s));
}
