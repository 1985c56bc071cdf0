/* trace.h - memory-reference traces, loaded into memory.
 *
 * pagelab's text format (docs/trace-format.md): one reference per line,
 * "PAGE r" or "PAGE w", PAGE a decimal or 0x-prefixed hexadecimal page
 * number; '#' starts a comment; blank lines are ignored.  Page numbers are
 * renumbered densely in order of first reference. */
#ifndef PAGELAB_TRACE_H
#define PAGELAB_TRACE_H

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

/* Parse from a stream; on error write "NAME:LINE: message" into err. */
bool trace_parse_text(FILE *in, const char *name, struct trace *t, char *err, size_t errlen);
bool trace_load_text(const char *path, struct trace *t, char *err, size_t errlen);
/* Fill t->next_use (NEXT_USE_NEVER = UINT64_MAX for the last reference). */
void trace_compute_next_use(struct trace *t);
void trace_free(struct trace *t);

#endif
