/* delay.c - see delay.h. */
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
		.report = delay_report,
		.cgroup_done = inner->cgroup_done ? delay_cgroup_done : NULL,
		.cgroup_target = inner->cgroup_target ? delay_cgroup_target : NULL,
	};
	return d;
}
