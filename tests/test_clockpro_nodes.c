/* test_clockpro_nodes.c - CLOCK-Pro in a cache, where its clock's entries
 * are frames and ghost slots (src/policy/clockpro_nodes.h), against the
 * ideal machine, where every page has a ghost table entry: the same
 * misses on one reference string at 1 to 2000 frames (a page evicted in
 * its test period relabelled, its slot reused, a reuse taking it back).
 * Not checked here: the slots' growth past their first 1024 (the bench's
 * runs, docs/speed.md).  A few hundred ms. */
#include "test.h"
#include "sim.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"

#include <stdlib.h>

#define NREFS 30000

/* The cache's misses, with --check's walk of the clock every 500
 * references (clockpro_check: every ghost its page's record map node,
 * which a test period's end clears unread; each hand's kept key its
 * entry's). */
static uint64_t cache_misses(const uint32_t *ids, uint64_t frames)
{
	struct cachesim *cs = cachesim_new(policy_find("clockpro"), NULL, frames);
	bool ok = true;
	for (int i = 0; i < NREFS; i += 500) {
		cachesim_refs(cs, ids + i, NULL, 500);
		ok = ok && mm_check((struct mm *)cachesim_mm(cs), stderr);
	}
	CHECK(ok);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	cachesim_free(cs);
	return st.misses;
}

void test_clockpro_nodes_cache_as_machine(void)
{
	static uint32_t ids[NREFS];
	static uint64_t pages[NREFS];
	/* a hot set of 60 pages, a warm one of 400, a cold run of 3500
	 * (all within the ideal machine's 16 MB of swap) */
	uint32_t x = 7;
	for (int i = 0; i < NREFS; i++) {
		x = x * 1103515245u + 12345u;
		uint32_t r = x >> 16;
		ids[i] = r % 2 ? r % 60 : r % 4 ? 60 + r % 400 : 460 + r % 3500;
		pages[i] = ids[i];
	}
	static const uint64_t frames[] = { 1, 2, 3, 10, 150, 2000 };
	for (size_t f = 0; f < sizeof(frames) / sizeof(frames[0]); f++) {
		uint64_t cache = cache_misses(ids, frames[f]);
		uint64_t machine = sim_trace_faults("clockpro", pages, NREFS, frames[f], 0);
		CHECK(cache > 1000);
		CHECK_EQ(cache, machine);
	}
}
