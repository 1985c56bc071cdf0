/* test_cachesim.c - the cache-only replay's API (src/cachesim/cachesim.h)
 * on reference strings worked out by hand, and its agreement with the
 * full machine on a longer one.  Under a second in all. */
#include "test.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"

#include <stdlib.h>

static uint64_t misses(const char *pol, uint64_t frames, const uint32_t *refs, size_t n, const uint64_t *next)
{
	struct cachesim *cs = cachesim_new(policy_find(pol), NULL, frames);
	if (next)
		cachesim_set_next_use(cs, next, 0, n);
	cachesim_refs(cs, refs, NULL, n);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	cachesim_free(cs);
	return st.misses;
}

/* Belady's anomaly string: FIFO faults 9 times with 3 frames, 10 with 4;
 * LRU 10 and 8; OPT 7 and 6. */
static const uint32_t belady[] = { 0, 1, 2, 3, 0, 1, 4, 0, 1, 2, 3, 4 };
#define NB (sizeof(belady) / sizeof(belady[0]))

/* OPT's oracle for it, worked out the slow way. */
static void belady_next_use(uint64_t *next)
{
	for (size_t i = 0; i < NB; i++) {
		next[i] = UINT64_MAX;
		for (size_t j = i + 1; j < NB; j++)
			if (belady[j] == belady[i]) {
				next[i] = j;
				break;
			}
	}
}

void test_cachesim_belady_string(void)
{
	uint64_t next[NB];
	belady_next_use(next);
	CHECK_EQ(misses("fifo", 3, belady, NB, NULL), 9);
	CHECK_EQ(misses("fifo", 4, belady, NB, NULL), 10);
	CHECK_EQ(misses("lru", 3, belady, NB, NULL), 10);
	CHECK_EQ(misses("lru", 4, belady, NB, NULL), 8);
	CHECK_EQ(misses("opt", 3, belady, NB, next), 7);
	CHECK_EQ(misses("opt", 4, belady, NB, next), 6);
}

/* OPT's oracle in windows, as the replay gives it, batch by batch: the
 * same misses as with the whole of it. */
void test_cachesim_opt_window(void)
{
	uint64_t next[NB];
	belady_next_use(next);
	struct cachesim *cs = cachesim_new(policy_find("opt"), NULL, 3);
	for (size_t i = 0; i < NB; i += 5) {
		size_t n = NB - i < 5 ? NB - i : 5;
		cachesim_set_next_use(cs, next + i, i, n);
		cachesim_refs(cs, belady + i, NULL, n);
	}
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	CHECK_EQ(st.misses, 7);
	CHECK_EQ(st.refs, NB);
	CHECK_EQ(st.pages, 5);
	CHECK_EQ(st.evictions, 4);
	cachesim_free(cs);
}

/* Clock sees references only through the PTE accessed bit.  3 frames,
 * 0 1 2 0 3 0 1.  first_ref=1 (the MMU): every page starts referenced, so
 * 3's fault clears all three bits going round and evicts 0, which faults
 * back evicting 1, which faults again: 6 misses.  first_ref=0
 * (libCacheSim): only 0's hit sets a bit, so 3 evicts 1 after 0's second
 * chance, 0 hits, 1 evicts 2: 5 misses. */
void test_cachesim_clock_referenced_bit(void)
{
	static const uint32_t refs[] = { 0, 1, 2, 0, 3, 0, 1 };
	CHECK_EQ(misses("clock", 3, refs, 7, NULL), 6);
	static const double first_ref0[] = { 0 };
	struct cachesim *c0 = cachesim_new(policy_find("clock"), first_ref0, 3);
	cachesim_refs(c0, refs, NULL, 7);
	struct cachesim_stats s0;
	cachesim_stats(c0, &s0);
	CHECK_EQ(s0.misses, 5);
	cachesim_free(c0);
	/* Writes: the dirty bit makes an eviction a write-back. */
	struct cachesim *cs = cachesim_new(policy_find("fifo"), NULL, 2);
	static const uint32_t w[] = { 0, 1, 2, 0 };
	static const uint8_t wr[] = { 1, 0, 0, 0 };
	cachesim_refs(cs, w, wr, 4);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	CHECK_EQ(st.misses, 4);
	CHECK_EQ(st.major, 1);       /* 0 came back */
	CHECK_EQ(st.evictions, 2);   /* 0, then 1 */
	CHECK_EQ(st.writebacks, 2);  /* each was never stored before */
	cachesim_free(cs);
}

/* The cache-only replay runs only the cache policies. */
void test_cachesim_policy_ok(void)
{
	CHECK(cachesim_policy_ok(policy_find("lru")));
	CHECK(cachesim_policy_ok(policy_find("clock")));
	CHECK(cachesim_policy_ok(policy_find("arc")));
	CHECK(cachesim_policy_ok(policy_find("opt")));
	CHECK(!cachesim_policy_ok(policy_find("linux26")));
	CHECK(!cachesim_policy_ok(policy_find("workingset")));
	CHECK(!cachesim_policy_ok(policy_find("mglru")));
	CHECK(!cachesim_policy_ok(policy_find("vhand")));
}
