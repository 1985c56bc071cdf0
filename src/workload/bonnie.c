/* bonnie.c - Tim Bray's original Bonnie 1.x (bonnie.c, Sept 1996), as run in
 * the 1997 vhand thread.  One file of SIZE MB, Chunk = 8 KB, phases in
 * execution order:
 *   1. per-char write: putc() every byte (stdio hands the kernel 4 KB
 *      writes), 2. rewrite: read each Chunk, change a word, seek back,
 *      write it, 3. block write: unlink, recreate, write Chunks,
 *   4. per-char read: getc() every byte (4 KB reads), 5. block read,
 *   6. random seeks: 3 seeker processes share 4000 tickets; each seek reads
 *      a random Chunk and every 10th seek of a seeker (its 1st, 11th, ...)
 *      writes it back; then the file is deleted.
 * Each phase's K/sec is SIZE / its elapsed time and %CPU its CPU time over
 * elapsed; seeks/sec = 4000 / (last seeker's end - first seeker's start).
 *
 * User time: putc/getc are stdio macros: a buffer load or store, the
 * pointer bump and the bound check, charged as 3 references per byte on the
 * stdio buffer; the block phases touch the Chunk buffer once per word they
 * change.  Not modeled: -d (the file lives in the machine's page cache,
 * "/bonnie/Bonnie.<pid>"), the 4000 tickets' pipe (each seeker takes every
 * third ticket). */
#include "workload.h"
#include "args.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_PAGES 2        /* Chunk = 8192 bytes */
#define STDIO_PAGES 1        /* st_blksize = 4096: stdio's buffer */
#define SEEKS 4000
#define SEEKERS 3
#define NR_PHASES 5

struct seeker {
	int step;
	uint64_t done, n;
	bool pend;              /* the Chunk just read is to be written back */
	uint64_t pend_first;
	uint64_t t0, t1, cpu0, cpu1;
};

struct bonnie {
	uint64_t mb, pages, chunks;
	char label[32];
	char name[64];
	struct rng rng[SEEKERS];
	/* parent (task 0) */
	int phase;
	uint64_t pos;
	int sub;
	uint64_t t[NR_PHASES + 1], cpu[NR_PHASES + 1];  /* phase marks */
	/* seekers (tasks 1..3) */
	struct seeker s[SEEKERS];
};

static void b_help(FILE *out)
{
	fputs(
"usage: bonnie [-d DIR] [-s MB] [-m LABEL]\n"
"The original Bonnie 1.x: a file of MB megabytes (default 100) written per\n"
"character, rewritten, written in 8 KB blocks, read per character, read in\n"
"blocks, then 4000 random 8 KB seeks by 3 processes, 10% rewritten.\n"
"Prints Bonnie's table (K/sec and %CPU per phase, seeks/sec).\n"
"-d is accepted but the file lives in the simulated page cache.\n", out);
}

static void *b_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	uint64_t mb = 100;
	const char *label = "";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1] || a[2] || !strchr("dsm", a[1])) {
			snprintf(err, errlen, "bonnie: unexpected argument '%s'", a);
			return NULL;
		}
		char o = a[1];
		const char *v = wl_optval(argc, argv, &i);
		if (!v || (o == 's' && !wl_u64_in(v, 1, 1 << 20, &mb))) {
			snprintf(err, errlen, "bonnie: bad value '%s' for -%c", v ? v : "", o);
			return NULL;
		}
		if (o == 'm')
			label = v;
	}
	struct bonnie *b = xcalloc(1, sizeof(*b));
	b->mb = mb;
	b->pages = mb << 20 >> PAGE_SHIFT;
	b->chunks = b->pages / CHUNK_PAGES;
	snprintf(b->label, sizeof(b->label), "%s", label);
	snprintf(b->name, sizeof(b->name), "/bonnie/Bonnie.%d", 1000); /* attach() gives the real PID */
	for (int k = 0; k < SEEKERS; k++) {
		rng_seed(&b->rng[k], seed * 7919 + (uint64_t)k);
		b->s[k].n = SEEKS / SEEKERS + ((uint64_t)k < SEEKS % SEEKERS);
	}
	return b;
}

static void b_destroy(void *p) { free(p); }
static int b_nr_tasks(void *p) { (void)p; return 1 + SEEKERS; }

static void b_mark(void *p, int task, uint32_t id, uint64_t now, uint64_t cpu)
{
	struct bonnie *b = p;
	if (task == 0) {
		b->t[id] = now;
		b->cpu[id] = cpu;
	} else if (id == 0) {
		b->s[task - 1].t0 = now;
		b->s[task - 1].cpu0 = cpu;
	} else {
		b->s[task - 1].t1 = now;
		b->s[task - 1].cpu1 = cpu;
	}
}

/* The parent: phases 0..4, a mark before each and after the last. */
static bool parent_op(struct bonnie *b, struct op *op)
{
	for (;;) {
		switch (b->phase) {
		case 0: /* setup: the stdio buffer and the Chunk buffer */
			op->kind = OP_MMAP_ANON;
			op->region = (uint32_t)b->sub;
			op->npages = b->sub ? CHUNK_PAGES : STDIO_PAGES;
			if (++b->sub == 2) {
				b->sub = 0;
				b->phase = 1;
			}
			return true;
		case 1: case 3: case 5: case 7: case 9: case 11: {
			int ph = (b->phase - 1) / 2;       /* 0..5 */
			op->kind = OP_MARK;
			op->region = (uint32_t)ph;
			b->phase = ph == NR_PHASES ? 20 : b->phase + 1;
			b->pos = 0;
			b->sub = 0;
			return true;
		}
		case 2: /* per-char write */
			if (b->pos == 0 && b->sub == 0) {
				b->sub = 1;
				op->kind = OP_CREATE;
				op->name = b->name;
				return true;
			}
			if (b->pos >= b->pages) {
				op->kind = OP_CLOSE;
				b->phase++;
				return true;
			}
			if (b->sub == 1) {
				b->sub = 2;
				op->kind = OP_TOUCH;       /* putc into the stdio buffer */
				op->region = 0;
				op->write = true;
				op->refs = 3 * (uint32_t)PAGE_SIZE;
				op->npages = 1;
				return true;
			}
			b->sub = 1;
			op->kind = OP_WRITE;
			op->first = b->pos++;
			op->npages = 1;
			return true;
		case 4: /* rewrite */
			if (b->pos == 0 && b->sub == 0) {
				b->sub = 1;
				op->kind = OP_OPEN;
				op->name = b->name;
				return true;
			}
			if (b->pos >= b->chunks) {
				op->kind = OP_CLOSE;
				b->phase++;
				return true;
			}
			if (b->sub == 1) {
				b->sub = 2;
				op->kind = OP_READ;
				op->first = b->pos * CHUNK_PAGES;
				op->npages = CHUNK_PAGES;
				return true;
			}
			if (b->sub == 2) {
				b->sub = 3;
				op->kind = OP_TOUCH;       /* change one word */
				op->region = 1;
				op->write = true;
				op->refs = 2;
				op->npages = 1;
				return true;
			}
			b->sub = 1;
			op->kind = OP_WRITE;
			op->first = b->pos++ * CHUNK_PAGES;
			op->npages = CHUNK_PAGES;
			return true;
		case 6: /* block write: unlink, recreate, write Chunks */
			if (b->pos == 0 && b->sub < 2) {
				op->kind = b->sub ? OP_CREATE : OP_UNLINK;
				op->name = b->name;
				b->sub++;
				return true;
			}
			if (b->pos >= b->chunks) {
				op->kind = OP_CLOSE;
				b->phase++;
				return true;
			}
			op->kind = OP_WRITE;
			op->first = b->pos++ * CHUNK_PAGES;
			op->npages = CHUNK_PAGES;
			return true;
		case 8: /* per-char read */
		case 10: /* block read */
			if (b->pos == 0 && b->sub == 0) {
				b->sub = 1;
				op->kind = OP_OPEN;
				op->name = b->name;
				return true;
			}
			if (b->phase == 8) {
				if (b->pos >= b->pages) {
					op->kind = OP_CLOSE;
					b->phase++;
					return true;
				}
				if (b->sub == 2) {
					b->sub = 1;
					op->kind = OP_TOUCH;   /* getc from the stdio buffer */
					op->region = 0;
					op->refs = 3 * (uint32_t)PAGE_SIZE;
					op->npages = 1;
					return true;
				}
				b->sub = 2;
				op->kind = OP_READ;
				op->first = b->pos++;
				op->npages = 1;
				return true;
			}
			if (b->pos >= b->chunks) {
				op->kind = OP_CLOSE;
				b->phase++;
				return true;
			}
			op->kind = OP_READ;
			op->first = b->pos++ * CHUNK_PAGES;
			op->npages = CHUNK_PAGES;
			return true;
		default:
			return false;
		}
	}
}

static bool seeker_op(struct bonnie *b, int k, struct op *op)
{
	struct seeker *s = &b->s[k];
	switch (s->step) {
	case 0:
		s->step = 1;
		op->kind = OP_WAIT;      /* forked after the block read */
		op->region = 0;
		return true;
	case 1:
		s->step = 2;
		op->kind = OP_MARK;
		op->region = 0;
		return true;
	case 2:
		s->step = 3;
		op->kind = OP_OPEN;
		op->name = b->name;
		return true;
	case 3:
		if (s->done >= s->n) {
			s->step = 4;
			op->kind = OP_CLOSE;
			return true;
		}
		if (s->pend) {
			/* Every 10th seek of this seeker (its 1st, 11th, ...)
			 * changes a word and writes the Chunk back. */
			s->pend = false;
			op->kind = OP_WRITE;
			op->first = s->pend_first;
			op->npages = CHUNK_PAGES;
			return true;
		}
		op->kind = OP_READ;
		op->first = rng_below(&b->rng[k], b->chunks ? b->chunks : 1) * CHUNK_PAGES;
		op->npages = CHUNK_PAGES;
		s->pend = s->done % 10 == 0;
		s->pend_first = op->first;
		s->done++;
		return true;
	case 4:
		s->step = 5;
		op->kind = OP_MARK;
		op->region = 1;
		return true;
	case 5:
		/* The last seeker reaps the others and deletes the file. */
		if (k != SEEKERS - 1)
			return false;
		s->step = 6;
		op->kind = OP_WAIT;
		op->region = 1;
		return true;
	case 6:
		s->step = 7;
		op->kind = OP_WAIT;
		op->region = 2;
		return true;
	case 7:
		s->step = 8;
		op->kind = OP_UNLINK;
		op->name = b->name;
		return true;
	default:
		return false;
	}
}

static bool b_next_op(void *p, int task, struct op *op)
{
	struct bonnie *b = p;
	memset(op, 0, sizeof(*op));
	return task == 0 ? parent_op(b, op) : seeker_op(b, task - 1, op);
}

static void b_report(void *p, const double *elapsed, FILE *out)
{
	struct bonnie *b = p;
	(void)elapsed;
	/* Bonnie's column order: per-char out, block out, rewrite, per-char
	 * in, block in; execution order: per-char, rewrite, block, getc, block. */
	static const int order[NR_PHASES] = { 0, 2, 1, 3, 4 };
	fprintf(out, "              -------Sequential Output-------- ---Sequential Input-- --Random--\n");
	fprintf(out, "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n");
	fprintf(out, "Machine    MB K/sec %%CPU K/sec %%CPU K/sec %%CPU K/sec %%CPU K/sec %%CPU  /sec %%CPU\n");
	fprintf(out, "%-8.8s %4llu", b->label, (unsigned long long)b->mb);
	for (int i = 0; i < NR_PHASES; i++) {
		int ph = order[i];
		double dt = (double)(b->t[ph + 1] - b->t[ph]) / 1e9;
		double cpu = (double)(b->cpu[ph + 1] - b->cpu[ph]) / 1e9;
		double kps = dt > 0 ? (double)(b->mb << 10) / dt : 0;
		fprintf(out, " %5.0f %4.1f", kps, dt > 0 ? 100 * cpu / dt : 0);
	}
	uint64_t t0 = UINT64_MAX, t1 = 0;
	double cpu = 0;
	for (int k = 0; k < SEEKERS; k++) {
		t0 = MIN(t0, b->s[k].t0);
		t1 = MAX(t1, b->s[k].t1);
		cpu += (double)(b->s[k].cpu1 - b->s[k].cpu0) / 1e9;
	}
	double dt = t1 > t0 ? (double)(t1 - t0) / 1e9 : 0;
	fprintf(out, " %5.1f %4.1f\n", dt > 0 ? SEEKS / dt : 0, dt > 0 ? 100 * cpu / dt : 0);
}

/* Bonnie names its file after its PID: two Bonnies in one run (two
 * processes) write two files. */
static void b_attach(void *p, const struct wl_sysinfo *si)
{
	struct bonnie *b = p;
	if (si->first_pid)
		snprintf(b->name, sizeof(b->name), "/bonnie/Bonnie.%d", si->first_pid);
}

const struct workload_ops bonnie_workload = {
	.name = "bonnie",
	.summary = "the original Bonnie: sequential per-char/block/rewrite I/O and random seeks",
	.help = b_help,
	.create = b_create,
	.destroy = b_destroy,
	.nr_tasks = b_nr_tasks,
	.next_op = b_next_op,
	.report = b_report,
	.attach = b_attach,
	.mark = b_mark,
};
