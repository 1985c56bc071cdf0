/* test_input_view.c - reading a plain file in place (input_view: the
 * file's own pages mapped a window at a time, input.c) gives the bytes
 * the buffer gives: across window ends, after input_read() took the
 * first bytes through the buffer, back to the buffer when input_read()
 * follows a view, and at the end (the binary reader over such a file:
 * test_bin_dense.c). */
#include "test.h"
#include "../src/trace/input.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A file of len bytes, byte i = f(i): its path in path (unlinked by the
 * caller). */
static uint8_t byte_at(uint64_t i) { return (uint8_t)(i * 7 + (i >> 9)); }

static void write_file(char *path, const uint8_t *b, size_t len)
{
	int fd = mkstemp(path);
	if (fd < 0)
		panic("mkstemp");
	FILE *f = fdopen(fd, "wb");
	if (!f || fwrite(b, 1, len, f) != len || fclose(f) != 0)
		panic("cannot write %s", path);
}

/* 9 MiB: three 4 MiB windows, the last one partial. */
#define BIG ((size_t)9 << 20)

void test_input_view_matches_the_file(void);
void test_input_view_matches_the_file(void)
{
	uint8_t *b = xmalloc(BIG);
	for (size_t i = 0; i < BIG; i++)
		b[i] = byte_at(i);
	char path[] = "/tmp/pagelab-test-XXXXXX";
	write_file(path, b, BIG);
	char err[200];
	struct input *in = input_open(path, err, sizeof(err));
	CHECK(in != NULL);
	if (!in)
		return;
	/* The first bytes through the buffer, then views from there. */
	uint8_t head[10];
	CHECK_EQ(input_read(in, head, sizeof(head)), 10);
	CHECK(!memcmp(head, b, 10));
	uint64_t pos = 10;
	size_t n;
	int bad = 0;
	while (pos < BIG - 100000) {
		/* Views of 8 KiB less one byte: they end across the windows'
		 * ends at every offset of a record. */
		const uint8_t *v = input_view(in, 8191, &n);
		if (n != 8191 || memcmp(v, b + pos, n))
			bad++;
		input_skip(in, n);
		pos += n;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(input_offset(in), pos);
	/* input_read() after views: the buffer again, from the same place. */
	uint8_t mid[1000];
	CHECK_EQ(input_read(in, mid, sizeof(mid)), 1000);
	CHECK(!memcmp(mid, b + pos, sizeof(mid)));
	pos += sizeof(mid);
	/* A view now is the buffer's, to the end. */
	while (pos < BIG) {
		const uint8_t *v = input_view(in, 65536, &n);
		size_t expect = BIG - pos < 65536 ? BIG - pos : 65536;
		if (n != expect || memcmp(v, b + pos, n))
			bad++;
		if (!n)
			break;
		input_skip(in, n);
		pos += n;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(pos, BIG);
	input_view(in, 100, &n);
	CHECK_EQ(n, 0);
	CHECK(!input_error(in)[0]);
	input_close(in);

	/* Views alone, to the end of the file: the last one short, then none. */
	in = input_open(path, err, sizeof(err));
	pos = 0;
	for (;;) {
		const uint8_t *v = input_view(in, 1 << 20, &n);
		if (!n)
			break;
		if (memcmp(v, b + pos, n))
			bad++;
		input_skip(in, n);
		pos += n;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(pos, BIG);
	CHECK(!input_error(in)[0]);
	input_close(in);
	unlink(path);
	free(b);
}
