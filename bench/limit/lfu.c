/* lfu.c - the limit of pagelab's lfu (src/policy/lfu.c): in-cache LFU,
 * the fewest references since coming in goes first, ties to the page that
 * reached its count first; a binary min-heap on (count, when) over page
 * ids (limit.h says what a limit is). */
#include "limit.h"

struct ent {
	uint64_t count, when;
	uint32_t id;
};

static inline int before(const struct ent *a, const struct ent *b)
{
	return a->count != b->count ? a->count < b->count : a->when < b->when;
}

/* The entry at k moved down the heap to its place (keys only grow). */
static void sift_down(struct ent *h, uint32_t *slot, uint64_t n, uint64_t k)
{
	struct ent e = h[k];
	for (;;) {
		uint64_t l = 2 * k + 1, b = k;
		const struct ent *best = &e;
		if (l < n && before(&h[l], best))
			b = l, best = &h[l];
		if (l + 1 < n && before(&h[l + 1], best))
			b = l + 1;
		if (b == k)
			break;
		h[k] = h[b];
		slot[h[k].id] = (uint32_t)k;
		k = b;
	}
	h[k] = e;
	slot[e.id] = (uint32_t)k;
}

static void sift_up(struct ent *h, uint32_t *slot, uint64_t k)
{
	struct ent e = h[k];
	while (k > 0 && before(&e, &h[(k - 1) / 2])) {
		h[k] = h[(k - 1) / 2];
		slot[h[k].id] = (uint32_t)k;
		k = (k - 1) / 2;
	}
	h[k] = e;
	slot[e.id] = (uint32_t)k;
}

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t c, misses = 0, n = 0, clock = 0;
	lim_load(argc, argv, &t, &c);
	uint32_t *slot = lim_alloc(t.pages, 4, 0xff);
	struct ent *h = lim_alloc(c, sizeof(*h), 0);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		if (slot[id] != NIL) {
			struct ent *e = &h[slot[id]];
			e->count++;
			e->when = ++clock;
			sift_down(h, slot, n, slot[id]);
			continue;
		}
		misses++;
		if (n == c) {
			slot[h[0].id] = NIL;
			h[0] = h[--n];
			sift_down(h, slot, n, 0);
		}
		h[n] = (struct ent){ 1, ++clock, id };
		sift_up(h, slot, n++);
	}
	return lim_done(misses);
}
