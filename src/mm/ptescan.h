/* ptescan.h - page-table scanning for the 2.2 / 2.4 designs.
 *
 * Before rmap (2.5), the kernel learned about process pages only by walking
 * each task's page tables: swap_out() picks an mm, resumes at its
 * swap_address and calls try_to_swap_out() on every PTE.  That either
 * harvests the hardware accessed bit (test-and-clear young) or UNMAPS the
 * page into the swap cache (anon) or drops the PTE (file), without freeing
 * anything: another scanner (2.2 shrink_mmap, 2.4 page_launder /
 * shrink_cache) frees the then unmapped cached page later, and a refault in
 * between is a minor fault (a swap-cache hit in fault_swap).
 *
 * These are the primitives such policies need; the choice of mm, the
 * swap_cnt bookkeeping and the aging stay in the policy. */
#ifndef PAGELAB_PTESCAN_H
#define PAGELAB_PTESCAN_H

#include "mm.h"

/* mm->swap_address: where the next walk of one address space resumes. */
struct pte_cursor {
	uint32_t vma;
	uint64_t off;
};

/* One present PTE found by a walk. */
struct pte_ref {
	struct aspace *as;
	uint32_t vma;
	uint64_t off;
	pte_t *pte;
	pfn_t pfn;
	bool locked_vma;        /* VM_LOCKED: never unmapped */
};

/* The next present PTE of `as` at or after *c (dead VMAs are skipped);
 * *c moves past it.  false at the end of the address space (*c is then at
 * the end).  The caller accounts the PTEs it visits. */
bool ptescan_next(struct mm *mm, struct aspace *as, struct pte_cursor *c, struct pte_ref *r);
/* True if the walk of `as` from *c has reached the end. */
bool ptescan_at_end(const struct aspace *as, const struct pte_cursor *c);

/* ptep_test_and_clear_young() on one PTE. */
bool ptescan_test_and_clear_young(struct pte_ref *r);

enum unmap_result {
	UNMAP_SWAPCACHE,  /* anon: the PTE now holds the swap entry; the page is
			   * an unmapped (if no other PTE) swap-cache page */
	UNMAP_DROPPED,    /* file: the PTE is gone, the page stays cached */
	UNMAP_NOSWAP,     /* anon without a slot and the swap area is full */
	UNMAP_BUSY,       /* locked (read in flight) or in an mlocked VMA */
};
/* try_to_swap_out()'s unmapping of one PTE: the hardware dirty bit moves to
 * PG_dirty; an anonymous page without a swap slot gets one (add_to_swap)
 * and is marked dirty, since the swap copy does not exist yet.  No I/O is
 * started and the page stays on the policy's lists. */
enum unmap_result ptescan_unmap(struct mm *mm, struct pte_ref *r);

#endif
