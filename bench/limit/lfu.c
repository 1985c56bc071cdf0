/* lfu.c - the limit of pagelab's lfu (src/policy/lfu.c): in-cache LFU,
 * the fewest references since coming in goes first, ties to the page that
 * reached its count first; a binary min-heap on (count, when) over page
 * ids (limit.h: h_down, h_up; says what a limit is). */
#include "limit.h"

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t c, misses = 0, n = 0, clock = 0;
	lim_load(argc, argv, &t, &c);
	uint32_t *slot = lim_alloc(t.pages, 4, 0xff);
	struct hent *h = lim_alloc(c, sizeof(*h), 0);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		if (slot[id] != NIL) {
			struct hent *e = &h[slot[id]];
			e->k1++; /* count */
			e->k2 = ++clock; /* when it was reached */
			h_down(h, slot, n, slot[id]);
			continue;
		}
		misses++;
		if (n == c) {
			slot[h[0].id] = NIL;
			h[0] = h[--n];
			h_down(h, slot, n, 0);
		}
		h[n] = (struct hent){ 1, ++clock, id };
		h_up(h, slot, n++);
	}
	return lim_done(misses);
}
