/* file_target.h - the trace readers on real files and pipes, plain and
 * compressed (issue 36), checked by the libFuzzer harness
 * tests/fuzz/fuzz_file.c (make fuzz) and by its seeds and mutations in
 * make check (tests/test_mutate.c).  readers.h feeds the readers from
 * memory; this goes through what a user's trace goes through: a file
 * opened by name (read in place when it can be mapped), a pipe, zstd and
 * gzip streams, and streams cut short. */
#ifndef PAGELAB_FUZZ_FILE_TARGET_H
#define PAGELAB_FUZZ_FILE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* data[0] % 9 picks the format (0: detect, else enum trace_format), the
 * rest is the file.  Its reading (at most 65536 references) must give:
 * an error of one line naming the input ("NAME:RECORD: ..." or "NAME:
 * ..."), or references; through a pipe the same as from the file; the
 * same again from the file compressed with zstd and with gzip (when the
 * build has them), read from a file and from a pipe; and the compressed
 * file cut short never accepted (cut where the data picks, read from a
 * file; one byte short, through a pipe).  A pipe is written whole before
 * it is read: inputs beyond its 64 KiB are read from files only. */
bool fuzz_file_one(const uint8_t *data, size_t size);

#endif
