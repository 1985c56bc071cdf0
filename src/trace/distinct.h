/* distinct.h - the number of distinct pages of a trace, as the replay
 * numbers them: the binary format's header says it; any other format is
 * read through once (as pagelab trace info does). */
#ifndef PAGELAB_TRACE_DISTINCT_H
#define PAGELAB_TRACE_DISTINCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_reader.h"

/* false with one line in err: an unreadable, malformed or empty trace. */
bool trace_distinct_pages(const char *path, const struct trace_opts *o, uint64_t *pages, char *err, size_t errlen);

#endif
