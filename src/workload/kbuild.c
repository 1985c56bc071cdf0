/* kbuild.c - a kernel-build stand-in for `make -jN` (the 1997 vhand
 * thread's make -j10, akpm's make -j4 vmlinux at mem=64m).  No page-level
 * trace of a kernel build exists; this follows the characterization in
 * docs/workloads.md (how make and gcc use memory), and its sizes are
 * options.
 *
 * Tasks: one "tar" task writes the tree first (the compiler binary, the
 * headers, the sources); then N job slots run the compilation units one
 * after another (slot s takes units s, s+N, ...), each unit a short-lived
 * process (OP_EXEC): it maps the compiler text (cc1, shared through the page
 * cache by every job) and executes most of it, maps a private anonymous
 * heap, reads its source once, reads a selection of headers (a few hot ones
 * every time, the rest with a skew toward low numbers), works on its heap,
 * writes its object file, and exits; finally a link task reads every object
 * and writes vmlinux.
 * User time: cc1 references its heap REFS times per byte of input (source
 * plus headers); an assumption (--refs-per-byte), not a measurement.
 * Not modeled: the preprocessor and assembler as separate processes, make's
 * own memory, dependency files. */
#include "workload.h"
#include "args.h"
#include "../lib/util.h"
#include "../lib/pagefill.h"

#include <stdlib.h>
#include <string.h>

struct kb_slot { int step; uint64_t unit, k; struct rng rng; uint64_t hdrs, heap; };

struct kbuild {
	uint64_t jobs, units, headers, cc1_pages, refs_per_byte;
	char **hname, **sname, **oname;
	uint64_t *src_pages, *obj_pages;
	struct kb_slot *s;
	int tar_step; uint64_t tar_pos;
	int link_step; uint64_t link_pos;
};

#define HDR_PAGES 2
#define HOT_HEADERS 20
#define HDRS_PER_UNIT 80

static void kb_help(FILE *out)
{
	fputs(
"usage: kbuild [-j N] [--units N] [--headers N] [--cc1 MB] [--refs-per-byte R]\n"
"A kernel build stand-in: N parallel jobs (default 1) compile --units\n"
"(default 400) sources, each a short-lived process sharing the compiler's\n"
"text (--cc1, default 4 MB) and --headers (default 600 files of 8 KB)\n"
"through the page cache, with a private heap of 2-16 MB; sources are read\n"
"once, objects written once and read by the final link.\n"
"Output: the time lines of the whole build.\n", out);
}

static void *kb_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	uint64_t jobs = 1, units = 400, headers = 600, cc1 = 4, rpb = 200;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v;
		uint64_t lo = 1, hi = 100000, *dst;
		if (!strncmp(a, "-j", 2)) {
			v = wl_optval(argc, argv, &i);
			hi = 256;
			dst = &jobs;
		} else if (!strcmp(a, "--units") || !strcmp(a, "--headers") || !strcmp(a, "--cc1") ||
			   !strcmp(a, "--refs-per-byte")) {
			v = i + 1 < argc ? argv[++i] : NULL;
			dst = a[2] == 'u' ? &units : a[2] == 'h' ? &headers : a[2] == 'c' ? &cc1 : &rpb;
			if (dst == &headers)
				lo = HOT_HEADERS + 1; /* the hot set is drawn from them */
			else if (dst == &cc1)
				hi = 1024;
			else if (dst == &rpb)
				lo = 0;
		} else {
			snprintf(err, errlen, "kbuild: unknown option '%s'", a);
			return NULL;
		}
		if (!v || !wl_u64_in(v, lo, hi, dst)) {
			snprintf(err, errlen, "kbuild: bad value for %s (an integer from %llu to %llu)", a,
				 (unsigned long long)lo, (unsigned long long)hi);
			return NULL;
		}
	}
	struct kbuild *w = xcalloc(1, sizeof(*w));
	w->jobs = jobs;
	w->units = units;
	w->headers = headers;
	w->cc1_pages = cc1 << 20 >> PAGE_SHIFT;
	w->refs_per_byte = rpb;
	w->hname = xcalloc(headers, sizeof(char *));
	for (uint64_t h = 0; h < headers; h++) {
		char b[64];
		snprintf(b, sizeof(b), "/usr/src/linux/include/h%04llu.h", (unsigned long long)h);
		w->hname[h] = xstrdup(b);
	}
	w->sname = xcalloc(units, sizeof(char *));
	w->oname = xcalloc(units, sizeof(char *));
	w->src_pages = xcalloc(units, sizeof(uint64_t));
	w->obj_pages = xcalloc(units, sizeof(uint64_t));
	struct rng g;
	rng_seed(&g, seed * 131 + 7);
	for (uint64_t u = 0; u < units; u++) {
		char b[64];
		snprintf(b, sizeof(b), "/usr/src/linux/src/u%05llu.c", (unsigned long long)u);
		w->sname[u] = xstrdup(b);
		b[strlen(b) - 1] = 'o';
		w->oname[u] = xstrdup(b);
		w->src_pages[u] = 1 + rng_below(&g, 10);        /* 4-40 KB */
		w->obj_pages[u] = 1 + rng_below(&g, 8);
	}
	w->s = xcalloc(jobs, sizeof(*w->s));
	for (uint64_t j = 0; j < jobs; j++) {
		rng_seed(&w->s[j].rng, seed * 977 + j);
		w->s[j].unit = j;
	}
	return w;
}

static void kb_destroy(void *p)
{
	struct kbuild *w = p;
	for (uint64_t h = 0; h < w->headers; h++)
		free(w->hname[h]);
	for (uint64_t u = 0; u < w->units; u++) {
		free(w->sname[u]);
		free(w->oname[u]);
	}
	free(w->hname);
	free(w->sname);
	free(w->oname);
	free(w->src_pages);
	free(w->obj_pages);
	free(w->s);
	free(w);
}

/* tasks: 0 = tar, 1..jobs = slots, jobs + 1 = link */
static int kb_nr_tasks(void *p) { return (int)((struct kbuild *)p)->jobs + 2; }

static bool tar_op(struct kbuild *w, struct op *op)
{
	/* cc1, then headers, then sources: create + write + close each. */
	uint64_t nfiles = 1 + w->headers + w->units;
	if (w->tar_pos >= nfiles)
		return false;
	uint64_t f = w->tar_pos;
	const char *name = f == 0 ? "/usr/lib/gcc/cc1" : f <= w->headers ? w->hname[f - 1]
			   : w->sname[f - 1 - w->headers];
	uint64_t pages = f == 0 ? w->cc1_pages : f <= w->headers ? HDR_PAGES : w->src_pages[f - 1 - w->headers];
	switch (w->tar_step++) {
	case 0: op->kind = OP_CREATE; op->name = name; return true;
	case 1: op->kind = OP_WRITE; op->npages = pages; return true;
	default: op->kind = OP_CLOSE; w->tar_step = 0; w->tar_pos++; return true;
	}
}

/* Header h of a unit's k-th include: the hot ones first, then skewed. */
static uint64_t pick_header(struct kbuild *w, struct kb_slot *s, uint64_t k)
{
	if (k < HOT_HEADERS)
		return k;
	uint64_t span = w->headers - HOT_HEADERS;
	uint64_t a = rng_below(&s->rng, span), b = rng_below(&s->rng, span);
	return HOT_HEADERS + MIN(a, b);   /* density falling linearly */
}

static bool slot_op(struct kbuild *w, int j, struct op *op)
{
	struct kb_slot *s = &w->s[j];
	for (;;) {
		if (s->unit >= w->units)
			return false;
		uint64_t u = s->unit;
		switch (s->step) {
		case 0: s->step = 1; if (u != (uint64_t)j) continue;
			op->kind = OP_WAIT; op->region = 0; return true;   /* the tree exists */
		case 1: s->step = 2; op->kind = OP_EXEC; return true;
		case 2: s->step = 3; op->kind = OP_OPEN; op->fd = 0; op->name = "/usr/lib/gcc/cc1"; return true;
		case 3: s->step = 4; op->kind = OP_MMAP_FILE; op->fd = 0; op->region = 0;
			op->npages = w->cc1_pages; op->exec = true; return true;  /* cc1's text */
		case 4: s->step = 5; op->kind = OP_TOUCH; op->region = 0;  /* executing cc1 */
			op->npages = w->cc1_pages; op->refs = 16; return true;
		case 5: s->step = 6;
			s->heap = (2ULL << 20 >> PAGE_SHIFT) + rng_below(&s->rng, 14ULL << 20 >> PAGE_SHIFT);
			op->kind = OP_MMAP_ANON; op->region = 1; op->npages = s->heap;
			op->data_kind = DK_TEXT; /* cc1's heap: text-like (pagefill.h) */
			return true;
		case 6: s->step = 7; op->kind = OP_OPEN; op->fd = 1; op->name = w->sname[u]; return true;
		case 7: s->step = 8; op->kind = OP_READ; op->fd = 1; op->npages = w->src_pages[u]; return true;
		case 8: s->step = 9; s->k = 0; s->hdrs = 0; op->kind = OP_CLOSE; op->fd = 1; return true;
		case 9: /* headers: open, read, close */
			if (s->k >= 3 * HDRS_PER_UNIT) { s->step = 10; continue; }
			op->fd = 2;
			if (s->k % 3 == 0) {
				op->kind = OP_OPEN;
				op->name = w->hname[pick_header(w, s, s->k / 3)];
			} else if (s->k % 3 == 1) {
				op->kind = OP_READ;
				op->npages = HDR_PAGES;
				s->hdrs += HDR_PAGES;
			} else {
				op->kind = OP_CLOSE;
			}
			s->k++;
			return true;
		case 10: { /* compile: the heap, worked REFS times per input byte */
			s->step = 11;
			uint64_t in = (w->src_pages[u] + s->hdrs) * PAGE_SIZE;
			uint64_t refs = in * w->refs_per_byte / s->heap;
			op->kind = OP_TOUCH; op->region = 1; op->write = true;
			op->npages = s->heap; op->refs = (uint32_t)MIN(refs, UINT32_MAX);
			return true;
		}
		case 11: s->step = 12; op->kind = OP_CREATE; op->fd = 3; op->name = w->oname[u]; return true;
		case 12: s->step = 13; op->kind = OP_WRITE; op->fd = 3; op->npages = w->obj_pages[u]; return true;
		case 13: s->step = 14; op->kind = OP_CLOSE; op->fd = 3; return true;
		default: s->step = 1; op->kind = OP_CLOSE; op->fd = 0;
			s->unit += w->jobs; return true;
		}
	}
}

static bool link_op(struct kbuild *w, struct op *op)
{
	if (w->link_step == 0) {
		/* wait for every slot */
		op->kind = OP_WAIT;
		op->region = (uint32_t)(1 + w->link_pos);
		if (++w->link_pos >= w->jobs) {
			w->link_step = 1;
			w->link_pos = 0;
		}
		return true;
	}
	if (w->link_pos >= w->units) {
		if (w->link_step == 4)
			return false;
		op->fd = 1;
		op->kind = w->link_step == 1 ? OP_CREATE : w->link_step == 2 ? OP_WRITE : OP_CLOSE;
		op->name = "/usr/src/linux/vmlinux";
		op->npages = w->link_step == 2 ? w->units * 2 : 0;
		w->link_step++;
		return true;
	}
	uint64_t u = w->link_pos;
	int sub = (int)(w->link_step >> 8);
	op->fd = 0;
	if (sub == 0) {
		op->kind = OP_OPEN; op->name = w->oname[u];
	} else if (sub == 1) {
		op->kind = OP_READ; op->npages = w->obj_pages[u];
	} else {
		op->kind = OP_CLOSE;
		w->link_pos++;
		w->link_step = 1;
		return true;
	}
	w->link_step += 256;
	return true;
}

static bool kb_next_op(void *p, int task, struct op *op)
{
	struct kbuild *w = p;
	memset(op, 0, sizeof(*op));
	if (task == 0)
		return tar_op(w, op);
	if ((uint64_t)task <= w->jobs)
		return slot_op(w, task - 1, op);
	return link_op(w, op);
}

const struct workload_ops kbuild_workload = {
	.name = "kbuild",
	.summary = "make -jN kernel build stand-in: short-lived compilers sharing cc1 and headers",
	.help = kb_help,
	.create = kb_create,
	.destroy = kb_destroy,
	.nr_tasks = kb_nr_tasks,
	.next_op = kb_next_op,
};
