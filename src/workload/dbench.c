/* dbench.c - Andrew Tridgell's dbench 1.x (1999 - Oct 2001, the "dbench
 * 40" of the 2001 VM threads): N clients each replay the NetBench client
 * trace client.txt once, on their own files, started together; the run
 * ends when the slowest client finishes.
 *
 * client.txt itself is not reproduced: pagelab regenerates one synthetic
 * trace with the same operation counts (the REQUEST lines of dbench 1.x's
 * client.txt, see docs/workloads.md), the same write and read sizes (4 KB
 * and ~64 KB "raw" transfers, many small writes), 194 files per client
 * whose largest sizes follow the trace's distribution (median ~12 KB, 90th
 * percentile ~254 KB, one 1.8 MB file), written mostly by appending,
 * re-read, and unlinked (1004 unlinks); all clients replay the same trace,
 * as dbench does, with their own CLIENTn directory.  The trace is a fixed
 * function of the seed: with the default seed 1 always the same one, like
 * the fixed client.txt; --seed N gives another client mix of the same
 * counts and distributions.
 *
 * Not modeled: directory operations (mkdir/rmdir/rename, SMBgetatr's stat)
 * beyond their count and CPU; the trace's exact offsets and file order;
 * -s (O_SYNC) and -S.
 * Output: dbench 1.x's "Throughput X MB/sec (NB=Y MB/sec  Z MBit/sec)  N
 * procs", X = 132 * N / t, NB = 0.25 * 660 * N / t, MBit = 2 * 660 * N / t,
 * t = seconds until the last client exits. */
#include "workload.h"
#include "dbench.h"
#include "args.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Operation counts of dbench 1.x's client.txt (REQUEST lines). */
#define NR_WRITE     22607
#define NR_WRITEBRAW   680
#define NR_READBRAW   4330
#define NR_READ        368
#define NR_OPEN       4795
#define NR_CLOSE      3617
#define NR_GETATR     7966
#define NR_UNLINK     1004
#define NR_MV          195
#define NR_MKDIR        15
#define NR_RMDIR        10
#define NR_FILES       194
#define NR_RAW_READS_64K 337
#define NR_WRITES_4K  6875
#define LARGEST_FILE  (1800 * 1024)

enum db_kind { DB_OPEN, DB_WRITE, DB_READ, DB_CLOSE, DB_UNLINK, DB_STAT };

struct db_op {
	uint8_t kind;
	uint16_t file;
	uint32_t off, len;      /* bytes */
};

struct db_client {
	uint64_t pos;
	int sub;                /* 0: the op itself; 1: its close before reopen */
	bool *open;             /* file slot currently open */
	bool *exists;           /* file exists (created, not unlinked) */
};

struct dbench {
	int nprocs;
	struct db_op *ops;
	uint64_t nops;
	struct dbench_counts counts;
	char **names;           /* nprocs * NR_FILES */
	struct db_client *c;
};

/* The small SMBwrite sizes: their mean is the trace's remaining write
 * volume over the remaining writes (~1.4 KB). */
static const uint32_t small_writes[] = { 1, 128, 512, 1024, 1460, 2048, 3072, 2932 };

static void push(struct dbench *d, uint64_t *cap, struct db_op o)
{
	if (d->nops == *cap) {
		*cap = *cap ? *cap * 2 : 4096;
		d->ops = xrealloc(d->ops, *cap * sizeof(*d->ops));
	}
	d->ops[d->nops++] = o;
}

/* Share k of `total` items spread evenly over n slots. */
static uint64_t share(uint64_t total, uint64_t n, uint64_t k)
{
	return (k + 1) * total / n - k * total / n;
}

static void generate(struct dbench *d, uint64_t seed)
{
	struct rng g;
	/* The default seed 1 gives the one trace a plain run always used, a
	 * fixed file like client.txt; other seeds give other traces with the
	 * same counts and distributions (another client's day). */
	rng_seed(&g, 0x6462656e6368ULL + (seed - 1));
	/* Largest size of each file: log-normal, median 12 KB, 90th
	 * percentile 254 KB (sigma = ln(254/12) / 1.2816), capped at the
	 * trace's largest file, which file 0 (SEED/LARGE.FIL) is. */
	uint32_t maxsz[NR_FILES], len[NR_FILES];
	double sigma = log(254.0 / 12.0) / 1.2816;
	for (int f = 0; f < NR_FILES; f++) {
		double u1 = ((double)(rng_next(&g) >> 11) + 0.5) / 9007199254740992.0;
		double u2 = ((double)(rng_next(&g) >> 11) + 0.5) / 9007199254740992.0;
		double z = sqrt(-2 * log(u1)) * cos(2 * 3.14159265358979323846 * u2);
		double sz = 12 * 1024 * exp(sigma * z);
		maxsz[f] = f == 0 ? LARGEST_FILE : (uint32_t)MIN(MAX(sz, 512.0), (double)LARGEST_FILE);
		len[f] = 0;
	}
	uint64_t cap = 0, w = 0, r = 0, unl = 0, st = 0, wbraw = 0, rbraw = 0, w4k = 0, closes = 0;
	uint64_t nw = NR_WRITE + NR_WRITEBRAW, nr = NR_READBRAW + NR_READ;
	for (uint64_t s = 0; s < NR_OPEN; s++) {
		/* Sessions favour big files (they take more traffic). */
		uint16_t f = (uint16_t)(s % 7 == 0 ? 0 : rng_below(&g, NR_FILES));
		push(d, &cap, (struct db_op){ .kind = DB_OPEN, .file = f });
		uint64_t kw = share(nw, NR_OPEN, s), kr = share(nr, NR_OPEN, s);
		for (uint64_t k = 0; k < kw; k++, w++) {
			/* Which writes are writebraw (64 KB) and which 4 KB:
			 * spread evenly through the trace. */
			bool raw = share(NR_WRITEBRAW, nw, w) != 0;
			uint32_t sz;
			if (raw) {
				sz = 65536;
				wbraw++;
			} else if (share(NR_WRITES_4K, NR_WRITE, w - wbraw) != 0) {
				sz = 4096;
				w4k++;
			} else {
				sz = small_writes[(w - wbraw - w4k) % ARRAY_SIZE(small_writes)];
			}
			/* Append until the file reaches its largest size, then
			 * overwrite from the start. */
			uint32_t off = len[f];
			if (off + sz > maxsz[f])
				off = 0;
			if (off + sz > len[f])
				len[f] = off + sz;
			push(d, &cap, (struct db_op){ .kind = DB_WRITE, .file = f, .off = off, .len = sz });
		}
		for (uint64_t k = 0; k < kr; k++, r++) {
			bool raw = share(NR_READBRAW, nr, r) != 0;
			uint32_t sz = 1024;
			if (raw) {
				sz = share(NR_RAW_READS_64K, NR_READBRAW, rbraw) ? 65536 : 4096;
				rbraw++;
				d->counts.readbraw++;
			} else {
				d->counts.read++;
			}
			d->counts.read_bytes += sz;
			/* A read never goes past the end of the file. */
			uint32_t n = MIN(sz, len[f]);
			uint32_t off = len[f] > n ? (uint32_t)rng_below(&g, len[f] - n + 1) : 0;
			if (n)
				push(d, &cap, (struct db_op){ .kind = DB_READ, .file = f, .off = off, .len = n });
		}
		for (uint64_t k = 0; k < share(NR_GETATR, NR_OPEN, s); k++, st++)
			push(d, &cap, (struct db_op){ .kind = DB_STAT, .file = f });
		if (share(NR_CLOSE, NR_OPEN, s)) {
			push(d, &cap, (struct db_op){ .kind = DB_CLOSE, .file = f });
			closes++;
		}
		if (share(NR_UNLINK, NR_OPEN, s)) {
			/* Temporary files: an existing file other than LARGE.FIL. */
			uint16_t u = (uint16_t)(1 + rng_below(&g, NR_FILES - 1));
			push(d, &cap, (struct db_op){ .kind = DB_UNLINK, .file = u });
			unl++;
			len[u] = 0;
		}
	}
	struct dbench_counts *c = &d->counts;
	c->write = w - wbraw;
	c->writebraw = wbraw;
	for (uint64_t i = 0; i < d->nops; i++)
		if (d->ops[i].kind == DB_WRITE)
			c->write_bytes += d->ops[i].len;
	c->open = NR_OPEN;
	c->close = closes;
	c->getatr = st;
	c->unlink = unl;
	c->mv = NR_MV;
	c->mkdir = NR_MKDIR;
	c->rmdir = NR_RMDIR;
	c->files = NR_FILES;
	for (int f = 0; f < NR_FILES; f++)
		c->max_file_bytes += maxsz[f];
}

const struct dbench_counts *dbench_counts(void *w) { return &((struct dbench *)w)->counts; }

static void db_help(FILE *out)
{
	fputs(
"usage: dbench [-c client.txt] NPROCS\n"
"dbench 1.x (the 2001 \"dbench 40\"): NPROCS clients each replay the NetBench\n"
"client trace once on their own 194 files (~25 MB each at their largest), all\n"
"started together; ~23 300 writes (94.7 MB) and ~4 700 reads (38 MB) per\n"
"client, 4 795 opens, 1 004 unlinks.  The trace is regenerated from the real\n"
"client.txt's operation counts and size distribution (docs/workloads.md).\n"
"Not modeled: -s/-S, directory operations and stat beyond their count, the\n"
"real trace's exact offsets.  -c is accepted and ignored (the built-in trace).\n"
"Output: Throughput X MB/sec (NB=Y MB/sec  Z MBit/sec)  N procs.\n", out);
}

static void *db_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	uint64_t n = 0;
	bool have_n = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-c")) {
			if (!wl_optval(argc, argv, &i)) {
				snprintf(err, errlen, "dbench: -c needs a file name");
				return NULL;
			}
			continue;
		}
		if (have_n || !wl_u64_in(argv[i], 1, 10000, &n)) {
			snprintf(err, errlen, "dbench: bad argument '%s' (usage: dbench NPROCS)", argv[i]);
			return NULL;
		}
		have_n = true;
	}
	if (!have_n) {
		snprintf(err, errlen, "dbench: usage: dbench [-c client.txt] NPROCS");
		return NULL;
	}
	struct dbench *d = xcalloc(1, sizeof(*d));
	d->nprocs = (int)n;
	generate(d, seed);
	d->names = xcalloc(n * NR_FILES, sizeof(char *));
	d->c = xcalloc(n, sizeof(*d->c));
	for (uint64_t k = 0; k < n; k++) {
		d->c[k].open = xcalloc(NR_FILES, sizeof(bool));
		d->c[k].exists = xcalloc(NR_FILES, sizeof(bool));
		for (int f = 0; f < NR_FILES; f++) {
			char buf[96];
			snprintf(buf, sizeof(buf), "/clients/client%llu/~dmtmp/f%03d",
				 (unsigned long long)k + 1, f);
			d->names[k * NR_FILES + f] = xstrdup(buf);
		}
	}
	return d;
}

static void db_destroy(void *p)
{
	struct dbench *d = p;
	for (int i = 0; i < d->nprocs * NR_FILES; i++)
		free(d->names[i]);
	for (int k = 0; k < d->nprocs; k++) {
		free(d->c[k].open);
		free(d->c[k].exists);
	}
	free(d->names);
	free(d->c);
	free(d->ops);
	free(d);
}

static int db_nr_tasks(void *p) { return ((struct dbench *)p)->nprocs; }

static uint64_t first_page(uint32_t off) { return off / PAGE_SIZE; }
static uint64_t nr_pages(uint32_t off, uint32_t len)
{
	return (off + len + PAGE_SIZE - 1) / PAGE_SIZE - off / PAGE_SIZE;
}

static bool db_next_op(void *p, int task, struct op *op)
{
	struct dbench *d = p;
	struct db_client *c = &d->c[task];
	memset(op, 0, sizeof(*op));
	while (c->pos < d->nops) {
		const struct db_op *o = &d->ops[c->pos];
		const char *name = d->names[(uint64_t)task * NR_FILES + o->file];
		op->fd = o->file;
		switch ((enum db_kind)o->kind) {
		case DB_OPEN:
			/* A handle the trace left open is closed before the reopen. */
			if (c->open[o->file] && c->sub == 0) {
				c->sub = 1;
				op->kind = OP_CLOSE;
				return true;
			}
			c->sub = 0;
			c->pos++;
			c->open[o->file] = true;
			/* open(O_RDWR|O_CREAT): creates the file only if missing. */
			op->kind = c->exists[o->file] ? OP_OPEN : OP_CREATE;
			c->exists[o->file] = true;
			op->name = name;
			return true;
		case DB_WRITE:
			c->pos++;
			op->kind = OP_WRITE;
			op->first = first_page(o->off);
			op->npages = nr_pages(o->off, o->len);
			return true;
		case DB_READ:
			c->pos++;
			op->kind = OP_READ;
			op->first = first_page(o->off);
			op->npages = nr_pages(o->off, o->len);
			return true;
		case DB_CLOSE:
			c->pos++;
			c->open[o->file] = false;
			op->kind = OP_CLOSE;
			return true;
		case DB_UNLINK:
			c->pos++;
			if (!c->exists[o->file])
				continue;   /* ENOENT: dbench goes on */
			c->exists[o->file] = false;
			op->kind = OP_UNLINK;
			op->name = name;
			return true;
		case DB_STAT:
			/* stat(): a dentry lookup, CPU only (~a microsecond). */
			c->pos++;
			op->kind = OP_CPU;
			op->ns = 1000;
			return true;
		}
	}
	return false;
}

/* The longest client's time, seconds (never 0: a throughput's divisor). */
static double db_seconds(const struct dbench *d, const double *elapsed)
{
	double t = 0;
	for (int i = 0; elapsed && i < d->nprocs; i++)
		t = MAX(t, elapsed[i]);
	return t <= 0 ? 1e-9 : t;
}

static void db_report(void *p, const double *elapsed, FILE *out)
{
	struct dbench *d = p;
	double t = db_seconds(d, elapsed), n = d->nprocs;
	fprintf(out, "Throughput %g MB/sec (NB=%g MB/sec  %g MBit/sec)  %d procs\n",
		132 * n / t, 0.25 * 660 * n / t, 2 * 660 * n / t, d->nprocs);
}

/* The "Throughput" figure, unrounded: the records' figure of merit. */
static void db_figures(void *p, const struct wl_task_result *r, int n, struct wl_figures *out)
{
	struct dbench *d = p;
	double *el = xcalloc((size_t)n + 1, sizeof(double));
	for (int i = 0; i < n; i++)
		el[i] = r[i].elapsed_s;
	wl_figure_add(out, "mb_s", 132.0 * d->nprocs / db_seconds(d, el), true);
	free(el);
}

/* dbench's clients work in ./clients of its working directory: a second
 * dbench of the same run is started in a directory of its own
 * (/dbench.PID), or the two would share, create and unlink each other's
 * files. */
static void db_attach(void *p, const struct wl_sysinfo *si)
{
	struct dbench *d = p;
	if (si->first_pid <= 1000)
		return; /* the run's first workload: ./ is / */
	for (uint64_t k = 0; k < (uint64_t)d->nprocs * NR_FILES; k++) {
		char buf[128];
		snprintf(buf, sizeof(buf), "/dbench.%d%s", si->first_pid, d->names[k]);
		free(d->names[k]);
		d->names[k] = xstrdup(buf);
	}
}

const struct workload_ops dbench_workload = {
	.name = "dbench",
	.summary = "dbench 1.x: N clients replaying the NetBench file-server trace",
	.help = db_help,
	.create = db_create,
	.destroy = db_destroy,
	.nr_tasks = db_nr_tasks,
	.next_op = db_next_op,
	.report = db_report,
	.figures = db_figures,
	.attach = db_attach,
};
