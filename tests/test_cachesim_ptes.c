/* test_cachesim_ptes.c - the cache-only replay's one page table: every
 * region's PTEs in one array indexed by page id, lent to the mm core's
 * VMAs (mm_mmap_anon_ptes), which grows as ids reach new regions and
 * points the VMAs mapped before at their entries' new place (or is made
 * large enough at once, cachesim_reserve; or for the ids below a bound
 * the caller gives, cachesim_refs_below); and the
 * references given without writes, read from a zero array in chunks.
 * Hand-checked strings, milliseconds. */
#include "test.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"

#include <stdlib.h>

/* Region k's first id: 1024 * (2^k - 1) (cachesim.h). */
static uint64_t base(uint32_t k) { return 1024 * ((1ULL << k) - 1); }

static pte_t pte_of(const struct mm *mm, uint64_t id)
{
	uint32_t k = 0;
	while (id >= base(k + 1))
		k++;
	return mm->as[0]->vmas[k].pte[id - base(k)];
}

/* LRU, 4 frames.  0 and 1 in region 0; 5000 maps regions 1-2 (the array
 * grows from 1024 to 7168 entries), 10000 region 3, 20000 region 4.
 * After 0 1 5000 10000 the hits on 0 and 1 leave 5000 at the tail, so
 * 20000 evicts it, and its refault evicts 10000: 6 misses, 1 major, 2
 * evictions, each found through its VMA's PTEs after the array moved. */
static void grow(uint64_t reserve, uint64_t below)
{
	struct cachesim *cs = cachesim_new(policy_find("lru"), NULL, 4);
	const struct mm *mm = cachesim_mm(cs);
	cachesim_reserve(cs, reserve);
	static const uint32_t refs[] = { 0, 1, 5000, 10000, 0, 1, 20000, 5000, 0 };
	if (below)
		cachesim_refs_below(cs, refs, NULL, sizeof(refs) / sizeof(refs[0]), below);
	else
		cachesim_refs(cs, refs, NULL, sizeof(refs) / sizeof(refs[0]));
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	CHECK_EQ(st.misses, 6);
	CHECK_EQ(st.major, 1);
	CHECK_EQ(st.evictions, 2);
	CHECK_EQ(st.pages, 20001);
	CHECK_EQ(mm->as[0]->nr_vmas, 5);
	/* One array: region k's PTEs are entries base(k) on. */
	for (uint32_t k = 1; k < 5; k++)
		CHECK(mm->as[0]->vmas[k].pte == mm->as[0]->vmas[0].pte + base(k));
	CHECK(pte_of(mm, 0) & PTE_PRESENT);
	CHECK(pte_of(mm, 1) & PTE_PRESENT);
	CHECK(pte_of(mm, 5000) & PTE_PRESENT);
	CHECK(pte_of(mm, 20000) & PTE_PRESENT);
	CHECK_EQ(pte_of(mm, 10000), PTE_EVICTED);
	/* The regions mapped, no more: what the minimum says for 20001 ids. */
	CHECK_EQ(st.host_bytes, cachesim_host_bytes_min(policy_find("lru"), 4, 20001));
	cachesim_free(cs);
}

/* Grown as ids come; room made for all of them first (the binary
 * trace's header); room for a header's claim of 2^32 - 2 ids, of which
 * only 2^22 are made (it would be 32 GiB): the same either way.  And
 * with the batch's bound given: the reserved count, one past the room
 * made (the room for the batch is made first), or the claim of 2^32 - 2
 * ids (the batch's own largest id is taken instead). */
void test_cachesim_ptes_grow(void)
{
	grow(0, 0);
	grow(20001, 0);
	grow(UINT32_MAX - 1, 0);
	grow(20001, 20001);
	grow(0, 20001);
	grow(UINT32_MAX - 1, UINT32_MAX - 1);
}

/* FIFO, 2 frames, 0 1 2 over and over: every reference misses.  10000
 * references span three chunks of the zero array: without writes only the
 * first eviction of each page writes it (it was never stored), with every
 * reference a write every eviction does. */
void test_cachesim_ptes_no_writes(void)
{
	enum { N = 10000 };
	uint32_t *refs = malloc(N * sizeof(*refs));
	uint8_t *wr = malloc(N);
	for (uint32_t i = 0; i < N; i++) {
		refs[i] = i % 3;
		wr[i] = 1;
	}
	for (int written = 0; written < 2; written++) {
		struct cachesim *cs = cachesim_new(policy_find("fifo"), NULL, 2);
		cachesim_refs(cs, refs, written ? wr : NULL, N);
		struct cachesim_stats st;
		cachesim_stats(cs, &st);
		CHECK_EQ(st.refs, N);
		CHECK_EQ(st.misses, N);
		CHECK_EQ(st.evictions, N - 2);
		CHECK_EQ(st.writebacks, written ? N - 2 : 3);
		cachesim_free(cs);
	}
	free(refs);
	free(wr);
}
