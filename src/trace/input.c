/* input.c - buffered, decompressing byte source for the trace readers; see
 * input.h.  One buffer of decompressed bytes, refilled in large reads so
 * that a binary trace streams at memory speed and a text reader can hand
 * out lines in place without copying them. */
#include "input.h"
#include "../lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

/* Twice the longest line plus slack: a line always fits once the buffer
 * has been compacted. */
#define BUF_SIZE (4u << 20)
#define CBUF_SIZE (1u << 20)

struct input {
	FILE *f;
	bool own;             /* fclose at the end */
	char *name;
	enum input_codec codec;
	uint8_t *buf;         /* decompressed bytes [start, end) not consumed */
	size_t start, end, scanned;
	bool eof;             /* no more bytes will come into buf */
	bool raw_eof;         /* the underlying file is exhausted */
	uint8_t *cbuf;        /* compressed bytes [cstart, cend) */
	size_t cstart, cend;
	z_stream z;
	bool z_live;
	ZSTD_DStream *zs;
	uint64_t consumed;
	char err[160];
};

static size_t raw_read(struct input *in, uint8_t *dst, size_t n)
{
	if (in->raw_eof)
		return 0;
	size_t got = fread(dst, 1, n, in->f);
	if (got < n) {
		in->raw_eof = true;
		if (ferror(in->f))
			snprintf(in->err, sizeof(in->err), "read error: %s", strerror(errno ? errno : EIO));
	}
	return got;
}

static void codec_start(struct input *in)
{
	const uint8_t *b = in->buf + in->start;
	size_t n = in->end - in->start;
	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		in->codec = CODEC_GZIP;
	else if (n >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)
		in->codec = CODEC_ZSTD;
	else
		return;
	in->cbuf = xmalloc(CBUF_SIZE);
	memcpy(in->cbuf, b, n);
	in->cstart = 0;
	in->cend = n;
	in->start = in->end = 0;
	if (in->codec == CODEC_GZIP) {
		memset(&in->z, 0, sizeof(in->z));
		if (inflateInit2(&in->z, 16 + MAX_WBITS) != Z_OK)
			panic("zlib: inflateInit2 failed");
		in->z_live = true;
	} else {
		in->zs = ZSTD_createDStream();
		if (!in->zs)
			panic("zstd: cannot create a stream");
		ZSTD_initDStream(in->zs);
	}
}

/* Decompress into buf[end, cap); returns bytes produced, 0 at the end. */
static size_t decode(struct input *in, size_t cap)
{
	size_t produced = 0;
	while (produced == 0 && !in->err[0]) {
		if (in->cstart == in->cend) {
			in->cstart = 0;
			in->cend = raw_read(in, in->cbuf, CBUF_SIZE);
			if (in->err[0])
				return 0;
			if (in->cend == 0)
				return 0;
		}
		if (in->codec == CODEC_GZIP) {
			in->z.next_in = in->cbuf + in->cstart;
			in->z.avail_in = (uInt)(in->cend - in->cstart);
			in->z.next_out = in->buf + in->end;
			in->z.avail_out = (uInt)(cap - in->end);
			int rc = inflate(&in->z, Z_NO_FLUSH);
			in->cstart = in->cend - in->z.avail_in;
			produced = cap - in->end - in->z.avail_out;
			if (rc == Z_STREAM_END) {
				/* gzip files may hold several members (cat a.gz b.gz). */
				inflateReset(&in->z);
			} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
				snprintf(in->err, sizeof(in->err), "corrupt gzip data (%s)", in->z.msg ? in->z.msg : "inflate failed");
				return 0;
			} else if (rc == Z_BUF_ERROR && produced == 0 && in->cstart < in->cend) {
				snprintf(in->err, sizeof(in->err), "corrupt gzip data");
				return 0;
			}
		} else {
			ZSTD_inBuffer ib = { in->cbuf, in->cend, in->cstart };
			ZSTD_outBuffer ob = { in->buf, cap, in->end };
			size_t rc = ZSTD_decompressStream(in->zs, &ob, &ib);
			if (ZSTD_isError(rc)) {
				snprintf(in->err, sizeof(in->err), "corrupt zstd data (%s)", ZSTD_getErrorName(rc));
				return 0;
			}
			in->cstart = ib.pos;
			produced = ob.pos - in->end;
		}
	}
	return produced;
}

/* Bring more bytes into the buffer; false when none came (end or error). */
static bool fill(struct input *in)
{
	if (in->eof)
		return false;
	if (in->start > 0 && (in->start == in->end || in->end > BUF_SIZE / 2)) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->scanned -= in->start;
		in->start = 0;
	}
	size_t cap = BUF_SIZE - 1; /* one byte for a final NUL */
	if (in->end >= cap)
		return false;
	size_t got = in->codec == CODEC_NONE ? raw_read(in, in->buf + in->end, cap - in->end) : decode(in, cap);
	in->end += got;
	if (got == 0)
		in->eof = true;
	return got > 0;
}

static struct input *input_new(FILE *f, bool own, const char *name)
{
	struct input *in = xcalloc(1, sizeof(*in));
	in->f = f;
	in->own = own;
	in->name = xstrdup(name);
	in->buf = xmalloc(BUF_SIZE);
	/* The first bytes tell the codec. */
	in->end = raw_read(in, in->buf, 64 << 10);
	codec_start(in);
	if (in->end == 0 && in->codec == CODEC_NONE && in->raw_eof)
		in->eof = true;
	return in;
}

struct input *input_open(const char *path, char *err, size_t errlen)
{
	if (!strcmp(path, "-"))
		return input_new(stdin, false, "-");
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot open trace '%s': %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot open trace '%s': %s", path, strerror(EISDIR));
		fclose(f);
		return NULL;
	}
	return input_new(f, true, path);
}

struct input *input_from_file(FILE *f, const char *name)
{
	return input_new(f, false, name);
}

void input_close(struct input *in)
{
	if (!in)
		return;
	if (in->z_live)
		inflateEnd(&in->z);
	if (in->zs)
		ZSTD_freeDStream(in->zs);
	if (in->own)
		fclose(in->f);
	free(in->cbuf);
	free(in->buf);
	free(in->name);
	free(in);
}

const char *input_name(const struct input *in) { return in->name; }
enum input_codec input_codec(const struct input *in) { return in->codec; }
const char *input_error(const struct input *in) { return in->err; }
uint64_t input_offset(const struct input *in) { return in->consumed; }

size_t input_host_bytes(const struct input *in)
{
	return sizeof(*in) + BUF_SIZE + (in->cbuf ? CBUF_SIZE : 0) +
	       (in->zs ? ZSTD_sizeof_DStream(in->zs) : 0) + (in->z_live ? 44u << 10 : 0);
}

bool input_is_plain_file(const struct input *in, uint64_t *size)
{
	struct stat st;
	if (in->codec != CODEC_NONE || fstat(fileno(in->f), &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	*size = (uint64_t)st.st_size;
	return true;
}

const uint8_t *input_peek(struct input *in, size_t want, size_t *n)
{
	while (in->end - in->start < want && fill(in))
		;
	*n = MIN(want, in->end - in->start);
	return in->buf + in->start;
}

long input_read(struct input *in, void *dst, size_t n)
{
	uint8_t *d = dst;
	size_t done = 0;
	while (done < n) {
		if (in->start == in->end && !fill(in))
			break;
		size_t k = MIN(n - done, in->end - in->start);
		memcpy(d + done, in->buf + in->start, k);
		in->start += k;
		done += k;
	}
	in->scanned = in->start;
	in->consumed += done;
	if (in->err[0])
		return -1;
	return (long)done;
}

int input_line(struct input *in, char **line, size_t *len)
{
	if (in->scanned < in->start)
		in->scanned = in->start;
	for (;;) {
		uint8_t *nl = memchr(in->buf + in->scanned, '\n', in->end - in->scanned);
		if (nl) {
			*nl = 0;
			*line = (char *)in->buf + in->start;
			*len = (size_t)(nl - (in->buf + in->start));
			if (*len > TRACE_LINE_MAX)
				break;
			in->consumed += *len + 1;
			in->start = in->scanned = (size_t)(nl - in->buf) + 1;
			return 1;
		}
		in->scanned = in->end;
		if (in->end - in->start > TRACE_LINE_MAX)
			break;
		if (!fill(in)) {
			if (in->err[0])
				return -1;
			if (in->start == in->end)
				return 0;
			/* The last line needs no newline. */
			in->buf[in->end] = 0;
			*line = (char *)in->buf + in->start;
			*len = in->end - in->start;
			in->consumed += *len;
			in->start = in->scanned = in->end;
			return 1;
		}
	}
	snprintf(in->err, sizeof(in->err), "line longer than %u bytes", TRACE_LINE_MAX);
	return -1;
}
