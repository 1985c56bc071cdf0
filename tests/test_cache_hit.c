/* test_cache_hit.c - the research policies' hit in a cache
 * (cache_mode.h's hit, research.h's rp_set_hit): the replay hands each
 * hit's frame and record to it and never calls anything for a faulting
 * reference, and every research policy's misses are what they were
 * through access().  A few ms. */
#include "test.h"
#include "sim.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"

static const char *const research[] = { "arc", "2q", "lirs", "s3fifo", "sieve", "lfu", "clockpro", "lruk" };

/* Every research policy takes its hits by id in a cache; opt, whose
 * access() counts every reference (the faulting one too) for its
 * oracle, and lru do not. */
void test_cache_hit_research_policies_set_it(void)
{
	for (size_t k = 0; k < sizeof(research) / sizeof(research[0]); k++) {
		struct cachesim *cs = cachesim_new(policy_find(research[k]), NULL, 4);
		CHECK(cachesim_mm(cs)->cache.hit != NULL);
		cachesim_free(cs);
	}
	const char *other[] = { "opt", "lru", "clock" };
	for (size_t k = 0; k < 3; k++) {
		struct cachesim *cs = cachesim_new(policy_find(other[k]), NULL, 4);
		CHECK(cachesim_mm(cs)->cache.hit == NULL);
		cachesim_free(cs);
	}
}

/* Hits that decide the victim, worked by hand.  SIEVE in 2 frames,
 * 0 1 0 2 1 0: the hit visits 0, so 2 evicts 1 (the hand clears 0 on its
 * way), 1 evicts 0 and 0 evicts 2: 5 misses.  Were the hit lost, 2 would
 * evict 0 and 1 would hit (4); were the faulting references counted as
 * visits, the hand would clear both and evict 0 for 2 (4).  LFU in 2
 * frames, 0 0 1 2 0: 0 has two uses, so 2 evicts 1 and 0 hits: 3 misses
 * (a lost hit ties them and evicts the older, 0: 4). */
void test_cache_hit_decides_victims(void)
{
	static const uint32_t sieve_refs[] = { 0, 1, 0, 2, 1, 0 };
	CHECK_EQ(sim_cache_misses("sieve", 2, sieve_refs, 6), 5);
	static const uint32_t lfu_refs[] = { 0, 0, 1, 2, 0 };
	CHECK_EQ(sim_cache_misses("lfu", 2, lfu_refs, 5), 3);
	/* ARC, c = 2, 1 1 2 3 1 2 1 (test_research_dense): 5 faults */
	static const uint32_t arc_refs[] = { 0, 0, 1, 2, 0, 1, 0 };
	CHECK_EQ(sim_cache_misses("arc", 2, arc_refs, 7), 5);
}

/* In a cache the research policies keep their frames on no frame list
 * (cache_mode.h: unlisted; rp_resident counts them): the gauges still
 * show every resident page as inactive anon, as the list did, and
 * mm_check accepts the frames. */
void test_cache_hit_frames_on_no_list(void)
{
	static const uint32_t refs[] = { 0, 1, 2, 3, 4, 5, 1, 6, 2, 7 };
	for (size_t k = 0; k < sizeof(research) / sizeof(research[0]); k++) {
		struct cachesim *cs = cachesim_new(policy_find(research[k]), NULL, 4);
		cachesim_refs(cs, refs, NULL, 10);
		struct mm *mm = (struct mm *)cachesim_mm(cs);
		struct lru_sizes lz;
		mm_lru_sizes(mm, &lz);
		CHECK_EQ(lz.inactive_anon, 4);
		CHECK_EQ(lz.active_anon + lz.inactive_file + lz.active_file, 0);
		CHECK(mm->cache.unlisted);
		CHECK(mm_check(mm, stderr));
		cachesim_free(cs);
	}
}
