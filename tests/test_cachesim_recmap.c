/* test_cachesim_recmap.c - the research policies' record map (a u32 per
 * PTE slot, cache_mode.h) in the cache-only replay's host memory:
 * cachesim_stats() and cachesim_host_bytes_min() count it for a policy
 * that keeps one (arc, 2q: rp_init), not for one that does not (lru, or
 * sieve, whose records are by frame). */
#include "test.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"

/* Ids 0 .. 1499: regions 0 and 1 mapped (3072 PTE slots). */
static size_t bytes_after(const char *name)
{
	struct cachesim *cs = cachesim_new(policy_find(name), NULL, 8);
	uint32_t refs[1500];
	for (uint32_t i = 0; i < 1500; i++)
		refs[i] = i;
	cachesim_refs(cs, refs, NULL, 1500);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	CHECK_EQ(st.pages, 1500);
	CHECK_EQ(st.host_bytes, cachesim_host_bytes_min(policy_find(name), 8, 1500));
	cachesim_free(cs);
	return st.host_bytes;
}

void test_cachesim_recmap_counted(void)
{
	CHECK_EQ(bytes_after("arc") - bytes_after("lru"), 3072 * sizeof(uint32_t));
	CHECK_EQ(cachesim_host_bytes_min(policy_find("2q"), 8, 1500) -
			 cachesim_host_bytes_min(policy_find("clock"), 8, 1500),
		 3072 * sizeof(uint32_t));
	/* sieve's records are by frame (cache_mode.h: frecs): no map */
	CHECK_EQ(cachesim_host_bytes_min(policy_find("sieve"), 8, 1500),
		 cachesim_host_bytes_min(policy_find("clock"), 8, 1500));
}
