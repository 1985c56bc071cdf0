/* compress.h - zstd and gzip compression in-process, for the tests and
 * the fuzz targets that feed the trace readers compressed input.  Either
 * library may be missing from the build (the Makefile's probes): then
 * compress_buf() says so and the caller skips what needs it. */
#ifndef PAGELAB_FUZZ_COMPRESS_H
#define PAGELAB_FUZZ_COMPRESS_H

#include "../../src/trace/input.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* This build can compress (and so the readers decompress) c. */
bool compress_have(enum input_codec c);
/* src compressed with c (CODEC_GZIP: one gzip member, CODEC_ZSTD: one
 * frame) into a new buffer *out of *outlen bytes, to free(); false when
 * the build lacks c. */
bool compress_buf(enum input_codec c, const uint8_t *src, size_t n, uint8_t **out, size_t *outlen);

#endif
