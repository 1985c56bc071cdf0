/* cell.c - one simulation of the run matrix: create the workloads from
 * their command lines, build the machine, run it and collect the figures.
 * The seed of workload i is the cell's seed + i, as `pagelab run` gives
 * them, so a cell's figures are those of its `pagelab run` command line. */
#include "cell.h"
#include "runspec.h"
#include "inputs.h"
#include "kexec.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cell_split_args(char *s, char **argv, int max)
{
	int n = 0;
	char *save = NULL;
	for (char *tok = strtok_r(s, " ", &save); tok && n < max; tok = strtok_r(NULL, " ", &save))
		argv[n++] = tok;
	return n;
}

struct hook_arg {
	struct run_result *rr;
	int wl;      /* workload whose residency is sampled, -1 for none */
	uint64_t swap_peak;
	uint64_t cap;
};

/* Called after each vmstat sample: the swap peak, and the residency of one
 * workload beside the sample (experiment 3's "how much of mtest01 stayed
 * in memory"). */
static void sample_hook(const struct machine *m, void *arg)
{
	struct hook_arg *h = arg;
	uint64_t sw = (uint64_t)m->mm.swap.used * (PAGE_SIZE / 1024);
	if (sw > h->swap_peak)
		h->swap_peak = sw;
	if (h->wl < 0)
		return;
	if (m->nr_samples > h->cap) {
		h->cap = h->cap ? h->cap * 2 : 256;
		h->rr->resident_kb = xrealloc(h->rr->resident_kb, h->cap * sizeof(uint64_t));
	}
	const struct wl_inst *w = &m->wls[h->wl];
	uint64_t rss = 0;
	for (int i = 0; i < w->ntasks; i++) {
		const struct task *t = &m->tasks[w->first_task + i];
		if (t->state != T_EXITED && t->as && !t->as->dead)
			rss += t->as->rss;
	}
	h->rr->resident_kb[m->nr_samples - 1] = rss * (PAGE_SIZE / 1024);
}

struct prepared {
	const struct workload_ops *ops[EXP_MAX_WL];
	void *w[EXP_MAX_WL];
	int n;
};

static void prepared_free(struct prepared *p)
{
	for (int i = 0; i < p->n; i++)
		if (p->w[i])
			p->ops[i]->destroy(p->w[i]);
	p->n = 0;
}

/* Parse and create the workloads; false (with a message) if this build
 * lacks one or it rejects its command line. */
static bool prepare_workloads(const struct cell *c, struct prepared *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < c->nr_wl; i++) {
		char copy[1024], werr[300];
		char *argv[128];
		snprintf(copy, sizeof(copy), "%s", c->wl[i]);
		int argc = cell_split_args(copy, argv, 127);
		argv[argc] = NULL;
		const struct workload_ops *ops = argc ? workload_find(argv[0]) : NULL;
		if (!ops) {
			snprintf(err, errlen, "workload %s not available in this build", argc ? argv[0] : "(none)");
			prepared_free(p);
			return false;
		}
		werr[0] = 0;
		void *w = ops->create(argc, argv, runspec_seed(c->mo.seed, i), werr, sizeof(werr));
		if (!w) {
			snprintf(err, errlen, "'%s' rejected by this build: %s", c->wl[i], werr[0] ? werr : "bad arguments");
			prepared_free(p);
			return false;
		}
		p->ops[i] = ops;
		p->w[i] = w;
		p->n = i + 1;
	}
	return true;
}

bool cell_check(const struct cell *c, char *err, size_t errlen)
{
	struct prepared p;
	if (!prepare_workloads(c, &p, err, errlen))
		return false;
	prepared_free(&p);
	return true;
}

static void collect(const struct machine *m, struct run_result *rr, const uint64_t *start)
{
	rr->nr_wl = m->nr_wls;
	rr->finished = true;
	for (int i = 0; i < m->nr_wls; i++) {
		const struct wl_inst *w = &m->wls[i];
		struct wl_result *x = &rr->wl[i];
		x->cmd = xstrdup(w->cmd);
		x->start_ns = start[i];
		x->end_ns = w->end;
		workload_times(m, i, &x->tf);
		double st = (double)start[i] / 1e9;
		x->tf.elapsed = x->tf.elapsed > st ? x->tf.elapsed - st : 0;
		x->tf.cpu_pct = x->tf.elapsed > 0 ? (unsigned)((x->tf.user + x->tf.sys) * 100.0 / x->tf.elapsed) : 0;
		x->done = w->live == 0 && !x->tf.killed;
		if (w->live > 0 && !(m->opt.stop_with_wl > 0 && m->wls[m->opt.stop_with_wl - 1].live == 0))
			rr->finished = false;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		if (f) {
			if (x->tf.killed) {
				fprintf(f, "zsh: killed     %s\n", w->cmd);
			} else if (w->ops->report && w->live == 0) {
				double *el = xcalloc((size_t)w->ntasks + 1, sizeof(double));
				for (int k = 0; k < w->ntasks; k++)
					el[k] = task_seconds(m->tasks[w->first_task + k].end);
				w->ops->report(w->w, el, f);
				free(el);
			}
			fclose(f);
			x->output = buf;
		}
	}
	memcpy(rr->ev, m->mm.ev, sizeof(rr->ev));
	rr->work = m->mm.work;
	uint64_t kns = 0;
	/* Reclaim threads only: the writeback threads (pdflush, bdflush...)
	 * are no part of the design's reclaim cost. */
	for (int i = 0; i < m->nr_tasks; i++)
		if (m->tasks[i].kthread && m->tasks[i].kkind != KT_FLUSH && m->tasks[i].kkind != KT_KUPDATE)
			kns += m->tasks[i].utime + m->tasks[i].stime;
	rr->kthread_cpu_s = (double)kns / 1e9;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f) {
		for (uint64_t i = 0; i < m->nr_log; i++)
			if (m->log[i].kind == LOG_KERNEL)
				fprintf(f, "[%5llu.%06llu] %s\n", (unsigned long long)(m->log[i].t / 1000000000ULL),
					(unsigned long long)(m->log[i].t % 1000000000ULL / 1000), m->log[i].text);
		fclose(f);
		rr->kmsgs = buf;
	}
	rr->nr_samples = m->nr_samples;
	if (m->nr_samples) {
		rr->samples = xmalloc(m->nr_samples * sizeof(*rr->samples));
		memcpy(rr->samples, m->samples, m->nr_samples * sizeof(*rr->samples));
	}
	rr->timed_out = m->timed_out;
	rr->check_failed = m->check_failed;
	if (m->timed_out)
		rr->finished = false;
	rr->sim_ns = m->now;
}

void cell_run(const struct cell *c, struct run_result *rr)
{
	char err[1200];
	struct prepared p;
	if (!prepare_workloads(c, &p, err, sizeof(err)) != RS_BUILT) {
		rr->why = xstrdup(err);
		return;
	}
	struct machine_opts mo = c->mo;
	struct hook_arg h = { .rr = rr, .wl = c->residency_wl };
	mo.sample_hook = sample_hook;
	mo.sample_arg = &h;
	mo.progress = false;
	struct runspec_wl rw[EXP_MAX_WL];
	for (int i = 0; i < p.n; i++)
		rw[i] = (struct runspec_wl){ .ops = p.ops[i], .w = p.w[i], .cmd = c->wl[i], .start_ns = c->start_ns[i] };
	struct machine m;
	struct runspec rs = { .prof = &c->prof, .mo = &mo, .pol = c->pol, .tun = c->tun };
	struct workload_ops wrap[EXP_MAX_WL];
	if (runspec_machine(&m, &rs, rw, p.n, wrap, err, sizeof(err)) != RS_BUILT) {
		rr->why = xstrdup(err);
		prepared_free(&p);
		return;
	}
	if (c->make_inputs && !cell_make_inputs(&m, c, p.ops, p.w, err, sizeof(err))) {
		rr->why = xstrdup(err);
		machine_free(&m);
		return;
	}
	for (int i = 0; i < p.n; i++)
		p.w[i] = NULL;   /* the machine's now */
	rr->available = true;
	rr->vmstat_ns = mo.vmstat_ns;
	rr->prof = m.prof;
	machine_run(&m);
	collect(&m, rr, c->start_ns);
	uint64_t sw = (uint64_t)m.mm.swap.used * (PAGE_SIZE / 1024);
	rr->swap_peak_kb = h.swap_peak > sw ? h.swap_peak : sw;
	machine_free(&m);
	prepared_free(&p);
}

void run_result_free(struct run_result *rr)
{
	free(rr->why);
	for (int w = 0; w < rr->nr_wl; w++) {
		free(rr->wl[w].cmd);
		free(rr->wl[w].output);
	}
	free(rr->kmsgs);
	free(rr->samples);
	free(rr->resident_kb);
	kernel_result_free(rr->kernel);
	memset(rr, 0, sizeof(*rr));
}
