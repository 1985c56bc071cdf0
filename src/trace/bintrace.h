/* bintrace.h - pagelab's compact binary trace (`pagelab trace convert`):
 * little-endian, a 64-byte header
 *   0  "PGLTRACE"   8  u32 version (1)   12  u32 record size (8)
 *   16 u64 references   24 u64 distinct pages   32 u32 flags   36-63 zero
 * then one 8-byte record per reference
 *   u32 page (dense: 0 .. pages-1, numbered in order of first reference)
 *   u32 bit 0 write, bits 1-2 kind (0 any, 1 anon, 2 file), bits 3-7 zero,
 *       bits 8-31 pid (0: none)
 * Because ids are dense and counts are in the header, the replay needs no
 * hash and sizes its memory region once.  Reading is trace_reader.h's. */
#ifndef PAGELAB_TRACE_BINTRACE_H
#define PAGELAB_TRACE_BINTRACE_H

#include "trace_reader.h"

#define BINTRACE_HEADER 64
#define BINTRACE_RECORD 8
#define BINTRACE_VERSION 1
#define BINTRACE_PID_MAX 0xffffffu

struct bintrace_writer;

/* Write to path through a temporary file renamed by bintrace_finish
 * (src/lib/output.c): path must be a regular file or new, since the
 * header is rewritten last; a device or FIFO is refused. */
struct bintrace_writer *bintrace_create(const char *path, char *err, size_t errlen);
/* ref->page must be dense (the caller numbers pages); false on a pid
 * above BINTRACE_PID_MAX (bad input, message in err).  A write error (a
 * full disk, `ulimit -f`) stops the writing and is bintrace_finish()'s
 * to report, so that callers tell it from bad input (exit 1, not 2). */
bool bintrace_put(struct bintrace_writer *w, const struct trace_ref *ref, char *err, size_t errlen);
/* Write the header with the counts and rename into place; false with
 * "cannot write PATH: REASON" on any write error. */
bool bintrace_finish(struct bintrace_writer *w, uint64_t npages, char *err, size_t errlen);
/* Remove the temporary file (after an error). */
void bintrace_abort(struct bintrace_writer *w);

#endif
