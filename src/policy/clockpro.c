/* clockpro.c - CLOCK-Pro (Jiang, Chen & Zhang, "CLOCK-Pro: An Effective
 * Improvement of the CLOCK Replacement", USENIX ATC 2005, section 4): LIRS's
 * reuse-distance idea on a clock.  Pages are hot (small reuse distance) or
 * cold; a cold page gets a test period when it enters, and a reference
 * within it proves a small reuse distance.  Resident hot and cold pages and
 * non-resident cold pages still in their test period sit on one circular
 * list, new and moved pages at its head.  Three hands go round it, from the
 * tail towards the head, wrapping:
 *   HAND_cold finds the victim: at a resident cold page with its reference
 *     bit set, the bit is cleared and the page moves to the head - turning
 *     hot if it was in its test period (then HAND_hot runs), starting a
 *     test period otherwise; an unreferenced one is evicted, and stays on
 *     the list as a non-resident page if its test period is not over.
 *   HAND_hot runs while there are more than m - mc hot pages: a referenced
 *     hot page has its bit cleared, the first unreferenced one turns cold;
 *     a cold page it passes ends its test period (a non-resident one leaves
 *     the list, and mc shrinks by one: that reuse distance was long).
 *   HAND_test keeps the non-resident pages within m: it ends the test
 *     periods of the cold pages it passes, removing non-resident ones (mc
 *     shrinks for each).
 * HAND_cold does nothing at a hot or non-resident page, so it jumps from
 * one resident cold page to the next through an index of the clock's
 * order (clock_index.h), paying its loop budget for the entries it passes
 * as the steps did: every choice is the stepping hand's.  Stepping, it went
 * round the whole clock on each reclaim call while its few cold pages were
 * under I/O (qsbench -p 4 -m 13 in 52M: 6.5 G steps in 142 714 calls,
 * where the jumping hand looks at 4.7 M entries).  The clock's order is
 * the index's alone: hands step through it (clock_index_after).  Its
 * entries are nodes: on the machine ghost table entries, one per page
 * resident or not; in the cache-only replay frames, with a small ghost
 * slot only for a page evicted in its test period (clockpro_nodes.h).
 * A fault on a non-resident page in its test period grows mc by one and
 * brings the page in hot.  m is the frame count; the cold target mc stays
 * within [1, m - 1], starting at 1 - the paper leaves its start open.
 * References set the page's reference bit through the idealized-MMU hook
 * (the paper's clock reads the hardware bit; the hook keeps the faulting
 * reference out of it, as in the paper, where a page faulted in starts
 * unreferenced).  libCacheSim's cachesim has no CLOCK-Pro: the tests are
 * hand-checked (tests/test_research_policies.c). */
#include "policy.h"
#include "research.h"
#include "clock_index.h"
#include "clockpro_nodes.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOT  1
#define TEST 2
#define REF  4
#define RES  8 /* resident: the page is in a frame */

struct clockpro {
	struct rp_base b;
	uint32_t hand_cold, hand_hot, hand_test; /* GH_NONE = at the tail */
	/* The key of the entry each hand is on (clock_index.h), GH_NONE if
	 * not known, all stale when the index's gen is not kgen: a hand
	 * steps from it through the key bitmap (hand_take) without
	 * reading its entry's key_of slot, a random host line on the chain
	 * of steps (a tenth of a replay of make bench's trace, perf). */
	uint32_t key_cold, key_hot, key_test, kgen;
	uint64_t m, mc, nr_hot, nr_nonres;
	/* The clock: its order, the resident cold pages marked.  HAND_cold
	 * jumps to the next one (clock_index.h), and every hand steps
	 * through it: the clock is no ghost list, whose links made each
	 * move to the head write the two neighbours' entries, random host
	 * lines, and each step read the entry's. */
	struct clock_index order;
	/* Per node (an entry of the clock: on the machine a ghost table
	 * entry, in a cache a frame or a ghost slot, clockpro_nodes.h): HOT,
	 * TEST, REF, RES.  A byte array, not the entry's own flags: a hit
	 * sets REF in it, one byte of a few hundred KB where the entry was
	 * 48 bytes among many MB; in a cache it is the record the replay
	 * prefetches (cache_mode.h). */
	uint8_t *fl;
	uint32_t flcap;
	struct cp_nodes n; /* in a cache (n.ids set) */
	/* A cache's jump not yet counted (GH_NONE: none), from and to. */
	uint32_t jump_from, jump_to;
};

/* Whether the nodes are frames and ghost slots (a cache). */
static inline bool bynode(const struct clockpro *c) { return c->n.ids != NULL; }

static void forget_stale(struct rp_base *b, uint32_t i);

static void clockpro_hit(void *p, pfn_t pfn, uint32_t i);

/* In a cache the clock holds up to 2c + 1 entries (the resident pages
 * and at most c + 1 non-resident ones), and the clock index's keys, a
 * 32-bit power of two at least twice its entries, stop at 2^31: a larger
 * cache is refused before anything is built (cachesim_new()).  Unchecked,
 * a cache past 2^31 frames wrapped the ghost slots' bound
 * (cpn_take_slow) and the keys' doubling. */
#define CACHE_MOST ((1ULL << 29) - 1)

static bool clockpro_frames_ok(uint64_t frames, bool cache, const double *tun, char *err, size_t errlen)
{
	(void)tun;
	if (cache && frames > CACHE_MOST) {
		snprintf(err, errlen, "policy clockpro: a cache of %llu frames; it holds at most %llu",
			 (unsigned long long)frames, CACHE_MOST);
		return false;
	}
	return true;
}

static void *clockpro_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct clockpro *c = xcalloc(1, sizeof(*c));
	rp_init(&c->b, mm, "clockpro");
	c->b.forget = forget_stale;
	c->hand_cold = c->hand_hot = c->hand_test = c->jump_to = GH_NONE;
	c->key_cold = c->key_hot = c->key_test = GH_NONE;
	clock_index_init(&c->order);
	c->m = mm->fr.nr;
	c->mc = 1;
	rp_set_hit(&c->b, clockpro_hit);
	if (mm->cache.only) {
		cpn_init(&c->n, mm->fr.nr);
		c->flcap = mm->fr.nr;
		c->fl = xcalloc(c->flcap ? c->flcap : 1, 1);
		mm_cache_records(mm, (void *const *)&c->fl, 1);
	}
	return c;
}

static void clockpro_destroy(void *p)
{
	struct clockpro *c = p;
	clock_index_destroy(&c->order);
	cpn_destroy(&c->n);
	rp_destroy(&c->b);
	free(c->fl);
	free(c);
}

#define G (&c->b.g)
static inline struct gh_entry *E(struct clockpro *c, uint32_t i) { return ghost_e(G, i); }

/* The entry under a hand, and the hand's next step (wrapping).  GH_NONE
 * is CLOCK_INDEX_NONE. */
static uint32_t at(struct clockpro *c, uint32_t hand)
{
	return hand != GH_NONE ? hand : clock_index_first(&c->order);
}

static uint32_t step(struct clockpro *c, uint32_t i)
{
	uint32_t n = clock_index_after(&c->order, i);
	return n != GH_NONE ? n : clock_index_first(&c->order);
}

static uint64_t clock_size(const struct clockpro *c) { return clock_index_count(&c->order); }

/* The key of the entry under hand *h (its kept key *hk, GH_NONE: not
 * kept): the tail's for a hand at the tail. */
static inline uint32_t hand_key(struct clockpro *c, const uint32_t *h, const uint32_t *hk)
{
	struct clock_index *x = &c->order;
	if (c->kgen != x->gen) {
		c->key_cold = c->key_hot = c->key_test = GH_NONE;
		c->kgen = x->gen;
	}
	if (*h == GH_NONE)
		return clock_index_first_key(x);
	return *hk != GH_NONE ? *hk : clock_index_key(x, *h);
}

/* Hand *h goes to the entry with key k, the tail's if k is GH_NONE (past
 * the head: wrapping). */
static inline void hand_to_key(struct clockpro *c, uint32_t *h, uint32_t *hk, uint32_t k)
{
	if (k == GH_NONE)
		k = clock_index_first_key(&c->order);
	*h = clock_index_id_at(&c->order, k);
	*hk = k;
}

/* at() and step() of a hand that keeps its key: the entry under it (its
 * key in *key), the hand moved on to the next. */
static inline uint32_t hand_take(struct clockpro *c, uint32_t *h, uint32_t *hk, uint32_t *key)
{
	uint32_t k = hand_key(c, h, hk);
	uint32_t i = clock_index_id_at(&c->order, k);
	hand_to_key(c, h, hk, clock_index_key_next(&c->order, k));
	*key = k;
	return i;
}

/* What HAND_cold stops at: a resident cold page. */
static bool resident_cold(struct clockpro *c, uint32_t i)
{
	return (c->fl[i] & (HOT | RES)) == RES;
}

/* Entry i's flags or residency changed in place. */
static void remark(struct clockpro *c, uint32_t i)
{
	clock_index_mark(&c->order, i, resident_cold(c, i));
}

/* Hands on node i move to node `to`, i relabelled in its place (their
 * keys kept), or (GH_NONE) on to the next entry (their keys found again
 * when they step).  Tested hand by hand: through an array of the three it
 * was 40 instructions a call, made on every move (callgrind). */
__attribute__((always_inline)) static inline void move_hands(struct clockpro *c, uint32_t i, uint32_t to)
{
	if (c->hand_cold != i && c->hand_hot != i && c->hand_test != i)
		return;
	uint32_t nokey = to == GH_NONE ? GH_NONE : 0; /* a mask of the keys */
	if (to == GH_NONE)
		to = clock_index_after(&c->order, i);
	if (c->hand_cold == i) {
		c->hand_cold = to;
		c->key_cold |= nokey;
	}
	if (c->hand_hot == i) {
		c->hand_hot = to;
		c->key_hot |= nokey;
	}
	if (c->hand_test == i) {
		c->hand_test = to;
		c->key_test |= nokey;
	}
}

/* Entry i leaves its place on the clock: hands on it move on. */
static void off_clock(struct clockpro *c, uint32_t i)
{
	move_hands(c, i, GH_NONE);
	clock_index_remove(&c->order, i);
}

/* Entry i, off the clock, goes on at the head. */
static void on_head(struct clockpro *c, uint32_t i)
{
	clock_index_append(&c->order, i, resident_cold(c, i));
}

static void to_head(struct clockpro *c, uint32_t i)
{
	off_clock(c, i);
	on_head(c, i);
}

/* Room in fl for node i (new bytes clear). */
static void fl_room(struct clockpro *c, uint32_t i)
{
	if (i < c->flcap)
		return;
	/* room for every node the ghost table or the slots have room for */
	uint32_t cap = MAX(bynode(c) ? cpn_limit(&c->n) : G->cap, i + 1);
	c->fl = xrealloc(c->fl, cap);
	memset(c->fl + c->flcap, 0, cap - c->flcap);
	c->flcap = cap;
}

/* Node i, off the clock and not resident, is let go of: its entry freed
 * (a frame's node in a cache has nothing to free; its record map slot
 * went at eviction). */
static void let_go(struct clockpro *c, uint32_t i)
{
	c->fl[i] = 0;
	if (!bynode(c))
		ghost_free(G, i);
	else if (cpn_is_ghost(&c->n, i))
		cpn_drop(&c->n, c->b.mm->cache.recmap, i);
}

static void forget(struct clockpro *c, uint32_t i)
{
	off_clock(c, i);
	let_go(c, i);
}

/* A cold page's test period ends without a reuse; k is entry i's key (a
 * hand's, hand_take). */
static void end_test(struct clockpro *c, uint32_t i, uint32_t k)
{
	c->fl[i] &= ~TEST;
	if (!(c->fl[i] & RES)) {
		c->nr_nonres--;
		if (c->mc > 1)
			c->mc--;
		move_hands(c, i, GH_NONE);
		clock_index_remove_at(&c->order, i, k);
		let_go(c, i);
	}
}

/* A hand's next entry, fetched while it acts on this one: its flags and,
 * for a ghost, its slot's page id, which the end of its test period reads
 * (a slot freed and taken again at random, its line cold: cpn_drop's
 * read of it was an eighth of a replay of make bench's trace, perf). */
__attribute__((always_inline)) static inline void prefetch_next(const struct clockpro *c, uint32_t h)
{
	__builtin_prefetch(&c->fl[h]);
	if (bynode(c) && cpn_is_ghost(&c->n, h))
		__builtin_prefetch(&c->n.gid[h - c->n.nframes]);
}

/* HAND_hot: until at most m - mc pages are hot (mc moves as it goes), or
 * with `one`, until one hot page is demoted.  Returns the last page it
 * demoted, GH_NONE if none. */
static uint32_t run_hand_hot(struct clockpro *c, bool one)
{
	uint64_t budget = 3 * clock_size(c) + 1;
	uint64_t start = c->nr_hot;
	uint32_t demoted = GH_NONE;
	while ((one ? c->nr_hot == start : c->nr_hot > c->m - c->mc) && c->nr_hot && budget--) {
		uint32_t k, i = hand_take(c, &c->hand_hot, &c->key_hot, &k);
		prefetch_next(c, c->hand_hot);
		if (c->fl[i] & HOT) {
			if (c->fl[i] & REF) {
				c->fl[i] &= ~REF;
			} else {
				c->fl[i] &= ~HOT; /* demoted: cold, no test period */
				c->nr_hot--;
				clock_index_mark_at(&c->order, k, resident_cold(c, i));
				demoted = i;
			}
		} else if (c->fl[i] & TEST) {
			end_test(c, i, k);
		}
	}
	return demoted;
}

static void run_hand_test(struct clockpro *c)
{
	uint64_t budget = 2 * clock_size(c) + 1;
	while (c->nr_nonres > c->m && budget--) {
		uint32_t k, i = hand_take(c, &c->hand_test, &c->key_test, &k);
		prefetch_next(c, c->hand_test);
		if (!(c->fl[i] & HOT) && (c->fl[i] & TEST))
			end_test(c, i, k);
	}
}

/* HAND_cold's next resident cold page, from where it stands.  Stepping,
 * it passed each hot or non-resident entry in a round of the reclaim loop
 * of its own, doing nothing there but spend a unit of the loop's budget;
 * with the caller's pages-all-hot and out-of-swap cases ruled out that is
 * all a step did, so the hand jumps there and pays the same budget.  If the
 * budget ends first, the hand is left where the steps would have left it
 * and GH_NONE returned: the pass is over. */
static uint32_t hand_cold_jump(struct clockpro *c, uint64_t *budget)
{
	uint64_t skip;
	c->b.hand_looks++;
	if (bynode(c) && *budget >= clock_size(c)) {
		/* A jump passes fewer entries than the clock holds, so
		 * with this budget it ends at the page; and in a cache an
		 * unreferenced one is evicted, which ends the pass (one
		 * page to reclaim, every eviction frees it): the entries
		 * passed are counted only if the pass goes on
		 * (settle_jump).  Counted at every jump, they were a sixth
		 * of a replay of make bench's trace (perf), where a jump
		 * passes some 96 000 hot entries and 99% of jumps end
		 * their pass. */
		uint32_t k = hand_key(c, &c->hand_cold, &c->key_cold);
		uint32_t km = clock_index_marked_key(&c->order, k);
		uint32_t j = clock_index_id_at(&c->order, km);
		if (!(c->fl[j] & REF)) {
			c->jump_from = clock_index_id_at(&c->order, k);
			c->jump_to = j;
			hand_to_key(c, &c->hand_cold, &c->key_cold, clock_index_key_next(&c->order, km));
			c->b.hand_steps++;
			return j;
		}
	}
	uint32_t i = at(c, c->hand_cold);
	uint32_t j = clock_index_next_marked(&c->order, i, &skip);
	c->key_cold = GH_NONE; /* the hand moves below by node */
	if (skip > *budget) {
		c->hand_cold = clock_index_advance(&c->order, i, *budget + 1);
		c->b.hand_steps += *budget + 1;
		*budget = 0;
		return GH_NONE;
	}
	*budget -= skip;
	c->hand_cold = step(c, j);
	c->b.hand_steps += skip + 1;
	return j;
}

/* A jump whose count hand_cold_jump left for later: the pass goes on
 * after the eviction (never in a cache), so it is counted as the jump
 * would have, before the clock changes (the eviction itself does not
 * touch it). */
static void settle_jump(struct clockpro *c, struct scan_control *sc, uint64_t *budget)
{
	if (c->jump_to == GH_NONE)
		return;
	if (sc->nr_reclaimed < sc->nr_to_reclaim) {
		uint64_t skip = clock_index_distance(&c->order, c->jump_from, c->jump_to);
		*budget -= skip;
		c->b.hand_steps += skip;
	}
	c->jump_to = GH_NONE;
}

/* Evict node i's page (rp_evict's outcomes). */
static enum victim_outcome evict(struct clockpro *c, struct scan_control *sc, uint32_t i)
{
	if (!bynode(c))
		return rp_evict(&c->b, sc, i);
	struct mm *mm = c->b.mm;
	cpn_unlist(&c->n, mm->cache.recmap, i);
	c->b.nres--;
	enum victim_outcome o = textbook_evict(mm, sc, i);
	if (o == VICTIM_REFUSED || o == VICTIM_NOSWAP) {
		/* never in a cache, where every eviction frees the page */
		cpn_add(&c->n, mm->cache.recmap, c->n.ids[i], i);
		c->b.nres++;
	}
	return o;
}

/* Node i's page was evicted in its test period and stays on the clock:
 * its node from now on (in a cache a ghost slot's, in the frame's place
 * on the clock and under any hand that was on it). */
static uint32_t keep_ghost(struct clockpro *c, uint32_t i)
{
	if (!bynode(c))
		return i;
	uint32_t g = cpn_ghost(&c->n, c->b.mm->cache.recmap, i);
	fl_room(c, g);
	c->fl[g] = c->fl[i];
	c->fl[i] = 0;
	clock_index_relabel(&c->order, i, g);
	move_hands(c, i, g);
	return g;
}

/* When swap is exhausted and every resident cold page has been refused in
 * a row for want of a swap slot, HAND_hot demotes a hot page and it is
 * offered at once (a file page among the hot ones can go): the cold hand
 * alone would go round the cold pages and the allocation end in an OOM
 * kill with the page cache full (tests/cli.d/regress.sh).  Swap does not
 * gain room inside a pass, so once the count is reached every later
 * victim of the pass is a demoted page. */
static void clockpro_shrink(void *p, struct scan_control *sc)
{
	struct clockpro *c = p;
	uint64_t budget = 4 * clock_size(c) + 4, noswap = 0;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && rp_resident(&c->b) && budget--) {
		uint32_t i = GH_NONE;
		uint64_t resident = rp_resident(&c->b);
		bool hot_first = noswap && c->nr_hot && noswap >= resident - c->nr_hot;
		if (hot_first)
			i = run_hand_hot(c, true);
		if (i == GH_NONE && !hot_first && c->nr_hot < resident && clock_index_nr_marked(&c->order)) {
			i = hand_cold_jump(c, &budget);
			if (i == GH_NONE)
				break;
		} else if (i == GH_NONE) {
			/* One step: each hot_first round runs HAND_hot
			 * anew, and with every resident page hot the
			 * first hot entry the hand meets runs it. */
			uint32_t k;
			i = hand_take(c, &c->hand_cold, &c->key_cold, &k);
			c->b.hand_steps++;
			c->b.hand_looks++;
		}
		if ((c->fl[i] & HOT) || !(c->fl[i] & RES)) {
			if ((c->fl[i] & HOT) && c->nr_hot >= rp_resident(&c->b))
				run_hand_hot(c, true); /* all resident pages hot (after an exit) */
			continue;
		}
		/* A page it passes is scanned once, as anon or file; a victim
		 * is counted by the eviction (textbook_evict).  In a cache
		 * the entry is not read for it (rp_scanned). */
		if (c->fl[i] & REF) {
			rp_scanned(&c->b, sc, c->b.g.byid ? PFN_NONE : E(c, i)->pfn);
			c->fl[i] &= ~REF;
			if (c->fl[i] & TEST) {
				c->fl[i] = HOT | RES;
				c->nr_hot++;
				to_head(c, i);
				run_hand_hot(c, false);
			} else {
				c->fl[i] |= TEST;
				to_head(c, i);
			}
			continue;
		}
		enum victim_outcome o = evict(c, sc, i);
		settle_jump(c, sc, &budget);
		if (o == VICTIM_NOSWAP)
			noswap++;
		if (o == VICTIM_GONE && (c->fl[i] & TEST)) {
			i = keep_ghost(c, i);
			c->fl[i] &= ~RES;
			c->nr_nonres++;
			remark(c, i);
			run_hand_test(c);
		} else if (o == VICTIM_GONE || o == VICTIM_CULLED) {
			forget(c, i);
		} /* refused: the hand goes on, the budget bounds it */
	}
}

/* rp_add drops a stale entry: a non-resident one in its test period still
 * counts in nr_nonres, and a hand may rest on it. */
static void forget_stale(struct rp_base *b, uint32_t i)
{
	struct clockpro *c = (struct clockpro *)b;
	if (!(c->fl[i] & RES) && clock_index_has(&c->order, i))
		c->nr_nonres--;
	if (c->fl[i] & HOT)
		c->nr_hot--;
	forget(c, i);
}

/* The page now in pfn gets its node (returned); *old = the node it had,
 * non-resident (on the machine the same entry), or GH_NONE. */
static uint32_t add_node(struct clockpro *c, pfn_t pfn, uint32_t *old)
{
	uint32_t i;
	if (bynode(c)) {
		struct mm *mm = c->b.mm;
		i = pfn;
		*old = cpn_add(&c->n, mm->cache.recmap, mm->cache.fault_id, pfn);
		c->b.nres++;
	} else {
		bool known;
		i = rp_add(&c->b, pfn, &known);
		*old = known ? i : GH_NONE;
	}
	fl_room(c, i);
	return i;
}

static void clockpro_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct clockpro *c = p;
	(void)why;
	uint32_t old, i = add_node(c, pfn, &old);
	bool reuse = old != GH_NONE && clock_index_has(&c->order, old) && (c->fl[old] & TEST);
	if (old != GH_NONE) {
		off_clock(c, old);
		if (old != i) {
			/* a cache's ghost slot; the record map holds the
			 * frame now (cpn_add) */
			c->fl[old] = 0;
			cpn_free(&c->n, old);
		}
	}
	if (reuse) {
		/* reused within its test period: a small reuse distance */
		c->nr_nonres--;
		if (c->mc + 1 < c->m)
			c->mc++;
		c->fl[i] = HOT | RES;
		c->nr_hot++;
		on_head(c, i);
		run_hand_hot(c, false);
		return;
	}
	c->fl[i] = TEST | RES;
	on_head(c, i);
}

static void clockpro_remove(void *p, pfn_t pfn)
{
	struct clockpro *c = p;
	uint32_t i = pfn;
	if (bynode(c)) {
		if (pfn >= c->flcap || !(c->fl[pfn] & RES))
			return;
		cpn_unlist(&c->n, c->b.mm->cache.recmap, pfn);
		c->b.nres--;
	} else if ((i = rp_remove(&c->b, pfn)) == GH_NONE) {
		return;
	}
	if (c->fl[i] & HOT)
		c->nr_hot--;
	forget(c, i);
}

static void clockpro_hit(void *p, pfn_t pfn, uint32_t i)
{
	struct clockpro *c = p;
	(void)pfn;
	c->fl[i] |= REF;
}

/* Node i (on the clock) is a live entry, RES as its page is resident, and
 * in a cache the record map's node of its page. */
static bool node_sound(const struct clockpro *c, uint32_t i)
{
	bool res = (c->fl[i] & RES) != 0;
	if (!bynode(c)) {
		const struct gh_entry *e = ghost_e(G, i);
		return e->okey != 0 && res == (e->pfn != PFN_NONE);
	}
	const uint32_t *map = c->b.mm->cache.recmap;
	if (!cpn_is_ghost(&c->n, i))
		return res && map[c->n.ids[i]] == i;
	uint32_t g = i - c->n.nframes;
	return g < c->n.gnr && !res && map[c->n.gid[g]] == i;
}

/* The clock walked from the tail through the index, against the nodes:
 * each sound, marked where resident and cold; every live entry is on the
 * clock. */
static bool clockpro_check(void *p, FILE *err)
{
	struct clockpro *c = p;
	uint64_t hot = 0, nonres = 0, res = 0, cold = 0, n = 0;
	uint64_t live = bynode(c) ? c->b.nres + c->n.nghost : G->live;
	for (uint32_t i = clock_index_first(&c->order); i != GH_NONE; i = clock_index_after(&c->order, i)) {
		if (!node_sound(c, i) || clock_index_marked(&c->order, i) != resident_cold(c, i) ||
		    ++n > clock_size(c)) {
			fprintf(err, "check: clockpro entry %u out of place in the clock's index\n", i);
			return false;
		}
		cold += resident_cold(c, i);
		hot += (c->fl[i] & HOT) != 0;
		nonres += !(c->fl[i] & RES);
		res += (c->fl[i] & RES) != 0;
	}
	if (n != clock_size(c) || n != live || clock_index_nr_marked(&c->order) != cold) {
		fprintf(err, "check: clockpro's clock index holds %u entries, %u resident cold (walked %llu, %llu; %llu live)\n",
			clock_index_count(&c->order), clock_index_nr_marked(&c->order),
			(unsigned long long)n, (unsigned long long)cold, (unsigned long long)live);
		return false;
	}
	/* a hand's kept key is its entry's (hand_key) */
	const uint32_t hands[3] = { c->hand_cold, c->hand_hot, c->hand_test };
	const uint32_t keys[3] = { c->key_cold, c->key_hot, c->key_test };
	for (int h = 0; h < 3 && c->kgen == c->order.gen; h++)
		if (hands[h] != GH_NONE && keys[h] != GH_NONE &&
		    (!clock_index_has(&c->order, hands[h]) || clock_index_key(&c->order, hands[h]) != keys[h])) {
			fprintf(err, "check: clockpro hand %d at entry %u keeps key %u, not its entry's\n", h, hands[h], keys[h]);
			return false;
		}
	if (hot != c->nr_hot || nonres != c->nr_nonres || res != rp_resident(&c->b) ||
	    c->mc < 1 || (c->m > 1 && c->mc > c->m - 1)) {
		fprintf(err, "check: clockpro hot %llu (counted %llu), non-resident %llu (%llu), resident %llu, mc %llu\n",
			(unsigned long long)hot, (unsigned long long)c->nr_hot,
			(unsigned long long)nonres, (unsigned long long)c->nr_nonres,
			(unsigned long long)res, (unsigned long long)c->mc);
		return false;
	}
	return rp_check(&c->b, "clockpro", err);
}

const struct policy_ops clockpro_policy = {
	.name = "clockpro",
	.summary = "CLOCK-Pro: hot/cold pages, test periods, three clock hands (USENIX ATC 2005)",
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = clockpro_init,
	.destroy = clockpro_destroy,
	.add = clockpro_add,
	.remove = clockpro_remove,
	.frames_ok = clockpro_frames_ok,
	.access = rp_access,
	.shrink = clockpro_shrink,
	.check = clockpro_check,
};
