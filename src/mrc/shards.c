/* shards.c - SHARDS sampling for approximate LRU miss-ratio curves
 * (shards.h says what it follows and simplifies). */
#include "shards.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t page_hash(uint64_t page, uint32_t pid, uint64_t seed)
{
	uint64_t x = page ^ ((uint64_t)pid * 0x9e3779b97f4a7c15ULL) ^ (seed * 0xd1b54a32d192ed03ULL);
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x >> 40;  /* the top 24 bits: a value modulo SHARDS_P */
}

void shards_init_rate(struct shards *s, double rate, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->t = (uint64_t)llround(rate * (double)SHARDS_P);
	if (s->t < 1)
		s->t = 1;
	if (s->t > SHARDS_P)
		s->t = SHARDS_P;
	s->scale = 1;
}

void shards_init_size(struct shards *s, uint64_t smax, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->fixed_size = true;
	s->smax = smax ? smax : 1;
	s->t = SHARDS_P;
	s->scale = 1;
}

double shards_rate(const struct shards *s) { return (double)s->t / (double)SHARDS_P; }

/* The max-heap of tracked pages by hash (fixed size). */
static bool heap_above(const struct shards *s, uint32_t a, uint32_t b)
{
	return s->hash[a] > s->hash[b] || (s->hash[a] == s->hash[b] && a > b);
}

static void heap_push(struct shards *s, uint32_t id)
{
	if (s->heap_n == s->heap_cap) {
		s->heap_cap = s->heap_cap ? s->heap_cap * 2 : 1024;
		s->heap = xrealloc(s->heap, s->heap_cap * sizeof(*s->heap));
	}
	uint64_t i = s->heap_n++;
	while (i > 0 && heap_above(s, id, s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = id;
}

static uint32_t heap_pop(struct shards *s)
{
	uint32_t top = s->heap[0], last = s->heap[--s->heap_n];
	uint64_t i = 0;
	for (;;) {
		uint64_t c = 2 * i + 1;
		if (c >= s->heap_n)
			break;
		if (c + 1 < s->heap_n && heap_above(s, s->heap[c + 1], s->heap[c]))
			c++;
		if (!heap_above(s, s->heap[c], last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->heap_n)
		s->heap[i] = last;
	return top;
}

/* Fixed size, one page too many: evict every page of the largest hash and
 * lower T to it.  Rather than multiply every bucket by T'/T, the weight
 * of a reference from now on is raised by T/T' (scale keeps the
 * product), which is the same after normalisation. */
static void evict_largest(struct shards *s)
{
	uint64_t hmax = s->hash[s->heap[0]];
	while (s->heap_n && s->hash[s->heap[0]] == hmax)
		stackdist_remove(&s->sd, heap_pop(s));
	s->scale *= (double)hmax / (double)s->t;
	s->t = hmax;
}

static void hist_add(struct shards *s, uint64_t idx, double w)
{
	if (idx >= s->hist_cap) {
		uint64_t n = s->hist_cap ? s->hist_cap : 1024;
		while (n <= idx)
			n *= 2;
		s->hist = xrealloc(s->hist, n * sizeof(*s->hist));
		memset(s->hist + s->hist_cap, 0, (n - s->hist_cap) * sizeof(*s->hist));
		s->hist_cap = n;
	}
	s->hist[idx] += w;
}

void shards_access(struct shards *s, uint64_t page, uint32_t pid)
{
	/* a warm-up reference moves its page in the stack, counts nothing */
	bool count = s->seen++ >= s->warmup;
	s->nrefs += count;
	uint64_t h = page_hash(page, pid, s->seed);
	if (h >= s->t)
		return;
	uint64_t before = s->map.used;
	uint32_t id;
	if (!pagemap_get(&s->map, page, pid, &id))
		die_usage("mrc: more than %u sampled pages", PAGEMAP_MAX);
	if (s->fixed_size && s->map.used != before) {
		if (id >= s->nr_hash) {
			uint64_t n = s->nr_hash ? s->nr_hash * 2 : 1024;
			s->hash = xrealloc(s->hash, n * sizeof(*s->hash));
			s->nr_hash = n;
		}
		s->hash[id] = (uint32_t)h;
		heap_push(s, id);
		if (s->heap_n > s->smax) {
			evict_largest(s);
			if (h >= s->t)
				return;  /* the new page was one of them */
		}
	}
	uint64_t d = stackdist_access(&s->sd, id);
	if (!count)
		return;
	s->nsampled++;
	double w = 1 / s->scale;
	if (!d) {
		s->cold += w;
		return;
	}
	/* d / R pages, rounded up: a cache of C pages hits it iff d / R <= C */
	hist_add(s, (d * SHARDS_P + s->t - 1) / s->t, w);
}

void shards_curve(const struct shards *s, const uint64_t *sizes, int n, double *mr)
{
	double adj = 0, total = s->cold;
	for (uint64_t i = 0; i < s->hist_cap; i++)
		total += s->hist[i];
	/* SHARDS_adj: the references the sample should have held less those
	 * it holds, in the histogram's units.  Fixed rate: N x R expected,
	 * N_s held.  Fixed size: a reference seen at rate R_i weighs 1/R_i
	 * (scale is R now, and each is stored with 1/scale of its time), so
	 * N references are expected whatever the rates were, and the
	 * histogram's weight is what it holds. */
	if (s->fixed_size)
		adj = (double)s->nrefs - total;
	else
		adj = (double)s->nrefs * shards_rate(s) - (double)s->nsampled;
	total += adj;
	double hits = adj;
	uint64_t d = 1;
	for (int k = 0; k < n; k++) {
		for (; d <= sizes[k] && d < s->hist_cap; d++)
			hits += s->hist[d];
		double m = total > 0 ? (total - hits) / total : 1;
		mr[k] = m < 0 ? 0 : m > 1 ? 1 : m;
	}
}

size_t shards_host_bytes(const struct shards *s)
{
	return pagemap_host_bytes(&s->map) + stackdist_host_bytes(&s->sd) + s->nr_hash * sizeof(*s->hash) +
	       s->heap_cap * sizeof(*s->heap) + s->hist_cap * sizeof(*s->hist);
}

void shards_free(struct shards *s)
{
	pagemap_free(&s->map);
	stackdist_free(&s->sd);
	free(s->hash);
	free(s->heap);
	free(s->hist);
	memset(s, 0, sizeof(*s));
}
