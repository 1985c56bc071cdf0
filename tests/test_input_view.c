/* test_input_view.c - reading a plain file in place (input_view: the
 * file's own pages mapped a window at a time, input.c) gives the bytes
 * the buffer gives: across window ends, after input_read() took the
 * first bytes through the buffer, back to the buffer when input_read()
 * follows a view, and at the end (the binary reader over such a file:
 * test_bin_dense.c); a file that shrinks under a view is an error, not a
 * SIGBUS. */
#include "test.h"
#include "child_stderr.h"
#include "../src/trace/input.h"
#include "../src/lib/util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

/* A plain file truncated while a view of it is mapped (another process
 * shrinking a trace mid-replay): reading the view's bytes past the new
 * end raises SIGBUS, which input.c's handler turns into one line on
 * stderr and exit status 2 - in a child, which it ends.  A SIGBUS sent to
 * a process with a view mapped is not the input's and still kills it. */
void test_input_view_file_shrinks(void);
void test_input_view_file_shrinks(void)
{
	size_t len = (size_t)1 << 20;
	uint8_t *b = xmalloc(len);
	for (size_t i = 0; i < len; i++)
		b[i] = byte_at(i);
	for (int sent = 0; sent < 2; sent++) {
		char path[] = "/tmp/pagelab-test-XXXXXX";
		write_file(path, b, len);
		int rfd;
		pid_t pid = child_fork_stderr(&rfd);
		if (pid == 0) {
			/* The child reads the file, not b: under make valgrind a
			 * leak at its exit would turn the status into 99. */
			free(b);
			char err[200];
			struct input *in = input_open(path, err, sizeof(err));
			size_t n;
			const volatile uint8_t *v = in ? input_view(in, 8192, &n) : NULL;
			if (!v || n != 8192)
				_exit(3);
			if (sent) {
				raise(SIGBUS);
				_exit(4);
			}
			if (truncate(path, 0) != 0)
				_exit(5);
			(void)v[4096 + 100];
			_exit(6);
		}
		char msg[400];
		int st = child_wait_stderr(pid, rfd, msg, sizeof(msg));
		if (sent) {
			/* Death by SIGBUS - or, under ASan, whose handler was
			 * there first, its report's exit status: anything but
			 * the input's 2 or going on (4). */
			CHECK((WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS) ||
			      (WIFEXITED(st) && WEXITSTATUS(st) != 2 && WEXITSTATUS(st) != 4));
		} else {
			CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2);
			char want[300];
			snprintf(want, sizeof(want), "pagelab: %s: the file shrank while it was read (byte 4196 is gone)\n",
				 path);
			CHECK(!strcmp(msg, want));
			if (strcmp(msg, want))
				fprintf(stderr, "got: %s", msg);
		}
		unlink(path);
	}
	free(b);
}
