/* pageheap.c - see pageheap.h. */
#include "pageheap.h"
#include "../lib/util.h"

#include <stdlib.h>

static inline bool below(const struct pageheap *h, pfn_t a, pfn_t b)
{
	if (h->k1[a] != h->k1[b])
		return h->k1[a] < h->k1[b];
	if (h->k2[a] != h->k2[b])
		return h->k2[a] < h->k2[b];
	return a < b;
}

static inline void place(struct pageheap *h, uint64_t i, pfn_t pfn)
{
	h->heap[i] = pfn;
	h->slot[pfn] = (uint32_t)(i + 1);
}

static void sift_up(struct pageheap *h, uint64_t i)
{
	pfn_t x = h->heap[i];
	while (i > 0) {
		uint64_t parent = (i - 1) / 2;
		if (!below(h, x, h->heap[parent]))
			break;
		place(h, i, h->heap[parent]);
		i = parent;
	}
	place(h, i, x);
}

static void sift_down(struct pageheap *h, uint64_t i)
{
	pfn_t x = h->heap[i];
	for (;;) {
		uint64_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && below(h, h->heap[c + 1], h->heap[c]))
			c++;
		if (!below(h, h->heap[c], x))
			break;
		place(h, i, h->heap[c]);
		i = c;
	}
	place(h, i, x);
}

void ph_init(struct pageheap *h, pfn_t nframes)
{
	h->heap = xmalloc((size_t)nframes * sizeof(pfn_t));
	h->slot = xcalloc(nframes, sizeof(uint32_t));
	h->k1 = xcalloc(nframes, sizeof(uint64_t));
	h->k2 = xcalloc(nframes, sizeof(uint64_t));
	h->n = 0;
	h->aside = xmalloc((size_t)nframes * sizeof(pfn_t));
	h->naside = h->nrefused = 0;
}

void ph_destroy(struct pageheap *h)
{
	free(h->heap);
	free(h->slot);
	free(h->k1);
	free(h->k2);
	free(h->aside);
}

void ph_set(struct pageheap *h, pfn_t pfn, uint64_t k1, uint64_t k2)
{
	h->k1[pfn] = k1;
	h->k2[pfn] = k2;
	if (!h->slot[pfn]) {
		place(h, h->n++, pfn);
		sift_up(h, h->n - 1);
		return;
	}
	uint64_t i = h->slot[pfn] - 1;
	sift_up(h, i);
	sift_down(h, h->slot[pfn] - 1);
}

void ph_remove(struct pageheap *h, pfn_t pfn)
{
	if (!h->slot[pfn])
		return;
	uint64_t i = h->slot[pfn] - 1;
	h->slot[pfn] = 0;
	pfn_t last = h->heap[--h->n];
	if (i == h->n)
		return;
	place(h, i, last);
	sift_up(h, i);
	sift_down(h, h->slot[last] - 1);
}

void ph_set_aside(struct pageheap *h, pfn_t pfn, bool refused)
{
	ph_remove(h, pfn);
	h->aside[h->naside++] = pfn;
	h->nrefused += refused;
}

void ph_put_back(struct pageheap *h)
{
	for (uint64_t i = 0; i < h->naside; i++)
		ph_set(h, h->aside[i], h->k1[h->aside[i]], h->k2[h->aside[i]]);
	h->naside = h->nrefused = 0;
}

bool ph_check(const struct pageheap *h, const char *name, FILE *err)
{
	for (uint64_t i = 0; i < h->n; i++) {
		if (h->slot[h->heap[i]] != i + 1 || (i && below(h, h->heap[i], h->heap[(i - 1) / 2]))) {
			fprintf(err, "check: %s heap broken at %llu\n", name, (unsigned long long)i);
			return false;
		}
	}
	return true;
}
