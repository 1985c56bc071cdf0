/* shards.h - SHARDS, spatially hashed sampling of a trace for an
 * approximate LRU miss-ratio curve in a fraction of the exact pass's
 * memory (Waldspurger, Park, Garthwaite and Ahmad, "Efficient MRC
 * Construction with SHARDS", FAST 2015).
 *
 * A reference is sampled when the hash of its page, taken modulo
 * P = 2^24, is below a threshold T: the sampling rate is R = T/P, and
 * because the decision depends on the page only, every reference to a
 * sampled page is seen, so stack distances within the sample are
 * distances among a fraction R of the pages; scaled by 1/R they estimate
 * the trace's.
 *
 *   fixed rate (shards_init_rate): T is fixed.  SHARDS_adj (section 4.1):
 *     the sample holds N_s references where N x R were expected; the
 *     difference is added to the smallest distance, which corrects the
 *     bias of a few hot pages falling in or out of the sample.
 *   fixed size (shards_init_size): at most S pages are tracked; when a new
 *     page would make S + 1, the pages of the largest hash are evicted and
 *     T lowered to that hash (section 4.2), and the histogram built so far
 *     is rescaled by T'/T so that earlier references weigh as if sampled
 *     at the new rate.  SHARDS_adj as for fixed rate: a reference sampled
 *     at rate R_i weighs R/R_i, so N x R are expected; the difference
 *     from the histogram's weight goes to the smallest distance.
 *
 * Simplifications: the histogram has one bucket per scaled distance (the
 * paper bins them), and fixed-size mode's map of sampled pages keeps an
 * entry for each page ever sampled (evicted ones are never looked up
 * again, as their hash stays above T): a few times S in practice.  The
 * hash is splitmix64's finalizer of (page, pid) with a seed, so a curve
 * is the same for the same trace and seed. */
#ifndef PAGELAB_MRC_SHARDS_H
#define PAGELAB_MRC_SHARDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stackdist.h"
#include "../trace/pagemap.h"

#define SHARDS_P (1ULL << 24)

struct shards {
	bool fixed_size;
	uint64_t smax;          /* fixed size: pages tracked at most */
	uint64_t seed;
	uint64_t t;             /* threshold, out of SHARDS_P */
	struct pagemap map;     /* sampled (page, pid) -> sample id */
	struct stackdist sd;
	uint32_t *hash;         /* per sample id: its hash (fixed size) */
	uint64_t nr_hash;
	uint32_t *heap;         /* fixed size: tracked sample ids, largest hash first */
	uint64_t heap_n, heap_cap;
	double *hist;           /* weight of each scaled distance (index >= 1) */
	uint64_t hist_cap;
	double cold;            /* weight of first references */
	double scale;           /* a stored weight times scale is its weight (fixed size) */
	uint64_t warmup, seen;  /* the first `warmup` references update the sample, uncounted */
	uint64_t nrefs;         /* references counted (sampled or not) */
	uint64_t nsampled;      /* references sampled */
};

void shards_init_rate(struct shards *s, double rate, uint64_t seed);
void shards_init_size(struct shards *s, uint64_t smax, uint64_t seed);
void shards_access(struct shards *s, uint64_t page, uint32_t pid);
/* The sampling rate now (T/P). */
double shards_rate(const struct shards *s);
/* Estimated miss ratios at sizes[0..n) (pages, ascending) into mr; call
 * after the last reference. */
void shards_curve(const struct shards *s, const uint64_t *sizes, int n, double *mr);
size_t shards_host_bytes(const struct shards *s);
void shards_free(struct shards *s);

#endif
