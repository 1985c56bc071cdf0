/* file_target.c - see file_target.h. */
#include "file_target.h"
#include "compress.h"
#include "../../src/trace/trace_reader.h"
#include "../../src/lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAIL(...) do { fprintf(stderr, "fuzz_file: " __VA_ARGS__); fputc('\n', stderr); return false; } while (0)
#define MAX_REFS 65536
#define BATCH 1024

/* What one reading gave: its references' count and checksum, or its
 * error with the input's name taken off the front (bad_name: the error
 * did not start with it). */
struct outcome {
	bool ok, capped, bad_name;
	bool skipped; /* not read: nothing to check */
	uint64_t n, sum;
	char err[400];
};

static void read_all(struct trace_reader *r, const char *name, const char *open_err, struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	char err[400];
	snprintf(err, sizeof(err), "%s", open_err);
	if (r) {
		struct trace_ref b[BATCH];
		long n = 0;
		while (o->n < MAX_REFS && (n = trace_next(r, b, BATCH)) > 0) {
			for (long i = 0; i < n; i++)
				o->sum = o->sum * 31 + b[i].page * 3 + b[i].write + b[i].pid * 7 + b[i].kind + b[i].time;
			o->n += (uint64_t)n;
		}
		o->ok = n >= 0;
		o->capped = o->n >= MAX_REFS;
		snprintf(err, sizeof(err), "%s", o->ok ? "" : trace_reader_error(r));
		trace_close(r);
	}
	if (o->ok)
		return;
	size_t k = strlen(name);
	o->bad_name = strncmp(err, name, k) != 0 || err[k] != ':';
	snprintf(o->err, sizeof(o->err), "%s", o->bad_name ? err : err + k);
}

static void read_path(const char *path, enum trace_format f, struct outcome *o)
{
	struct trace_opts opts = { .format = f };
	char err[400] = "";
	read_all(trace_open(path, &opts, err, sizeof(err)), path, err, o);
}

/* b through a pipe, written whole before the reading (it fits in the
 * pipe's buffer: no writer process or thread to end).  Longer than the
 * buffer: not read (skipped). */
#define PIPE_MIN 65536 /* Linux's pipe capacity, and POSIX's PIPE_BUF at least */
static void read_pipe(const uint8_t *b, size_t n, enum trace_format f, struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->skipped = true;
	int fds[2];
	if (n > PIPE_MIN || pipe(fds) != 0)
		return;
	bool written = write(fds[1], b, n) == (ssize_t)n;
	close(fds[1]);
	FILE *p = fdopen(fds[0], "rb");
	if (!written || !p) {
		if (p)
			fclose(p);
		else
			close(fds[0]);
		return;
	}
	struct trace_opts opts = { .format = f };
	char err[400] = "";
	read_all(trace_open_file(p, "in", &opts, err, sizeof(err)), "in", err, o);
	fclose(p);
}

static bool write_file(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(b, 1, n, f) == n;
	return (f ? fclose(f) == 0 : false) && ok;
}

/* The temporary directory of this process's files (made once). */
static const char *workdir(void)
{
	static char dir[64];
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s", "/tmp/pagelab-fuzz-file-XXXXXX");
		if (!mkdtemp(dir))
			dir[0] = 0;
	}
	return dir;
}

static bool one_line(const struct outcome *o, const char *what)
{
	if (o->ok || o->skipped)
		return true;
	if (o->bad_name)
		FAIL("%s: the error does not start with the input's name: '%s'", what, o->err);
	if (strchr(o->err, '\n') || o->err[0] != ':' || o->err[1] == 0)
		FAIL("%s: not a one-line error after the name: '%s'", what, o->err);
	return true;
}

/* b is a reading of what a reads (another source or codec): the same. */
static bool same(const struct outcome *a, const struct outcome *b, const char *what)
{
	if (!one_line(b, what))
		return false;
	if (b->skipped)
		return true;
	if (a->ok != b->ok || a->n != b->n || a->sum != b->sum || strcmp(a->err, b->err))
		FAIL("%s: %s %llu refs '%s', the plain file %s %llu refs '%s'", what, b->ok ? "ok" : "error",
		     (unsigned long long)b->n, b->err, a->ok ? "ok" : "error", (unsigned long long)a->n, a->err);
	return true;
}

/* The plain reading a, compressed with c: the same whole, from a file and
 * a pipe; cut short, refused. */
static bool compressed(const char *dir, enum input_codec c, enum trace_format f, const uint8_t *data, size_t size,
		       const struct outcome *a)
{
	uint8_t *z;
	size_t zn;
	if (!compress_buf(c, data, size, &z, &zn))
		return true;
	const char *name = c == CODEC_GZIP ? "gzip" : "zstd";
	char path[128], what[64];
	snprintf(path, sizeof(path), "%s/t.%s", dir, c == CODEC_GZIP ? "gz" : "zst");
	bool ok = write_file(path, z, zn);
	/* Data compressed already is read decompressed once, not twice: its
	 * compressed reading is another trace, only held to one line. */
	bool layered = (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) ||
		       (size >= 4 && data[0] == 0x28 && data[1] == 0xb5 && data[2] == 0x2f && data[3] == 0xfd);
	struct outcome o;
	for (int src = 0; ok && src < 2; src++) {
		if (src)
			read_pipe(z, zn, f, &o);
		else
			read_path(path, f, &o);
		snprintf(what, sizeof(what), "%s %s", name, src ? "pipe" : "file");
		ok = layered ? one_line(&o, what) : same(a, &o, what);
	}
	/* Cut where the data says, and one byte short of the end; under 4
	 * bytes the magic number is not there to tell a compressed file. */
	size_t cuts[2] = { 4 + (size ? data[size - 1] * 7919u : 0) % (zn - 3), zn - 1 };
	for (int k = 0; ok && !a->capped && k < 2; k++) {
		if (cuts[k] < 4 || cuts[k] >= zn || (!k && !write_file(path, z, cuts[k])))
			continue;
		/* The first cut from a file, the second through a pipe. */
		if (k)
			read_pipe(z, cuts[k], f, &o);
		else
			read_path(path, f, &o);
		snprintf(what, sizeof(what), "%s %s cut at %zu of %zu", name, k ? "pipe" : "file", cuts[k], zn);
		ok = one_line(&o, what);
		if (ok && o.ok && !o.skipped)
			FAIL("%s: accepted, %llu references", what, (unsigned long long)o.n);
	}
	unlink(path);
	free(z);
	return ok;
}

bool fuzz_file_one(const uint8_t *data, size_t size)
{
	if (size == 0)
		return true;
	enum trace_format f = (enum trace_format)(data[0] % TRACE_FMT_COUNT);
	data++;
	size--;
	const char *dir = workdir();
	char path[128];
	snprintf(path, sizeof(path), "%s/t", dir);
	if (!dir[0] || !write_file(path, data, size))
		return true; /* no temporary file: nothing to check */
	struct outcome a, p;
	read_path(path, f, &a);
	bool ok = one_line(&a, "file");
	read_pipe(data, size, f, &p);
	ok = ok && same(&a, &p, "pipe");
	unlink(path);
	ok = ok && compressed(dir, CODEC_ZSTD, f, data, size, &a);
	ok = ok && compressed(dir, CODEC_GZIP, f, data, size, &a);
	return ok;
}
