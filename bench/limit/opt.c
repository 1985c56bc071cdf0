/* opt.c - the limit of pagelab's opt (src/policy/opt.c): Belady's MIN,
 * next uses by one backward pass over the trace in memory, resident pages
 * in a binary max-heap on next use.  Only pages never used again tie, and
 * which of them goes changes no miss (limit.h says what a limit is). */
#include "limit.h"

struct ent {
	uint64_t next;
	uint32_t id;
};

/* a is evicted before b */
static inline int before(const struct ent *a, const struct ent *b)
{
	return a->next > b->next;
}

static void sift(struct ent *h, uint32_t *slot, uint64_t n, uint64_t k)
{
	struct ent e = h[k];
	while (k > 0 && before(&e, &h[(k - 1) / 2])) {
		h[k] = h[(k - 1) / 2];
		slot[h[k].id] = (uint32_t)k;
		k = (k - 1) / 2;
	}
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

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t c, misses = 0, n = 0;
	lim_load(argc, argv, &t, &c);
	uint64_t *next = lim_alloc(t.n, 8, 0), *last = lim_alloc(t.pages, 8, 0xff);
	/* UINT64_MAX: never used again */
	for (uint64_t i = t.n; i-- > 0;) {
		next[i] = last[t.rec[2 * i]];
		last[t.rec[2 * i]] = i;
	}
	free(last);
	uint32_t *slot = lim_alloc(t.pages, 4, 0xff);
	struct ent *h = lim_alloc(c, sizeof(*h), 0);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		if (slot[id] != NIL) {
			h[slot[id]].next = next[i];
			sift(h, slot, n, slot[id]);
			continue;
		}
		misses++;
		if (n == c) {
			slot[h[0].id] = NIL;
			h[0] = (struct ent){ next[i], id };
			sift(h, slot, n, 0);
			continue;
		}
		h[n] = (struct ent){ next[i], id };
		n++;
		sift(h, slot, n, n - 1);
	}
	return lim_done(misses);
}
