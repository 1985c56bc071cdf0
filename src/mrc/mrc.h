/* mrc.h - miss-ratio curves of a trace (`pagelab mrc`, docs/mrc.md).
 *
 * One pass over the trace reads it with the trace readers, numbers its
 * (pid, page) pairs densely and feeds three consumers at once: the exact
 * LRU curve (stack distances, stackdist.h), SHARDS samplers (shards.h),
 * and, when other policies are asked for, a binary copy of the trace
 * (bintrace.h; a binary trace is used as it is).  The curve of any other
 * policy is then simulated at every size on the ideal machine - the same
 * machine, policy code and counting as `pagelab run --machine ideal
 * --ram Np --policy P trace FILE` - one (policy, size) cell per job on a
 * pool of threads reading the binary copy at memory speed, so the results
 * are the same for any number of threads.
 *
 * A miss is a reference to a page not in the cache, first references
 * included (pgfault on the ideal machine); the miss ratio is misses over
 * references. */
#ifndef PAGELAB_MRC_H
#define PAGELAB_MRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../trace/trace_reader.h"

struct mrc_opts {
	const char *path;            /* the trace ("-": stdin) */
	struct trace_opts topts;
	const char *const *policies; /* "lru": the exact curve; others simulated; none: SHARDS alone */
	int nr_policies;
	const uint64_t *sizes;       /* cache sizes in pages, ascending; NULL: mrc_auto_sizes */
	int nr_sizes;
	const double *shares;        /* and shares of the distinct pages (0.1: 10%), resolved after the pass */
	int nr_shares;
	double shards_rate;          /* > 0: a fixed-rate SHARDS curve */
	uint64_t shards_size;        /* > 0: a fixed-size SHARDS curve */
	uint64_t seed;               /* SHARDS' hash */
	int jobs;                    /* threads for the simulated curves */
	bool progress;               /* on stderr */
	uint64_t warmup;             /* the first references, not counted (--warmup; marks.h) */
	uint64_t window;             /* > 0: misses per window of so many references (needs sizes) */
};

enum mrc_method { MRC_EXACT, MRC_SHARDS_RATE, MRC_SHARDS_SIZE, MRC_SIMULATED };

struct mrc_curve {
	char *name;                  /* "lru", "arc", "lru/shards" ... */
	enum mrc_method method;
	double *misses;              /* per size; an estimate for SHARDS */
	double *ratio;               /* misses / references */
	double rate;                 /* SHARDS: the sampling rate at the end */
	uint64_t sampled;            /* SHARDS: references in the sample */
	double mae;                  /* SHARDS: mean |ratio - exact ratio| over the sizes, or -1 */
	size_t host_bytes;           /* exact and SHARDS: memory the curve's structures took */
	double *win_misses;          /* --window: nwin rows of nr_sizes misses; NULL for SHARDS */
};

struct mrc_result {
	uint64_t nrefs;              /* all read, the warm-up's included */
	uint64_t warmup;             /* of which not counted: ratios are misses / (nrefs - warmup) */
	uint64_t window;             /* --window, or 0 */
	uint64_t *win_refs;          /* references in each window (the last may be short) */
	int nwin;
	uint64_t npages;             /* distinct pages (0: not counted, SHARDS alone) */
	uint64_t npages_estimated;   /* SHARDS alone: its estimate of them, for --auto */
	const char *format;          /* the trace's format name */
	uint64_t *sizes;             /* pages */
	int nr_sizes;
	struct mrc_curve *curves;    /* in the order asked for, SHARDS after "lru" */
	int nr_curves;
	double pass_seconds;         /* host time of the pass (for make bench; never printed by default) */
	int interrupted;             /* a signal stopped it: the curves are incomplete */
};

/* Compute every curve o asks for.  False with one line in err on bad input
 * (an unreadable or malformed trace, an unknown policy, an empty trace). */
bool mrc_compute(const struct mrc_opts *o, struct mrc_result *r, char *err, size_t errlen);
void mrc_result_free(struct mrc_result *r);

/* --sizes: a list of sizes in pages (4897p) or bytes (64M), items and
 * ranges as pagelab sweep reads them (matrix.h's axis_expand), into pages
 * sorted ascending, each once; a size is at least one page and at most
 * 2^32 - 1.  False with one line in err (then *sizes is NULL). */
bool mrc_parse_sizes(const char *list, uint64_t **sizes, int *n, char *err, size_t errlen);
/* The same, but shares of the trace's distinct pages ("10%", ranges
 * "1%:64%:x2", lib/share.h) are taken too, into *shares (as given; NULL
 * and 0 when there are none); *n may then be 0. */
bool mrc_parse_size_list(const char *list, uint64_t **sizes, int *n, double **shares, int *nshares, char *err,
			 size_t errlen);

/* --auto: 1, 1.5, 2, 3, 4, 6 ... times a power of two, from about
 * npages / 4096 up to npages, which ends the list.  Returns the count;
 * *sizes is malloc'd. */
int mrc_auto_sizes(uint64_t npages, uint64_t **sizes);

/* Miss counts at sizes[0..n) (ascending) from a stack-distance histogram:
 * hist[d] references at distance d (1 <= d < hist_len), cold first
 * references. */
void mrc_misses_from_hist(const uint64_t *hist, uint64_t hist_len, uint64_t cold, const uint64_t *sizes, int n,
			  double *misses);

#endif
