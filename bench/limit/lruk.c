/* lruk.c - the limit of pagelab's lruk (src/policy/lruk.c): LRU-2, the
 * victim the resident page with the oldest second most recent reference
 * (none: oldest of all, then LRU among those), a binary min-heap on
 * (HIST 2, HIST 1) over page ids; the last c evicted pages keep their
 * HIST 1 in a FIFO (limit.h says what a limit is). */
#include "limit.h"

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t c, misses = 0, n = 0, clock = 0;
	lim_load(argc, argv, &t, &c);
	uint32_t *slot = lim_alloc(t.pages, 4, 0xff);
	uint64_t *kept = lim_alloc(t.pages, 8, 0); /* a retained page's HIST 1 */
	struct hent *h = lim_alloc(c, sizeof(*h), 0);
	struct qs s; /* queue 1: the retained histories */
	qs_init(&s, t.pages);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		if (slot[id] != NIL) {
			struct hent *e = &h[slot[id]];
			e->k1 = e->k2;
			e->k2 = ++clock;
			h_down(h, slot, n, slot[id]);
			continue;
		}
		misses++;
		if (n == c) {
			struct hent v = h[0];
			slot[v.id] = NIL;
			h[0] = h[--n];
			h_down(h, slot, n, 0);
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
		h[n] = (struct hent){ hist2, ++clock, id };
		h_up(h, slot, n++);
	}
	return lim_done(misses);
}
