/* lruk.c - the limit of pagelab's lruk (src/policy/lruk.c): LRU-2, the
 * victim the resident page with the oldest second most recent reference
 * (none: oldest of all, then LRU among those), a binary min-heap on
 * (HIST 2, HIST 1) over page ids; the last c evicted pages keep their
 * HIST 1 in a FIFO (limit.h says what a limit is). */
#include "limit.h"

struct ent {
	uint64_t k1, k2;    /* HIST(p,2) (0: none), HIST(p,1) */
	uint32_t id;
};

static inline int before(const struct ent *a, const struct ent *b)
{
	return a->k1 != b->k1 ? a->k1 < b->k1 : a->k2 < b->k2;
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
	uint64_t *kept = lim_alloc(t.pages, 8, 0); /* a retained page's HIST 1 */
	struct ent *h = lim_alloc(c, sizeof(*h), 0);
	struct qs s; /* queue 1: the retained histories */
	qs_init(&s, t.pages);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		if (slot[id] != NIL) {
			struct ent *e = &h[slot[id]];
			e->k1 = e->k2;
			e->k2 = ++clock;
			sift_down(h, slot, n, slot[id]);
			continue;
		}
		misses++;
		if (n == c) {
			struct ent v = h[0];
			slot[v.id] = NIL;
			h[0] = h[--n];
			sift_down(h, slot, n, 0);
			kept[v.id] = v.k2;
			q_push(&s, 1, v.id);
			if (s.q[1].n > c)
				q_del(&s, s.q[1].tail);
		}
		uint64_t hist2 = 0;
		if (s.on[id]) {
			hist2 = kept[id];
			q_del(&s, id);
		}
		h[n] = (struct ent){ hist2, ++clock, id };
		sift_up(h, slot, n++);
	}
	return lim_done(misses);
}
