/* trace.h - a memory-reference trace loaded whole into memory, for what
 * needs all of it at once: OPT's next-use oracle and the tests.  The
 * replay itself streams (trace_reader.h); loading reads through the same
 * readers and numbers (pid, page) pairs densely in order of first
 * reference. */
#ifndef PAGELAB_TRACE_H
#define PAGELAB_TRACE_H

#include "trace_reader.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct trace {
	uint64_t n;          /* references */
	uint32_t *page;      /* dense page index of each reference */
	uint8_t *write;      /* 1 if the reference writes */
	uint64_t npages;     /* distinct pages */
	uint64_t *next_use;  /* position of the next reference to the same page */
};

/* Load a trace of any format (o may be NULL: detect); on error one line
 * "NAME:RECORD: message" in err. */
bool trace_load(const char *path, const struct trace_opts *o, struct trace *t, char *err, size_t errlen);
/* Parse pagelab's text format from a stream. */
bool trace_parse_text(FILE *in, const char *name, struct trace *t, char *err, size_t errlen);
bool trace_load_text(const char *path, struct trace *t, char *err, size_t errlen);
/* Fill t->next_use (NEXT_USE_NEVER = UINT64_MAX for the last reference). */
void trace_compute_next_use(struct trace *t);
void trace_free(struct trace *t);

#endif
