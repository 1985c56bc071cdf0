/* pageheap.h - a min-heap of resident frames ordered by two 64-bit keys
 * (then by frame number, so runs are deterministic): LFU's (count, when
 * the count was reached), LRU-K's (K-th most recent reference, most recent
 * reference).  O(log n) insert, update and remove; the keys and heap slots
 * live in arrays indexed by frame, not in struct page. */
#ifndef PAGELAB_PAGEHEAP_H
#define PAGELAB_PAGEHEAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../mm/page.h"

struct pageheap {
	pfn_t *heap;
	uint32_t *slot;     /* per frame: heap index + 1, 0 = not in the heap */
	uint64_t *k1, *k2;  /* per frame */
	uint64_t n;
	pfn_t *aside;       /* frames set aside by this shrink pass */
	uint64_t naside;
	uint64_t nrefused;  /* of those: refused for I/O */
};

void ph_init(struct pageheap *h, pfn_t nframes);
void ph_destroy(struct pageheap *h);
/* Insert pfn, or move it to its new place if it is in already. */
void ph_set(struct pageheap *h, pfn_t pfn, uint64_t k1, uint64_t k2);
void ph_remove(struct pageheap *h, pfn_t pfn);
static inline bool ph_has(const struct pageheap *h, pfn_t pfn) { return h->slot[pfn] != 0; }
static inline pfn_t ph_min(const struct pageheap *h) { return h->n ? h->heap[0] : PFN_NONE; }
/* A shrink pass takes the top frame out to offer it to the core; one the
 * core would not take (busy, or anonymous with swap full) is set aside,
 * keys kept, so the pass can go on to the next: stopping at it would leave
 * a file page further down unreclaimed and OOM-kill with the page cache
 * full.  refused: the core refused it for I/O in flight.  ph_put_back()
 * returns every frame set aside to the heap. */
void ph_set_aside(struct pageheap *h, pfn_t pfn, bool refused);
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
