/* test_frame_records.c - the records by frame of the research policies
 * that keep no page history (resframes.h: sieve, lfu; cache_mode.h:
 * frecs, no recs): in a cache the replay keeps no record map for them,
 * hands their hit the frame its PTE names, and --check finds a resident
 * frame through its page's PTE.  A few ms. */
#include "test.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"

static const uint32_t refs[] = { 0, 1, 2, 3, 1, 4, 0, 2 };

static struct cachesim *replayed(const char *pol)
{
	struct cachesim *cs = cachesim_new(policy_find(pol), NULL, 4);
	cachesim_refs(cs, refs, NULL, sizeof(refs) / sizeof(refs[0]));
	return cs;
}

/* sieve and lfu: records by frame, no map by id; arc (history by id)
 * keeps its map. */
void test_frame_records_no_map(void)
{
	const char *byframe[] = { "sieve", "lfu" };
	for (size_t k = 0; k < 2; k++) {
		struct cachesim *cs = replayed(byframe[k]);
		const struct mm *mm = cachesim_mm(cs);
		CHECK(mm->cache.frecs != NULL);
		CHECK(mm->cache.recmap == NULL);
		CHECK(mm->cache.recs == NULL);
		cachesim_free(cs);
	}
	struct cachesim *cs = replayed("arc");
	CHECK(cachesim_mm(cs)->cache.recs != NULL);
	CHECK(cachesim_mm(cs)->cache.recmap != NULL);
	cachesim_free(cs);
}

/* The misses with records by frame, by hand: the hits must reach the
 * record of the page's own frame.  SIEVE in 4 frames, 0 1 2 3 1 4 0 2:
 * 1 is visited, 4 evicts 0 (the tail, unvisited), 0 evicts 2 (the hand
 * clears 1 on its way), 2 evicts 3: 7 misses.  0 1 1 2 3 4 1 5 1 0 in 4
 * frames, SIEVE: 4 evicts 0, 5 evicts 2 (clearing 1), 0 evicts 3; LFU:
 * 1 has the most uses, so 4, 5 and 0 evict 0, 2 and 3 (count 1, oldest
 * first): 7 misses in both, where a hit lost or given to another frame
 * would let 5 evict 1 and 1 miss again (8). */
void test_frame_records_misses(void)
{
	struct cachesim_stats st;
	struct cachesim *cs = replayed("sieve");
	cachesim_stats(cs, &st);
	CHECK_EQ(st.misses, 7);
	cachesim_free(cs);
	static const uint32_t more[] = { 0, 1, 1, 2, 3, 4, 1, 5, 1, 0 };
	const char *pol[] = { "sieve", "lfu" };
	for (size_t k = 0; k < 2; k++) {
		cs = cachesim_new(policy_find(pol[k]), NULL, 4);
		cachesim_refs(cs, more, NULL, 10);
		cachesim_stats(cs, &st);
		CHECK_EQ(st.misses, 7);
		cachesim_free(cs);
	}
}

/* --check finds each resident frame through its page's PTE: two pages'
 * PTEs swapped (each maps the other's frame) fail it, put back pass. */
void test_frame_records_check_uses_ptes(void)
{
	const char *byframe[] = { "sieve", "lfu" };
	for (size_t k = 0; k < 2; k++) {
		struct cachesim *cs = replayed(byframe[k]);
		struct mm *mm = (struct mm *)cachesim_mm(cs);
		FILE *err = tmpfile();
		CHECK(err != NULL);
		if (!err)
			return;
		CHECK(mm_check(mm, err));
		/* after 0 1 2 3 1 4 0 2 in 4 frames: 1, 4, 0, 2 resident */
		pte_t *p = mm->cache.ptes;
		CHECK(pte_present(p[1]) && pte_present(p[4]));
		pte_t a = p[1];
		p[1] = p[4];
		p[4] = a;
		CHECK(!mm_check(mm, err));
		p[4] = p[1];
		p[1] = a;
		CHECK(mm_check(mm, err));
		fclose(err);
		cachesim_free(cs);
	}
}

/* The host memory a replay reports counts a record map only where one
 * is kept: sieve's and lfu's caches hold 4 bytes a page table slot less
 * than arc's, in the stats and in mrc's estimate before building. */
void test_frame_records_host_bytes(void)
{
	struct cachesim *a = replayed("arc");
	struct cachesim_stats sa, ss;
	cachesim_stats(a, &sa);
	const char *byframe[] = { "sieve", "lfu" };
	for (size_t k = 0; k < 2; k++) {
		struct cachesim *cs = replayed(byframe[k]);
		cachesim_stats(cs, &ss);
		/* ids 0-4: region 0 mapped, 1024 slots */
		CHECK_EQ(sa.host_bytes - ss.host_bytes, 1024 * sizeof(uint32_t));
		const struct policy_ops *ops = policy_find(byframe[k]);
		CHECK_EQ(cachesim_host_bytes_min(policy_find("arc"), 4, 5) - cachesim_host_bytes_min(ops, 4, 5),
			 1024 * sizeof(uint32_t));
		cachesim_free(cs);
	}
	cachesim_free(a);
}
