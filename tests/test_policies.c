/* test_policies.c - textbook policies on hand-checked reference strings.
 *
 * All runs use the "ideal" machine (sim.c): no watermarks, no timing, so
 * with F frames a fault on a full memory evicts exactly one page, chosen by
 * the policy.  Every reference sets the PTE accessed bit, including the one
 * that faulted the page in.  pgfault counts the first touch of a page (a
 * minor fault: trace pages hold data, so even a read gets a frame) and
 * every reference to an evicted page (a major fault). */
#include "test.h"
#include "sim.h"
#include "../src/lib/util.h"

#include <stdio.h>

void test_belady_anomaly(void);
void test_belady_anomaly(void)
{
	/* Belady, Nelson, Shedler (1969): FIFO faults more with more frames. */
	static const uint64_t s[] = { 1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5 };
	CHECK_EQ(sim_trace_faults("fifo", s, 12, 3, 0), 9);
	CHECK_EQ(sim_trace_faults("fifo", s, 12, 4, 0), 10);
	CHECK_EQ(sim_trace_faults("lru", s, 12, 3, 0), 10);
	CHECK_EQ(sim_trace_faults("lru", s, 12, 4, 0), 8);
	CHECK_EQ(sim_trace_faults("opt", s, 12, 3, 0), 7);
	CHECK_EQ(sim_trace_faults("opt", s, 12, 4, 0), 6);
}

void test_second_chance(void);
void test_second_chance(void)
{
	/* 3 frames, 1 2 3 4 2 5 2 3.
	 *
	 * FIFO: 1F 2F 3F [1 2 3]; 4F evicts 1 [2 3 4]; 2 hit; 5F evicts 2
	 *   [3 4 5]; 2F evicts 3 [4 5 2]; 3F evicts 4.  7 faults.
	 *
	 * CLOCK (hand at the oldest page; R = accessed bit):
	 *   1F 2F 3F: 1R 2R 3R.
	 *   4F: 1R->clear, rotate; 2R->clear; 3R->clear; 1 clear -> evict 1
	 *       (4 scanned).  Ring oldest first: 2 3 4R.
	 *   2 hit: 2R.
	 *   5F: 2R->clear, rotate; 3 clear -> evict 3 (2 scanned): 4R 2 5R.
	 *   2 hit: 2R.
	 *   3F: 4R->clear; 2R->clear; 5R->clear; 4 clear -> evict 4
	 *       (4 scanned): 2 5 3R.
	 *   6 faults: page 2 got its second chance, FIFO threw it out.
	 *   10 pages scanned, 3 stolen, 3 allocation stalls.
	 *
	 * LRU: 4F evicts 1; 2 hit (recency 3 4 2); 5F evicts 3; 2 hit;
	 *   3F evicts 4.  6 faults.
	 * OPT: 4F evicts 1 (never used again); 5F evicts 4 (never again,
	 *   2 and 3 are); 2 and 3 hit.  5 faults. */
	const char *s = "1r 2r 3r 4r 2r 5r 2r 3r";
	struct sim_result r;
	sim_trace_run("fifo", s, 3, &r);
	CHECK_EQ(r.pgfault, 7);
	sim_trace_run("clock", s, 3, &r);
	CHECK_EQ(r.pgfault, 6);
	CHECK_EQ(r.pgscan, 10);
	CHECK_EQ(r.pgsteal, 3);
	CHECK_EQ(r.allocstall, 3);
	sim_trace_run("lru", s, 3, &r);
	CHECK_EQ(r.pgfault, 6);
	sim_trace_run("opt", s, 3, &r);
	CHECK_EQ(r.pgfault, 5);
}

void test_clock_all_referenced_is_fifo(void);
void test_clock_all_referenced_is_fifo(void)
{
	/* When every resident page was referenced since the hand last passed,
	 * the hand clears them all and comes back to the oldest: clock
	 * degenerates to FIFO.  A cyclic sweep over 4 pages in 3 frames
	 * faults on every reference under FIFO, CLOCK and LRU alike (12 of
	 * 12), while OPT evicts the page needed furthest ahead:
	 * 1F 2F 3F 4F(ev 3) 1 2 3F(ev 2: 4 and 1 come first) 4 1
	 * 2F(ev 1: never again) 3 4 => 6. */
	const char *s = "1r 2r 3r 4r 1r 2r 3r 4r 1r 2r 3r 4r";
	struct sim_result r;
	sim_trace_run("fifo", s, 3, &r);
	CHECK_EQ(r.pgfault, 12);
	sim_trace_run("clock", s, 3, &r);
	CHECK_EQ(r.pgfault, 12);
	sim_trace_run("lru", s, 3, &r);
	CHECK_EQ(r.pgfault, 12);
	sim_trace_run("opt", s, 3, &r);
	CHECK_EQ(r.pgfault, 6);
	/* The same sweep fits in 4 frames: only the 4 first-touch faults,
	 * all minor. */
	sim_trace_run("clock", s, 4, &r);
	CHECK_EQ(r.pgfault, 4);
	CHECK_EQ(r.pgmajfault, 0);
	CHECK_EQ(r.pswpout, 0);
}

void test_lru_vs_fifo(void);
void test_lru_vs_fifo(void)
{
	/* 2 frames, 1 2 1 3 1 2.
	 * FIFO: 1F 2F [1 2]; 1 hit; 3F evicts 1 [2 3]; 1F evicts 2 [3 1];
	 *   2F evicts 3.  5 faults.
	 * LRU: 1F 2F; 1 hit (recency 2 1); 3F evicts 2 (1 3); 1 hit (3 1);
	 *   2F evicts 3.  4 faults: LRU keeps the hot page 1.
	 * CLOCK: 1F 2F (1R 2R); 1 hit; 3F: 1R clear, 2R clear, 1 clear ->
	 *   evict 1: ring 2 3R; 1F: 2 clear -> evict 2: 3R 1R; 2F: 3R
	 *   clear, 1R clear, 3 clear -> evict 3.  5 faults: the hit on 1
	 *   came after both bits were set, so it gave no advantage. */
	const char *s = "1r 2r 1r 3r 1r 2r";
	struct sim_result r;
	sim_trace_run("fifo", s, 2, &r);
	CHECK_EQ(r.pgfault, 5);
	sim_trace_run("lru", s, 2, &r);
	CHECK_EQ(r.pgfault, 4);
	sim_trace_run("clock", s, 2, &r);
	CHECK_EQ(r.pgfault, 5);
	/* Belady's string shows the converse (test_belady_anomaly): with 3
	 * frames LRU faults 10 times, FIFO 9. */
}

void test_dirty_eviction_costs_a_write(void);
void test_dirty_eviction_costs_a_write(void)
{
	/* One frame, FIFO, pages 1 and 2 alternating.
	 * Writes: 1w minor; 2w evicts dirty 1 (pswpout 1); 1w major
	 *   (pswpin 1) evicts dirty 2 (pswpout 2); the write to 1 frees its
	 *   swap copy (try_to_free_swap), so each later eviction writes
	 *   again: 6 references -> 1 minor + 4 major faults... */
	struct sim_result r;
	sim_trace_run("fifo", "1w 2w 1w 2w 1w 2w", 1, &r);
	CHECK_EQ(r.pgfault, 6);
	CHECK_EQ(r.pgmajfault, 4);
	CHECK_EQ(r.pswpin, 4);
	CHECK_EQ(r.pswpout, 5);
	/* ...while after the first round trip, reads leave the pages clean
	 * in the swap cache with a valid copy in their slot: evicting them
	 * again costs no write.  1w minor; 2w evicts 1 (pswpout 1); 1r major,
	 * evicts dirty 2 (pswpout 2); 2r major, evicts clean 1: no write;
	 * 1r major, evicts clean 2; 2r major, evicts clean 1. */
	sim_trace_run("fifo", "1w 2w 1r 2r 1r 2r", 1, &r);
	CHECK_EQ(r.pgfault, 6);
	CHECK_EQ(r.pgmajfault, 4);
	CHECK_EQ(r.pswpin, 4);
	CHECK_EQ(r.pswpout, 2);
	/* A page only ever read still has no swap copy the first time it is
	 * evicted: trace pages hold data, so that costs a write too. */
	sim_trace_run("fifo", "1r 2r 1r", 1, &r);
	CHECK_EQ(r.pswpout, 2);
	CHECK_EQ(r.pgmajfault, 1);
	/* The write flag does not change which pages fault. */
	sim_trace_run("lru", "1w 2w 3w 4w 1w 2w 5w 1w 2w 3w 4w 5w", 3, &r);
	CHECK_EQ(r.pgfault, 10);
	CHECK_EQ(r.pswpout, 7); /* every eviction of a dirty page: 10 - 3 */
}

/* Run `s` (n refs) through a policy with `frames` frames. */
static uint64_t faults_of(const char *pol, const uint64_t *s, const uint8_t *w, int n, uint64_t frames)
{
	char buf[2048];
	size_t len = 0;
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%llu%c ",
					(unsigned long long)s[i], w[i] ? 'w' : 'r');
	struct sim_result r;
	sim_trace_run(pol, buf, frames, &r);
	return r.pgfault;
}

void test_opt_is_optimal(void);
void test_opt_is_optimal(void)
{
	/* Property: on random strings OPT never faults more than FIFO,
	 * CLOCK or LRU; every policy faults at least once per distinct page
	 * and at most once per reference; LRU and OPT are stack algorithms,
	 * so one more frame never costs them a fault. */
	static const char *const others[] = { "fifo", "clock", "lru" };
	struct rng rng;
	rng_seed(&rng, 20260101);
	int strings = 150, worse = 0, lru_anomaly = 0;
	for (int k = 0; k < strings; k++) {
		uint64_t s[100];
		uint8_t w[100];
		int n = 10 + (int)rng_below(&rng, 60);
		uint64_t universe = 2 + rng_below(&rng, 10);
		uint64_t frames = 1 + rng_below(&rng, 5);
		uint8_t seen[16] = { 0 };
		uint64_t distinct = 0;
		for (int i = 0; i < n; i++) {
			s[i] = rng_below(&rng, universe);
			w[i] = (uint8_t)rng_below(&rng, 2);
			distinct += !seen[s[i]]++;
		}
		uint64_t opt = faults_of("opt", s, w, n, frames);
		CHECK(opt >= distinct && opt <= (uint64_t)n);
		for (size_t p = 0; p < ARRAY_SIZE(others); p++) {
			uint64_t f = faults_of(others[p], s, w, n, frames);
			CHECK(f >= distinct && f <= (uint64_t)n);
			if (f < opt) {
				fprintf(stderr, "string %d: %s faults %llu < opt %llu\n", k, others[p],
					(unsigned long long)f, (unsigned long long)opt);
				worse++;
			}
		}
		if (faults_of("lru", s, w, n, frames + 1) > faults_of("lru", s, w, n, frames))
			lru_anomaly++;
		CHECK(faults_of("opt", s, w, n, frames + 1) <= opt);
	}
	CHECK_EQ(worse, 0);
	CHECK_EQ(lru_anomaly, 0);
}
