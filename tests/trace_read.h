/* trace_read.h - a whole trace read from a stream by the trace readers,
 * for the unit tests of the readers (test_trace.c) and of their input
 * (test_codecs.c). */
#ifndef PAGELAB_TESTS_TRACE_READ_H
#define PAGELAB_TESTS_TRACE_READ_H

#include "../src/trace/trace_reader.h"

#include <stdio.h>

/* Read in (named "t") with options o to its end: the count of
 * references, the first max of them in out (NULL: none kept), or -1 with
 * the reader's error in err. */
long trace_read_all(FILE *in, const struct trace_opts *o, struct trace_ref *out, size_t max, char *err,
		    size_t errlen);

#endif
