/* pageheap.h - a min-heap of resident frames, each entry one 64-bit
 * integer: the caller's key in the high bits, the frame number in the low
 * ph_init() bits.  A comparison is one integer compare on the entries
 * themselves (one host line for a node's two children), where the keys
 * kept in arrays by frame made each comparison a random host line.  Equal
 * keys go by frame number, lowest first, or (high_first) highest first,
 * the frame's bits then stored complemented, so runs are deterministic.
 * OPT's key is its next use (opt.c), LRU-K's its K-th reference time
 * (lruk.c).  O(log n) insert, update and remove; the heap slots live in
 * an array indexed by frame, not in struct page. */
#ifndef PAGELAB_PAGEHEAP_H
#define PAGELAB_PAGEHEAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../mm/page.h"

struct pageheap {
	uint64_t *heap;     /* entries: key << shift | frame bits */
	uint32_t *slot;     /* per frame: heap index + 1, 0 = not in the heap */
	uint64_t n;
	unsigned shift;     /* the bits a frame number takes */
	uint64_t low;       /* (1 << shift) - 1 */
	uint64_t flip;      /* low (high_first) or 0: xor'd into the frame bits */
	uint64_t key_max;   /* the largest key an entry holds */
	uint64_t *aside;    /* entries set aside by this shrink pass */
	uint64_t naside;
	uint64_t nrefused;  /* of those: refused for I/O */
};

void ph_init(struct pageheap *h, pfn_t nframes, bool high_first);
void ph_destroy(struct pageheap *h);
/* Insert pfn, or move it to its new place if it is in already.  The
 * caller keeps key <= h->key_max (the bits left beside the frame's). */
void ph_set(struct pageheap *h, pfn_t pfn, uint64_t key);
void ph_remove(struct pageheap *h, pfn_t pfn);
static inline bool ph_has(const struct pageheap *h, pfn_t pfn) { return h->slot[pfn] != 0; }
static inline pfn_t ph_frame(const struct pageheap *h, uint64_t e) { return (pfn_t)((e & h->low) ^ h->flip); }
static inline pfn_t ph_min(const struct pageheap *h) { return h->n ? ph_frame(h, h->heap[0]) : PFN_NONE; }
/* The key of pfn, which is in the heap. */
static inline uint64_t ph_key(const struct pageheap *h, pfn_t pfn) { return h->heap[h->slot[pfn] - 1] >> h->shift; }
/* A shrink pass takes the top frame out to offer it to the core; one the
 * core would not take (busy, or anonymous with swap full) is set aside,
 * key kept, so the pass can go on to the next: stopping at it would leave
 * a file page further down unreclaimed and OOM-kill with the page cache
 * full.  refused: the core refused it for I/O in flight.  ph_put_back()
 * returns every frame set aside to the heap. */
void ph_set_aside(struct pageheap *h, pfn_t pfn, uint64_t key, bool refused);
void ph_put_back(struct pageheap *h);
/* Whether a shrink pass goes on to the next frame: one is left, and
 * fewer than PH_MAX_REFUSED were refused for I/O.  Those come back when
 * their I/O is done, so a pass that meets that many stops rather than
 * walk a heap of pages under writeback. */
#define PH_MAX_REFUSED 64
static inline bool ph_pass_goes_on(const struct pageheap *h)
{
	return h->n && h->nrefused < PH_MAX_REFUSED;
}
/* --check: heap order and slots sound. */
bool ph_check(const struct pageheap *h, const char *name, FILE *err);

#endif
