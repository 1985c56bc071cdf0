/* tinfo.h - what `pagelab trace info` says of a trace beyond its counts
 * (docs/trace-format.md, "trace info"): reuse distances in log2 buckets,
 * popularity (a Zipf alpha fitted), the working set over time, and the
 * read/write and anon/file shares.  Pages are the dense ids the replay
 * numbers ((pid, page) pairs in order of first reference).
 *
 * The reuse distance of a reference is its LRU stack distance (Mattson et
 * al. 1970, src/mrc/stackdist.h): one plus the distinct pages referenced
 * since the previous reference to its page, so that an LRU cache of d
 * pages hits it exactly when d is at least that; libCacheSim's
 * traceAnalyzer calls it the stack distance too.  Bucket k holds
 * distances 2^k .. 2^(k+1) - 1.
 *
 * The Zipf alpha is libCacheSim's (traceAnalyzer/popularity.cpp): the
 * pages' reference counts sorted in descending order, f(r) at rank r, and
 * alpha = -slope of the ordinary least-squares line through the points
 * (ln r, ln f(r)), one point per distinct page; R^2 says how well a line
 * fits. */
#ifndef PAGELAB_TRACE_TINFO_H
#define PAGELAB_TRACE_TINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../trace/trace_reader.h"
#include "stackdist.h"

#define TINFO_BUCKETS 33        /* distances up to 2^32 */

struct tinfo {
	uint64_t window;        /* references per working-set window */
	uint64_t nrefs, writes, kinds[3];       /* kinds: enum trace_kind */
	uint64_t first;         /* first references (no reuse distance) */
	uint64_t reuse[TINFO_BUCKETS];
	struct stackdist sd;
	uint32_t *freq, *last_win;      /* per page: references, window + 1 last seen */
	uint64_t npages, cap;
	uint64_t *ws;           /* distinct pages in each window */
	uint64_t nws, ws_cap;
	/* after tinfo_finish() */
	bool fitted;            /* false: fewer than two pages or one frequency */
	double alpha, r2;
	uint64_t top;           /* references to the most popular page */
};

void tinfo_init(struct tinfo *t, uint64_t window);
/* One reference to dense page id page. */
void tinfo_add(struct tinfo *t, uint32_t page, bool write, uint8_t kind);
void tinfo_finish(struct tinfo *t);
size_t tinfo_host_bytes(const struct tinfo *t);
void tinfo_free(struct tinfo *t);

/* The report's sections after the counts: text fitting 80 columns, or
 * JSON members (each line "  \"name\": ...," ready to sit in an object). */
void tinfo_print_text(const struct tinfo *t, FILE *out);
void tinfo_print_json(const struct tinfo *t, FILE *out);

#endif
