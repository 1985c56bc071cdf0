/* mtest01.c - LTP's mtest01 as of 2001 (ltp 865695bbc / 822caf543, the
 * version run on LKML in Oct 2001), and the later forking form (May 2003 on,
 * as in the tst_test rewrite) behind --fork.
 *
 * 2001: one process mallocs CHUNK bytes (default 1 MB) at a time, and with
 * -w writes every byte of each chunk front to back, until its counter
 * reaches the target; nothing is freed or re-read.  The counter starts at
 * one chunk, so -b 536870912 performs 511 allocations, and the message
 * prints the counter: "PASS ... 536870912 bytes allocated.".  glibc serves
 * each 1 MB malloc with its own anonymous mmap of the chunk plus its 16-byte
 * header, rounded up to pages (257 pages), and malloc writes the header, so
 * without -w only the first page of each chunk is touched.
 * -p PERCENT: P% of (RAM + swap) minus what is in use (RAM and swap), as
 * sysinfo() tells at start; the program exits at once if usage is already
 * above P%.
 *
 * --fork (current LTP): -p defaults to 20 and means P% of *free* RAM; the
 * target is split among children of at most 3 GB each (64-bit), the last
 * taking the remainder; -w writes one byte per page; "PASS <kB> kbytes
 * allocated (and written to)".
 *
 * Each --fork child, once its share is written, stops itself until every
 * child is done (LTP: SIGRTMIN to the parent, then raise(SIGSTOP); the
 * parent prints TPASS and lets them exit), so all the children's memory is
 * held at once: an OP_BARRIER.  --children N (pagelab's) splits the target
 * into N equal children instead of LTP's 3 GB shares, for a machine whose
 * memory is far below 3 GB.
 *
 * Not modeled: malloc failure (pagelab overcommits like Linux: the OOM
 * killer answers instead), the 32-bit counters of 2001 (values of 2 GB and
 * more are refused), --fork's timeout. */
#include "workload.h"
#include "args.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define MALLOC_HEADER 16ULL     /* glibc's chunk header on 64-bit */
#define CHILD_CAP (3ULL << 30)  /* current LTP, 64-bit ABI */

struct mt_task {
	int phase;                  /* 0 mmap, 1 touch, 2 held (--fork) */
	uint64_t done;              /* chunks allocated */
	uint64_t nchunks;
	uint64_t last_bytes;        /* --fork: the last chunk may be short */
};

struct mtest01 {
	uint64_t chunk, bytes, percent;
	bool have_b, have_p, write, fork_form, verbose;
	uint64_t target;            /* bytes to allocate (counter target) */
	bool refused;               /* -p: usage already above P% */
	int nproc;
	uint64_t children;          /* --children N, 0: LTP's 3 GB shares */
	struct mt_task *t;
};

static void mt_help(FILE *out)
{
	fputs(
"usage: mtest01 [-c BYTES] -b BYTES | -p PERCENT [-w] [-v] [--fork [--children N]]\n"
"LTP's mtest01 as run in 2001: malloc CHUNK bytes at a time (default 1 MB)\n"
"until BYTES (-b) or PERCENT (-p) of RAM + swap minus what is in use, writing\n"
"every byte of every chunk with -w; then exit.  The counter starts at one\n"
"chunk (-b 512M allocates 511 chunks) and the PASS line prints the counter.\n"
"  --fork   the later LTP form: -p (default 20) is a share of free RAM, split\n"
"           among children of at most 3 GB each; -w writes one byte per page;\n"
"           each child holds its memory until all are done, as LTP's do.\n"
"  --children N  with --fork: N equal children instead (pagelab's option)\n"
"Modeled: each chunk is its own anonymous mmap (glibc), 257 pages for 1 MB.\n"
"Not modeled: malloc failing (the OOM killer answers instead), 32-bit counter\n"
"overflow (sizes of 2 GB or more are refused in the 2001 form), --fork's\n"
"timeout.\n", out);
}

static void *mt_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	(void)seed;
	struct mtest01 m = { .chunk = 1 << 20 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		if (!strcmp(a, "--fork")) {
			m.fork_form = true;
			continue;
		}
		if (!strcmp(a, "--children")) {
			v = i + 1 < argc ? argv[++i] : NULL;
			if (!v || !wl_u64_in(v, 1, 1024, &m.children)) {
				snprintf(err, errlen, "mtest01: bad value '%s' for --children (1..1024)", v ? v : "");
				return NULL;
			}
			continue;
		}
		if (a[0] != '-' || !a[1] || (strchr("wvh", a[1]) && a[2])) {
			snprintf(err, errlen, "mtest01: unexpected argument '%s'", a);
			return NULL;
		}
		switch (a[1]) {
		case 'w': m.write = true; continue;
		case 'v': m.verbose = true; continue;
		case 'h':
			snprintf(err, errlen, "mtest01: see pagelab workloads mtest01 --help");
			return NULL;
		case 'c': case 'b': case 'p':
			v = wl_optval(argc, argv, &i);
			break;
		default:
			snprintf(err, errlen, "mtest01: unknown option '%s'", a);
			return NULL;
		}
		uint64_t x;
		bool ok = v && parse_size(v, &x);
		if (ok && a[1] == 'c') {
			ok = x >= 1 && x <= (1ULL << 30);
			m.chunk = x;
		} else if (ok && a[1] == 'b') {
			ok = x >= 1 && x <= (1ULL << 50);
			m.bytes = x;
			m.have_b = true;
		} else if (ok) {
			ok = parse_u64(v, &x) && x >= 1 && x <= 99;
			m.percent = x;
			m.have_p = true;
		}
		if (!ok) {
			snprintf(err, errlen, "mtest01: bad value '%s' for -%c", v ? v : "", a[1]);
			return NULL;
		}
	}
	if (m.have_b && m.have_p) {
		snprintf(err, errlen, "mtest01: -b and -p are exclusive");
		return NULL;
	}
	if (!m.have_b && !m.have_p) {
		if (!m.fork_form) {
			snprintf(err, errlen, "mtest01: give -b BYTES or -p PERCENT");
			return NULL;
		}
		m.percent = 20;
		m.have_p = true;
	}
	if (m.children && !m.fork_form) {
		snprintf(err, errlen, "mtest01: --children needs --fork (the 2001 form is one process)");
		return NULL;
	}
	if (!m.fork_form && m.have_b && m.bytes >= (1ULL << 31)) {
		snprintf(err, errlen, "mtest01: -b %llu overflows the 2001 version's int counter (use --fork)",
			 (unsigned long long)m.bytes);
		return NULL;
	}
	struct mtest01 *w = xmalloc(sizeof(*w));
	*w = m;
	w->target = m.bytes;
	w->nproc = 1;
	w->t = NULL;
	return w;
}

/* Sizes that depend on the machine are settled at attach time (sysinfo);
 * -b sizes are known at once, so tests may skip attach. */
static void mt_plan(struct mtest01 *w)
{
	if (w->t)
		return;
	if (!w->fork_form) {
		w->nproc = 1;
		w->t = xcalloc(1, sizeof(*w->t));
		/* for (bytecount = chunk; bytecount < target; bytecount += chunk) */
		uint64_t n = 0;
		if (!w->refused && w->target > w->chunk)
			n = (w->target - w->chunk + w->chunk - 1) / w->chunk;
		w->t[0].nchunks = n;
		w->t[0].last_bytes = w->chunk;
		return;
	}
	uint64_t cap = w->children ? (w->target + w->children - 1) / w->children : CHILD_CAP;
	uint64_t nchild = w->children ? w->children : w->target ? (w->target + CHILD_CAP - 1) / CHILD_CAP : 1;
	w->nproc = (int)nchild;
	w->t = xcalloc(nchild, sizeof(*w->t));
	for (uint64_t k = 0; k < nchild; k++) {
		uint64_t used = MIN(w->target, cap * k);
		uint64_t share = k + 1 < nchild ? MIN(cap, w->target - used) : w->target - used;
		w->t[k].nchunks = (share + w->chunk - 1) / w->chunk;
		w->t[k].last_bytes = share - (w->t[k].nchunks ? (w->t[k].nchunks - 1) * w->chunk : 0);
	}
}

static void mt_attach(void *p, const struct wl_sysinfo *si)
{
	struct mtest01 *w = p;
	if (w->have_p) {
		if (w->fork_form) {
			w->target = si->freeram / 100 * w->percent;
		} else {
			uint64_t total = si->totalram + si->totalswap;
			uint64_t used = (si->totalram - si->freeram) + (si->totalswap - si->freeswap);
			uint64_t want = total / 100 * w->percent;
			w->refused = used > want;
			w->target = w->refused ? 0 : want - used;
		}
	}
	mt_plan(w);
}

static void mt_destroy(void *p)
{
	struct mtest01 *w = p;
	free(w->t);
	free(w);
}

static int mt_nr_tasks(void *p)
{
	struct mtest01 *w = p;
	if (!w->t && w->have_b)
		mt_plan(w);
	return w->nproc;
}

static uint64_t chunk_pages(uint64_t bytes)
{
	return (bytes + MALLOC_HEADER + PAGE_SIZE - 1) / PAGE_SIZE;
}

static bool mt_next_op(void *p, int task, struct op *op)
{
	struct mtest01 *w = p;
	mt_plan(w);
	struct mt_task *t = &w->t[task];
	memset(op, 0, sizeof(*op));
	if (t->done >= t->nchunks) {
		/* --fork: stop until every child is done, then exit. */
		if (!w->fork_form || t->phase == 2)
			return false;
		t->phase = 2;
		op->kind = OP_BARRIER;
		return true;
	}
	uint64_t bytes = t->done + 1 == t->nchunks ? t->last_bytes : w->chunk;
	uint64_t pages = chunk_pages(bytes);
	if (t->phase == 0) {
		op->kind = OP_MMAP_ANON;
		op->region = (uint32_t)t->done;
		op->npages = pages;
		t->phase = 1;
		return true;
	}
	op->kind = OP_TOUCH;
	op->region = (uint32_t)t->done;
	op->write = true;
	if (!w->write) {
		op->npages = 1;      /* malloc writes the chunk header */
		op->refs = 2;
	} else if (w->fork_form) {
		op->npages = pages;  /* one byte per page */
		op->refs = 1;
	} else {
		op->npages = pages;  /* every byte: 4096 stores per page */
		op->refs = (uint32_t)PAGE_SIZE;
	}
	t->phase = 0;
	t->done++;
	return true;
}

static void mt_report(void *p, const double *elapsed, FILE *out)
{
	struct mtest01 *w = p;
	(void)elapsed;
	if (w->fork_form) {
		fprintf(out, "mtest01.c: TPASS: %llu kbytes allocated%s\n",
			(unsigned long long)(w->target / 1024), w->write ? " (and written to)" : " only");
		return;
	}
	if (w->refused) {
		fprintf(out, "More memory than the %llu%% is already used\n", (unsigned long long)w->percent);
		return;
	}
	uint64_t counter = w->chunk + w->t[0].nchunks * w->chunk;
	fprintf(out, "PASS ... %llu bytes allocated.\n", (unsigned long long)counter);
}

const struct workload_ops mtest01_workload = {
	.name = "mtest01",
	.summary = "LTP mtest01: malloc 1 MB chunks up to a target, writing every byte with -w",
	.help = mt_help,
	.create = mt_create,
	.destroy = mt_destroy,
	.nr_tasks = mt_nr_tasks,
	.next_op = mt_next_op,
	.report = mt_report,
	.attach = mt_attach,
};
