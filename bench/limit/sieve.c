/* sieve.c - the limit of pagelab's sieve (src/policy/sieve.c): one FIFO
 * queue, a visited bit, a hand from the tail toward the head that clears
 * visited pages and evicts the first unvisited one, resting at the page
 * after it (limit.h says what a limit is). */
#include "limit.h"

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t c, misses = 0, used = 0;
	lim_load(argc, argv, &t, &c);
	struct qs s;
	qs_init(&s, t.pages);
	uint8_t *visited = lim_alloc(t.pages, 1, 0);
	uint32_t hand = NIL;
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		if (s.on[id]) {
			visited[id] = 1;
			continue;
		}
		misses++;
		if (used == c) {
			uint32_t h = hand == NIL ? s.q[1].tail : hand;
			while (visited[h]) {
				visited[h] = 0;
				h = s.prev[h] == NIL ? s.q[1].tail : s.prev[h];
			}
			hand = s.prev[h];
			q_del(&s, h);
			used--;
		}
		visited[id] = 0;
		q_push(&s, 1, id);
		used++;
	}
	return lim_done(misses);
}
