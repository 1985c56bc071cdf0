/* workingset.c - the interactive stand-in (a desktop, an editor, a shell):
 * pagelab's own workload, not a historical program.  It answers the
 * question the 2008 threads asked in words ("system noticeably slower"):
 * does a dd or a memory hog push the user's working set out?
 *
 * The task maps MB of private anonymous memory and writes it once (the
 * application loading), optionally maps FILE_MB of a file it wrote first
 * (libraries and data: page-cache pages), then alternates think time and
 * a burst touching every page of the set once (reading, as a user
 * switching back to an application does; one page in 16 also written),
 * for DURATION seconds of simulated time or ROUNDS rounds.  It reports
 * how many of its touches were major faults (pages that had been pushed
 * out) and how long it stalled waiting for them.
 *
 * Not modeled: a real application's reference skew (every page of the set
 * is touched once per round: the set is exactly as hot as it is big). */
#include "workload.h"
#include "args.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

enum ws_phase { WS_MAP, WS_LOAD, WS_FCREATE, WS_FWRITE, WS_FMAP, WS_THINK, WS_TOUCH_ANON,
		WS_TOUCH_ANON_W, WS_TOUCH_FILE, WS_MARK, WS_DONE };

struct workingset {
	uint64_t anon_pages, file_pages, think_ns, rounds, duration_ns;
	enum ws_phase phase;
	uint64_t round, pos;
	uint64_t now_ns;            /* simulated time at the last mark */
	uint64_t touches;
};

static void ws_help(FILE *out)
{
	fputs(
"usage: workingset -m MB [-f FILE_MB] [-t THINK_MS] [-d SECONDS | -n ROUNDS]\n"
"An interactive user's working set: MB of anonymous memory (and FILE_MB of\n"
"a mapped file) touched once per round, with THINK_MS (default 1000) of\n"
"think time between rounds, for SECONDS (default 60) of simulated time or\n"
"ROUNDS rounds.  Reports the touches that were major faults and the time\n"
"the task stalled on them: did another workload push the set out?\n"
"pagelab's own stand-in, not a historical program.\n", out);
}

static void *ws_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	(void)seed;
	uint64_t mb = 0, fmb = 0, think = 1000, secs = 60, rounds = 0;
	bool have_d = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1] || a[2] || !strchr("mftdn", a[1])) {
			snprintf(err, errlen, "workingset: unexpected argument '%s'", a);
			return NULL;
		}
		char o = a[1];
		const char *v = wl_optval(argc, argv, &i);
		bool ok = o == 'm' ? wl_u64_in(v, 1, 1ULL << 30, &mb)
			: o == 'f' ? wl_u64_in(v, 0, 1ULL << 30, &fmb)
			: o == 't' ? wl_u64_in(v, 0, 3600000, &think)
			: o == 'd' ? wl_u64_in(v, 1, 1000000, &secs)
			: wl_u64_in(v, 1, 100000000, &rounds);
		if (!ok) {
			snprintf(err, errlen, "workingset: bad value '%s' for -%c", v ? v : "", o);
			return NULL;
		}
		have_d |= o == 'd';
	}
	if (have_d && rounds) {
		snprintf(err, errlen, "workingset: give -d SECONDS or -n ROUNDS, not both");
		return NULL;
	}
	if (!mb) {
		snprintf(err, errlen, "workingset: -m MB is required");
		return NULL;
	}
	struct workingset *w = xcalloc(1, sizeof(*w));
	w->anon_pages = mb << 20 >> PAGE_SHIFT;
	w->file_pages = fmb << 20 >> PAGE_SHIFT;
	w->think_ns = think * 1000000ULL;
	w->rounds = rounds;
	w->duration_ns = rounds ? 0 : secs * 1000000000ULL;
	return w;
}

static void ws_destroy(void *p) { free(p); }
static int ws_nr_tasks(void *p) { (void)p; return 1; }

static void ws_mark(void *p, int task, uint32_t id, uint64_t now, uint64_t cpu)
{
	(void)task; (void)id; (void)cpu;
	((struct workingset *)p)->now_ns = now;
}

static bool ws_next_op(void *p, int task, struct op *op)
{
	struct workingset *w = p;
	(void)task;
	memset(op, 0, sizeof(*op));
	for (;;) {
		switch (w->phase) {
		case WS_MAP:
			w->phase = WS_LOAD;
			op->kind = OP_MMAP_ANON;
			op->npages = w->anon_pages;
			return true;
		case WS_LOAD:
			w->phase = w->file_pages ? WS_FCREATE : WS_THINK;
			op->kind = OP_TOUCH;
			op->write = true;
			op->refs = 1;
			op->npages = w->anon_pages;
			return true;
		case WS_FCREATE:
			w->phase = WS_FWRITE;
			op->kind = OP_CREATE;
			op->fd = 0;
			op->name = "/home/user/workingset.data";
			return true;
		case WS_FWRITE:
			w->phase = WS_FMAP;
			op->kind = OP_WRITE;
			op->fd = 0;
			op->npages = w->file_pages;
			return true;
		case WS_FMAP:
			w->phase = WS_THINK;
			op->kind = OP_MMAP_FILE;
			op->fd = 0;
			op->region = 1;
			op->npages = w->file_pages;
			return true;
		case WS_THINK:
			if ((w->rounds && w->round >= w->rounds) ||
			    (w->duration_ns && w->now_ns >= w->duration_ns)) {
				w->phase = WS_DONE;
				continue;
			}
			w->phase = WS_TOUCH_ANON;
			w->pos = 0;
			if (!w->think_ns)
				continue;
			op->kind = OP_SLEEP;
			op->ns = w->think_ns;
			return true;
		case WS_TOUCH_ANON:
			/* Read 15 pages, write the 16th: one op per run. */
			if (w->pos >= w->anon_pages) {
				w->phase = w->file_pages ? WS_TOUCH_FILE : WS_MARK;
				w->pos = 0;
				continue;
			}
			op->kind = OP_TOUCH;
			op->refs = 1;
			op->first = w->pos;
			op->npages = MIN(15, w->anon_pages - w->pos);
			w->pos += op->npages;
			w->touches += op->npages;
			w->phase = WS_TOUCH_ANON_W;
			return true;
		case WS_TOUCH_ANON_W:
			w->phase = WS_TOUCH_ANON;
			if (w->pos >= w->anon_pages)
				continue;
			op->kind = OP_TOUCH;
			op->write = true;
			op->refs = 1;
			op->first = w->pos++;
			op->npages = 1;
			w->touches++;
			return true;
		case WS_TOUCH_FILE:
			w->phase = WS_MARK;
			op->kind = OP_TOUCH;
			op->region = 1;
			op->refs = 1;
			op->npages = w->file_pages;
			w->touches += w->file_pages;
			return true;
		case WS_MARK:
			w->phase = WS_THINK;
			w->round++;
			op->kind = OP_MARK;
			op->region = (uint32_t)w->round;
			return true;
		case WS_DONE:
			return false;
		}
	}
}

static void ws_report_tasks(void *p, const struct wl_task_result *r, int n, FILE *out)
{
	struct workingset *w = p;
	(void)n;
	double pct = w->touches ? 100.0 * (double)r[0].majflt / (double)w->touches : 0;
	fprintf(out, "workingset: %llu pages, %llu rounds, %llu touches, %llu major faults (%.2f%%), stalled %.3f s\n",
		(unsigned long long)(w->anon_pages + w->file_pages), (unsigned long long)w->round,
		(unsigned long long)w->touches, (unsigned long long)r[0].majflt, pct, r[0].stall_s);
}

const struct workload_ops workingset_workload = {
	.name = "workingset",
	.summary = "an interactive user's working set touched with think time: was it pushed out?",
	.help = ws_help,
	.create = ws_create,
	.destroy = ws_destroy,
	.nr_tasks = ws_nr_tasks,
	.next_op = ws_next_op,
	.mark = ws_mark,
	.report_tasks = ws_report_tasks,
};
