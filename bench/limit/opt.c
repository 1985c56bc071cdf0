/* opt.c - the limit of pagelab's opt (src/policy/opt.c): Belady's MIN,
 * next uses by one backward pass over the trace in memory, resident pages
 * in limit.h's heap on (~next use, 0), the furthest next use on top.
 * Only pages never used again tie, and which of them goes changes no miss
 * (limit.h says what a limit is). */
#include "limit.h"

/* The entry of id moved to its place after its key changed either way. */
static void fix(struct hent *h, uint32_t *slot, uint64_t n, uint64_t k)
{
	uint32_t id = h[k].id;
	h_up(h, slot, k);
	h_down(h, slot, n, slot[id]);
}

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t c, misses = 0, n = 0;
	lim_load(argc, argv, &t, &c);
	/* UINT64_MAX: never used again */
	uint64_t *next = lim_alloc(t.n, 8, 0), *last = lim_alloc(t.pages, 8, 0xff);
	for (uint64_t i = t.n; i-- > 0;) {
		next[i] = last[t.rec[2 * i]];
		last[t.rec[2 * i]] = i;
	}
	free(last);
	uint32_t *slot = lim_alloc(t.pages, 4, 0xff);
	struct hent *h = lim_alloc(c, sizeof(*h), 0);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		if (slot[id] != NIL) {
			h[slot[id]].k1 = ~next[i];
			fix(h, slot, n, slot[id]);
			continue;
		}
		misses++;
		if (n == c) {
			slot[h[0].id] = NIL;
			h[0] = (struct hent){ ~next[i], 0, id };
			fix(h, slot, n, 0);
			continue;
		}
		h[n] = (struct hent){ ~next[i], 0, id };
		n++;
		fix(h, slot, n, n - 1);
	}
	return lim_done(misses);
}
