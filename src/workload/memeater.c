/* memeater.c - the memory eater of Johannes Weiner's split-LRU report
 * (LKML, July 2008, thread 001): "a massive memory eater ... that spawns
 * children that eat, serialized, ~120% of RAM each".  Its source was never
 * posted; this is a reconstruction from that sentence.
 *
 * The parent spawns N children one after another: each child maps PERCENT
 * of RAM (as sysinfo reports it) of private anonymous memory, writes every
 * word of it once front to back (memset-like: 512 stores per page), and
 * exits; the next child starts when the previous one has exited (OP_WAIT on
 * it).  The question the thread asked is whether the OOM killer fires: with
 * enough swap it should not, since each child alone fits in RAM + swap.
 *
 * Not modeled: whatever else the real eater did between children (unknown);
 * the parent's own tiny footprint. */
#include "workload.h"
#include "args.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

struct me_task { int phase; };

struct memeater {
	uint64_t nchild, percent, bytes, npages;
	bool fixed;                 /* -m given: size independent of RAM */
	struct me_task *t;
};

static void me_help(FILE *out)
{
	fputs(
"usage: memeater [-n CHILDREN] [-r PERCENT] [-m MB]\n"
"The memory eater of the July 2008 split-LRU thread: CHILDREN (default 3)\n"
"children run one after another, each writing PERCENT (default 120) of RAM\n"
"of anonymous memory once, then exiting.  -m MB eats a fixed size instead.\n"
"Reports per child how much it ate and whether the OOM killer took it.\n"
"A reconstruction: the real program was never posted.\n", out);
}

static void *me_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	(void)seed;
	struct memeater m = { .nchild = 3, .percent = 120 };
	uint64_t mb = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1] || !strchr("nrm", a[1])) {
			snprintf(err, errlen, "memeater: unexpected argument '%s'", a);
			return NULL;
		}
		char o = a[1];
		const char *v = wl_optval(argc, argv, &i);
		bool ok = o == 'n' ? wl_u64_in(v, 1, 1000, &m.nchild)
			: o == 'r' ? wl_u64_in(v, 1, 10000, &m.percent)
			: wl_u64_in(v, 1, 1ULL << 30, &mb);
		if (!ok) {
			snprintf(err, errlen, "memeater: bad value '%s' for -%c", v ? v : "", o);
			return NULL;
		}
	}
	struct memeater *w = xmalloc(sizeof(*w));
	*w = m;
	if (mb) {
		w->fixed = true;
		w->bytes = mb << 20;
		w->npages = w->bytes / PAGE_SIZE;
	}
	w->t = xcalloc(m.nchild, sizeof(*w->t));
	return w;
}

static void me_attach(void *p, const struct wl_sysinfo *si)
{
	struct memeater *w = p;
	if (w->fixed)
		return;
	w->bytes = si->totalram / 100 * w->percent;
	w->npages = (w->bytes + PAGE_SIZE - 1) / PAGE_SIZE;
}

static void me_destroy(void *p)
{
	struct memeater *w = p;
	free(w->t);
	free(w);
}

static int me_nr_tasks(void *p) { return (int)((struct memeater *)p)->nchild; }

static bool me_next_op(void *p, int task, struct op *op)
{
	struct memeater *w = p;
	struct me_task *t = &w->t[task];
	memset(op, 0, sizeof(*op));
	switch (t->phase++) {
	case 0:
		if (task > 0) {
			op->kind = OP_WAIT;     /* serialized: after the previous child */
			op->region = (uint32_t)task - 1;
			return true;
		}
		t->phase++;
		/* fall through */
	case 1:
		op->kind = OP_MMAP_ANON;
		op->npages = w->npages;
		return true;
	case 2:
		op->kind = OP_TOUCH;
		op->write = true;
		op->refs = (uint32_t)(PAGE_SIZE / 8);
		op->npages = w->npages;
		return true;
	default:
		return false;
	}
}

static void me_report_tasks(void *p, const struct wl_task_result *r, int n, FILE *out)
{
	struct memeater *w = p;
	int killed = 0;
	for (int i = 0; i < n; i++) {
		if (r[i].killed) {
			killed++;
			fprintf(out, "memeater: child %d: killed by the OOM killer\n", i + 1);
		} else {
			fprintf(out, "memeater: child %d: ate %llu MB, done at %.2f s\n", i + 1,
				(unsigned long long)(w->bytes >> 20), r[i].elapsed_s);
		}
	}
	fprintf(out, "memeater: %d of %d children OOM-killed\n", killed, n);
}

const struct workload_ops memeater_workload = {
	.name = "memeater",
	.summary = "children one after another each eating ~120% of RAM (split-LRU thread, 2008)",
	.help = me_help,
	.create = me_create,
	.destroy = me_destroy,
	.nr_tasks = me_nr_tasks,
	.next_op = me_next_op,
	.attach = me_attach,
	.report_tasks = me_report_tasks,
};
