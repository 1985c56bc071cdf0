/* nextuse.h - OPT's next uses without the trace in memory.  A backward
 * pass over the references in binary form (the trace itself when it is an
 * uncompressed pagelab binary trace, else a temporary copy with dense ids
 * written in one forward pass) writes the next use of every reference to
 * a temporary side file; the replay then reads the references and their
 * next uses forward, batch by batch.  Host memory: 8 bytes per distinct
 * page (the last use seen by the backward pass) plus buffers, whatever
 * the trace's length; disk: 8 bytes per reference (16 for a copy). */
#ifndef PAGELAB_CACHESIM_NEXTUSE_H
#define PAGELAB_CACHESIM_NEXTUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../trace/trace_reader.h"

struct nextuse;

/* Run the backward pass over the trace at path; NULL with one line in err. */
struct nextuse *nextuse_open(const char *path, const struct trace_opts *o, char *err, size_t errlen);
/* The next up to max references, dense ids and write flags: the count, 0
 * at the end, -1 on a bad record or read error (nextuse_error). */
long nextuse_next(struct nextuse *nu, uint32_t *pages, uint8_t *writes, size_t max);
/* The next uses of the references nextuse_next() just returned (positions
 * counted from 0; UINT64_MAX: never again). */
const uint64_t *nextuse_window(const struct nextuse *nu);
const char *nextuse_error(const struct nextuse *nu);
/* Host bytes held at most (the backward pass's table, the buffers). */
size_t nextuse_host_bytes(const struct nextuse *nu);
void nextuse_close(struct nextuse *nu);

#endif
