/* clockpro.c - the limit of pagelab's clockpro (src/policy/clockpro.c):
 * CLOCK-Pro of Jiang, Chen & Zhang (USENIX ATC 2005, section 4), hot and
 * cold pages, test periods, HAND_cold, HAND_hot and HAND_test, the cold
 * target mc starting at 1 within [1, c - 1] (limit.h says what a limit
 * is).  The clock is an array in its order, tail (oldest) first: a page
 * moved to the head is appended and leaves a hole, and the array is
 * compacted when it is full.  Two bitmaps over the slots say which hold a
 * page and which a resident cold page, so a hand finds the next page, and
 * the cold hand the next resident cold page (the few it stops at among
 * many hot ones), 64 slots a word.  A hand is a slot, NIL = at the tail,
 * as pagelab's is an entry.  pagelab bounds each reclaim pass's and
 * hand's steps.  The hands' bounds are here; the pass's (4 x the clock,
 * less one a round and the entries each jump passes) is not modelled: in
 * a cache it is never reached - nothing is referenced during a pass, so
 * once the cold hand has gone round, every cold page it meets is
 * unreferenced and goes.  That is checked, not assumed, by a bound each pass
 * keeps.  Each round stops the cold hand at one entry and each jump
 * passes the entries before it; pagelab spends one of its 4 C + 4 (C: the
 * entries on the clock when the pass begins) on each.  Going once round,
 * from one place back to it, the hand meets each of the C entries at most
 * once and each entry moved to the head in the pass (at most one a round)
 * once more: C + R, R the pass's rounds.  A pass whose hand wraps to the
 * tail at most once is at most twice round: 2 (C + R), within the bound
 * while R <= C + 2 (HAND_hot can turn pages behind the hand cold, so it
 * may go round more than once).  A pass that wraps twice or takes more
 * rounds stops the program with exit 2 (its misses could differ from
 * pagelab's), so every run of the bench (bench/limits.sh) and of
 * tests/cli.d/limits.sh shows the bound was not reached.  pagelab spends
 * less than half of it on 2 M references of the bench's Zipf trace at
 * 10, 150 and 1000 frames. */
#include "limit.h"

enum { HOT = 1, TEST = 2, REF = 4, RES = 8 };

static uint32_t *ring, *pos;     /* slot -> id, id -> slot (NIL: none) */
static uint8_t *fl;              /* id -> flags */
static uint32_t lo, end, cap;    /* slots [lo, end) used */
static uint64_t count, m, mc = 1, nr_hot, nr_nonres, resident;
static uint32_t hc = NIL, hh = NIL, ht = NIL;
/* A pass's bound check (the head comment): its rounds, the cold hand's
 * wraps to the tail, the slot it stopped at last, and the clock's size
 * when it began. */
static uint64_t rounds, wraps, clock0;
static uint32_t stop_at;

#define BIT(p) (1ULL << ((p) & 63))

/* A bitmap over the slots, and one over its words (bit k: word k is not
 * zero), so a search skips 4096 empty slots a word. */
struct bits {
	uint64_t *w, *sum;
};
static struct bits live, cold;   /* per slot: a page, a resident cold page */

static void set(struct bits *b, uint32_t p, int on)
{
	uint32_t k = p >> 6;
	uint64_t v = on ? b->w[k] | BIT(p) : b->w[k] & ~BIT(p);
	b->w[k] = v;
	b->sum[k >> 6] = v ? b->sum[k >> 6] | BIT(k) : b->sum[k >> 6] & ~BIT(k);
}

/* Whether the page of entry id is resident and cold: the cold hand's. */
static void mark(uint32_t id) { set(&cold, pos[id], (fl[id] & (HOT | RES)) == RES); }

/* The first slot at or after p and before end set in b (NIL: none). */
static uint32_t next_set(const struct bits *b, uint32_t p)
{
	if (p >= end)
		return NIL;
	uint32_t k = p >> 6;
	uint64_t w = b->w[k] & (~0ULL << (p & 63));
	if (!w) {
		uint32_t j = k + 1, sk = j >> 6, last = (end - 1) >> 12;
		uint64_t s = b->sum[sk] & (~0ULL << (j & 63));
		while (!s) {
			if (++sk > last)
				return NIL;
			s = b->sum[sk];
		}
		k = sk << 6 | (uint32_t)__builtin_ctzll(s);
		w = b->w[k];
	}
	uint32_t q = k << 6 | (uint32_t)__builtin_ctzll(w);
	return q < end ? q : NIL;
}

/* The first page in a slot after p (NIL: none before the head). */
static uint32_t next_live(uint32_t p) { return next_set(&live, p + 1); }

static uint32_t tail(void) { return lo = next_set(&live, lo); }

static uint32_t at(uint32_t h) { return h != NIL ? h : tail(); }

static uint32_t step(uint32_t p)
{
	uint32_t n = next_live(p);
	return n != NIL ? n : tail();
}

static void off_clock(uint32_t id)
{
	uint32_t p = pos[id];
	uint32_t *hands[3] = { &hc, &hh, &ht };
	for (int h = 0; h < 3; h++)
		if (*hands[h] == p)
			*hands[h] = next_live(p);
	set(&live, p, 0);
	set(&cold, p, 0);
	pos[id] = NIL;
	count--;
}

/* The array full: its pages moved down to slots 0, 1, ... in order. */
static void compact(void)
{
	uint32_t j = 0, stop = stop_at;
	uint32_t *hands[3] = { &hc, &hh, &ht };
	stop_at = NIL;
	for (uint32_t p = tail(); p != NIL; p = next_live(p)) {
		for (int h = 0; h < 3; h++)
			if (*hands[h] == p)
				*hands[h] = j;
		/* the pass's last stop, to the first page at or after it */
		if (stop_at == NIL && p >= stop)
			stop_at = j;
		ring[j] = ring[p];
		pos[ring[j]] = j;
		j++;
	}
	for (struct bits *b = &live; b; b = b == &live ? &cold : NULL) {
		memset(b->w, 0, (cap / 64 + 1) * 8);
		memset(b->sum, 0, (cap / 4096 + 2) * 8);
	}
	lo = 0;
	end = j;
	stop_at = stop_at == NIL ? j : stop_at;
	for (uint32_t p = 0; p < j; p++) {
		set(&live, p, 1);
		mark(ring[p]);
	}
}

static void on_head(uint32_t id)
{
	if (end == cap)
		compact();
	ring[end] = id;
	set(&live, end, 1);
	pos[id] = end++;
	mark(id);
	count++;
}

static void to_head(uint32_t id)
{
	off_clock(id);
	on_head(id);
}

static void forget(uint32_t id)
{
	off_clock(id);
	fl[id] = 0;
}

static void end_test(uint32_t id)
{
	fl[id] &= (uint8_t)~TEST;
	if (!(fl[id] & RES)) {
		nr_nonres--;
		if (mc > 1)
			mc--;
		forget(id);
	}
}

/* HAND_hot until at most m - mc pages are hot, or (one) one is demoted. */
static void run_hand_hot(int one)
{
	uint64_t budget = 3 * count + 1, start = nr_hot;
	while ((one ? nr_hot == start : nr_hot > m - mc) && nr_hot && budget--) {
		uint32_t p = at(hh), id = ring[p];
		hh = step(p);
		if (fl[id] & HOT) {
			if (fl[id] & REF) {
				fl[id] &= (uint8_t)~REF;
			} else {
				fl[id] &= (uint8_t)~HOT;
				nr_hot--;
				mark(id);
			}
		} else if (fl[id] & TEST) {
			end_test(id);
		}
	}
}

static void run_hand_test(void)
{
	uint64_t budget = 2 * count + 1;
	while (nr_nonres > m && budget--) {
		uint32_t p = at(ht), id = ring[p];
		ht = step(p);
		if ((fl[id] & (HOT | TEST)) == TEST)
			end_test(id);
	}
}

static void bound(void)
{
	lim_die("a reclaim pass may reach pagelab's step bound (left out here)", NULL);
}

/* The cold hand stopped at slot p: a move back is a wrap. */
static void stopped(uint32_t p)
{
	wraps += p < stop_at;
	if (wraps > 1)
		bound();
	stop_at = p;
}

/* HAND_cold's next resident cold page from where it stands. */
static uint32_t cold_jump(void)
{
	uint32_t p = next_set(&cold, at(hc));
	if (p == NIL)
		p = next_set(&cold, tail());
	stopped(p);
	hc = step(p);
	return ring[p];
}

/* clockpro_shrink() for one victim, every page resident or not. */
static void shrink(void)
{
	rounds = wraps = 0;
	clock0 = count;
	stop_at = at(hc);
	for (;;) {
		if (++rounds > clock0 + 2)
			bound();
		uint32_t id;
		if (nr_hot < resident) {
			id = cold_jump();
		} else {
			uint32_t p = at(hc);
			stopped(p);
			hc = step(p);
			id = ring[p];
		}
		if ((fl[id] & HOT) || !(fl[id] & RES)) {
			if ((fl[id] & HOT) && nr_hot >= resident)
				run_hand_hot(1);
			continue;
		}
		if (fl[id] & REF) {
			fl[id] &= (uint8_t)~REF;
			if (fl[id] & TEST) {
				fl[id] = HOT | RES;
				nr_hot++;
				to_head(id);
				run_hand_hot(0);
			} else {
				fl[id] |= TEST;
				to_head(id);
			}
			continue;
		}
		fl[id] &= (uint8_t)~RES;
		resident--;
		if (fl[id] & TEST) {
			nr_nonres++;
			mark(id);
			run_hand_test();
		} else {
			forget(id);
		}
		return;
	}
}

int main(int argc, char **argv)
{
	struct trace t;
	uint64_t misses = 0;
	lim_load(argc, argv, &t, &m);
	cap = (uint32_t)(4 * m + 64);
	ring = lim_alloc(cap, 4, 0xff);
	for (struct bits *b = &live; b; b = b == &live ? &cold : NULL) {
		b->w = lim_alloc(cap / 64 + 1, 8, 0);
		b->sum = lim_alloc(cap / 4096 + 2, 8, 0);
	}
	pos = lim_alloc(t.pages, 4, 0xff);
	fl = lim_alloc(t.pages, 1, 0);
	for (uint64_t i = 0; i < t.n; i++) {
		uint32_t id = t.rec[2 * i];
		if (fl[id] & RES) {
			fl[id] |= REF;
			continue;
		}
		misses++;
		if (resident == m)
			shrink();
		resident++;
		if ((fl[id] & TEST) && pos[id] != NIL) {
			/* back within its test period: a small reuse distance */
			nr_nonres--;
			if (mc + 1 < m)
				mc++;
			fl[id] = HOT | RES;
			nr_hot++;
			to_head(id);
			run_hand_hot(0);
		} else {
			fl[id] = TEST | RES;
			on_head(id);
		}
	}
	return lim_done(misses);
}
