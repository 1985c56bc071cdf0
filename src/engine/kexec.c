/* kexec.c - the host kernel executor (kexec.h): a cell's workloads as
 * `pagelab kernel` runs them (src/native/session.c), its figures into a
 * run_result. */
#define _GNU_SOURCE
#include "kexec.h"
#include "runspec.h"
#include "../workload/wlist.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void kernel_result_free(struct kernel_result *k)
{
	if (!k)
		return;
	nstat_free(&k->vmstat);
	nstat_free(&k->memstat);
	nstat_free(&k->traced);
	free(k);
}

bool kexec_check(const struct cell *c, char *err, size_t errlen)
{
	uint64_t limit = c->mo.memcg_pages * PAGE_SIZE, ram = host_memory_bytes();
	struct ncgroup cg;
	if (!limit)
		snprintf(err, errlen, "kernel: a cell on the host kernel needs a --memcg limit");
	else if (limit < (16ULL << 20))
		snprintf(err, errlen, "kernel: --memcg below 16 MiB leaves no room for the program itself");
	else if (geteuid() != 0)
		snprintf(err, errlen, "kernel: needs root (it creates a memory cgroup and a swapfile)");
	else if (ram && (limit > ram / 2 || c->prof.swap > ram / 2))
		snprintf(err, errlen, "kernel: --memcg or --swap is above half of this host's %llu MiB of RAM",
			 (unsigned long long)(ram >> 20));
	else if (!ncg_detect(&cg, err, errlen))
		return false;
	else
		return true;
	return false;
}

/* A cell's workloads as pagelab kernel takes them: created once, seeded
 * as pagelab run seeds them, sized from what sysinfo() says inside the
 * cgroup (its limit as RAM, the swapfile as swap), and walked for what
 * cannot run natively and the inputs to make. */
struct kwl {
	char copy[EXP_MAX_WL][1024];
	char *words[EXP_MAX_WL * 128 + EXP_MAX_WL];
	struct wl_list wll;
	struct nworkload wl[EXP_MAX_WL];
	void *inst[EXP_MAX_WL];
	struct nplan plan;
	bool planned;
};

static void kwl_free(struct kwl *k)
{
	for (int w = 0; w < k->wll.n; w++)
		if (k->inst[w])
			k->wl[w].ops->destroy(k->inst[w]);
	if (k->planned)
		nplan_free(&k->plan);
	wl_list_free(&k->wll);
}

/* k zeroed by the caller; kwl_free() after, whatever it returns. */
static bool kwl_prepare(struct kwl *k, const struct cell *c, char *err, size_t errlen)
{
	int n = 0;
	for (int i = 0; i < c->nr_wl; i++) {
		snprintf(k->copy[i], sizeof(k->copy[i]), "%s", c->wl[i]);
		if (i)
			k->words[n++] = "+";
		n += cell_split_args(k->copy[i], k->words + n, 127);
	}
	if (!wl_list_parse(n, k->words, &k->wll, err, errlen))
		return false;
	uint64_t limit = c->mo.memcg_pages * PAGE_SIZE;
	struct wl_sysinfo si = { .totalram = limit, .freeram = limit, .totalswap = c->prof.swap,
				 .freeswap = c->prof.swap };
	for (int w = 0; w < k->wll.n; w++) {
		const struct wl_spec *s = &k->wll.v[w];
		k->wl[w] = (struct nworkload){ .ops = s->ops, .argc = s->argc, .argv = s->argv,
					       .seed = runspec_seed(c->mo.seed, w), .cmd = s->cmd };
		if (!(k->inst[w] = wl_spec_create(s, k->wl[w].seed, err, errlen)))
			return false;
		if (s->ops->attach)
			s->ops->attach(k->inst[w], &si);
	}
	k->planned = nplan_build(&k->plan, k->wl, k->inst, k->wll.n, false, err, errlen);
	return k->planned;
}

/* The guard of this process's kernel runs: the lock is taken at the
 * first and held to the end (nguard_begin() is once per process). */
static struct nguard *guard(void)
{
	static struct nguard *g;
	char err[256];
	struct ncgroup cg;
	if (!g && ncg_detect(&cg, err, sizeof(err)))
		g = nguard_begin(&cg);
	return g;
}

static void take_result(const struct kwl *k, struct nrun *r, struct run_result *rr)
{
	rr->available = !r->err[0];
	if (r->err[0])
		rr->why = xstrdup(r->err);
	rr->timed_out = r->timed_out;
	rr->finished = !r->timed_out && !r->err[0];
	rr->nr_wl = r->nwl;
	rr->sim_ns = (uint64_t)(r->elapsed_s * 1e9);
	for (int w = 0; w < r->nwl; w++) {
		const struct nwl_result *x = &r->wl[w];
		struct wl_result *o = &rr->wl[w];
		o->cmd = xstrdup(k->wl[w].cmd);
		o->output = x->output;
		r->wl[w].output = NULL;
		o->tf = (struct time_figures){ .user = x->user_s, .sys = x->sys_s, .elapsed = x->elapsed_s,
					       .majflt = x->majflt, .minflt = x->minflt, .killed = x->killed };
		o->tf.cpu_pct = x->elapsed_s > 0 ? (unsigned)((x->user_s + x->sys_s) * 100 / x->elapsed_s) : 0;
		o->done = !x->killed && !r->timed_out;
		o->end_ns = (uint64_t)(x->elapsed_s * 1e9);
		rr->finished &= o->done;
	}
	struct kernel_result *kr = rr->kernel = xcalloc(1, sizeof(*kr));
	rr->kernel_free = kernel_result_free;
	kr->vmstat = r->vmstat;
	kr->memstat = r->memstat;
	kr->traced = r->traced;
	memset(&r->vmstat, 0, sizeof(r->vmstat));
	memset(&r->memstat, 0, sizeof(r->memstat));
	memset(&r->traced, 0, sizeof(r->traced));
	kr->warmed = r->warmed;
	kr->peak_bytes = r->peak_bytes;
	kr->oom_kills = r->oom_kills;
}

bool kexec_run(const struct cell *c, struct run_result *rr, char *err, size_t errlen)
{
	struct kwl k;
	memset(&k, 0, sizeof(k));
	if (!kexec_check(c, err, errlen) || !kwl_prepare(&k, c, err, errlen)) {
		kwl_free(&k);
		return false;
	}
	struct nguard *g = guard();
	uint64_t timeout = c->mo.max_time_ns ? c->mo.max_time_ns : KEXEC_TIMEOUT_NS;
	struct nsession s = { .wl = k.wl, .inst = k.inst, .nwl = k.wll.n, .limit = c->mo.memcg_pages * PAGE_SIZE,
			      .swap = c->prof.swap, .timeout_s = (double)timeout / 1e9, .plan = &k.plan,
			      .guard = g };
	struct nrun r;
	memset(&r, 0, sizeof(r));
	bool ok = g && nsession_run(&s, &r, err, errlen);
	if (!g)
		snprintf(err, errlen, "kernel: no memory controller");
	if (ok) {
		take_result(&k, &r, rr);
		rr->kernel->cg_version = g->cg.version;
	}
	int sig = ok ? r.stop_signal : 0;
	if (ok)
		nrun_free(&r);
	kwl_free(&k);
	if (sig) {
		nguard_cleanup(g);
		nguard_reraise(sig);
	}
	return ok;
}

bool executor_run(const struct cell *c, struct run_result *rr, char *err, size_t errlen)
{
	if (c->executor == EXEC_KERNEL)
		return kexec_run(c, rr, err, errlen);
	cell_run(c, rr);
	return true;
}
