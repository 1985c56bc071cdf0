/* s3fifo.c - the limit of pagelab's s3fifo (src/policy/s3fifo.c) with
 * its defaults (the paper's Algorithm 1, SOSP 2023): S of 10% of memory,
 * M, G of floor(0.9 c) identifiers, freq capped at 3, a page hit twice in
 * S moves to M keeping its freq (limit.h says what a limit is). */
#include "limit.h"

enum { S = 1, M, G };

static struct qs s;
static uint8_t *freq;
static uint64_t c, gcap;

#define N(k) (s.q[k].n)

static void evict_m(void)
{
	while (N(M)) {
		uint32_t v = s.q[M].tail;
		if (freq[v]) {
			freq[v]--;
			q_move(&s, M, v);
			continue;
		}
		q_del(&s, v);
		return;
	}
}

static void evict_s(void)
{
	while (N(S)) {
		uint32_t v = s.q[S].tail;
		if (freq[v] >= 2) {
			q_move(&s, M, v);
			if ((double)N(M) > 0.9 * (double)c)
				evict_m();
			continue;
		}
		freq[v] = 0;
		q_move(&s, G, v);
		if (N(G) > gcap)
			q_del(&s, s.q[G].tail);
		return;
	}
}

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t misses = 0;
	lim_load(argc, argv, &t, &c);
	gcap = (uint64_t)((double)c * 0.9);
	qs_init(&s, t.pages);
	freq = lim_alloc(t.pages, 1, 0);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		int on = s.on[id];
		if (on == S || on == M) {
			freq[id] += freq[id] < 3;
			continue;
		}
		misses++;
		if (on == G)
			q_del(&s, id);
		/* one page out per miss: shrink()'s loop stops at the first
		 * page freed */
		uint64_t before = N(S) + N(M);
		while (N(S) + N(M) == c && N(S) + N(M) == before) {
			if ((N(S) && (double)N(S) >= 0.1 * (double)c) || !N(M))
				evict_s();
			else
				evict_m();
		}
		freq[id] = 0;
		q_push(&s, on == G ? M : S, id);
	}
	return lim_done(misses);
}
