/* kexec.c - the host kernel executor (kexec.h), the one path to the host
 * kernel: a run's workloads prepared (kexec_work_prepare()) and run in a
 * session (src/native/session.c), for pagelab kernel and for a kernel
 * cell, whose figures go into a run_result. */
#define _GNU_SOURCE
#include "kexec.h"
#include "cgspec.h"
#include "runspec.h"
#include "../workload/wlist.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct kernel_result *kernel_result_attach(struct run_result *rr)
{
	rr->kernel = xcalloc(1, sizeof(*rr->kernel));
	rr->kernel->loadavg = -1;
	rr->kernel_free = kernel_result_free;
	return rr->kernel;
}

void kernel_result_free(struct kernel_result *k)
{
	if (!k)
		return;
	nstat_free(&k->vmstat);
	nstat_free(&k->memstat);
	nstat_free(&k->traced);
	nstat_free(&k->zram.stat);
	for (int i = 0; i < k->ncg; i++)
		ncg_result_free(&k->cg[i]);
	free(k->cg);
	free(k);
}

/* The run's own cgroup's limit: --memcg, or with a --cgroup tree (which
 * the simulator runs in the machine's RAM, never under --memcg) the
 * cell's RAM: the tree's root on the host is then a machine that size. */
uint64_t kexec_cell_limit(const struct cell *c)
{
	return c->mo.cgroups.n && !c->mo.memcg_pages ? c->prof.ram : c->mo.memcg_pages * PAGE_SIZE;
}

bool kexec_check(const struct cell *c, char *err, size_t errlen)
{
	uint64_t limit = kexec_cell_limit(c), ram = host_memory_bytes();
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
	else if (c->swap_dev[0] && !nzram_available(err, errlen))
		return false;
	else
		return true;
	return false;
}

void kexec_work_free(struct kexec_work *k)
{
	for (int w = 0; w < k->nwl; w++)
		if (k->inst[w])
			k->wl[w].ops->destroy(k->inst[w]);
	if (k->planned)
		nplan_free(&k->plan);
	wl_list_free(&k->wll);
	free(k->inst);
	free(k->wl);
	free(k->place);
	memset(k, 0, sizeof(*k));
}

bool kexec_work_prepare(struct kexec_work *k, int argc, char **argv, bool help, uint64_t seed, uint64_t limit,
			uint64_t swap, char *err, size_t errlen)
{
	return kexec_work_prepare_tree(k, NULL, argc, argv, help, seed, limit, swap, err, errlen);
}

bool kexec_work_prepare_tree(struct kexec_work *k, const struct cg_tree_conf *tree, int argc, char **argv,
			     bool help, uint64_t seed, uint64_t limit, uint64_t swap, char *err, size_t errlen)
{
	static const struct cg_tree_conf none;
	memset(k, 0, sizeof(*k));
	if (!wl_list_parse(argc, argv, &k->wll, err, errlen))
		return false;
	if (help && k->wll.help)
		return true;
	if (kexec_agents_refuse(&k->wll, ncg_host_version(), err, errlen))
		return false;
	int nwl = k->wll.n;
	struct wl_list *l = &k->wll;
	k->place = xcalloc((size_t)nwl + 1, sizeof(int));
	for (int w = 0; w < nwl; w++)
		if ((k->place[w] = cgspec_placement(tree ? tree : &none, &l->v[w].argc, l->v[w].argv, err, errlen)) < 0)
			return false;
	k->wl = xcalloc((size_t)nwl + 1, sizeof(*k->wl));
	k->inst = xcalloc((size_t)nwl + 1, sizeof(void *));
	for (int w = 0; w < nwl; w++)
		k->wl[w] = (struct nworkload){ .ops = l->v[w].ops, .argc = l->v[w].argc, .argv = l->v[w].argv,
					       .seed = runspec_seed(seed, w), .cmd = l->v[w].cmd };
	k->nwl = nwl;
	/* The generators, created once (qsbench records its sorts here) and
	 * sized from what sysinfo() would say inside the cgroup: its limit as
	 * RAM, the swapfile as swap.  Every use runs on a forked copy. */
	struct wl_sysinfo si = { .totalram = limit, .freeram = limit, .totalswap = swap, .freeswap = swap };
	for (int w = 0; w < nwl; w++) {
		if (!(k->inst[w] = wl_spec_create(&l->v[w], k->wl[w].seed, err, errlen)))
			return false;
		if (k->wl[w].ops->attach)
			k->wl[w].ops->attach(k->inst[w], &si);
	}
	if (!kexec_agents_targets(tree ? tree : &none, k->wl, k->inst, nwl, err, errlen))
		return false;
	k->planned = nplan_build(&k->plan, k->wl, k->inst, nwl, false, err, errlen);
	return k->planned;
}

/* The guard of this process's kernel runs: the lock is taken at the
 * first and held to the end (nguard_begin() is once per process). */
struct nguard *kexec_guard(void)
{
	static struct nguard *g;
	char err[256];
	struct ncgroup cg;
	if (!g && ncg_detect(&cg, err, sizeof(err)))
		g = nguard_begin(&cg);
	return g;
}

bool kexec_session_run(struct kexec_work *k, const struct kexec_opts *o, struct nrun *r, char *err, size_t errlen)
{
	struct nsession s = { .wl = k->wl, .inst = k->inst, .nwl = k->nwl, .limit = o->limit, .swap = o->swap,
			      .timeout_s = (double)o->timeout_ns / 1e9, .plan = &k->plan, .guard = o->guard,
			      .cold = o->cold, .warm = o->warm, .knobs = o->knobs, .zram = o->zram, .tree = o->tree,
			      .place = k->place, .disk_probe = o->disk_probe };
	memset(r, 0, sizeof(*r));
	return nsession_run(&s, r, err, errlen);
}

/* The host's 1-minute load average, or -1. */
static double host_loadavg(void)
{
	double v = -1;
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void take_result(const struct kexec_work *k, struct nrun *r, struct run_result *rr)
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
		if (o->done)   /* as a simulated run's: of a workload that ran to its end */
			o->figs = x->figs;
		o->end_ns = (uint64_t)(x->elapsed_s * 1e9);
		rr->finished &= o->done;
	}
	struct kernel_result *kr = kernel_result_attach(rr);
	kr->vmstat = r->vmstat;
	kr->memstat = r->memstat;
	kr->traced = r->traced;
	memset(&r->vmstat, 0, sizeof(r->vmstat));
	memset(&r->memstat, 0, sizeof(r->memstat));
	memset(&r->traced, 0, sizeof(r->traced));
	kr->has_zram = r->has_zram;
	kr->zram = r->zram;
	memset(&r->zram, 0, sizeof(r->zram));
	kr->cg = r->cg;
	kr->ncg = r->ncg;
	r->cg = NULL;
	r->ncg = 0;
	kr->warmed = r->warmed;
	kr->warm_bytes = r->warm_bytes;
	kr->disk = r->disk;
	kr->disk_after = r->disk_after;
	kr->peak_bytes = r->peak_bytes;
	kr->oom_kills = r->oom_kills;
	kr->loadavg = host_loadavg();
}

/* A cell's workload lines as one word list ("+" between them); the words
 * point into copy, which outlives the run. */
struct cell_words {
	char copy[EXP_MAX_WL][1024];
	char *words[EXP_MAX_WL * 128 + EXP_MAX_WL];
	int n;
};

static void cell_words(const struct cell *c, struct cell_words *cw)
{
	cw->n = 0;
	for (int i = 0; i < c->nr_wl; i++) {
		snprintf(cw->copy[i], sizeof(cw->copy[i]), "%s", c->wl[i]);
		if (i)
			cw->words[cw->n++] = "+";
		cw->n += cell_split_args(cw->copy[i], cw->words + cw->n, 127);
	}
}

bool kexec_run(const struct cell *c, struct run_result *rr, char *err, size_t errlen)
{
	struct cell_words *cw = xcalloc(1, sizeof(*cw));
	struct kexec_work k;
	uint64_t limit = kexec_cell_limit(c);
	struct ntree *nt = xcalloc(1, sizeof(*nt));
	memset(&k, 0, sizeof(k));
	cell_words(c, cw);
	int version = ncg_host_version();
	if (!kexec_check(c, err, errlen) ||
	    !kexec_tree_from_conf(&c->mo.cgroups, version, limit, nt, err, errlen) ||
	    !kexec_work_prepare_tree(&k, &c->mo.cgroups, cw->n, cw->words, false, c->mo.seed, limit, c->prof.swap,
				     err, errlen) ||
	    !kexec_tree_places(&c->mo.cgroups, version, k.place, k.nwl, err, errlen)) {
		free(nt);
		kexec_work_free(&k);
		free(cw);
		return false;
	}
	struct nknobs knobs = { 0 };
	if (c->kset && !nknob_parse(&knobs, c->kset, err, errlen)) {
		kexec_work_free(&k);
		free(cw);
		free(nt);
		return false;
	}
	struct nguard *g = kexec_guard();
	struct nzram_spec z;
	struct kexec_opts o = { .limit = limit, .swap = c->prof.swap, .guard = g,
				.timeout_ns = c->mo.max_time_ns ? c->mo.max_time_ns : KEXEC_TIMEOUT_NS,
				.zram = native_zram_parse(c->swap_dev, &z, err, errlen) > 0 ? &z : NULL,
				.knobs = c->kset ? &knobs : NULL, .tree = nt->n ? nt : NULL,
				/* compare simulates a case on its runs' disk */
				.disk_probe = true };
	struct nrun r;
	memset(&r, 0, sizeof(r));
	bool ok = g && kexec_session_run(&k, &o, &r, err, errlen);
	if (!g)
		snprintf(err, errlen, "kernel: no memory controller");
	if (ok) {
		take_result(&k, &r, rr);
		rr->kernel->cg_version = g->cg.version;
		nhost_settings_read(&rr->kernel->host, "/proc/sys");
		rr->kernel->has_host = true;
		rr->kernel->tree = *nt;
	}
	free(nt);
	int sig = ok ? r.stop_signal : 0;
	if (ok)
		nrun_free(&r);
	kexec_work_free(&k);
	free(cw);
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
