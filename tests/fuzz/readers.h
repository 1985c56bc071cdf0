/* readers.h - the property every trace reader (src/trace/) must keep on
 * any input, checked by one libFuzzer harness per format
 * (tests/fuzz/fuzz_<format>.c, make fuzz) and by the deterministic
 * mutation pass in make check (tests/test_mutate.c). */
#ifndef PAGELAB_FUZZ_READERS_H
#define PAGELAB_FUZZ_READERS_H

#include "../../src/trace/trace_reader.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Read data as format fmt (for csv and block, a first line "@SPEC" is the
 * --spec string), at most 65536 references.  False if an invariant
 * broke: on success every write flag is 0 or 1, every kind 0-2, a binary
 * trace's pages below its header's count, and a second read gives the
 * same references; on failure the message is one line "in:RECORD: ..."
 * with a record that exists in the input, or "in: ..." for a file-level
 * problem.  A binary trace read in place as the cache-only replay reads
 * it (trace_view_dense) must give the dense reader's references and
 * error. */
bool fuzz_reader_one(enum trace_format fmt, const uint8_t *data, size_t size);

#endif
