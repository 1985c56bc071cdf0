/* stackdist.h - LRU stack distances in O(log n) per reference.
 *
 * Mattson, Gecsei, Slutz and Traiger ("Evaluation techniques for storage
 * hierarchies", IBM Systems Journal 1970) showed that LRU is a stack
 * algorithm: one pass over a trace gives, for every reference, its stack
 * distance - the number of distinct pages referenced since the previous
 * reference to the same page, plus one - and an LRU cache of C pages hits
 * exactly the references at distance <= C.  So one histogram of distances
 * is the whole miss-ratio curve.  Counting the distinct pages in between
 * follows Bennett and Kruskal (1975): every page is marked at the time of
 * its last reference in a tree of times (here a Fenwick tree), and the
 * distance is the number of marks after the page's own.
 *
 * Memory is bounded by the distinct pages, not the references: times are
 * slots of a bitmap (a bit per slot, set while it is some page's last
 * reference) under a Fenwick tree of per-word counts, compacted - the live
 * slots renumbered in order, each page's new slot being its rank - when
 * it fills, and doubled only when more than half of it is live.  That is
 * 4 bytes per page id and under 3 bits per slot, at most 4 slots per page;
 * a distance costs a popcount and a walk of a tree 64 times smaller than
 * the slots (it stays in cache).  Page ids must be dense (0, 1, 2... as
 * the trace readers and pagemap.h number them); stackdist_remove() drops
 * a page (SHARDS' fixed-size sample evicts pages). */
#ifndef PAGELAB_MRC_STACKDIST_H
#define PAGELAB_MRC_STACKDIST_H

#include <stddef.h>
#include <stdint.h>

struct stackdist {
	uint32_t *slot;     /* per page: slot of its last reference, or SD_NONE */
	uint64_t nr_ids;    /* length of slot[] */
	uint64_t *bits;     /* per slot: 1 while it is a page's last reference */
	uint32_t *tree;     /* Fenwick tree (1-based) over the words of bits: their popcounts */
	uint64_t cap;       /* slots, a multiple of 64 */
	uint64_t next;      /* the next reference's slot */
	uint64_t live;      /* pages with a live slot */
};

#define SD_NONE UINT32_MAX

/* The stack distance of a reference to page (>= 1), or 0 for the first
 * reference to it (or the first since it was removed).  A zeroed struct
 * is an empty stack. */
uint64_t stackdist_access(struct stackdist *s, uint32_t page);
/* Forget page: its next reference counts as a first one. */
void stackdist_remove(struct stackdist *s, uint32_t page);
size_t stackdist_host_bytes(const struct stackdist *s);
void stackdist_free(struct stackdist *s);

#endif
