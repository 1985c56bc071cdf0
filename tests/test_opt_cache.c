/* test_opt_cache.c - OPT in a cache keeps its frames on no frame list
 * (opt.c; cache_mode.h: unlisted), as the research policies do: the
 * misses are the hand-worked ones, the gauges still show every resident
 * page as inactive anon, and mm_check (with opt's own check, which then
 * counts the cache's pages instead of its list) accepts it.  A few ms. */
#include "test.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"
#include "../src/workload/workload.h"

/* 2 frames: 0 1 miss; 2 misses and evicts 1 (next at 5, 0's at 3); 0
 * hits; 3 evicts 2 (never again); 1 evicts 3 (never again); 0 hits: 5
 * misses, 0 resident throughout. */
void test_opt_cache_frames_on_no_list(void)
{
	static const uint32_t refs[] = { 0, 1, 2, 0, 3, 1, 0 };
	static const uint64_t next[] = { 3, 5, NEXT_USE_NEVER, 6, NEXT_USE_NEVER, NEXT_USE_NEVER, NEXT_USE_NEVER };
	struct cachesim *cs = cachesim_new(policy_find("opt"), NULL, 2);
	cachesim_set_next_use(cs, next, 0, 7);
	cachesim_refs(cs, refs, NULL, 7);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	CHECK_EQ(st.misses, 5);
	CHECK_EQ(st.evictions, 3);
	struct mm *mm = (struct mm *)cachesim_mm(cs);
	CHECK(mm->cache.unlisted);
	struct lru_sizes lz;
	mm_lru_sizes(mm, &lz);
	CHECK_EQ(lz.inactive_anon, 2);
	CHECK_EQ(lz.active_anon + lz.inactive_file + lz.active_file, 0);
	CHECK(mm_check(mm, stderr));
	cachesim_free(cs);
}
