/* input.c - buffered, decompressing byte source for the trace readers; see
 * input.h.  One buffer of decompressed bytes, refilled in large reads so
 * that a binary trace streams at memory speed and a text reader can hand
 * out lines in place without copying them; and for a plain file read in
 * place (input_view), the file's own pages mapped a window at a time. */
#define _DEFAULT_SOURCE  /* MAP_POPULATE */
#include "input.h"
#include "../lib/sigchain.h"
#include "../lib/util.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Which decompressors are built in (the Makefile's probes; either may be
 * missing on a machine without its -dev package). */
#include "pagelab_codecs.h"
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

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
	/* The decoder stands between two members or frames: where the
	 * compressed data may end.  Anywhere else its end is a truncation. */
	bool at_stream_end;
#ifdef HAVE_ZLIB
	z_stream z;
	bool z_live;
#endif
#ifdef HAVE_ZSTD
	ZSTD_DStream *zs;
#endif
	uint64_t consumed;
	uint64_t raw_off;     /* file offset of the next raw byte */
	bool positioned;      /* read with pread() at raw_off (raw_read) */
	pid_t opener;         /* the process that opened it (stream_read) */
	bool sized;           /* a regular file, size0 bytes long at the open */
	uint64_t size0;
	/* input_view() of a plain file: the window [map_off, map_off +
	 * map_len) of the file mapped at map, the read position at file
	 * offset pos; map NULL: the buffer serves (no_map: for good). */
	bool mapped;
	uint8_t *map;
	size_t map_len;
	uint64_t map_off, pos;
	bool no_map;
	int slot;             /* its place in mapped[] (on_sigbus), -1: none */
	char err[160];
};

/* A regular file (or block device) is read with pread() at raw_off, an
 * offset of the input's own, never the descriptor's: a forked copy of the
 * input (pagelab kernel's walk, its tasks, its report; run
 * --make-inputs's walk) shares the descriptor, and with it the file
 * offset, with every other copy.  Read through it, the first copy to
 * read moved the offset to the end for all of them, and the next one
 * met the end after the 64 KiB input_new() had buffered (issue 38).
 * Returns the bytes read (fewer than n only at the end); -1 on error. */
static ssize_t pread_all(int fd, uint8_t *dst, size_t n, uint64_t off)
{
	size_t done = 0;
	while (done < n) {
		ssize_t got = pread(fd, dst + done, n - done, (off_t)(off + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		done += (size_t)got;
	}
	return (ssize_t)done;
}

/* A pipe or a terminal has no offset to read at: its bytes go to one
 * reader.  A copy forked after the open that needs more than was
 * buffered before the fork would get what no other copy read, a part of
 * the trace taken for the whole: an error instead. */
static size_t stream_read(struct input *in, uint8_t *dst, size_t n)
{
	if (getpid() != in->opener) {
		snprintf(in->err, sizeof(in->err), "not a regular file, and a forked process cannot read it "
			 "again from its start: give the trace as a file");
		in->raw_eof = true;
		return 0;
	}
	return fread(dst, 1, n, in->f);
}

static size_t raw_read(struct input *in, uint8_t *dst, size_t n)
{
	if (in->raw_eof)
		return 0;
	size_t got;
	bool failed = false;
	if (in->positioned) {
		ssize_t k = pread_all(fileno(in->f), dst, n, in->raw_off);
		failed = k < 0;
		got = k < 0 ? 0 : (size_t)k;
	} else {
		got = stream_read(in, dst, n);
		failed = ferror(in->f);
	}
	in->raw_off += got;
	if (got < n) {
		in->raw_eof = true;
		if (in->err[0])
			return got;
		if (failed)
			snprintf(in->err, sizeof(in->err), "read error: %s", strerror(errno ? errno : EIO));
		else if (in->sized && in->raw_off < in->size0)
			/* read() ends early at a shrunk file's new end: not the
			 * trace's end. */
			snprintf(in->err, sizeof(in->err), "the file shrank while it was read (byte %llu is gone)",
				 (unsigned long long)in->raw_off);
	}
	return got;
}

static const char *codec_name(enum input_codec c)
{
	return c == CODEC_GZIP ? "gzip" : "zstd";
}

/* The decoder of in->codec; false if this build has none. */
static bool codec_init(struct input *in)
{
	switch (in->codec) {
#ifdef HAVE_ZLIB
	case CODEC_GZIP:
		memset(&in->z, 0, sizeof(in->z));
		if (inflateInit2(&in->z, 16 + MAX_WBITS) != Z_OK)
			panic("zlib: inflateInit2 failed");
		in->z_live = true;
		return true;
#endif
#ifdef HAVE_ZSTD
	case CODEC_ZSTD:
		in->zs = ZSTD_createDStream();
		if (!in->zs)
			panic("zstd: cannot create a stream");
		ZSTD_initDStream(in->zs);
		return true;
#endif
	default:
		return false;
	}
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
	if (!codec_init(in)) {
		/* Recognised, but not readable here: say so rather than read
		 * the compressed bytes as a trace. */
		snprintf(in->err, sizeof(in->err),
			 "%s-compressed trace, but this pagelab was built without %s (install %s and rebuild)",
			 codec_name(in->codec), in->codec == CODEC_GZIP ? "zlib" : "zstd",
			 in->codec == CODEC_GZIP ? "zlib1g-dev" : "libzstd-dev");
		in->eof = true;
	}
}

const char *input_codecs(void)
{
#if defined(HAVE_ZSTD) && defined(HAVE_ZLIB)
	return "zstd, zlib";
#elif defined(HAVE_ZSTD)
	return "zstd, no zlib";
#elif defined(HAVE_ZLIB)
	return "no zstd, zlib";
#else
	return "no zstd, no zlib";
#endif
}

/* One call of the decoder: the compressed bytes [cstart, cend), maybe
 * none (then it only flushes what it holds), into buf[end, cap).
 * Returns the bytes produced; consumes input (cstart), keeps
 * at_stream_end, sets err on corrupt data. */
static size_t codec_step(struct input *in, size_t cap)
{
	size_t from = in->cstart, produced = 0;
	bool at_end = false;
	(void)cap; /* with neither library built in */
#ifdef HAVE_ZLIB
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
			at_end = true;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			snprintf(in->err, sizeof(in->err), "corrupt gzip data (%s)", in->z.msg ? in->z.msg : "inflate failed");
			return 0;
		}
	}
#endif
#ifdef HAVE_ZSTD
	if (in->codec == CODEC_ZSTD) {
		ZSTD_inBuffer ib = { in->cbuf, in->cend, in->cstart };
		ZSTD_outBuffer ob = { in->buf, cap, in->end };
		size_t rc = ZSTD_decompressStream(in->zs, &ob, &ib);
		if (ZSTD_isError(rc)) {
			snprintf(in->err, sizeof(in->err), "corrupt zstd data (%s)", ZSTD_getErrorName(rc));
			return 0;
		}
		in->cstart = ib.pos;
		produced = ob.pos - in->end;
		/* 0: a frame decoded and flushed whole. */
		at_end = rc == 0;
	}
#endif
	/* A call that did nothing tells nothing about where the stream is. */
	if (produced || in->cstart != from)
		in->at_stream_end = at_end;
	return produced;
}

/* Decompress into buf[end, cap); returns bytes produced, 0 at the end
 * (or on an error).  The end of the file is the end of the data only
 * between two members or frames: elsewhere the stream was cut short (a
 * partial download, a full disk), and taking it for a shorter trace
 * would give wrong figures without a word. */
static size_t decode(struct input *in, size_t cap)
{
	while (!in->err[0]) {
		if (in->cstart == in->cend) {
			in->cstart = 0;
			in->cend = raw_read(in, in->cbuf, CBUF_SIZE);
			if (in->err[0])
				return 0;
		}
		bool more = in->cstart < in->cend;
		size_t from = in->cstart;
		size_t produced = codec_step(in, cap);
		if (produced || in->err[0])
			return produced;
		if (!more) {
			if (!in->at_stream_end)
				snprintf(in->err, sizeof(in->err), "truncated %s stream", codec_name(in->codec));
			return 0;
		}
		if (in->cstart == from) {
			snprintf(in->err, sizeof(in->err), "corrupt %s data", codec_name(in->codec));
			return 0;
		}
	}
	return 0;
}

static void map_leave(struct input *in);
static void map_unregister(struct input *in);

/* Bring more bytes into the buffer; false when none came (end or error). */
static bool fill(struct input *in)
{
	if (in->mapped)
		map_leave(in);
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
	in->slot = -1;
	in->buf = xmalloc(BUF_SIZE);
	/* A regular file's size now, to tell its end from its shrinking
	 * (raw_read, map_window); raw_off from where the stream stands. */
	struct stat st;
	off_t at = ftello(f);
	in->raw_off = at > 0 ? (uint64_t)at : 0;
	in->opener = getpid();
	if (fileno(f) >= 0 && fstat(fileno(f), &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		in->positioned = at >= 0;
	if (in->positioned && S_ISREG(st.st_mode)) {
		in->sized = true;
		in->size0 = (uint64_t)st.st_size;
	}
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
#ifdef HAVE_ZLIB
	if (in->z_live)
		inflateEnd(&in->z);
#endif
#ifdef HAVE_ZSTD
	if (in->zs)
		ZSTD_freeDStream(in->zs);
#endif
	map_unregister(in);
	if (in->map)
		munmap(in->map, in->map_len);
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
	size_t n = sizeof(*in) + BUF_SIZE + (in->cbuf ? CBUF_SIZE : 0);
#ifdef HAVE_ZSTD
	n += in->zs ? ZSTD_sizeof_DStream(in->zs) : 0;
#endif
#ifdef HAVE_ZLIB
	n += in->z_live ? 44u << 10 : 0;
#endif
	return n;
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

/* input_view() of a plain file.  Why map it: read() copies every byte
 * into the buffer (the kernel's copy) and the reader copied it out again,
 * and the two copies were an eighth of a cache-only replay's CPU time
 * (perf, docs/trace-format.md "Speed"); mapped, the reader decodes the
 * file's pages where they are.  A window of BUF_SIZE bytes at a time
 * (MAP_POPULATE: its pages mapped in one call, not a fault each), so the
 * input holds the host memory it held with the buffer.
 *
 * A file that shrinks while it is read (truncated by another process):
 * its mapped pages past the new end are gone, and reading one raises
 * SIGBUS, where read() would have ended the reading early.  on_sigbus(),
 * installed with the first window, makes that the error of a bad trace:
 * one line on stderr naming the file and the byte, exit status 2,
 * nothing on stdout (a report not yet printed is not printed: _exit()
 * flushes no stdio buffer).  A SIGBUS outside every input's window is
 * not the input's: the handler before it (by default, death by SIGBUS)
 * takes it.  The handler does only what a signal handler may: it
 * composes the line with memcpy() and strlen() (async-signal-safe since
 * POSIX.1-2017) in a buffer on its stack, then write() and _exit(). */
#define MAPPED_MAX 16
static struct input *volatile mapped[MAPPED_MAX];
static struct sigaction sigbus_before;
static bool sigbus_installed;

/* The decimal digits of v at d (at most 20); returns their count. */
static size_t put_dec(char *d, uint64_t v)
{
	char t[20];
	size_t k = 0;
	do
		t[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	for (size_t i = 0; i < k; i++)
		d[i] = t[k - 1 - i];
	return k;
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	const uint8_t *a = si->si_addr;
	for (int i = 0; i < MAPPED_MAX; i++) {
		struct input *in = mapped[i];
		if (!in || !in->map || a < in->map || a >= in->map + in->map_len)
			continue;
		static const char pre[] = "pagelab: ", mid[] = ": the file shrank while it was read (byte ",
				  end[] = " is gone)\n";
		char line[sizeof(in->err) + 128];
		size_t n = 0, len = strlen(in->name);
		len = len < sizeof(in->err) ? len : sizeof(in->err);
		memcpy(line, pre, sizeof(pre) - 1);
		n += sizeof(pre) - 1;
		memcpy(line + n, in->name, len);
		n += len;
		memcpy(line + n, mid, sizeof(mid) - 1);
		n += sizeof(mid) - 1;
		n += put_dec(line + n, in->map_off + (uint64_t)(a - in->map));
		memcpy(line + n, end, sizeof(end) - 1);
		n += sizeof(end) - 1;
		ssize_t w = write(STDERR_FILENO, line, n);
		(void)w;
		_exit(2);
	}
	/* Not an input's: as if this handler had never been there. */
	sig_pass_on(sig, si, &sigbus_before);
}

/* in's window can raise SIGBUS from now on: on_sigbus() must find it. */
static void map_register(struct input *in)
{
	if (in->slot >= 0)
		return;
	if (!sigbus_installed) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGBUS, &sa, &sigbus_before) != 0)
			return;
		sigbus_installed = true;
	}
	for (int i = 0; i < MAPPED_MAX; i++)
		if (!mapped[i]) {
			mapped[i] = in;
			in->slot = i;
			return;
		}
	/* More inputs mapped at once than the table holds: this one is read
	 * through the buffer. */
	in->no_map = true;
}

static void map_unregister(struct input *in)
{
	if (in->slot >= 0)
		mapped[in->slot] = NULL;
	in->slot = -1;
}

static bool map_window(struct input *in, size_t want)
{
	struct stat st;
	if (fstat(fileno(in->f), &st) != 0)
		return false;
	uint64_t size = (uint64_t)st.st_size;
	if (in->map)
		munmap(in->map, in->map_len);
	in->map = NULL;
	in->map_len = 0;
	if (in->sized && size < in->size0) {
		/* Shrunk between two windows: mapping up to its new end would
		 * take that for the trace's end.  A view of nothing and the
		 * error. */
		snprintf(in->err, sizeof(in->err), "the file shrank while it was read (byte %llu is gone)",
			 (unsigned long long)size);
		return true;
	}
	if (in->pos >= size)
		return true; /* the end: a view of no bytes */
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t off = in->pos / page * page;
	uint64_t len = MIN(size - off, MAX((uint64_t)BUF_SIZE, in->pos - off + want));
	map_register(in);
	if (in->no_map)
		return false;
	void *m = mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fileno(in->f), (off_t)off);
	if (m == MAP_FAILED)
		return false;
	in->map = m;
	in->map_len = (size_t)len;
	in->map_off = off;
	return true;
}

/* Back to the buffer, at the read position (a caller of input_read,
 * input_line or input_peek after input_view, or a file mmap refuses). */
static void map_leave(struct input *in)
{
	if (in->map)
		munmap(in->map, in->map_len);
	in->map = NULL;
	in->map_len = 0;
	map_unregister(in);
	in->eof = false;
	/* A mapped file is read with pread() (map_start): no seek. */
	in->raw_off = in->pos;
	in->raw_eof = false;
	in->mapped = false;
	in->no_map = true;
}

/* Start reading a plain file in place: the bytes buffered so far are
 * dropped and mapped from the file again, from the read position on. */
static bool map_start(struct input *in)
{
	struct stat st;
	if (in->no_map || in->codec != CODEC_NONE || !in->own || !in->positioned || in->err[0] ||
	    fstat(fileno(in->f), &st) != 0 ||
	    !S_ISREG(st.st_mode) || (uint64_t)st.st_size <= in->raw_off) {
		in->no_map = true;
		return false;
	}
	in->pos = in->raw_off - (in->end - in->start);
	in->start = in->end = in->scanned = 0;
	in->mapped = true;
	return true;
}

const uint8_t *input_view(struct input *in, size_t want, size_t *n)
{
	if (!in->mapped && !map_start(in))
		return input_peek(in, want, n);
	if (!in->map || in->pos + want > in->map_off + in->map_len) {
		if (!map_window(in, want)) {
			map_leave(in);
			return input_peek(in, want, n);
		}
		if (!in->map) {
			*n = 0;
			return in->buf;
		}
	}
	*n = (size_t)MIN((uint64_t)want, in->map_off + in->map_len - in->pos);
	return in->map + (in->pos - in->map_off);
}

void input_skip(struct input *in, size_t n)
{
	if (in->mapped) {
		in->pos += n;
	} else {
		in->start += n;
		in->scanned = in->start;
	}
	in->consumed += n;
}
