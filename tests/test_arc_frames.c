/* test_arc_frames.c - ARC's T1 and T2 as queues of frames (arcq.h) and
 * the replay's hit through records by frame (cache_mode.h: frecs): the
 * same misses as the full machine's ARC, whose hits come through
 * access(), on strings long enough for the replay's prefetches ahead
 * (24 references), with --check's walk of both lists.  A few ms. */
#include "test.h"
#include "sim.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"

#include <stdio.h>
#include <string.h>

/* In a cache ARC's hits read its nodes by frame, its page history is
 * the record map's slots (test_arc_rings.c); the other research policies
 * but sieve and lfu (records by frame only, test_frame_records.c) and 2q
 * (test_twoq_frames.c) read theirs through the map. */
void test_arc_frames_hit_by_frame(void)
{
	struct cachesim *cs = cachesim_new(policy_find("arc"), NULL, 4);
	const struct mm *mm = cachesim_mm(cs);
	CHECK(mm->cache.frecs != NULL);
	CHECK_EQ(mm->cache.frec_size, 16);
	CHECK(mm->cache.recs != NULL);
	cachesim_free(cs);
	const char *other[] = { "lirs", "s3fifo", "clockpro", "lruk" };
	for (size_t k = 0; k < sizeof(other) / sizeof(other[0]); k++) {
		cs = cachesim_new(policy_find(other[k]), NULL, 4);
		CHECK(cachesim_mm(cs)->cache.frecs == NULL);
		cachesim_free(cs);
	}
}

/* n references of a skewed mix over `pages` ids (an LCG: ids of low
 * numbers come back often, so T2, B1 and B2 all fill), each id first
 * met in order (the dense numbering). */
static size_t mix(uint32_t *refs, size_t n, uint32_t pages)
{
	uint32_t x = 12345, seen = 0;
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		uint32_t r = (x >> 16) % pages;
		uint32_t id = (x >> 8) & 1 ? r % (pages / 4 + 1) : r;
		if (id >= seen)
			id = seen++;
		refs[i] = id;
	}
	return n;
}

/* The cache's misses and the full machine's faults (hits through
 * access(), lists by --check) on the same string: 1, 2, 3, 5 and 12
 * frames, 400 references over 40 pages. */
void test_arc_frames_cache_is_machine(void)
{
	enum { N = 400 };
	static uint32_t refs[N];
	static char text[N * 5];
	mix(refs, N, 40);
	size_t len = 0;
	for (size_t i = 0; i < N; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%ur ", refs[i] + 1);
	static const uint64_t sizes[] = { 1, 2, 3, 5, 12 };
	for (size_t k = 0; k < 5; k++) {
		struct cachesim *cs = cachesim_new(policy_find("arc"), NULL, sizes[k]);
		cachesim_refs(cs, refs, NULL, N);
		struct cachesim_stats st;
		cachesim_stats(cs, &st);
		CHECK(mm_check((struct mm *)cachesim_mm(cs), stderr));
		cachesim_free(cs);
		struct sim_result r;
		sim_trace_run("arc", text, sizes[k], &r);
		CHECK(!r.check_failed);
		CHECK_EQ(st.misses, r.pgfault);
	}
}
