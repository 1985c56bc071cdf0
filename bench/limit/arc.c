/* arc.c - the limit of pagelab's arc (src/policy/arc.c): ARC of Megiddo &
 * Modha (FAST 2003, Figure 4), T1/T2 resident, B1/B2 ghosts, p a real
 * number, in pagelab's order of steps (limit.h says what a limit is). */
#include "limit.h"

enum { T1 = 1, T2, B1, B2 };

static struct qs s;
static uint64_t c;
static double p;

#define N(k) (s.q[k].n)

static void forget_tail(int k)
{
	if (N(k))
		q_del(&s, s.q[k].tail);
}

/* REPLACE: the LRU page of T1 (into B1) or T2 (into B2) leaves memory. */
static void replace(int in_b2)
{
	double t1 = (double)N(T1);
	if ((N(T1) && (t1 > p || (t1 == p && in_b2))) || !N(T2))
		q_move(&s, B1, s.q[T1].tail);
	else
		q_move(&s, B2, s.q[T2].tail);
}

/* A miss on id, memory full: room made as arc_shrink() does. */
static void make_room(uint32_t id)
{
	int on = s.on[id];
	if (on == B1 || on == B2) {
		if (on == B1) {
			double d = N(B1) >= N(B2) ? 1.0 : (double)N(B2) / (double)N(B1);
			p = p + d < (double)c ? p + d : (double)c;
		} else {
			double d = N(B2) >= N(B1) ? 1.0 : (double)N(B1) / (double)N(B2);
			p = p - d > 0 ? p - d : 0;
		}
		q_del(&s, id);
		replace(on == B2);
		if (N(T1) + N(T2) + N(B1) + N(B2) >= 2 * c)
			forget_tail(N(B2) ? B2 : B1);
		q_push(&s, T2, id);
		return;
	}
	if (N(T1) + N(B1) >= c) {
		if (N(B1)) {
			forget_tail(B1);
			replace(0);
		} else {
			q_del(&s, s.q[T1].tail);
		}
	} else {
		if (N(T1) + N(T2) + N(B1) + N(B2) >= 2 * c && N(B2))
			forget_tail(B2);
		replace(0);
	}
}

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t misses = 0;
	lim_load(argc, argv, &t, &c);
	qs_init(&s, t.pages);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		int on = s.on[id];
		if (on == T1 || on == T2) {
			q_move(&s, T2, id);
			continue;
		}
		misses++;
		if (N(T1) + N(T2) == c) {
			make_room(id);
			if (s.on[id] == T2)
				continue;
		}
		/* arc_add() of a page in no list (a ghost is only met while
		 * memory is full, handled above) */
		if (on)
			q_del(&s, id);
		if (N(T1) + N(B1) >= c && N(B1))
			forget_tail(B1);
		else if (N(T1) + N(T2) + N(B1) + N(B2) >= 2 * c && N(B2))
			forget_tail(B2);
		q_push(&s, T1, id);
	}
	return lim_done(misses);
}
