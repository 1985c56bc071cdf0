/* test_research_policies.c - the research policies (arc, 2q, s3fifo,
 * sieve, lfu, lruk, clockpro, lirs) on reference strings worked out by hand
 * in the comments, replayed with --check on the ideal machine (each costs
 * a few ms).  Their exact miss counts against libCacheSim on the
 * CloudPhysics sample are in tests/cli.d/policies.sh. */
#include "test.h"
#include "sim.h"
#include "../src/policy/research.h"

static uint64_t faults(const char *policy, const char *refs, uint64_t frames)
{
	struct sim_result r;
	sim_trace_run(policy, refs, frames, &r);
	CHECK(!r.check_failed);
	return r.pgfault;
}

/* SIEVE, 3 frames, 1 2 3 1 4 5 1: 1 2 3 miss (queue head..tail 3 2 1), 1
 * hit sets its visited bit.  4: the hand starts at the tail, 1 is visited
 * (cleared, stays put), 2 is not: evicted, the hand rests at 3.  5: 3 is
 * unvisited: evicted.  1 is still there: a hit.  5 faults; FIFO evicts 1
 * for 4 and faults 6 times. */
void test_sieve_hand_keeps_position(void)
{
	CHECK_EQ(faults("sieve", "1r 2r 3r 1r 4r 5r 1r", 3), 5);
	CHECK_EQ(faults("fifo", "1r 2r 3r 1r 4r 5r 1r", 3), 6);
}

/* ARC, c = 2, 1 1 2 3 1: 1 misses into T1, its hit moves it to T2.  2 misses
 * into T1.  3: case IV, |T1| + |B1| = 1 < c, REPLACE: |T1| = 1 > p = 0, so
 * T1's 2 goes to B1.  1 is in T2: a hit.  3 faults, where LRU (which evicts
 * 1 for 3) faults 4 times.  Then 2 (in B1): p = min(0 + max(|B2|/|B1|, 1),
 * 2) = 1; REPLACE: |T1| = 1 = p and 2 is not from B2, so T2's 1 goes to
 * B2; 2 enters T2.  1 (in B2): p = max(1 - 1, 0) = 0; REPLACE: |T1| = 1 >
 * 0, 3 goes to B1.  1 and 2 are both misses: 5 faults. */
void test_arc_adapts(void)
{
	CHECK_EQ(faults("arc", "1r 1r 2r 3r 1r", 2), 3);
	CHECK_EQ(faults("lru", "1r 1r 2r 3r 1r", 2), 4);
	CHECK_EQ(faults("arc", "1r 1r 2r 3r 1r 2r 1r", 2), 5);
}

/* 2Q, 4 frames: Kin = 1, Kout = 2.  1 2 3 4 fill A1in.  5: |A1in| = 4 >
 * Kin, A1in's oldest (1) is evicted, its id to A1out.  1: in A1out, so
 * reclaimfor() evicts A1in's 2 (id to A1out) and 1 enters Am.  5: a hit in
 * A1in.  2: in A1out: 3 evicted, 2 into Am.  1, 2: hits in Am.  7 faults. */
void test_twoq_a1out_promotes(void)
{
	CHECK_EQ(faults("2q", "1r 2r 3r 4r 5r 1r 5r 2r 1r 2r", 4), 7);
}

/* S3-FIFO, 10 frames: S's share is 1 page.  1..10 fill S; 1 is hit twice
 * (freq 2).  11: |S| = 10 >= 1, evict from S: its tail 1 has freq 2, moves
 * to M; the next tail 2 (freq 0) is evicted, its id to G.  2: in G, so it
 * enters M; room from S: 3 evicted to G.  3: the same, 4 evicted.  1: in M,
 * a hit.  13 faults. */
void test_s3fifo_quick_demotion(void)
{
	CHECK_EQ(faults("s3fifo", "1r 2r 3r 4r 5r 6r 7r 8r 9r 10r 1r 1r 11r 2r 3r 1r", 10), 13);
}

/* LFU, 3 frames, 1 1 2 3 2 4 1: counts 1:2 2:1 3:1, then 2's hit makes it
 * 2 (reached after 1's).  4: the least count is 3's (1): evicted.  1 is a
 * hit: 4 faults; LRU evicts 1 for 4 and faults 5 times. */
void test_lfu_counts(void)
{
	CHECK_EQ(faults("lfu", "1r 1r 2r 3r 2r 4r 1r", 3), 4);
	CHECK_EQ(faults("lru", "1r 1r 2r 3r 2r 4r 1r", 3), 5);
}

/* LRU-2, 2 frames, times = reference numbers.  1 2 1 3 2 4 2: t3 gives 1
 * HIST = (3, 1).  t4, 3: 2 has one reference (infinite distance), 1 two:
 * 2 is evicted, its history kept.  t5, 2 comes back with HIST = (5, 2);
 * 3 has one reference: evicted.  t6, 4: 1's HIST(2) = 1 is older than 2's
 * 2: 1 is evicted.  t7, 2: a hit.  5 faults.  With history=0 the returning
 * 2 has one reference at t5, so at t6 it is the victim and t7 faults: 6. */
void test_lruk_backward_distance(void)
{
	CHECK_EQ(faults("lruk", "1r 2r 1r 3r 2r 4r 2r", 2), 5);
}

/* CLOCK-Pro, m = 3 (mc = 1: at most 2 hot).  1 2 3 enter cold in their test
 * period (list head..tail 3 2 1, hands at the tail); 1's hit sets its bit.
 * 4: HAND_cold at 1, referenced in its test period: hot, to the head; at 2:
 * evicted, still in its test period (non-resident).  4 enters cold: list
 * 4 1 3 [2].  2: HAND_cold evicts 3 (non-resident too); 2 was in its test
 * period: mc = 2 and 2 enters hot; 2 hot > m - mc = 1, so HAND_hot runs from
 * the tail: [3] ends its test period, leaves the list, mc = 1 - now 2 <= 2.
 * 5 faults.  3: new; HAND_cold passes hot 1, evicts 4 (non-resident); list
 * 3 2 [4] 1.  1: a hit.  4: HAND_cold passes hot 2, evicts 3; 4 was in its
 * test period: mc = 2, hot; 3 hot > 1: HAND_hot clears 1's bit, demotes 2,
 * ends [3]'s test (mc = 1).  7 faults, where LRU faults 8 times. */
void test_clockpro_test_periods(void)
{
	CHECK_EQ(faults("clockpro", "1r 2r 3r 1r 4r 2r", 3), 5);
	CHECK_EQ(faults("clockpro", "1r 2r 3r 1r 4r 2r 3r 1r 4r", 3), 7);
	CHECK_EQ(faults("lru", "1r 2r 3r 1r 4r 2r 3r 1r 4r", 3), 8);
	/* Pages scanned: HAND_cold passed 1 (referenced: hot) and evicted
	 * 2, 3, 4 and 3 - five scanned, four stolen.  A victim was counted
	 * twice, by the policy and again by the eviction: 9. */
	struct sim_result r;
	sim_trace_run("clockpro", "1r 2r 3r 1r 4r 2r 3r 1r 4r", 3, &r);
	CHECK_EQ(r.pgscan, 5);
	CHECK_EQ(r.pgsteal, 4);
}

/* LIRS, 4 frames: Lhirs = max(1, 4 / 100) = 1, Llirs = 3.  1 2 3 become
 * LIR (S: 3 2 1); 4 enters HIR (S: 4 3 2 1, Q: 4).  2: a LIR hit, to S's
 * top (S: 2 4 3 1).  5: Q's front 4 is evicted and stays in S as a
 * non-resident HIR page; 5 enters HIR (Q: 5).  4: non-resident but in S,
 * so its reuse distance beats the bottom LIR page's: Q's front 5 is evicted
 * for the frame, 4 becomes LIR and the bottom LIR page 1 becomes HIR (Q: 1),
 * leaving S (S: 4 5 2 3).  1: resident, a hit.  6 faults: 1 2 3 4 5 4. */
void test_lirs_irr_promotes(void)
{
	CHECK_EQ(faults("lirs", "1r 2r 3r 4r 2r 5r 4r 1r", 4), 6);
}

static void hand_work(struct machine *m, void *arg)
{
	const struct rp_base *b = m->mm.pol.priv; /* clockpro's state opens with it */
	uint64_t *w = arg;
	w[0] = b->hand_steps;
	w[1] = b->hand_looks;
}

/* CLOCK-Pro's cold hand jumps over hot and non-resident entries (it has
 * nothing to do there), landing where the steps would have.  m = 4: 1 2 3
 * 4 fill the clock, 1 2 3 are hit.  5: HAND_cold turns 1 2 3 hot and
 * evicts 4 (non-resident in its test period): 4 steps, 4 looks; clock
 * tail..head [4] 1 2 3 5, the hand at 1.  6: the hand passes 1 2 3 and
 * evicts 5: 4 steps, one look; it wraps to [4].  7: [4] 1 2 3 [5], 6: 6
 * steps.  8: 7 steps.  9: 8 steps; 5 non-resident > m: HAND_test ends
 * [4]'s test period, it leaves.  10: 1 2 3 [5] [6] [7] [8] 9: 8 steps.
 * 37 steps (a stepping hand's loop rounds), 9 looks. */
void test_clockpro_cold_hand_jumps(void)
{
	struct sim_result r;
	uint64_t w[2];
	sim_trace_inspect("clockpro", "1r 2r 3r 4r 1r 2r 3r 5r 6r 7r 8r 9r 10r", 4, &r, hand_work, w);
	CHECK_EQ(r.pgfault, 10);
	CHECK_EQ(w[0], 37);
	CHECK_EQ(w[1], 9);
}

/* The same on a larger clock: 64 frames, 63 pages made hot, then 1 000
 * new pages streaming past (64 + 1 000 faults).  A stepping hand passed
 * the 63 hot pages and up to 64 non-resident ones for each new page; the
 * jumping one looks at 64 entries for the first (the 63 it turns hot, 64
 * evicted), then one per page. */
void test_clockpro_cold_hand_bounded(void)
{
	static char refs[16384];
	size_t len = 0;
	for (int p = 1; p <= 64; p++)
		len += (size_t)snprintf(refs + len, sizeof(refs) - len, "%dr ", p);
	for (int p = 1; p <= 63; p++)
		len += (size_t)snprintf(refs + len, sizeof(refs) - len, "%dr ", p);
	for (int p = 65; p < 1065; p++)
		len += (size_t)snprintf(refs + len, sizeof(refs) - len, "%dr ", p);
	CHECK(len < sizeof(refs) - 1);
	struct sim_result r;
	uint64_t w[2];
	sim_trace_inspect("clockpro", refs, 64, &r, hand_work, w);
	CHECK_EQ(r.pgfault, 1064);
	CHECK_EQ(w[1], 64 + 999);
	CHECK(w[0] > 100 * w[1]); /* 125 919 */
}
