/* marks.h - warm-up and windows over a replay (`--warmup N`, `--window N`
 * of pagelab run and mrc; docs/trace-format.md, "Warm-up and windows").
 *
 * Warm-up follows libCacheSim's simulator (libCacheSim/profiler/
 * simulator.c, _simulate() at commit aa0fc40): the first W references
 * go to the cache but are counted neither as references nor as misses,
 * and a fraction F of the trace is W = floor(F x N).  Windows follow its
 * cachesim's interval miss ratio (bin/cachesim/sim.c), counted in
 * references instead of trace seconds: window k holds references
 * W + kL .. W + (k+1)L - 1, the last one possibly shorter. */
#ifndef PAGELAB_CACHESIM_MARKS_H
#define PAGELAB_CACHESIM_MARKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../trace/trace_reader.h"

/* --warmup N or F as given: a count of references, or a fraction of the
 * trace (0 < F < 1) resolved once its length is known. */
struct warmup_arg {
	uint64_t refs;
	double frac;            /* > 0: a fraction */
};
/* "N" (0 .. 2^64-1) or "F" (0 < F < 1, with a '.'): false if neither. */
bool warmup_parse(const char *s, struct warmup_arg *w);

struct marks {
	uint64_t warmup;        /* W: references not counted */
	uint64_t window;        /* L, or 0: no windows */
	uint64_t warm_misses;   /* misses of the first W references */
	uint64_t *win_misses;   /* misses in each window, ... */
	uint64_t *win_refs;     /* ... of so many references */
	size_t nwin, cap;
};

/* How many of the next `max` references may be fed before a mark
 * (the warm-up's end, a window's end), refs being fed so far. */
size_t marks_room(const struct marks *m, uint64_t refs, size_t max);
/* After feeding: refs references in all, misses so far (cumulative). */
void marks_at(struct marks *m, uint64_t refs, uint64_t misses);
/* The last window, if it is short: call once after the last reference. */
void marks_end(struct marks *m, uint64_t refs, uint64_t misses);
void marks_free(struct marks *m);
/* The marks as JSON members, each preceded by sep (",\n  " in a report,
 * ", " in a JSON line), under pagelab mrc's keys where it has them:
 * "warmup", "warmup_misses", "counted_references" and "counted_misses"
 * (after the warm-up, of the refs references and misses in all), and
 * with windows "window", "window_refs", "window_misses". */
void marks_json(FILE *out, const struct marks *m, uint64_t refs, uint64_t misses, const char *sep);

/* N, a trace's references: its header's count if it has one, else a
 * pass over it.  false with one line in err. */
bool trace_count_refs(const char *path, const struct trace_opts *o, uint64_t *n, char *err, size_t errlen);
/* W of a warm-up argument: its count, or floor(F x N) with N counted by
 * reading the trace (a binary trace's header, else a pass over it; not
 * stdin).  The caller refuses a W that leaves no reference counted.
 * false with the reason in err. */
bool warmup_resolve(const struct warmup_arg *w, const char *path, const struct trace_opts *o, uint64_t *out,
		    char *err, size_t errlen);

#endif
