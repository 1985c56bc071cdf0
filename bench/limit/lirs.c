/* lirs.c - the limit of pagelab's lirs (src/policy/lirs.c, variant 0):
 * LIRS of Jiang & Zhang (SIGMETRICS 2002, section 3).  The stack S (queue
 * S of s0), the resident HIR queue Q and the non-resident HIR pages still
 * in S (queues Q and NH of s1: a page is on one at most), Lhirs =
 * max(1, floor(c / 100)), S kept within 2c entries by forgetting the
 * oldest non-resident ones (limit.h says what a limit is). */
#include "limit.h"

enum { S = 1 };
enum { Q = 1, NH };

static struct qs s0, s1;
static uint8_t *lir;
static uint64_t nr_lir, llirs, max_s;

#define TAIL(qs, k) ((qs).q[k].tail)

/* A page off S (pruned): a non-resident one is forgotten. */
static void leave_s(uint32_t id)
{
	q_del(&s0, id);
	if (s1.on[id] == NH)
		q_del(&s1, id);
}

/* HIR pages off S's bottom until a LIR page is there (or one is left). */
static void prune(void)
{
	uint32_t t;
	while ((t = TAIL(s0, S)) != NIL && t != s0.q[S].head && !lir[t])
		leave_s(t);
}

/* S's bottom LIR page becomes a resident HIR page at Q's end. */
static void demote_bottom(void)
{
	uint32_t y;
	while ((y = TAIL(s0, S)) != NIL && !lir[y])
		leave_s(y);
	if (y == NIL)
		return;
	lir[y] = 0;
	nr_lir--;
	q_del(&s0, y);
	q_push(&s1, Q, y);
	prune();
}

static void limit_stack(void)
{
	while (s0.q[S].n > max_s && s1.q[NH].n) {
		uint32_t z = TAIL(s1, NH);
		q_del(&s1, z);
		q_del(&s0, z);
	}
}

/* A resident HIR page in S, or one coming back to it, becomes LIR. */
static void to_lir(uint32_t id)
{
	if (s1.on[id])
		q_del(&s1, id);
	q_move(&s0, S, id);
	lir[id] = 1;
	if (++nr_lir > llirs)
		demote_bottom();
}

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t c, misses = 0;
	lim_load(argc, argv, &t, &c);
	uint64_t lhirs = (uint64_t)(0.01 * (double)c);
	lhirs = lhirs < 1 ? 1 : lhirs;
	llirs = c > lhirs ? c - lhirs : 0;
	max_s = (uint64_t)(2.0 * (double)c);
	qs_init(&s0, t.pages);
	qs_init(&s1, t.pages);
	lir = lim_alloc(t.pages, 1, 0);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		if (lir[id]) {
			q_move(&s0, S, id);
			prune();
		} else if (s1.on[id] == Q && s0.on[id]) {
			to_lir(id);
		} else if (s1.on[id] == Q) {
			q_move(&s1, Q, id);
			q_push(&s0, S, id);
		} else {
			misses++;
			if (nr_lir + s1.q[Q].n == c) {
				/* lirs_shrink(): Q's front leaves memory */
				if (!s1.q[Q].n)
					demote_bottom();
				uint32_t z = TAIL(s1, Q);
				q_del(&s1, z);
				if (s0.on[z])
					q_push(&s1, NH, z);
			}
			if (s1.on[id] == NH) {
				to_lir(id);
			} else if (nr_lir < llirs) {
				q_push(&s0, S, id);
				lir[id] = 1;
				nr_lir++;
			} else {
				q_push(&s0, S, id);
				q_push(&s1, Q, id);
			}
		}
		limit_stack();
	}
	return lim_done(misses);
}
