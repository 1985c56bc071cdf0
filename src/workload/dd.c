/* dd.c - GNU dd copying with read(2)/write(2) in bs-sized blocks, as in
 * Rik van Riel's July 2008 test `dd if=/dev/sda of=/dev/null bs=1M`.
 *
 * Modeled: dd's buffer (one anonymous region of bs bytes, written by every
 * read, so it stays hot); `if=` a file or "/dev/sda" (the raw disk, through
 * the block device's page cache: buffered, each page used once), read in
 * bs blocks from skip=; or /dev/zero (no page cache: the kernel clears the
 * buffer, user time only); `of=` /dev/null (data dropped) or a file
 * created and written block by block (conv=fsync / oflag=sync fsync it).
 * iflag=direct / oflag=direct bypass the page cache (O_DIRECT).  Readahead
 * is the page cache's business (the era's window logic), not dd's.
 * A read that reaches the end of the input is short, as read(2) is: dd
 * counts it as a partial record ("N+1 records in"), writes what it got and
 * stops at the next read, which returns 0.
 * Not modeled: other conv= flags, ibs/obs different. 
 * Output: coreutils 6.x (2008): "N+0 records in", "N+0 records out",
 * "B bytes (X MB) copied, S seconds, R MB/s"; the rate unrounded (mb_s)
 * the records' figure of merit (workload.h). */
#include "workload.h"
#include "args.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

enum dd_phase { DD_BUF, DD_OPEN_IN, DD_OPEN_OUT, DD_COPY_R, DD_COPY_W, DD_FSYNC, DD_DONE };

struct dd {
	char *in, *out;
	bool in_zero, out_null, idirect, odirect, fsync;
	uint64_t bs, bs_pages, count, skip, seek;
	bool have_count;
	uint64_t disk_bytes;
	enum dd_phase phase;
	uint64_t blk;
	uint64_t last_first;        /* first page of the read in flight */
	uint64_t got;               /* bytes the last read returned */
	uint64_t full, partial;     /* records read whole / short */
	uint64_t bytes;             /* bytes copied */
	bool eof;                   /* a read came back short: stop */
	bool reads_seen;            /* the runner reported reads (read_done) */
};

static void dd_help(FILE *out)
{
	fputs(
"usage: dd [if=FILE] [of=FILE] [bs=BYTES] [count=N] [skip=N] [seek=N]\n"
"          [iflag=direct] [oflag=direct|sync] [conv=fsync]\n"
"GNU dd: copy bs-sized blocks (default 512 bytes) with read(2) and write(2).\n"
"if=/dev/sda is the simulated machine's whole disk (its block device page\n"
"cache), if=/dev/zero costs no I/O, of=/dev/null (the default) drops the data;\n"
"other names are files in the machine's page cache (of= creates it, if= must\n"
"have been written by an earlier workload, or made uncached by pagelab run\n"
"--make-inputs).  Without count= /dev/sda is read to its end.  BYTES take\n"
"K/M/G suffixes (powers of 1024).\n"
"A read at the end of the input is short (\"N+1 records in\"); the copy stops.\n"
"Not modeled: other conv= flags, ibs=/obs=.\n"
"Output: dd's records in/out and \"bytes copied, seconds, MB/s\" lines.\n", out);
}

static void *dd_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	(void)seed;
	struct dd d = { .bs = 512 };
	const char *in = "/dev/stdin", *out = "/dev/null";
	bool have_in = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		if (!eq) {
			snprintf(err, errlen, "dd: unrecognized operand '%s'", a);
			return NULL;
		}
		size_t kl = (size_t)(eq - a);
		const char *v = eq + 1;
		bool ok = true;
		if (kl == 2 && !strncmp(a, "if", 2)) {
			in = v;
			have_in = true;
			ok = *v;
		} else if (kl == 2 && !strncmp(a, "of", 2)) {
			out = v;
			ok = *v;
		} else if (kl == 2 && !strncmp(a, "bs", 2)) {
			ok = parse_size(v, &d.bs) && d.bs >= 1 && d.bs <= (1ULL << 31);
		} else if (kl == 5 && !strncmp(a, "count", 5)) {
			ok = wl_u64_in(v, 0, 1ULL << 40, &d.count);
			d.have_count = true;
		} else if (kl == 4 && !strncmp(a, "skip", 4)) {
			ok = wl_u64_in(v, 0, 1ULL << 40, &d.skip);
		} else if (kl == 4 && !strncmp(a, "seek", 4)) {
			ok = wl_u64_in(v, 0, 1ULL << 40, &d.seek);
		} else if (kl == 5 && !strncmp(a, "iflag", 5)) {
			ok = !strcmp(v, "direct");
			d.idirect = true;
		} else if (kl == 5 && !strncmp(a, "oflag", 5)) {
			ok = !strcmp(v, "direct") || !strcmp(v, "sync");
			d.odirect = !strcmp(v, "direct");
			d.fsync |= !strcmp(v, "sync");
		} else if (kl == 4 && !strncmp(a, "conv", 4)) {
			ok = !strcmp(v, "fsync") || !strcmp(v, "fdatasync");
			d.fsync = true;
		} else {
			snprintf(err, errlen, "dd: unrecognized operand '%s' (see pagelab workloads dd --help)", a);
			return NULL;
		}
		if (!ok) {
			snprintf(err, errlen, "dd: invalid value in '%s'", a);
			return NULL;
		}
	}
	if (!have_in) {
		snprintf(err, errlen, "dd: give if=FILE (pagelab has no standard input)");
		return NULL;
	}
	d.in_zero = !strcmp(in, "/dev/zero");
	d.out_null = !strcmp(out, "/dev/null");
	if (!d.have_count && strcmp(in, "/dev/sda")) {
		snprintf(err, errlen, "dd: give count=N (only if=/dev/sda has a known end)");
		return NULL;
	}
	if (d.in_zero && d.out_null) {
		/* Legal, but nothing for the VM to do: allowed all the same. */
	}
	struct dd *w = xmalloc(sizeof(*w));
	*w = d;
	w->in = xstrdup(in);
	w->out = xstrdup(out);
	w->bs_pages = (d.bs + PAGE_SIZE - 1) / PAGE_SIZE;
	return w;
}

static void dd_attach(void *p, const struct wl_sysinfo *si)
{
	struct dd *w = p;
	w->disk_bytes = si->disk_bytes;
	if (!w->have_count) {
		uint64_t blocks = w->disk_bytes / w->bs;
		w->count = blocks > w->skip ? blocks - w->skip : 0;
		w->have_count = true;
	}
}

static void dd_destroy(void *p)
{
	struct dd *w = p;
	free(w->in);
	free(w->out);
	free(w);
}

static int dd_nr_tasks(void *p) { (void)p; return 1; }

static bool dd_next_op(void *p, int task, struct op *op)
{
	struct dd *w = p;
	(void)task;
	memset(op, 0, sizeof(*op));
	for (;;) {
		switch (w->phase) {
		case DD_BUF:
			w->phase = DD_OPEN_IN;
			op->kind = OP_MMAP_ANON;  /* the block buffer */
			op->npages = w->bs_pages;
			return true;
		case DD_OPEN_IN:
			w->phase = DD_OPEN_OUT;
			if (w->in_zero)
				continue;
			op->kind = OP_OPEN;
			op->fd = 0;
			op->name = w->in;
			return true;
		case DD_OPEN_OUT:
			w->phase = DD_COPY_R;
			if (w->out_null)
				continue;
			op->kind = OP_CREATE;
			op->fd = 1;
			op->name = w->out;
			return true;
		case DD_COPY_R:
			if (w->blk >= w->count || w->eof) {
				w->phase = DD_FSYNC;
				continue;
			}
			w->phase = DD_COPY_W;
			if (w->in_zero) {
				/* read() of /dev/zero clears the buffer: kernel writes
				 * into dd's pages. */
				op->kind = OP_TOUCH;
				op->write = true;
				op->npages = w->bs_pages;
				w->got = w->bs;
				w->full++;
				w->bytes += w->bs;
				return true;
			}
			op->kind = OP_READ;
			op->fd = 0;
			op->direct = w->idirect;
			op->first = (w->skip + w->blk) * w->bs / PAGE_SIZE;
			op->npages = w->bs_pages;
			w->last_first = op->first;
			return true;
		case DD_COPY_W:
			w->phase = DD_COPY_R;
			w->blk++;
			if (w->out_null || !w->got)
				continue;
			op->kind = OP_WRITE;
			op->fd = 1;
			op->direct = w->odirect;
			op->first = (w->seek + w->blk - 1) * w->bs / PAGE_SIZE;
			op->npages = (w->got + PAGE_SIZE - 1) / PAGE_SIZE;
			return true;
		case DD_FSYNC:
			w->phase = DD_DONE;
			if (w->out_null || !w->fsync)
				continue;
			op->kind = OP_FSYNC;
			op->fd = 1;
			return true;
		case DD_DONE:
			return false;
		}
	}
}

/* What the read in flight returned: the whole block, or what was left
 * before the end of the input (a short read, maybe 0 bytes). */
static void dd_read_done(void *p, int task, uint64_t pages_read)
{
	struct dd *w = p;
	(void)task;
	w->reads_seen = true;
	if (pages_read >= w->bs_pages) {
		w->got = w->bs;
		w->full++;
	} else {
		uint64_t start = (w->skip + w->blk) * w->bs;
		uint64_t end = (w->last_first + pages_read) * PAGE_SIZE;
		w->got = end > start ? MIN(w->bs, end - start) : 0;
		if (w->got == w->bs)
			w->full++;
		else if (w->got)
			w->partial++;
		w->eof = w->got < w->bs;
	}
	w->bytes += w->got;
}

/* coreutils' human_readable with SI units, 3 significant figures. */
static void si_size(char *buf, size_t len, double v, const char *unit)
{
	static const char *pfx[] = { "", "k", "M", "G", "T", "P" };
	int i = 0;
	while (v >= 1000 && i < 5) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, v == 0 || v >= 10 ? "%.0f %s%s" : "%.1f %s%s", v, pfx[i], unit);
}

/* The bytes copied; a runner that does not report reads (pagelab kernel
 * runs the op stream in child processes): the records asked for. */
static uint64_t dd_copied(const struct dd *w)
{
	return !w->reads_seen && !w->full && w->count ? w->count * w->bs : w->bytes;
}

static void dd_report(void *p, const double *elapsed, FILE *out)
{
	struct dd *w = p;
	uint64_t bytes = w->bytes = dd_copied(w);
	if (!w->reads_seen && !w->full && w->count)
		w->full = w->count;
	double s = elapsed ? elapsed[0] : 0;
	char sz[32], rate[32];
	/* GNU dd's lseek() past the end of a device or file. */
	if (w->skip && !w->full && !w->partial && w->count)
		fprintf(out, "dd: %s: cannot skip to specified offset\n", w->in);
	fprintf(out, "%llu+%llu records in\n%llu+%llu records out\n", (unsigned long long)w->full,
		(unsigned long long)w->partial, (unsigned long long)w->full,
		(unsigned long long)w->partial);
	si_size(sz, sizeof(sz), (double)bytes, "B");
	si_size(rate, sizeof(rate), s > 0 ? (double)bytes / s : 0, "B/s");
	fprintf(out, "%llu bytes (%s) copied, %g seconds, %s\n", (unsigned long long)bytes, sz, s, rate);
}

/* The rate the last line prints, unrounded, in MB/s (10^6 bytes, as
 * dd's): the bytes copied over the task's time. */
static void dd_figures(void *p, const struct wl_task_result *r, int n, struct wl_figures *out)
{
	const struct dd *w = p;
	double s = n > 0 ? r[0].elapsed_s : 0;
	if (s > 0)
		wl_figure_add(out, "mb_s", (double)dd_copied(w) / s / 1e6, true);
}

const struct workload_ops dd_workload = {
	.name = "dd",
	.summary = "dd if=FILE of=/dev/null bs=SIZE: a streaming read through the page cache",
	.help = dd_help,
	.create = dd_create,
	.destroy = dd_destroy,
	.nr_tasks = dd_nr_tasks,
	.next_op = dd_next_op,
	.report = dd_report,
	.figures = dd_figures,
	.attach = dd_attach,
	.read_done = dd_read_done,
};
