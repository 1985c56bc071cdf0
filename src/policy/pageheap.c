/* pageheap.c - see pageheap.h. */
#include "pageheap.h"
#include "../lib/util.h"

#include <stdlib.h>

static inline void place(struct pageheap *h, uint64_t i, uint64_t e)
{
	h->heap[i] = e;
	h->slot[ph_frame(h, e)] = (uint32_t)(i + 1);
}

/* e into the hole at i, moved up past every parent above it. */
static void sift_up(struct pageheap *h, uint64_t i, uint64_t e)
{
	for (; i && e < h->heap[(i - 1) / 2]; i = (i - 1) / 2)
		place(h, i, h->heap[(i - 1) / 2]);
	place(h, i, e);
}

/* e into the hole at i, moved down past every child below it. */
static void sift_down(struct pageheap *h, uint64_t i, uint64_t e)
{
	for (uint64_t c; (c = 2 * i + 1) < h->n; i = c) {
		if (c + 1 < h->n && h->heap[c + 1] < h->heap[c])
			c++;
		if (h->heap[c] >= e)
			break;
		place(h, i, h->heap[c]);
	}
	place(h, i, e);
}

/* e into the hole at i: up if it is below its parent, else down. */
static void settle(struct pageheap *h, uint64_t i, uint64_t e)
{
	if (i && e < h->heap[(i - 1) / 2])
		sift_up(h, i, e);
	else
		sift_down(h, i, e);
}

void ph_init(struct pageheap *h, pfn_t nframes, bool high_first)
{
	h->shift = 1;
	while (h->shift < 32 && ((pfn_t)1 << h->shift) < nframes)
		h->shift++;
	h->low = ((uint64_t)1 << h->shift) - 1;
	h->flip = high_first ? h->low : 0;
	h->key_max = UINT64_MAX >> h->shift;
	h->heap = xmalloc((size_t)nframes * sizeof(*h->heap));
	h->slot = xcalloc(nframes, sizeof(*h->slot));
	h->n = 0;
	h->aside = xmalloc((size_t)nframes * sizeof(*h->aside));
	h->naside = h->nrefused = 0;
}

void ph_destroy(struct pageheap *h)
{
	free(h->heap);
	free(h->slot);
	free(h->aside);
}

void ph_set(struct pageheap *h, pfn_t pfn, uint64_t key)
{
	uint64_t e = key << h->shift | (pfn ^ h->flip);
	if (!h->slot[pfn])
		sift_up(h, h->n++, e);
	else
		settle(h, h->slot[pfn] - 1, e);
}

void ph_remove(struct pageheap *h, pfn_t pfn)
{
	if (!h->slot[pfn])
		return;
	uint64_t i = h->slot[pfn] - 1;
	h->slot[pfn] = 0;
	uint64_t last = h->heap[--h->n];
	if (i != h->n)
		settle(h, i, last);
}

void ph_set_aside(struct pageheap *h, pfn_t pfn, uint64_t key, bool refused)
{
	ph_remove(h, pfn);
	h->aside[h->naside++] = key << h->shift | (pfn ^ h->flip);
	h->nrefused += refused;
}

void ph_put_back(struct pageheap *h)
{
	for (uint64_t i = 0; i < h->naside; i++)
		sift_up(h, h->n++, h->aside[i]);
	h->naside = h->nrefused = 0;
}

bool ph_check(const struct pageheap *h, const char *name, FILE *err)
{
	for (uint64_t i = 0; i < h->n; i++) {
		if (h->slot[ph_frame(h, h->heap[i])] != i + 1 || (i && h->heap[i] < h->heap[(i - 1) / 2])) {
			fprintf(err, "check: %s heap broken at %llu\n", name, (unsigned long long)i);
			return false;
		}
	}
	return true;
}
