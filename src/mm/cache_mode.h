/* cache_mode.h - the mm core's cache-only mode (cacheonly.c), owned by
 * the cache-only replay of `--machine ideal` (src/cachesim).
 *
 * mm_cache_only_enable() turns it on: anonymous pages only, no swap area;
 * an evicted page's PTE becomes PTE_EVICTED and its fault is served at
 * once (mm_cache_fault, cacheonly.h).  Off (the zeroed default) on the
 * full machine.
 */
#ifndef PAGELAB_MM_CACHE_MODE_H
#define PAGELAB_MM_CACHE_MODE_H

#include <stdbool.h>
#include <stddef.h>
#include "page.h"
#include "pte.h"

struct mm_cache_mode {
	bool only;       /* the mm is the cache-only one */
	pfn_t freed;     /* the frame freed last, not linked yet (cachepage.h) */
	/* Every PTE of the cache's address space lies in this one array (the
	 * cache-only replay lends its VMAs slices of it, src/cachesim), and a
	 * cache page's page->swap (no swap slot can be held here) is its
	 * PTE's index in it: reclaim finds the PTE in one step, not through
	 * the address space, its VMA and the VMA's table (cache_pte). */
	pte_t *ptes;
	/* The id (index in ptes) of the page a fault is bringing in, while
	 * mm->fault names it: the research policies' page history is kept
	 * by id here (ghost_dense), not hashed by owner and index. */
	uint32_t fault_id;
	/* A policy's per-page records (the research policies' ghost
	 * entries, research.c): *recs is the array (it moves as it grows),
	 * rec_size a record's bytes, and recmap[id] the record of page id
	 * (UINT32_MAX: none), kept by the policy.  The replay allocates
	 * recmap beside ptes, as long (so every id it hands the policy has a
	 * slot), when recs is set, and its loop prefetches a reference's
	 * slot, then its record, references ahead, as it does the struct
	 * page: a hit's hook and a miss's history lookup read it.  NULL:
	 * none. */
	void *const *recs;
	size_t rec_size;
	uint32_t *recmap;
	/* A policy whose hit moves the record on a list (ARC, 2Q's Am,
	 * LIRS's stack) sets these: the byte offsets in a record of its two
	 * neighbours' record numbers (u32), which the loop prefetches too, a
	 * few references ahead, as it does exact LRU's list neighbours.
	 * 0: hits move nothing. */
	size_t rec_prev, rec_next;
	/* A policy whose hit reads records by frame (ARC's T1/T2 nodes;
	 * SIEVE's and LFU's only records, resframes.h), not by page, sets
	 * these: the array and a record's bytes (rec_prev and rec_next are
	 * then offsets in these records).  The replay finds
	 * a hit's record through the frame in its PTE, which it reads
	 * anyway, and passes the frame as the record: a hit reads no recmap
	 * slot (a host line of its own per reference: 0.57 M of an ARC
	 * replay's 5.73 M data misses past a 512 KB cache on 2 M Zipf
	 * references, cachegrind).  A policy that also keeps records by
	 * page (recs: ARC's history) has them, and so the map, only for what
	 * a miss reads: their slot and record are fetched only for a page
	 * whose PTE is not present references ahead.  One with no recs
	 * (sieve, lfu) has no map at all: recmap[id] would be the frame
	 * again, a 4-byte slot per id read on every hit and written twice
	 * on every miss, each a host line of its own (an eighth of a SIEVE
	 * replay's CPU time, perf).  NULL: none. */
	void *const *frecs;
	size_t frec_size;
	/* A policy's hit in a cache (research.c: rp_set_hit), for a policy
	 * with a record map: the replay calls it, instead of access(), for
	 * every reference that finds its page present, with the page's
	 * frame and its record (recmap[id]), and calls nothing for a
	 * faulting one.  access() told the faulting reference apart
	 * (rp_fault_ref) and found the record through the struct page, a
	 * host cache miss per hit that the replay's loop had no other use
	 * for.  NULL: access() as on the machine. */
	void (*hit)(void *priv, pfn_t pfn, uint32_t rec);
	/* The policy keeps its resident frames on no frame list (the
	 * research policies, whose order is in their own records, and opt,
	 * whose order is its heap): mm_check accepts a frame in use on
	 * none. */
	bool unlisted;
};

#endif
