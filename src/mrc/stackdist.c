/* stackdist.c - LRU stack distances over a Fenwick tree of last-reference
 * times (stackdist.h says which papers it follows). */
#include "stackdist.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define SD_CAP0 1024ULL
/* Slots are 32-bit; a trace with more live pages than this cannot be
 * numbered by pagemap.h either. */
#define SD_CAP_MAX (1ULL << 32)

static void tree_add(struct stackdist *s, uint64_t slot, int32_t v)
{
	for (uint64_t i = slot + 1; i <= s->cap; i += i & (~i + 1))
		s->tree[i] = (uint32_t)((int64_t)s->tree[i] + v);
}

/* Live slots in [0, slot]. */
static uint64_t tree_prefix(const struct stackdist *s, uint64_t slot)
{
	uint64_t sum = 0;
	for (uint64_t i = slot + 1; i > 0; i -= i & (~i + 1))
		sum += s->tree[i];
	return sum;
}

/* Renumber the live slots 0..live-1 in time order (their order is all a
 * distance depends on), doubling the array when more than half of it is
 * live so that a compaction frees at least half: each costs O(cap) and
 * comes after at least cap/2 references. */
static void compact(struct stackdist *s)
{
	uint64_t ncap = s->cap ? s->cap : SD_CAP0;
	while (s->live * 2 > ncap)
		ncap *= 2;
	if (ncap > SD_CAP_MAX)
		die_usage("mrc: more than %llu live pages", (unsigned long long)(SD_CAP_MAX / 2));
	uint64_t k = 0;
	for (uint64_t i = 0; i < s->next; i++) {
		uint32_t p = s->owner[i];
		if (p == SD_NONE)
			continue;
		s->owner[k] = p;
		s->slot[p] = (uint32_t)k;
		k++;
	}
	if (ncap != s->cap) {
		s->owner = xrealloc(s->owner, ncap * sizeof(*s->owner));
		free(s->tree);
		s->tree = xmalloc((ncap + 1) * sizeof(*s->tree));
		s->cap = ncap;
	}
	for (uint64_t i = k; i < s->cap; i++)
		s->owner[i] = SD_NONE;
	/* Linear build: each node passes its sum to its parent. */
	memset(s->tree, 0, (s->cap + 1) * sizeof(*s->tree));
	for (uint64_t i = 1; i <= s->cap; i++) {
		if (i <= k)
			s->tree[i] += 1;
		uint64_t j = i + (i & (~i + 1));
		if (j <= s->cap)
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
		dist = s->live - tree_prefix(s, old) + 1;
		tree_add(s, old, -1);
		s->owner[old] = SD_NONE;
		s->live--;
	}
	if (s->next == s->cap)
		compact(s);
	uint64_t now = s->next++;
	s->owner[now] = page;
	s->slot[page] = (uint32_t)now;
	tree_add(s, now, 1);
	s->live++;
	return dist;
}

void stackdist_remove(struct stackdist *s, uint32_t page)
{
	if (page >= s->nr_ids || s->slot[page] == SD_NONE)
		return;
	uint32_t old = s->slot[page];
	tree_add(s, old, -1);
	s->owner[old] = SD_NONE;
	s->slot[page] = SD_NONE;
	s->live--;
}

size_t stackdist_host_bytes(const struct stackdist *s)
{
	return (size_t)(s->nr_ids * sizeof(*s->slot) + s->cap * sizeof(*s->owner) +
			(s->cap ? s->cap + 1 : 0) * sizeof(*s->tree));
}

void stackdist_free(struct stackdist *s)
{
	free(s->slot);
	free(s->owner);
	free(s->tree);
	memset(s, 0, sizeof(*s));
}
