/* experiment.c - running the experiments: scaling, building one cell per
 * (design, run, repeat) and running them on a pool of threads (verdict.c
 * reads the figures back).  Every machine is independent and its seed
 * depends only on the run and repeat, never on the thread that ran it, so
 * the output is the same for any --jobs. */
#include "../engine/runspec.h"
#include "experiment.h"
#include "exp_file.h"
#include "../engine/pool.h"
#include "../lib/util.h"
#include "../policy/policy.h"
#include "../lib/output.h"

#include <math.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

/* ---- lookups ------------------------------------------------------------ */

int exp_design_index(const struct experiment *e, const char *label)
{
	for (int i = 0; label && i < e->nr_designs; i++)
		if (!strcmp(e->designs[i].label, label))
			return i;
	return -1;
}

int exp_run_index(const struct experiment *e, const char *key)
{
	for (int i = 0; key && i < e->nr_runs; i++)
		if (!strcmp(e->runs[i].key, key))
			return i;
	return -1;
}

int exp_metric_index(const struct experiment *e, const char *key)
{
	for (int i = 0; key && i < e->nr_metrics; i++)
		if (!strcmp(e->metrics[i].key, key))
			return i;
	return -1;
}

int exp_reps(const struct exp_result *r, int run)
{
	const struct exp_run *x = &r->e->runs[run];
	int n = r->full ? x->repeats : x->quick_repeats;
	return n < 1 ? 1 : n;
}

const struct run_result *exp_rr(const struct exp_result *r, int design, int run, int rep)
{
	return &r->rr[((size_t)design * (size_t)r->e->nr_runs + (size_t)run) * (size_t)r->reps + (size_t)rep];
}

static struct run_result *rr_mut(struct exp_result *r, int design, int run, int rep)
{
	return (struct run_result *)exp_rr(r, design, run, rep);
}

const struct exp_published *exp_published_find(const struct experiment *e, const char *design, const char *metric)
{
	for (int i = 0; i < e->nr_published; i++)
		if (!strcmp(e->published[i].design, design) && !strcmp(e->published[i].metric, metric))
			return &e->published[i];
	return NULL;
}

/* ---- templates ---------------------------------------------------------- */

static void put_size(char *buf, size_t len, uint64_t b)
{
	if (b && b % (1ULL << 30) == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(b >> 30));
	else if (b && b % (1ULL << 20) == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(b >> 20));
	else
		snprintf(buf, len, "%lluK", (unsigned long long)(b >> 10));
}

void exp_expand(const struct exp_result *r, const char *t, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	while (*t && o + 1 < len) {
		if (*t != '{') {
			buf[o++] = *t++;
			buf[o] = 0;
			continue;
		}
		const char *end = strchr(t, '}');
		if (!end || t[2] != ':')
			panic("experiment template '%s': malformed", t);
		char kind = t[1];
		char val[64];
		snprintf(val, sizeof(val), "%.*s", (int)(end - t - 3), t + 3);
		char out[64];
		double s = r->scale;
		uint64_t b;
		double v;
		switch (kind) {
		case 'M':
		case 'T': /* a time in a workload option's unit, scaled like the
			   * experiment's own times (vmstat, max-time) */
		case 'N':
			if (!parse_double(val, &v))
				panic("experiment template: bad number '%s'", val);
			v = floor(v * s + 0.5);
			snprintf(out, sizeof(out), "%.0f", v < 1 ? 1 : v);
			break;
		case 'S':
		case 'B':
			if (!parse_size(val, &b))
				panic("experiment template: bad size '%s'", val);
			b = (uint64_t)((double)b * s);
			if (r->scale < 1 && b >= (1ULL << 20))
				b = b / (1ULL << 20) * (1ULL << 20); /* whole MB, as a user would type */
			else
				b = b / PAGE_SIZE * PAGE_SIZE;
			if (b < PAGE_SIZE)
				b = PAGE_SIZE;
			if (kind == 'S')
				put_size(out, sizeof(out), b);
			else
				snprintf(out, sizeof(out), "%llu", (unsigned long long)b);
			break;
		default:
			panic("experiment template: unknown kind '%c'", kind);
		}
		o += (size_t)snprintf(buf + o, len - o, "%s", out);
		if (o >= len)
			o = len - 1;
		t = end + 1;
	}
}

static char *fmt_why(const char *fmt, const char *a, const char *b)
{
	char buf[600];
	snprintf(buf, sizeof(buf), fmt, a, b ? b : "");
	return xstrdup(buf);
}

/* ---- one machine -------------------------------------------------------- */

/* A machine-set line onto the machine p and the cgroup of mo; *ram_set
 * says whether it gave ram= (the cgroup's RAM rule then stands aside). */
static bool apply_machine_sets(const struct exp_result *r, const char *tmpl, struct profile *p,
			       struct machine_opts *mo, bool *ram_set, char **why)
{
	if (!tmpl)
		return true;
	char line[512], err[300];
	exp_expand(r, tmpl, line, sizeof(line));
	char *argv[32];
	int n = cell_split_args(line, argv, 32);
	for (int i = 0; i < n; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq)
			panic("experiment %d: machine setting '%s' lacks '='", r->e->id, argv[i]);
		*eq = 0;
		if (runspec_set_machine(p, mo, argv[i], eq + 1, err, sizeof(err)) == RS_SET_BAD) {
			*why = xstrdup(err);
			return false;
		}
		*ram_set |= !strcmp(argv[i], "ram");
	}
	return true;
}

/* A design's machine parameters (its sets that name no tunable of its
 * policy but a machine parameter: `swap=zram:1G`, `zswap=1`), applied
 * after the run's own: the design is the swap device, say. */
static bool design_machine(const struct policy_ops *pol, const char *sets, struct profile *p,
			   struct machine_opts *mo, char **why)
{
	if (!sets)
		return true;
	char line[256], err[300];
	snprintf(line, sizeof(line), "%s", sets);
	char *argv[16];
	int n = cell_split_args(line, argv, 16);
	for (int i = 0; i < n; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq)
			continue;
		*eq = 0;
		if (policy_tunable_index(pol, argv[i]) >= 0 || !profile_has_param(argv[i]))
			continue;
		if (runspec_set_machine(p, mo, argv[i], eq + 1, err, sizeof(err)) == RS_SET_BAD) {
			*why = xstrdup(err);
			return false;
		}
	}
	return true;
}

/* Policy tunables of a design, defaults first. */
static double *design_tunables(const struct policy_ops *pol, const char *sets, char **why)
{
	int nt = policy_nr_tunables(pol);
	double *tun = xcalloc((size_t)nt + 1, sizeof(double));
	for (int i = 0; i < nt; i++)
		tun[i] = pol->tunables[i].def;
	if (!sets)
		return tun;
	char line[256];
	snprintf(line, sizeof(line), "%s", sets);
	char *argv[16];
	int n = cell_split_args(line, argv, 16);
	for (int i = 0; i < n; i++) {
		char *eq = strchr(argv[i], '=');
		if (eq)
			*eq = 0;
		int ti = policy_tunable_index(pol, argv[i]);
		double v;
		if (ti < 0 && eq && profile_has_param(argv[i]))
			continue;  /* a machine parameter: design_machine() */
		if (ti < 0 || !eq || !parse_double(eq + 1, &v)) {
			*why = fmt_why("policy %s has no tunable %s in this build", pol->name, argv[i]);
			free(tun);
			return NULL;
		}
		tun[ti] = v;
	}
	return tun;
}

static uint64_t scaled_ns(const struct exp_result *r, double full_s, double min_s)
{
	double s = full_s * r->scale;
	if (s < min_s)
		s = min_s;
	return (uint64_t)(s * 1e9);
}

/* Expand a run's workload templates for this result's scale. */
static int expand_wl(const struct exp_result *r, const char *const *tmpl, char (*buf)[512], struct cell *c)
{
	int n = 0;
	while (n < EXP_MAX_WL && tmpl[n]) {
		exp_expand(r, tmpl[n], buf[n], sizeof(buf[n]));
		c->wl[n] = buf[n];
		n++;
	}
	c->nr_wl = n;
	return n;
}

/* One (design, run, repeat) of an experiment as a cell of the engine. */
static void run_one(struct exp_result *r, int d, int run, int rep)
{
	const struct experiment *e = r->e;
	const struct exp_run *x = &e->runs[run];
	const struct exp_design *ds = &e->designs[d];
	struct run_result *rr = rr_mut(r, d, run, rep);
	if (!r->design_ok[d]) {
		rr->why = xstrdup(r->design_why[d]);
		return;
	}
	char perr[300];
	const struct policy_ops *pol = policy_lookup(ds->policy, perr, sizeof(perr)); /* loaded by exp_setup() */
	double *tun = design_tunables(pol, ds->sets, &rr->why);
	if (!tun)
		return;
	struct cell c = { .prof = r->prof, .pol = pol, .tun = tun, .residency_wl = x->residency_wl };
	/* Same seeds for every design: they face the same workload. */
	c.mo = (struct machine_opts){
		.memcg_pages = r->cg.memcg_pages,
		.memcg_v1 = r->cg.memcg_v1,
		.cgroups = r->cg.cgroups,
		.make_inputs = r->cg.make_inputs,
		.psi = r->cg.psi,       /* psi=1: the agents read memory.pressure */
		.seed = exp_seed(rep),
		/* The experiment's machine-set vmstat= (unscaled) in place of
		 * every run's own vmstat line. */
		.vmstat_ns = r->cg.vmstat_ns ? r->cg.vmstat_ns : scaled_ns(r, x->vmstat_s, 0.01),
		.max_time_ns = x->max_time_unscaled ? (uint64_t)(x->max_time_s * 1e9)
						    : scaled_ns(r, x->max_time_s, 60),
		.stop_with_wl = x->stop_with,
		.check = r->check,
	};
	if (r->max_time_ns && (!c.mo.max_time_ns || r->max_time_ns < c.mo.max_time_ns))
		c.mo.max_time_ns = r->max_time_ns;
	bool ram_set = r->ram_set;
	if (!apply_machine_sets(r, x->machine_sets, &c.prof, &c.mo, &ram_set, &rr->why) ||
	    !design_machine(pol, ds->sets, &c.prof, &c.mo, &rr->why)) {
		free(tun);
		return;
	}
	runspec_set_memcg(&c.prof, &c.mo, c.mo.memcg_pages * PAGE_SIZE, ram_set);
	char buf[EXP_MAX_WL][512];
	if (x->delayed >= 0) {
		/* First the filler alone, to learn when it has filled memory. */
		struct cell fc = c;
		const char *ft[2] = { x->fill_wl, NULL };
		expand_wl(r, ft, buf, &fc);
		fc.mo.vmstat_ns = 0;
		fc.mo.stop_with_wl = 0;
		fc.residency_wl = -1;
		struct run_result frr = { 0 };
		cell_run(&fc, &frr);
		if (!frr.available) {
			rr->why = frr.why;
			frr.why = NULL;
			run_result_free(&frr);
			free(tun);
			return;
		}
		/* The settle second is a time like the others: scaled. */
		c.start_ns[x->delayed] = frr.wl[0].end_ns + scaled_ns(r, 1.0, 0.01);
		run_result_free(&frr);
	}
	expand_wl(r, x->wl, buf, &c);
	cell_run(&c, rr);
	free(tun);
}

uint64_t exp_seed(int rep)
{
	return 1 + (uint64_t)rep * 1000;
}

/* ---- the pool ----------------------------------------------------------- */

struct job { struct exp_result *r; int d, run, rep; double cpu_s; };

/* The jobs of every selected experiment, and the next experiment to pass
 * to on_done: experiments are streamed out in order, each as soon as it
 * and every one before it is complete. */
struct run_all {
	struct job *jobs;
	struct exp_result **res;
	int next_emit;
	double t0;
	const struct reproduce_opts *o;
};

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void job_run(void *arg, int i)
{
	struct job *j = &((struct run_all *)arg)->jobs[i];
	double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	run_one(j->r, j->d, j->run, j->rep);
	j->cpu_s = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
}

static void emit_ready(struct run_all *ra, bool skip_unfinished)
{
	for (; ra->res[ra->next_emit]; ra->next_emit++) {
		struct exp_result *r = ra->res[ra->next_emit];
		if (r->jobs_done < r->nr_jobs) {
			if (skip_unfinished)
				continue;
			return;
		}
		r->emitted = true;
		if (ra->o->on_done)
			ra->o->on_done(r, ra->o->on_done_arg);
	}
}

/* Under the pool's lock.  A run during which SIGINT/SIGTERM arrived may
 * have stopped early (machine_run polls the flag): it does not count. */
static void job_done(void *arg, int i)
{
	struct run_all *ra = arg;
	struct job *j = &ra->jobs[i];
	j->r->host_cpu_s += j->cpu_s;
	if (output_interrupted())
		return;
	if (++j->r->jobs_done == j->r->nr_jobs)
		j->r->host_done_s = clock_s(CLOCK_MONOTONIC) - ra->t0;
	emit_ready(ra, false);
}

int nr_experiments(void)
{
	const struct experiment *const *ex = builtin_experiments();
	int n = 0;
	while (ex[n])
		n++;
	return n;
}

static struct exp_result *exp_setup(const struct experiment *e, const struct reproduce_opts *o)
{
	struct exp_result *r = xcalloc(1, sizeof(*r));
	r->e = e;
	r->full = o->full;
	r->check = o->check;
	r->scale = o->full ? 1.0 : e->quick_scale;
	r->max_time_ns = o->max_time_s > 0 ? (uint64_t)(o->max_time_s * 1e9) : 0;
	const struct profile *base = profile_find(e->profile);
	if (!base)
		panic("experiment %d: no machine profile %s", e->id, e->profile);
	r->prof = *base;
	if (r->scale != 1.0) {
		/* Everything that is a size shrinks together. */
		uint64_t mb = 1ULL << 20;
		r->prof.ram = (uint64_t)((double)base->ram * r->scale) / mb * mb;
		r->prof.swap = (uint64_t)((double)base->swap * r->scale) / mb * mb;
		r->prof.kernel_base = (uint64_t)((double)base->kernel_base * r->scale) / PAGE_SIZE * PAGE_SIZE;
	}
	char *why = NULL;
	if (!apply_machine_sets(r, e->machine_sets, &r->prof, &r->cg, &r->ram_set, &why))
		panic("experiment %d: %s", e->id, why);
	for (int i = 0; i < o->nr_factors; i++) {
		uint64_t v;
		if (!profile_get_u64(&r->prof, o->factors[i].name, &v))
			panic("experiment %d: no numeric machine parameter %s", e->id, o->factors[i].name);
		profile_set_u64(&r->prof, o->factors[i].name, (uint64_t)llround((double)v * o->factors[i].factor));
	}
	r->reps = 1;
	for (int i = 0; i < e->nr_runs; i++)
		if (exp_reps(r, i) > r->reps)
			r->reps = exp_reps(r, i);
	r->rr = xcalloc((size_t)e->nr_designs * (size_t)e->nr_runs * (size_t)r->reps, sizeof(*r->rr));
	r->design_ok = xcalloc((size_t)e->nr_designs, sizeof(bool));
	r->design_why = xcalloc((size_t)e->nr_designs, sizeof(char *));
	for (int d = 0; d < e->nr_designs; d++) {
		/* A plugin path is as good as a built-in name; an unknown
		 * name keeps the "not available in this build" wording the
		 * report gathers, a plugin that fails to load says why. */
		char perr[300];
		const struct policy_ops *pol = policy_lookup(e->designs[d].policy, perr, sizeof(perr));
		if (!pol) {
			r->design_why[d] = strchr(e->designs[d].policy, '/') ? fmt_why("%s%s", perr, NULL)
				: fmt_why("policy %s not available in this build%s", e->designs[d].policy, NULL);
			continue;
		}
		char *w = NULL;
		double *tun = design_tunables(pol, e->designs[d].sets, &w);
		if (!tun) {
			r->design_why[d] = w;
			continue;
		}
		free(tun);
		r->design_ok[d] = true;
	}
	return r;
}

struct exp_result **experiments_run(const struct experiment *const *list, const struct reproduce_opts *o)
{
	int ne = 0;
	while (list[ne])
		ne++;
	struct exp_result **res = xcalloc((size_t)ne + 1, sizeof(*res));
	int nsel = 0;
	struct job *jobs = NULL;
	int nr = 0;
	for (int i = 0; i < ne; i++) {
		if (o->only && list[i]->id != o->only)
			continue;
		struct exp_result *r = res[nsel++] = exp_setup(list[i], o);
		const struct experiment *e = r->e;
		for (int d = 0; d < e->nr_designs; d++) {
			if (o->only_design && strcmp(o->only_design, e->designs[d].label))
				continue;
			for (int run = 0; run < e->nr_runs; run++)
				for (int k = 0; k < exp_reps(r, run) && (!o->max_repeats || k < o->max_repeats); k++) {
					jobs = xrealloc(jobs, (size_t)(nr + 1) * sizeof(*jobs));
					jobs[nr++] = (struct job){ r, d, run, k, 0 };
					r->nr_jobs++;
				}
		}
	}
	struct run_all ra = { .jobs = jobs, .res = res, .t0 = clock_s(CLOCK_MONOTONIC), .o = o };
	struct pool_job pj = { .run = job_run, .done = job_done, .arg = &ra, .n = nr, .jobs = o->jobs,
			       .progress = o->progress ? "pagelab reproduce" : NULL };
	pool_run(&pj);
	/* Interrupted: the experiments that did finish, in order. */
	emit_ready(&ra, true);
	free(jobs);
	return res;
}

void experiments_free(struct exp_result **res)
{
	for (int i = 0; res[i]; i++) {
		struct exp_result *r = res[i];
		const struct experiment *e = r->e;
		size_t n = (size_t)e->nr_designs * (size_t)e->nr_runs * (size_t)r->reps;
		for (size_t k = 0; k < n; k++)
			run_result_free(&r->rr[k]);
		for (int d = 0; d < e->nr_designs; d++)
			free(r->design_why[d]);
		free(r->design_why);
		free(r->design_ok);
		free(r->rr);
		free(r);
	}
	free(res);
}

int experiments_check_failures(struct exp_result **res)
{
	int n = 0;
	for (int i = 0; res[i]; i++) {
		const struct experiment *e = res[i]->e;
		size_t nr = (size_t)e->nr_designs * (size_t)e->nr_runs * (size_t)res[i]->reps;
		for (size_t k = 0; k < nr; k++)
			n += res[i]->rr[k].check_failed;
	}
	return n;
}

bool exp_run_oom_killed(const struct run_result *rr)
{
	if (!rr->available)
		return false;
	for (int w = 0; w < rr->nr_wl; w++)
		if (rr->wl[w].tf.killed)
			return true;
	return rr->ev[OOM_KILL] > 0;
}

struct exp_cut exp_cut_short(const struct exp_result *r)
{
	struct exp_cut c = { 0, 0 };
	const struct experiment *e = r->e;
	for (int d = 0; d < e->nr_designs; d++)
		for (int run = 0; run < e->nr_runs; run++)
			for (int k = 0; k < exp_reps(r, run); k++) {
				const struct run_result *rr = exp_rr(r, d, run, k);
				c.oom += exp_run_oom_killed(rr);
				c.timed_out += rr->available && rr->timed_out;
			}
	return c;
}
