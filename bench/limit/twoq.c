/* twoq.c - the limit of pagelab's 2q (src/policy/twoq.c): 2Q full
 * version (VLDB 1994), A1in FIFO of about Kin = floor(c / 4) pages, A1out
 * of Kout = floor(c / 2) identifiers, Am LRU (limit.h says what a limit
 * is). */
#include "limit.h"

enum { A1IN = 1, AM, A1OUT };

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t c, misses = 0;
	lim_load(argc, argv, &t, &c);
	uint64_t kin = (uint64_t)((double)c * 0.25), kout = (uint64_t)((double)c * 0.5);
	struct qs s;
	qs_init(&s, t.pages);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		int on = s.on[id];
		if (on == AM) {
			q_move(&s, AM, id);
			continue;
		}
		if (on == A1IN)
			continue;
		misses++;
		if (on == A1OUT)
			q_del(&s, id);
		if (s.q[A1IN].n + s.q[AM].n == c) {
			/* reclaimfor() */
			if ((s.q[A1IN].n > kin && s.q[A1IN].n) || !s.q[AM].n) {
				q_move(&s, A1OUT, s.q[A1IN].tail);
				if (s.q[A1OUT].n > kout)
					q_del(&s, s.q[A1OUT].tail);
			} else {
				q_del(&s, s.q[AM].tail);
			}
		}
		q_push(&s, on == A1OUT ? AM : A1IN, id);
	}
	return lim_done(misses);
}
