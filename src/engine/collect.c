/* collect.c - what is kept of a machine that ran (runspec_collect(),
 * runspec.h): everything a record, a verdict or a report of the run
 * reads, so none of them needs the machine. */
#include "runspec.h"
#include "../report/report.h"
#include "../lib/util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A workload's report (ops->report) as its program prints it at exit. */
static char *program_output(const struct machine *m, const struct wl_inst *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	double *el = xcalloc((size_t)w->ntasks + 1, sizeof(double));
	for (int k = 0; k < w->ntasks; k++)
		el[k] = task_seconds(m->tasks[w->first_task + k].end);
	w->ops->report(w->w, el, f);
	free(el);
	fclose(f);
	return buf;
}

/* What the machine measured for each task of w, in a new array: what
 * report_tasks() and figures() are given. */
static struct wl_task_result *task_results(const struct machine *m, const struct wl_inst *w)
{
	struct wl_task_result *r = xcalloc((size_t)w->ntasks + 1, sizeof(*r));
	for (int i = 0; i < w->ntasks; i++) {
		const struct task *t = &m->tasks[w->first_task + i];
		r[i] = (struct wl_task_result){
			.elapsed_s = task_seconds(t->end), .user_s = task_seconds(t->utime),
			.sys_s = task_seconds(t->stime), .stall_s = task_seconds(t->stall_ns),
			.majflt = t->majflt, .minflt = t->minflt, .killed = t->killed,
			.failed = t->failed,
		};
	}
	return r;
}

/* What an exit prints before time(1)'s lines: the tasks' own report,
 * then the shell's "killed" line or the program's report. */
static char *exit_text(const struct machine *m, const struct wl_inst *w, const char *prog)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (w->ops->report_tasks) {
		struct wl_task_result *r = task_results(m, w);
		w->ops->report_tasks(w->w, r, w->ntasks, f);
		free(r);
	}
	if (w->killed)
		fprintf(f, "zsh: %-11s%s\n", w->signal == SIGBUS ? "bus error" : "killed", w->cmd);
	else if (prog)
		fputs(prog, f);
	fclose(f);
	return buf;
}

static void collect_tasks(const struct machine *m, const struct wl_inst *w, struct wl_result *x)
{
	x->ntasks = w->ntasks;
	x->tasks = xcalloc((size_t)w->ntasks + 1, sizeof(*x->tasks));
	for (int i = 0; i < w->ntasks; i++) {
		const struct task *t = &m->tasks[w->first_task + i];
		x->tasks[i] = (struct task_times){ .user_s = task_seconds(t->utime), .sys_s = task_seconds(t->stime),
						   .elapsed_s = task_seconds(t->end), .majflt = t->majflt,
						   .minflt = t->minflt, .swaps = t->as ? t->as->nswap : 0 };
	}
}

static void collect_wl(const struct machine *m, int i, struct wl_result *x, uint64_t start)
{
	const struct wl_inst *w = &m->wls[i];
	x->cmd = xstrdup(w->cmd);
	x->start_ns = start;
	x->end_ns = w->end;
	workload_times(m, i, &x->times);
	x->tf = x->times;
	double st = (double)start / 1e9;
	x->tf.elapsed = x->tf.elapsed > st ? x->tf.elapsed - st : 0;
	x->tf.cpu_pct = x->tf.elapsed > 0 ? (unsigned)((x->tf.user + x->tf.sys) * 100.0 / x->tf.elapsed) : 0;
	if (start)
		x->times = x->tf;   /* a delayed workload's time(1) counts from its start */
	x->done = w->live == 0 && !x->tf.killed;
	x->exited = w->live == 0;
	x->signal = w->signal;
	/* The report of a program that ran to its end (its exit prints it). */
	char *prog = w->ops->report && !w->killed && w->live == 0 ? program_output(m, w) : NULL;
	if (x->tf.killed) {
		size_t n = strlen(w->cmd) + 32;
		x->output = xmalloc(n);
		snprintf(x->output, n, "zsh: killed     %s\n", w->cmd);
	} else {
		x->output = xstrdup(prog ? prog : "");
	}
	x->exit_text = exit_text(m, w, prog);
	free(prog);
	/* The figures of merit of a workload that ran to its end: a killed
	 * or cut-short one's are of part of its work (its record says it
	 * did not finish, and has none). */
	if (w->ops->figures && x->done) {
		struct wl_task_result *r = task_results(m, w);
		w->ops->figures(w->w, r, w->ntasks, &x->figs);
		free(r);
	}
	collect_tasks(m, w, x);
}

static void collect_log(const struct machine *m, struct run_result *rr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	rr->nr_log = m->nr_log;
	rr->log = xcalloc(m->nr_log + 1, sizeof(*rr->log));
	for (uint64_t i = 0; i < m->nr_log; i++) {
		const struct log_entry *e = &m->log[i];
		rr->log[i] = (struct run_event){ .t = e->t, .kind = e->kind == LOG_KERNEL ? RUN_EV_KERNEL : RUN_EV_EXIT,
						 .wl = e->wl, .text = e->kind == LOG_KERNEL ? xstrdup(e->text) : NULL };
		if (f && e->kind == LOG_KERNEL)
			fprintf(f, "[%5llu.%06llu] %s\n", (unsigned long long)(e->t / 1000000000ULL),
				(unsigned long long)(e->t % 1000000000ULL / 1000), e->text);
	}
	if (f) {
		fclose(f);
		rr->kmsgs = buf;
	}
}

static void collect_threads(const struct machine *m, struct run_result *rr)
{
	uint64_t kns = 0;
	rr->kthreads = xcalloc((size_t)m->nr_tasks + 1, sizeof(*rr->kthreads));
	for (int i = 0; i < m->nr_tasks; i++) {
		const struct task *t = &m->tasks[i];
		if (!t->kthread)
			continue;
		struct run_kthread *k = &rr->kthreads[rr->nr_kthreads++];
		k->pid = i + 1;
		snprintf(k->comm, sizeof(k->comm), "%s", t->comm);
		k->cpu_ns = t->utime + t->stime;
		/* Reclaim threads only: the writeback threads (pdflush,
		 * bdflush...) are no part of the design's reclaim cost. */
		if (t->kkind != KT_FLUSH && t->kkind != KT_KUPDATE)
			kns += t->utime + t->stime;
	}
	rr->kthread_cpu_s = (double)kns / 1e9;
}

static void collect_memory(const struct machine *m, struct run_result *rr)
{
	const struct mm *mm = &m->mm;
	report_gauges(mm, &rr->gauges);
	memcpy(rr->ev, mm->ev, sizeof(rr->ev));
	rr->work = mm->work;
	rr->ram_pages = m->ram_pages;
	rr->nr_zones = mm->nr_zones;
	for (int z = 0; z < mm->nr_zones && z < MAX_ZONES; z++)
		rr->zones[z] = (struct run_zone){ .name = mm->zones[z].name, .managed = mm->zones[z].managed,
						  .wmark_min = mm->zones[z].wmark_min,
						  .wmark_low = mm->zones[z].wmark_low,
						  .wmark_high = mm->zones[z].wmark_high };
	if (mm->memcg.limit)
		rr->nr_memcg = (int)report_memcg_stats(m, rr->memcg);
	if (mm->cgt)
		report_cgroups_collect(m, rr);
	if (mm->swap.zram)
		rr->nr_zram = (int)report_zram_stats(m, rr->zram, false);
	if (mm->swap.zram)
		rr->nr_zram_full = (int)report_zram_stats(m, rr->zram_full, true);
	if (mm->swap.zswap)
		rr->nr_zswap = (int)report_zswap_stats(m, rr->zswap);
	if (mm->swap.cl)
		rr->nr_swapcl = (int)report_swapcl_stats(m, rr->swapcl);
}

/* The samples, as the machine kept them (in memory, a long run's first
 * ones spilled to a file): the result takes them over. */
static void take_samples(struct machine *m, struct run_result *rr)
{
	rr->nr_samples = m->nr_samples;
	rr->samples = m->samples;
	rr->nr_spilled = m->nr_spilled;
	rr->sample_spill = m->sample_spill;
	rr->timeline = m->timeline;
	rr->nr_timeline = m->nr_timeline;
	rr->timeline_ns = m->timeline_ns;
	m->samples = NULL;
	m->sample_spill = NULL;
	m->timeline = NULL;
	rr->vmstat_active = m->opt.vmstat_active;
}

void runspec_collect(struct machine *m, struct run_result *rr, const uint64_t *start)
{
	rr->nr_wl = m->nr_wls;
	if (m->nr_wls > EXP_MAX_WL)
		rr->wl_more = xcalloc((size_t)(m->nr_wls - EXP_MAX_WL), sizeof(*rr->wl_more));
	rr->finished = true;
	for (int i = 0; i < m->nr_wls; i++) {
		collect_wl(m, i, run_wl(rr, i), start[i]);
		if (m->wls[i].live > 0 && !(m->opt.stop_with_wl > 0 && m->wls[m->opt.stop_with_wl - 1].live == 0))
			rr->finished = false;
	}
	collect_threads(m, rr);
	collect_log(m, rr);
	collect_memory(m, rr);
	/* Read at the run's end, as cat /proc/pressure/memory would. */
	rr->has_pressure = machine_psi_memory(m, m->now, rr->pressure);
	for (int c = 0; c < rr->nr_cg; c++)
		rr->cg[c].has_pressure = machine_psi_cgroup(m, c, m->now, rr->cg[c].pressure);
	take_samples(m, rr);
	rr->timed_out = m->timed_out;
	rr->check_failed = m->check_failed;
	rr->interrupted = m->interrupted;
	rr->all_exited = m->live_user == 0;
	rr->max_time_ns = m->opt.max_time_ns;
	if (m->timed_out)
		rr->finished = false;
	rr->sim_ns = m->now;
}
