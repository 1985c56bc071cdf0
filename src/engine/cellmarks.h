/* cellmarks.h - a sweep cell's warm-up and windows (pagelab sweep
 * --warmup, --window; docs/sweeps.md).
 *
 * A cell runs the full machine, and its trace workload does not stop at
 * a given reference to read the miss counters.  A cell the cache-only
 * replay could run as `pagelab run` would (a lone trace on --machine
 * ideal, only --ram changed, a cache policy) takes its marks from that
 * replay, which faults reference for reference as the full machine does
 * (tests/cli.d/fastpath.sh): one more pass over the trace per cell. */
#ifndef PAGELAB_ENGINE_CELLMARKS_H
#define PAGELAB_ENGINE_CELLMARKS_H

#include <stdbool.h>
#include <stddef.h>

#include "cell.h"
#include "../cachesim/marks.h"

/* Whether the cache-only replay can run c: false with why in err. */
bool cell_marks_ok(const struct cell *c, char *err, size_t errlen);
/* W of --warmup w over c's trace, its references counted (a binary
 * trace's header, else a pass): false with one line in err if W leaves
 * none to count or the trace cannot be read. */
bool cell_marks_warmup(const struct cell *c, const struct warmup_arg *w, uint64_t *out, char *err, size_t errlen);
/* Replay c's trace through a cache of its frames: mk's warmup and window
 * set by the caller, the misses filled in; *refs, *misses in all. */
bool cell_marks_run(const struct cell *c, struct marks *mk, uint64_t *refs, uint64_t *misses, char *err,
		    size_t errlen);

#endif
