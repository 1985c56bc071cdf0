/* delay.c - see delay.h.  Every optional callback of struct workload_ops
 * (workload.h) is passed on: a workload that times itself (fio
 * time_based, memtier --test-time, workingset -d) learns the time through
 * mark(), and one that sizes itself from RAM through attach(). */
#include "delay.h"
#include "../lib/util.h"

#include <stdlib.h>

struct delayed {
	const struct workload_ops *inner;
	void *w;
	uint64_t delay_ns;
	int ntasks;
	bool *slept;
};

static void delay_destroy(void *p)
{
	struct delayed *d = p;
	d->inner->destroy(d->w);
	free(d->slept);
	free(d);
}

static int delay_nr_tasks(void *p)
{
	struct delayed *d = p;
	return d->ntasks;
}

static bool delay_next_op(void *p, int task, struct op *op)
{
	struct delayed *d = p;
	if (!d->slept[task]) {
		d->slept[task] = true;
		*op = (struct op){ .kind = OP_SLEEP, .ns = d->delay_ns };
		return true;
	}
	return d->inner->next_op(d->w, task, op);
}

/* The program's own report sees times from its own start. */
static void delay_report(void *p, const double *el, FILE *out)
{
	struct delayed *d = p;
	if (!d->inner->report)
		return;
	double *own = xcalloc((size_t)d->ntasks + 1, sizeof(double));
	for (int i = 0; i < d->ntasks; i++) {
		own[i] = el[i] - (double)d->delay_ns / 1e9;
		if (own[i] < 0)
			own[i] = 0;
	}
	d->inner->report(d->w, own, out);
	free(own);
}

/* The same op stream after one sleep per task: the references, and so
 * their next-use positions, are the inner workload's. */
static bool delay_oracle(void *p, const uint64_t **next_use, uint64_t *n)
{
	struct delayed *d = p;
	return d->inner->oracle(d->w, next_use, n);
}

static void delay_attach(void *p, const struct wl_sysinfo *si)
{
	struct delayed *d = p;
	d->inner->attach(d->w, si);
}

/* Marks carry the machine's time: workloads time themselves from their
 * own first mark, which comes after the sleep. */
static void delay_mark(void *p, int task, uint32_t id, uint64_t now_ns, uint64_t cpu_ns)
{
	struct delayed *d = p;
	d->inner->mark(d->w, task, id, now_ns, cpu_ns);
}

static void delay_mark_faults(void *p, int task, uint32_t id, uint64_t majflt)
{
	struct delayed *d = p;
	d->inner->mark_faults(d->w, task, id, majflt);
}

static void delay_read_done(void *p, int task, uint64_t pages_read)
{
	struct delayed *d = p;
	d->inner->read_done(d->w, task, pages_read);
}

/* Per-task figures as report()'s times: elapsed from the task's start,
 * in a new array. */
static struct wl_task_result *own_tasks(const struct delayed *d, const struct wl_task_result *r, int n)
{
	struct wl_task_result *own = xcalloc((size_t)n + 1, sizeof(*own));
	for (int i = 0; i < n; i++) {
		own[i] = r[i];
		own[i].elapsed_s -= (double)d->delay_ns / 1e9;
		if (own[i].elapsed_s < 0)
			own[i].elapsed_s = 0;
	}
	return own;
}

static void delay_report_tasks(void *p, const struct wl_task_result *r, int n, FILE *out)
{
	struct delayed *d = p;
	struct wl_task_result *own = own_tasks(d, r, n);
	d->inner->report_tasks(d->w, own, n, out);
	free(own);
}

/* The figures of merit from the same times as the report's. */
static void delay_figures(void *p, const struct wl_task_result *r, int n, struct wl_figures *out)
{
	struct delayed *d = p;
	struct wl_task_result *own = own_tasks(d, r, n);
	d->inner->figures(d->w, own, n, out);
	free(own);
}

/* The agents' cgroup ops report to the program itself. */
static void delay_cgroup_done(void *p, int task, const struct wl_cgroup_state *s)
{
	struct delayed *d = p;
	d->inner->cgroup_done(d->w, task, s);
}

static const char *delay_cgroup_target(void *p, bool *reads_pressure)
{
	struct delayed *d = p;
	return d->inner->cgroup_target(d->w, reads_pressure);
}

void *delay_wrap(const struct workload_ops *inner, void *w, uint64_t delay_ns,
		 struct workload_ops *ops)
{
	struct delayed *d = xcalloc(1, sizeof(*d));
	d->inner = inner;
	d->w = w;
	d->delay_ns = delay_ns;
	d->ntasks = inner->nr_tasks(w);
	d->slept = xcalloc((size_t)d->ntasks + 1, sizeof(bool));
	*ops = (struct workload_ops){
		.name = inner->name,
		.summary = inner->summary,
		.help = inner->help,
		.destroy = delay_destroy,
		.nr_tasks = delay_nr_tasks,
		.next_op = delay_next_op,
		.check = inner->check,
		.oracle = inner->oracle ? delay_oracle : NULL,
		.report = inner->report ? delay_report : NULL,
		.attach = inner->attach ? delay_attach : NULL,
		.mark = inner->mark ? delay_mark : NULL,
		.read_done = inner->read_done ? delay_read_done : NULL,
		.report_tasks = inner->report_tasks ? delay_report_tasks : NULL,
		.mark_faults = inner->mark_faults ? delay_mark_faults : NULL,
		.cgroup_done = inner->cgroup_done ? delay_cgroup_done : NULL,
		.cgroup_target = inner->cgroup_target ? delay_cgroup_target : NULL,
		.figures = inner->figures ? delay_figures : NULL,
	};
	return d;
}
