/* applaunch.c - apps brought back to the foreground in turn under memory
 * pressure: the ChromeOS tab-switch and Android app-switch measurements of
 * today's reclaim threads (MGLRU's "tab switching" and "app launch" figures,
 * lowmemorykiller-era cold starts).  pagelab's own workload, not one
 * program: what it keeps of those tests is their shape.
 *
 * N apps (tasks), each with a file footprint (its own text and data, a
 * private PROT_EXEC mapping of a file of its own, and its share of a
 * shared library file every app maps) and an anonymous footprint (its
 * heap).  The apps are launched one after the other (each touches its
 * whole footprint: file pages read, anonymous pages written), then
 * brought to the foreground in turn, round robin (the least recently
 * used app next, as cycling tabs) or in a seeded random order (-r); a
 * switch touches the app's working set, WS% of each footprint in 64 KiB
 * runs chosen once per app (reads; -d PCT of the anonymous runs written),
 * then the user stays THINK ms.  Only the foreground app runs: the apps
 * take turns at OP_BARRIERs (every app waits at one per switch).
 * Per launch and switch: the time from its first touch to its last (two
 * OP_MARKs) and the app's major faults in between (mark_faults), and their
 * percentiles (nearest rank); the records' figures of merit are the
 * median launch and the median and 99th percentile switch (al_figures).
 * The files are written with O_DIRECT before the first launch, so that
 * launches start cold (as after boot).
 * Not modeled: the apps' CPU (rendering, JIT), the browser's or the
 * framework's shared processes, the low-memory killer (an app is never
 * killed and relaunched), zram (the machine's swap is a disk). */
#include "workload.h"
#include "args.h"
#include "wldist.h"

#include <stdlib.h>
#include <string.h>

#define AL_RUN 16               /* pages of a working-set run: 64 KiB */
#define AL_MAX_APPS 256
#define AL_FILL 256             /* pages per file-creating write */
#define AL_NREG 3               /* anonymous heap, own file, shared library */

enum al_phase { A_CREATE, A_FILL, A_CLOSE, A_BARRIER0, A_MAP, A_SLOT, A_DONE };

struct al_slot {
	uint32_t app;
	uint64_t t0, t1, f0, f1;    /* marks: times and major faults */
	bool seen;
};

struct al_task {
	enum al_phase ph;
	uint32_t step, file;        /* A_FILL: which file; A_MAP: which op */
	uint64_t pos;               /* file fill cursor / touch cursor */
	uint32_t reg;               /* region being touched */
	uint64_t slot;
	uint32_t sstep;             /* within a slot */
	uint64_t *order[AL_NREG];   /* runs of each region, working set first */
};

struct applaunch {
	uint32_t napps, ws_pct, dirty_pct;
	uint64_t pages[AL_NREG], nruns[AL_NREG], wsruns[AL_NREG];
	uint64_t switches, think_ns, nslots;
	bool random;
	struct al_slot *slots;
	struct al_task *t;
	char **name;                /* [app]: its file; [napps]: the library */
};

static void al_help(FILE *out)
{
	fputs(
"usage: applaunch [-n APPS] [-a ANON_MB] [-f FILE_MB] [-l LIB_MB] [-s SWITCHES]\n"
"                 [-w WS_PCT] [-t THINK_MS] [-d DIRTY_PCT] [-r]\n"
"APPS (default 8) apps, each with ANON_MB (default 64) of heap, FILE_MB\n"
"(default 16) of its own mapped text and data and its share of a LIB_MB\n"
"(default 32) library file all of them map; launched in turn (the whole\n"
"footprint), then SWITCHES (default 3 x APPS) times one is brought back to\n"
"the foreground (round robin, or -r a seeded random order): it touches\n"
"WS_PCT (default 50) of each footprint in 64 KiB runs, writing DIRTY_PCT\n"
"(default 0) of its heap runs, and the user stays THINK_MS (default 1000).\n"
"Output: each launch's and switch's time and major faults, and their\n"
"percentiles.  pagelab's own workload, after ChromeOS tab switching and\n"
"Android app switching.\n", out);
}

static bool al_opt(struct applaunch *a, int argc, char **argv, int *i, char *err, size_t errlen)
{
	const char *s = argv[*i];
	if (s[0] != '-' || !s[1] || s[2] || !strchr("nafslwtdr", s[1])) {
		snprintf(err, errlen, "applaunch: unexpected argument '%s' (see pagelab workloads applaunch --help)", s);
		return false;
	}
	if (s[1] == 'r') {
		a->random = true;
		return true;
	}
	const char *v = wl_optval(argc, argv, i);
	uint64_t x = 0;
	bool ok;
	switch (s[1]) {
	case 'n': ok = wl_u64_in(v, 2, AL_MAX_APPS, &x); a->napps = (uint32_t)x; break;
	case 'a': ok = wl_u64_in(v, 1, 1 << 20, &x); a->pages[0] = x << 8; break;
	case 'f': ok = wl_u64_in(v, 1, 1 << 20, &x); a->pages[1] = x << 8; break;
	case 'l': ok = wl_u64_in(v, 0, 1 << 20, &x); a->pages[2] = x << 8; break;
	case 's': ok = wl_u64_in(v, 1, 1000000, &a->switches); break;
	case 'w': ok = wl_u64_in(v, 1, 100, &x); a->ws_pct = (uint32_t)x; break;
	case 't': ok = wl_u64_in(v, 0, 3600000, &x); a->think_ns = x * 1000000; break;
	default: ok = wl_u64_in(v, 0, 100, &x); a->dirty_pct = (uint32_t)x; break;
	}
	if (!ok)
		snprintf(err, errlen, "applaunch: bad value '%s' for %s", v ? v : "", s);
	return ok;
}

static bool al_parse(struct applaunch *a, int argc, char **argv, char *err, size_t errlen)
{
	*a = (struct applaunch){ .napps = 8, .ws_pct = 50, .think_ns = 1000000000ULL,
				 .pages = { 64 << 8, 16 << 8, 32 << 8 } };
	for (int i = 1; i < argc; i++)
		if (!al_opt(a, argc, argv, &i, err, errlen))
			return false;
	if (!a->switches)
		a->switches = 3ULL * a->napps;
	return true;
}

static void al_free(struct applaunch *a)
{
	if (a->t)
		for (uint32_t k = 0; k < a->napps; k++)
			for (int r = 0; r < AL_NREG; r++)
				free(a->t[k].order[r]);
	if (a->name)
		for (uint32_t k = 0; k <= a->napps; k++)
			free(a->name[k]);
	free(a->name);
	free(a->t);
	free(a->slots);
	free(a);
}

static void al_destroy(void *p) { al_free(p); }

/* Who is in the foreground in each slot: the launches in order, then
 * round robin from app 0, or seeded draws never repeating the last. */
static void al_schedule(struct applaunch *a, uint64_t seed)
{
	struct rng rng;
	rng_seed(&rng, seed);
	a->nslots = a->napps + a->switches;
	a->slots = xcalloc(a->nslots, sizeof(*a->slots));
	for (uint64_t s = 0; s < a->nslots; s++) {
		uint32_t prev = s ? a->slots[s - 1].app : 0;
		if (s < a->napps)
			a->slots[s].app = (uint32_t)s;
		else if (!a->random)
			a->slots[s].app = (uint32_t)((s - a->napps) % a->napps);
		else
			a->slots[s].app = (prev + 1 + (uint32_t)rng_below(&rng, a->napps - 1)) % a->napps;
	}
}

/* Each app's runs of each region, in a seeded order: the first wsruns
 * of them are its working set. */
static void al_orders(struct applaunch *a, uint64_t seed)
{
	for (uint32_t k = 0; k < a->napps; k++)
		for (int r = 0; r < AL_NREG; r++) {
			uint64_t n = a->nruns[r];
			struct wl_perm perm;
			a->t[k].order[r] = xmalloc((n ? n : 1) * sizeof(uint64_t));
			wl_perm_init(&perm, n ? n : 1, seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)k << 8 | (uint64_t)r));
			for (uint64_t i = 0; i < n; i++)
				a->t[k].order[r][i] = wl_perm_at(&perm, i);
		}
}

static void *al_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	struct applaunch *a = xcalloc(1, sizeof(*a));
	if (!al_parse(a, argc, argv, err, errlen)) {
		al_free(a);
		return NULL;
	}
	for (int r = 0; r < AL_NREG; r++) {
		a->nruns[r] = (a->pages[r] + AL_RUN - 1) / AL_RUN;
		a->wsruns[r] = (a->nruns[r] * a->ws_pct + 99) / 100;
	}
	al_schedule(a, seed);
	a->t = xcalloc(a->napps, sizeof(*a->t));
	al_orders(a, seed);
	a->name = xcalloc(a->napps + 1, sizeof(char *));
	for (uint32_t k = 0; k <= a->napps; k++) {
		char b[48];
		if (k < a->napps)
			snprintf(b, sizeof(b), "/apps/app%u", k);
		else
			snprintf(b, sizeof(b), "/apps/libshared.so");
		a->name[k] = xstrdup(b);
	}
	return a;
}

static bool al_check(int argc, char **argv, char *err, size_t errlen)
{
	struct applaunch a;
	return al_parse(&a, argc, argv, err, errlen);
}

static int al_nr_tasks(void *p) { return (int)((struct applaunch *)p)->napps; }

/* The files app k writes: its own, and (app 0) the shared library. */
static uint32_t al_nfiles(const struct applaunch *a, uint32_t k)
{
	return k == 0 && a->pages[2] ? 2 : 1;
}

/* Create and fill file number t->file of app k with O_DIRECT writes. */
static bool al_file_op(struct applaunch *a, uint32_t k, struct al_task *t, struct op *op)
{
	uint32_t which = t->file == 0 ? k : a->napps;
	uint64_t npages = a->pages[t->file == 0 ? 1 : 2];
	op->fd = (int32_t)t->file;
	switch (t->ph) {
	case A_CREATE:
		op->kind = OP_CREATE;
		op->name = a->name[which];
		t->ph = A_FILL;
		t->pos = 0;
		return true;
	case A_FILL:
		op->kind = OP_WRITE;
		op->direct = true;
		op->first = t->pos;
		op->npages = MIN(AL_FILL, npages - t->pos);
		t->pos += op->npages;
		if (t->pos >= npages)
			t->ph = A_CLOSE;
		return true;
	default:
		op->kind = OP_CLOSE;
		t->file++;
		t->ph = t->file < al_nfiles(a, k) ? A_CREATE : A_BARRIER0;
		return true;
	}
}

/* Open and map the files, map the heap: regions 0 heap, 1 own file,
 * 2 library. */
static bool al_map_op(struct applaunch *a, uint32_t k, struct al_task *t, struct op *op)
{
	uint32_t s = t->step++;
	bool lib = a->pages[2] > 0;
	if (s == 0) {
		op->kind = OP_MMAP_ANON;
		op->npages = a->pages[0];
	} else if (s == 1 || s == 3) {
		op->kind = OP_OPEN;
		op->fd = (int32_t)(s / 2);
		op->name = a->name[s == 1 ? k : a->napps];
	} else {
		op->kind = OP_MMAP_FILE;
		op->fd = (int32_t)(s / 2 - 1);
		op->region = s == 2 ? 1 : 2;
		op->npages = a->pages[op->region];
		op->exec = true;
	}
	if (t->step == (lib ? 5u : 3u))
		t->ph = A_SLOT;
	return true;
}

/* The next touch of the foreground app in slot `s`; false when done. */
static bool al_touch_op(struct applaunch *a, uint32_t k, struct al_task *t, struct op *op, bool launch)
{
	for (; t->reg < AL_NREG; t->reg++, t->pos = 0) {
		uint64_t lim = launch ? a->nruns[t->reg] : a->wsruns[t->reg];
		if (t->pos >= lim)
			continue;
		uint64_t run = launch ? t->pos : t->order[t->reg][t->pos];
		uint64_t first = run * AL_RUN;
		op->kind = OP_TOUCH;
		op->region = t->reg;
		op->refs = 1;
		op->first = first;
		op->npages = MIN(AL_RUN, a->pages[t->reg] - first);
		/* The heap is written at launch; a switch dirties DIRTY_PCT
		 * of its runs (the first ones of the working set). */
		op->write = t->reg == 0 && (launch || t->pos * 100 < a->wsruns[0] * a->dirty_pct);
		t->pos++;
		return true;
	}
	(void)k;
	return false;
}

/* One slot: a barrier, then for the foreground app a mark, its touches,
 * a mark and the think time. */
static bool al_slot_op(struct applaunch *a, uint32_t k, struct al_task *t, struct op *op)
{
	for (;;) {
		if (t->slot >= a->nslots) {
			t->ph = A_DONE;
			return false;
		}
		bool fg = a->slots[t->slot].app == k;
		uint32_t id = (uint32_t)(t->slot * 2 + 1);
		switch (t->sstep) {
		case 0:
			op->kind = OP_BARRIER;
			t->sstep = fg ? 1 : 4;
			return true;
		case 1:
			op->kind = OP_MARK;
			op->region = id;
			t->sstep = 2;
			t->reg = 0;
			t->pos = 0;
			return true;
		case 2:
			if (al_touch_op(a, k, t, op, t->slot < a->napps))
				return true;
			op->kind = OP_MARK;
			op->region = id + 1;
			t->sstep = 3;
			return true;
		case 3:
			t->sstep = 4;
			if (a->think_ns) {
				op->kind = OP_SLEEP;
				op->ns = a->think_ns;
				return true;
			}
			continue;
		default:
			t->slot++;
			t->sstep = 0;
			continue;
		}
	}
}

static bool al_next_op(void *p, int task, struct op *op)
{
	struct applaunch *a = p;
	uint32_t k = (uint32_t)task;
	struct al_task *t = &a->t[k];
	memset(op, 0, sizeof(*op));
	switch (t->ph) {
	case A_CREATE:
	case A_FILL:
	case A_CLOSE:
		return al_file_op(a, k, t, op);
	case A_BARRIER0:
		/* The library exists before any app maps it. */
		op->kind = OP_BARRIER;
		t->ph = A_MAP;
		return true;
	case A_MAP:
		return al_map_op(a, k, t, op);
	case A_SLOT:
		return al_slot_op(a, k, t, op);
	default:
		return false;
	}
}

static void al_mark(void *p, int task, uint32_t id, uint64_t now, uint64_t cpu)
{
	struct applaunch *a = p;
	struct al_slot *s = &a->slots[(id - 1) / 2];
	(void)task;
	(void)cpu;
	if (id % 2)
		s->t0 = now;
	else
		s->t1 = now;
}

static void al_mark_faults(void *p, int task, uint32_t id, uint64_t majflt)
{
	struct applaunch *a = p;
	struct al_slot *s = &a->slots[(id - 1) / 2];
	(void)task;
	if (id % 2) {
		s->f0 = majflt;
	} else {
		s->f1 = majflt;
		s->seen = true;
	}
}

/* The times (ns) and major faults of the slots [from, to) seen, each
 * sorted, into new arrays; how many; *total the faults. */
static size_t al_slot_figures(const struct applaunch *a, uint64_t from, uint64_t to, uint64_t **ns,
			      uint64_t **fl, uint64_t *total)
{
	*ns = xcalloc(to - from + 1, sizeof(uint64_t));
	*fl = xcalloc(to - from + 1, sizeof(uint64_t));
	size_t n = 0;
	*total = 0;
	for (uint64_t s = from; s < to; s++)
		if (a->slots[s].seen) {
			(*ns)[n] = a->slots[s].t1 - a->slots[s].t0;
			(*fl)[n] = a->slots[s].f1 - a->slots[s].f0;
			*total += (*fl)[n++];
		}
	wl_sort_u64(*ns, n);
	wl_sort_u64(*fl, n);
	return n;
}

/* Percentiles of the slots [from, to) seen: time in ms and faults. */
static void al_pct_lines(struct applaunch *a, uint64_t from, uint64_t to, const char *what, FILE *out)
{
	uint64_t *ns, *fl, total;
	size_t n = al_slot_figures(a, from, to, &ns, &fl, &total);
	fprintf(out, "%s time (ms): p50 %.3f p90 %.3f p99 %.3f max %.3f\n", what,
		(double)wl_percentile(ns, n, 50) / 1e6, (double)wl_percentile(ns, n, 90) / 1e6,
		(double)wl_percentile(ns, n, 99) / 1e6, (double)wl_percentile(ns, n, 100) / 1e6);
	fprintf(out, "%s major faults: p50 %llu p90 %llu p99 %llu max %llu (total %llu)\n", what,
		(unsigned long long)wl_percentile(fl, n, 50), (unsigned long long)wl_percentile(fl, n, 90),
		(unsigned long long)wl_percentile(fl, n, 99), (unsigned long long)wl_percentile(fl, n, 100),
		(unsigned long long)total);
	free(ns);
	free(fl);
}

/* The median launch and the median and 99th percentile switch, ms: the
 * "time (ms)" lines' figures.  An app's switch time is what the user
 * waits for it to come back. */
static void al_figures(void *p, const struct wl_task_result *r, int n, struct wl_figures *out)
{
	struct applaunch *a = p;
	uint64_t *ns, *fl, total;
	(void)r;
	(void)n;
	size_t k = al_slot_figures(a, 0, a->napps, &ns, &fl, &total);
	if (k)   /* none seen: no figure, not a time of 0 */
		wl_figure_add(out, "launch_p50_ms", (double)wl_percentile(ns, k, 50) / 1e6, false);
	free(ns);
	free(fl);
	k = al_slot_figures(a, a->napps, a->nslots, &ns, &fl, &total);
	if (k) {
		wl_figure_add(out, "switch_p50_ms", (double)wl_percentile(ns, k, 50) / 1e6, false);
		wl_figure_add(out, "switch_p99_ms", (double)wl_percentile(ns, k, 99) / 1e6, false);
	}
	free(ns);
	free(fl);
}

static void al_report_tasks(void *p, const struct wl_task_result *r, int n, FILE *out)
{
	struct applaunch *a = p;
	(void)r;
	(void)n;
	fprintf(out, "applaunch: %u apps, %llu + %llu + %llu MiB each, %llu switches (%s)\n", a->napps,
		(unsigned long long)(a->pages[0] >> 8), (unsigned long long)(a->pages[1] >> 8),
		(unsigned long long)(a->pages[2] >> 8), (unsigned long long)a->switches,
		a->random ? "random" : "round robin");
	fputs("  what     app       time (ms)   major faults\n", out);
	for (uint64_t s = 0; s < a->nslots; s++) {
		struct al_slot *x = &a->slots[s];
		if (!x->seen)
			continue;
		char what[24];
		if (s < a->napps)
			snprintf(what, sizeof(what), "launch");
		else
			snprintf(what, sizeof(what), "switch %llu", (unsigned long long)(s - a->napps + 1));
		fprintf(out, "  %-10s %3u %15.3f %14llu\n", what, x->app, (double)(x->t1 - x->t0) / 1e6,
			(unsigned long long)(x->f1 - x->f0));
	}
	al_pct_lines(a, 0, a->napps, "launch", out);
	al_pct_lines(a, a->napps, a->nslots, "switch", out);
}

const struct workload_ops applaunch_workload = {
	.name = "applaunch",
	.summary = "apps brought back to the foreground in turn (tab / app switching): "
		   "time and major faults",
	.help = al_help,
	.create = al_create,
	.check = al_check,
	.destroy = al_destroy,
	.nr_tasks = al_nr_tasks,
	.next_op = al_next_op,
	.mark = al_mark,
	.mark_faults = al_mark_faults,
	.report_tasks = al_report_tasks,
	.figures = al_figures,
};
