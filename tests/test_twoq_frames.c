/* test_twoq_frames.c - 2Q's A1in and Am as queues of frames (arcq.h)
 * and its A1out as a FIFO of identities (idfifo.h: a ghost table list
 * on the machine, a ring of ids over the record map in a cache): the
 * cache-only replay's misses against the full machine's faults, exact
 * counts of hand-checked strings, and A1out at Kout = 0.  A few ms. */
#include "test.h"
#include "sim.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* In a cache 2Q's hits read its 16-byte nodes by frame and move them in
 * Am (their links); its record map stays, for A1out, with records of no
 * bytes (a page not resident is its map slot). */
void test_twoq_frames_hit_by_frame(void)
{
	struct cachesim *cs = cachesim_new(policy_find("2q"), NULL, 4);
	const struct mm *mm = cachesim_mm(cs);
	CHECK(mm->cache.frecs != NULL);
	CHECK_EQ(mm->cache.frec_size, 16);
	CHECK(mm->cache.rec_next != 0);
	CHECK(mm->cache.recs != NULL);
	CHECK_EQ(mm->cache.rec_size, 0);
	CHECK(mm->cache.hit != NULL);
	cachesim_free(cs);
}

/* Misses of ids (numbered 0.. in order of first reference) in a cache of
 * `frames` under 2q with tunables tun (NULL: the defaults), --check's
 * walk of the queues at the end. */
static uint64_t cache_misses(const double *tun, uint64_t frames, const uint32_t *ids, size_t n)
{
	struct cachesim *cs = cachesim_new(policy_find("2q"), tun, frames);
	cachesim_refs(cs, ids, NULL, n);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	CHECK(mm_check((struct mm *)cachesim_mm(cs), stderr));
	cachesim_free(cs);
	return st.misses;
}

/* "1 2 3 4 5 1 5 2 1 2" in 4 frames (Kin 1, Kout 2): 1..4 fill A1in, 5
 * sends 1 to A1out, 1 comes back to Am sending 2 to A1out, 5 hits in
 * A1in, 2 comes back to Am, 1 and 2 hit in Am: 7 misses.  "1 2 3 4 5 6 1
 * 7 8 9 10 1": when 1 comes back A1out holds 2 and 1, full; 1 leaves it
 * before the eviction of 3 (libCacheSim's order), so it is not the id
 * A1out drops: it goes to Am, where the evictions of 4 to 7 from A1in
 * leave it and the last 1 hits - 11 misses (12 if A1out dropped 1). */
void test_twoq_frames_exact_counts(void)
{
	static const uint32_t a[] = { 0, 1, 2, 3, 4, 0, 4, 1, 0, 1 };
	static const uint32_t b[] = { 0, 1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 0 };
	static const uint64_t pa[] = { 1, 2, 3, 4, 5, 1, 5, 2, 1, 2 };
	static const uint64_t pb[] = { 1, 2, 3, 4, 5, 6, 1, 7, 8, 9, 10, 1 };
	CHECK_EQ(cache_misses(NULL, 4, a, 10), 7);
	CHECK_EQ(sim_trace_faults("2q", pa, 10, 4, 0), 7);
	CHECK_EQ(cache_misses(NULL, 4, b, 12), 11);
	CHECK_EQ(sim_trace_faults("2q", pb, 12, 4, 0), 11);
}

/* n references at random over `pages` pages (an LCG), half of them to
 * the lowest quarter, so Am fills and pages come back from A1out:
 * ids[] dense in order of first reference, pages[] from 1. */
static void mix(uint32_t *ids, uint64_t *pages, size_t n, uint32_t npages)
{
	uint32_t x = 777, seen = 0;
	uint32_t *first = malloc((npages + 1) * sizeof(*first));
	for (uint32_t i = 0; i <= npages; i++)
		first[i] = UINT32_MAX;
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		uint32_t r = (x >> 16) % npages;
		uint32_t pg = 1 + ((x >> 8) & 1 ? r % (npages / 4 + 1) : r);
		if (first[pg] == UINT32_MAX)
			first[pg] = seen++;
		ids[i] = first[pg];
		pages[i] = pg;
	}
	free(first);
}

/* At each of `sizes` frames, 2q's misses in a cache (tunables tun) on n
 * references of mix() over 60 pages, against the full machine's faults
 * under 2q (fifo false) or FIFO's misses in a cache (fifo true); each
 * count above `least`, so the string does reach the paths compared. */
static void against(const double *tun, size_t n, const uint64_t *sizes, size_t nsizes, bool fifo,
		    uint64_t least)
{
	uint32_t *ids = malloc(n * sizeof(*ids));
	uint64_t *pages = malloc(n * sizeof(*pages));
	mix(ids, pages, n, 60);
	for (size_t k = 0; k < nsizes; k++) {
		uint64_t c = cache_misses(tun, sizes[k], ids, n);
		CHECK(c > least);
		CHECK_EQ(c, fifo ? sim_cache_misses("fifo", sizes[k], ids, n)
				 : sim_trace_faults("2q", pages, n, sizes[k], 0));
	}
	free(ids);
	free(pages);
}

/* The cache's misses are the full machine's faults (hits through
 * access(), A1out on the ghost table, --check on both) from 1 frame to
 * most of the pages: 20000 references over 60 pages, where pages come
 * back from A1out faster than its tail moves and its ring (64 slots up
 * to 31 ids) fills with stale slots and is compacted. */
void test_twoq_frames_cache_is_machine(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 5, 12, 30, 50 };
	against(NULL, 20000, sizes, sizeof(sizes) / sizeof(sizes[0]), false, 1000);
}

/* With Kout = 0 A1out forgets every page at once, nothing reaches Am and
 * A1in is a FIFO of all the frames: FIFO's misses, at 1 to 30 frames. */
void test_twoq_frames_kout_zero_is_fifo(void)
{
	static const double tun[] = { 0.25, 0 };
	static const uint64_t sizes[] = { 1, 2, 7, 30 };
	against(tun, 3000, sizes, sizeof(sizes) / sizeof(sizes[0]), true, 500);
}
