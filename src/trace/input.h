/* input.h - the byte source under every trace reader: a plain file, stdin
 * or a pipe, read through one large buffer, with zstd and gzip streams
 * decompressed on the fly (recognised by their magic numbers, whatever the
 * file is called).  Readers take bytes (input_read), whole lines
 * (input_line, with a length limit instead of an unbounded allocation) or
 * a peek at the first bytes (format detection). */
#ifndef PAGELAB_TRACE_INPUT_H
#define PAGELAB_TRACE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest line a text reader accepts.  A longer one is an error, never a
 * silent truncation (issue 9: a 2.2 GB comment line used to end the
 * trace). */
#define TRACE_LINE_MAX (1u << 20)

enum input_codec { CODEC_NONE, CODEC_GZIP, CODEC_ZSTD };

/* The decompressors this build has, for --version: "zstd, zlib", "no
 * zstd, no zlib", ...  A compressed trace without its library is
 * refused with one line naming the package to install.  A stream that
 * ends anywhere but between two gzip members or zstd frames is an error
 * ("truncated zstd stream"), and so is a regular file that is shorter at
 * the end of the reading than at its start ("the file shrank while it
 * was read"): neither is a shorter trace. */
const char *input_codecs(void);

struct input;

/* Open path ("-" = stdin).  On failure NULL and a message in err. */
struct input *input_open(const char *path, char *err, size_t errlen);
/* Read from an open stream (not closed by input_close). */
struct input *input_from_file(FILE *f, const char *name);
void input_close(struct input *in);

const char *input_name(const struct input *in);
enum input_codec input_codec(const struct input *in);
/* A regular, uncompressed file (its size is known and it can be mmapped). */
bool input_is_plain_file(const struct input *in, uint64_t *size);

/* Up to want bytes of the start of the (decompressed) data without
 * consuming them; *n gets how many there are. */
const uint8_t *input_peek(struct input *in, size_t want, size_t *n);
/* Up to want bytes (at most 1 MiB) at the read position, in place: *n
 * of them, fewer than want only where the data ends (0 at the end or on
 * an error, which input_error names), valid until the next call on in.
 * A plain file's bytes are its pages, mapped (input.c says why); other
 * inputs', the buffer's.  input_skip() consumes n <= *n of them. */
const uint8_t *input_view(struct input *in, size_t want, size_t *n);
void input_skip(struct input *in, size_t n);
/* Read exactly n bytes unless the data ends: returns the count read,
 * or -1 on a read or decompression error (input_error says which). */
long input_read(struct input *in, void *buf, size_t n);
/* The next line, without its '\n', NUL-terminated in the input's buffer
 * (valid until the next call); *len excludes the terminator.  Returns 1
 * for a line, 0 at the end, -1 on error: a read error, or a line longer
 * than TRACE_LINE_MAX (input_error says which). */
int input_line(struct input *in, char **line, size_t *len);
const char *input_error(const struct input *in);
/* Decompressed bytes consumed so far. */
uint64_t input_offset(const struct input *in);
/* Host bytes the input holds (its buffers). */
size_t input_host_bytes(const struct input *in);

#endif
