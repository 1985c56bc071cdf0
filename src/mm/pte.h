/* pte.h - a page-table entry in one 64-bit word, set like an MMU would.
 *
 *   0                      never touched (pte_none)
 *   PTE_PRESENT|A|D|pfn    mapped to a frame
 *   PTE_ZERO               mapped read-only to the shared zero page
 *   PTE_PRESENT|PTE_WP|..  mapped read-only (private file page: a write COWs)
 *   PTE_SWAP|slot          swapped out: the page lives in swap slot `slot`
 *   PTE_EVICTED            evicted by the cache-only mm (mm->cache.only, no
 *                          swap): a reference faults it back (cacheonly.c)
 */
#ifndef PAGELAB_PTE_H
#define PAGELAB_PTE_H

#include <stdint.h>
#include "page.h"

typedef uint64_t pte_t;

#define PTE_PRESENT  (1ULL << 0)
#define PTE_ACCESSED (1ULL << 1)
#define PTE_DIRTY    (1ULL << 2)
#define PTE_SWAP     (1ULL << 3)
#define PTE_ZERO     (1ULL << 4)
#define PTE_WP       (1ULL << 5)  /* write-protected: a write faults (COW of a private file page) */
#define PTE_EVICTED  (1ULL << 6)  /* cache-only mm: the page was in memory and was evicted */
#define PTE_SHIFT    8

static inline int pte_present(pte_t p) { return (p & PTE_PRESENT) != 0; }
static inline int pte_is_swap(pte_t p) { return (p & PTE_SWAP) != 0; }
static inline pfn_t pte_pfn(pte_t p) { return (pfn_t)(p >> PTE_SHIFT); }
static inline uint32_t pte_slot(pte_t p) { return (uint32_t)(p >> PTE_SHIFT); }
static inline pte_t mk_pte(pfn_t pfn) { return ((pte_t)pfn << PTE_SHIFT) | PTE_PRESENT; }
static inline pte_t mk_swap_pte(uint32_t slot) { return ((pte_t)slot << PTE_SHIFT) | PTE_SWAP; }

#endif
