/* test_codecs.c - compressed and shrinking trace input (src/trace/
 * input.c, issues 35 and 36): a compressed trace read when its library is
 * built in and refused in one line naming the package when it is not; a
 * zstd or gzip stream cut anywhere but between two frames or members an
 * error, never a shorter trace; a plain file that shrinks while it is
 * read, through the buffer or mapped, an error too. */
#include "test.h"
#include "../src/trace/trace_reader.h"
#include "../src/trace/input.h"
#include "../src/lib/util.h"
#include "fuzz/compress.h"
#include "trace_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read data as format f named "t": the count of references, or -1 with
 * the error in err. */
static long count_refs(const uint8_t *data, size_t len, enum trace_format f, char *err, size_t errlen)
{
	struct trace_opts o = { .format = f };
	FILE *in = fmemopen((void *)data, len, "r");
	if (!in)
		return -2;
	long total = trace_read_all(in, &o, NULL, 0, err, errlen);
	fclose(in);
	return total;
}

/* "1 r\n2 w\n" as the zstd and gzip tools compress it. */
static const uint8_t zst_2refs[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58, 0x41, 0x00, 0x00, 0x31, 0x20, 0x72,
				     0x0a, 0x32, 0x20, 0x77, 0x0a, 0x24, 0xa7, 0x7e, 0xaa };
static const uint8_t gz_2refs[] = { 0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x33, 0x54,
				    0x28, 0xe2, 0x32, 0x52, 0x28, 0xe7, 0x02, 0x00, 0x98, 0x71, 0x66, 0x0d,
				    0x08, 0x00, 0x00, 0x00 };

void test_codecs_read_or_refused(void);
void test_codecs_read_or_refused(void)
{
	static const struct { enum input_codec c; const uint8_t *data; size_t len; const char *refusal; } k[] = {
		{ CODEC_ZSTD, zst_2refs, sizeof(zst_2refs),
		  "t: zstd-compressed trace, but this pagelab was built without zstd (install libzstd-dev and rebuild)" },
		{ CODEC_GZIP, gz_2refs, sizeof(gz_2refs),
		  "t: gzip-compressed trace, but this pagelab was built without zlib (install zlib1g-dev and rebuild)" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(k); i++) {
		char err[400];
		/* Whatever the format asked for, the refusal comes first. */
		for (int f = TRACE_FMT_AUTO; f < TRACE_FMT_COUNT; f++) {
			long n = count_refs(k[i].data, k[i].len, (enum trace_format)f, err, sizeof(err));
			if (compress_have(k[i].c)) {
				if (f == TRACE_FMT_AUTO || f == TRACE_FMT_TEXT)
					CHECK_EQ(n, 2);
			} else {
				CHECK_EQ(n, -1);
				CHECK(!strcmp(err, k[i].refusal));
				if (strcmp(err, k[i].refusal))
					fprintf(stderr, "format %d: got: %s\n", f, err);
			}
		}
	}
	/* --version's words for the build. */
	const char *v = input_codecs();
	CHECK(strstr(v, compress_have(CODEC_ZSTD) ? "zstd" : "no zstd") == v);
	CHECK(strstr(v, compress_have(CODEC_GZIP) ? ", zlib" : ", no zlib") != NULL);
}

/* A text trace of 3000 references in two frames (members): cut at every
 * offset, the stream is an error unless the cut falls at the end of a
 * frame, where the references of the whole frames are read. */
static void cut_everywhere(enum input_codec c)
{
	const size_t lines = 3000, half = 1500;
	char *text = xmalloc(lines * 24);
	size_t len = 0, mid = 0;
	for (size_t i = 0; i < lines; i++) {
		if (i == half)
			mid = len;
		len += (size_t)sprintf(text + len, "%zu %c\n", (i * 7919) % 4099, i % 3 ? 'r' : 'w');
	}
	uint8_t *a, *b;
	size_t an, bn;
	compress_buf(c, (const uint8_t *)text, mid, &a, &an);
	compress_buf(c, (const uint8_t *)text + mid, len - mid, &b, &bn);
	uint8_t *s = xmalloc(an + bn);
	memcpy(s, a, an);
	memcpy(s + an, b, bn);
	const char *name = c == CODEC_GZIP ? "gzip" : "zstd";
	char want[64];
	snprintf(want, sizeof(want), ": truncated %s stream", name);
	int wrong = 0;
	for (size_t cut = 1; cut <= an + bn; cut++) {
		char err[400];
		long n = count_refs(s, cut, TRACE_FMT_TEXT, err, sizeof(err));
		unsigned long long rec = 0;
		bool ok;
		if (cut == an)
			ok = n == (long)half;
		else if (cut == an + bn)
			ok = n == (long)lines;
		else if (cut < 4) /* too short for the magic number: not compressed */
			ok = n == -1;
		else /* a cut in gzip's trailer: after the last line, record lines + 1 */
			ok = n == -1 && sscanf(err, "t:%llu: ", &rec) == 1 && rec >= 1 && rec <= lines + 1 &&
			     strstr(err, want) && !strcmp(strstr(err, want), want);
		if (!ok && wrong++ < 3)
			fprintf(stderr, "%s cut at %zu of %zu (frames end at %zu): %ld references, '%s'\n", name, cut,
				an + bn, an, n, err);
	}
	CHECK_EQ(wrong, 0);
	free(s);
	free(a);
	free(b);
	free(text);
}

void test_codecs_cut_everywhere(void);
void test_codecs_cut_everywhere(void)
{
	static const enum input_codec codecs[] = { CODEC_ZSTD, CODEC_GZIP };
	for (size_t i = 0; i < ARRAY_SIZE(codecs); i++) {
		if (compress_have(codecs[i]))
			cut_everywhere(codecs[i]);
		else
			printf("%s: %s skipped, this pagelab was built without %s\n", __func__,
			       codecs[i] == CODEC_GZIP ? "gzip" : "zstd", codecs[i] == CODEC_GZIP ? "zlib" : "zstd");
	}
}

/* A plain file of len bytes (byte i = i * 13 + 1), its path in path. */
static void make_file(char *path, size_t len)
{
	int fd = mkstemp(path);
	if (fd < 0)
		panic("mkstemp");
	uint8_t *b = xmalloc(len);
	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(i * 13 + 1);
	if (write(fd, b, len) != (ssize_t)len || close(fd) != 0)
		panic("cannot write %s", path);
	free(b);
}

/* Another process truncating the trace between two reads (issue 36): the
 * buffer's read() ends at the new end, and a view's next window finds
 * the file shorter; either used to be taken for the end of the trace. */
void test_codecs_plain_file_shrinks(void);
void test_codecs_plain_file_shrinks(void)
{
	const size_t len = (size_t)9 << 20, cut = (size_t)6 << 20;
	for (int view = 0; view < 2; view++) {
		char path[] = "/tmp/pagelab-test-XXXXXX", err[200];
		make_file(path, len);
		struct input *in = input_open(path, err, sizeof(err));
		CHECK(in != NULL);
		if (!in)
			return;
		uint8_t chunk[65536];
		size_t n, total = 0;
		/* The first window (mapped) or buffer (4 MiB read) holds the
		 * first bytes; then the file loses its last 3 MiB. */
		if (view)
			input_view(in, sizeof(chunk), &n);
		else
			CHECK_EQ(input_read(in, chunk, 10), 10);
		if (truncate(path, (off_t)cut) != 0)
			panic("truncate");
		for (;;) {
			long got;
			if (view) {
				input_view(in, sizeof(chunk), &n);
				got = input_error(in)[0] ? -1 : (long)n;
				input_skip(in, n);
			} else {
				got = input_read(in, chunk, sizeof(chunk));
			}
			if (got <= 0)
				break;
			total += (size_t)got;
		}
		CHECK(total < len);
		char want[100];
		snprintf(want, sizeof(want), "the file shrank while it was read (byte %zu is gone)", cut);
		CHECK(!strcmp(input_error(in), want));
		if (strcmp(input_error(in), want))
			fprintf(stderr, "view %d: got '%s' after %zu bytes\n", view, input_error(in), total);
		input_close(in);
		unlink(path);
	}
}
