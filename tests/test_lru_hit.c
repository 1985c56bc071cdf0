/* test_lru_hit.c - exact LRU on the cache-only replay, where the
 * reference loop runs lru_hit() inline (src/policy/lru.h) and the victims
 * are fetched ahead by a scan-ahead cursor: the victims are exact LRU's on
 * a hand-checked string, and a hit on the cursor's page (which moves it
 * to the head, away from the victims) makes the cursor start again from
 * the tail.  Milliseconds. */
#include "test.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/lru.h"

static bool resident(const struct mm *mm, uint64_t id)
{
	return (mm->as[0]->vmas[0].pte[id] & PTE_PRESENT) != 0;
}

/* 4 frames; 0 1 2 3 fill them, 4 evicts 0, the hit on 1 moves it to the
 * head (order 1 4 3 2), so 5 evicts 2, and 6 then evicts 3. */
void test_lru_hit_victims(void)
{
	struct cachesim *cs = cachesim_new(policy_find("lru"), NULL, 4);
	const struct mm *mm = cachesim_mm(cs);
	const uint32_t refs[] = { 0, 1, 2, 3, 4, 1, 5 };
	cachesim_refs(cs, refs, NULL, 7);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	CHECK_EQ(st.misses, 6);
	CHECK_EQ(st.evictions, 2);
	CHECK(!resident(mm, 0));
	CHECK(resident(mm, 1));
	CHECK(!resident(mm, 2));
	CHECK(resident(mm, 3));
	const uint32_t more[] = { 6 };
	cachesim_refs(cs, more, NULL, 1);
	CHECK(!resident(mm, 3));
	CHECK(resident(mm, 1) && resident(mm, 4) && resident(mm, 5) && resident(mm, 6));
	cachesim_free(cs);
}

/* After an eviction the cursor sits on a page near the tail; a hit on
 * that page forgets it (the page is at the head now, not among the next
 * victims), and the next eviction takes the true tail all the same. */
void test_lru_hit_forgets_cursor(void)
{
	struct cachesim *cs = cachesim_new(policy_find("lru"), NULL, 8);
	const struct mm *mm = cachesim_mm(cs);
	const struct lru *l = mm->pol.priv;
	const uint32_t fill[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 }; /* 8 evicts 0 */
	cachesim_refs(cs, fill, NULL, 9);
	pfn_t cursor = l->ahead.pfn;
	CHECK(cursor != PFN_NONE);
	CHECK_EQ(lru_on(&mm->fr, cursor), l->list);
	/* The page the cursor is on, by its PTE. */
	uint32_t id = UINT32_MAX;
	for (uint32_t i = 1; i <= 8; i++)
		if (pte_pfn(mm->as[0]->vmas[0].pte[i]) == cursor)
			id = i;
	CHECK(id >= 1 && id <= 8 && id != 1);
	const uint32_t hit[] = { id };
	cachesim_refs(cs, hit, NULL, 1);
	CHECK_EQ(l->ahead.pfn, PFN_NONE);
	CHECK_EQ(lru_head(&mm->fr, l->list), cursor);
	const uint32_t miss[] = { 9 }; /* evicts 1, the tail */
	cachesim_refs(cs, miss, NULL, 1);
	CHECK(!resident(mm, 1));
	CHECK(resident(mm, id));
	cachesim_free(cs);
}
