/* psi.c - pressure stall information, as 6.x kernel/sched/psi.c (6.1 to
 * 6.18: NR_MEMSTALL_RUNNING, TSK_ONCPU in the state mask) computes it:
 * test_state(), record_times(), psi_group_change(), get_recent_times(),
 * collect_percpu_times(), update_averages(), calc_avgs(), psi_avgs_work()
 * and psi_show(), with calc_load()/fixed_power_int() of
 * include/linux/sched/loadavg.h and kernel/sched/loadavg.c.
 *
 * Time.  pagelab computes a CPU's chunk whole at its start, so its task's
 * state changes (a reclaim entered and left) are dated ahead of the event
 * clock, and another CPU's event can later report a change dated before
 * them.  Each CPU's counts keep the latest time used on them (clock); a
 * change dated earlier is taken at the latest such time over the task's
 * groups, one time for all of them as the kernel's one now, so times
 * never run back and a stall starts at the same moment in every group.
 * The averaging worker is not a task here: it runs exactly when its timer
 * is due (psi_advance() before each change), and it re-arms when any CPU
 * was non-idle in the period (the kernel's test for CPUs other than the
 * worker's own).  Triggers (psi_poll) and the IRQ state are left out. */
#include "psi.h"

#include <stdio.h>
#include <stdlib.h>

#define PSI_STATE_RESCHEDULE (1u << (NR_PSI_STATES + 1))

unsigned long psi_calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (PSI_FIXED_1 - exp);

	if (active >= load)
		newload += PSI_FIXED_1 - 1;
	return newload / PSI_FIXED_1;
}

/* fixed_power_int(): exp^n in PSI_FSHIFT fixed point, rounding each
 * product as the kernel does. */
static unsigned long fixed_power(unsigned long x, unsigned n)
{
	unsigned long result = PSI_FIXED_1;

	while (n) {
		if (n & 1)
			result = (result * x + (PSI_FIXED_1 >> 1)) >> PSI_FSHIFT;
		n >>= 1;
		if (n)
			x = (x * x + (PSI_FIXED_1 >> 1)) >> PSI_FSHIFT;
	}
	return result;
}

unsigned long psi_calc_load_n(unsigned long load, unsigned long exp, unsigned long active, unsigned n)
{
	return psi_calc_load(load, fixed_power(exp, n), active);
}

void psi_group_init(struct psi_group *g, struct psi_group *parent, int nr_cpus, unsigned hz, uint64_t now)
{
	*g = (struct psi_group){ .parent = parent, .nr_cpus = nr_cpus > 0 ? nr_cpus : 1 };
	g->pcpu = calloc((size_t)g->nr_cpus, sizeof(*g->pcpu));
	if (!g->pcpu) {
		fprintf(stderr, "pagelab: out of memory\n");
		exit(1);
	}
	g->tick_ns = 1000000000ull / (hz ? hz : 1000);
	g->period_ns = (2ull * (hz ? hz : 1000) + 1) * g->tick_ns; /* PSI_FREQ */
	g->avg_last_update = now;
	g->avg_next_update = now + g->period_ns;
	for (int c = 0; c < g->nr_cpus; c++)
		g->pcpu[c].state_start = g->pcpu[c].clock = now;
}

void psi_group_free(struct psi_group *g)
{
	free(g->pcpu);
	g->pcpu = NULL;
}

static bool test_state(const unsigned *tasks, enum psi_states s, bool oncpu)
{
	switch (s) {
	case PSI_IO_SOME:
		return tasks[NR_IOWAIT];
	case PSI_IO_FULL:
		return tasks[NR_IOWAIT] && !tasks[NR_RUNNING];
	case PSI_MEM_SOME:
		return tasks[NR_MEMSTALL];
	case PSI_MEM_FULL:
		/* No running task but reclaimers: nobody productive. */
		return tasks[NR_MEMSTALL] && tasks[NR_RUNNING] == tasks[NR_MEMSTALL_RUNNING];
	case PSI_CPU_SOME:
		return tasks[NR_RUNNING] > (unsigned)oncpu;
	case PSI_CPU_FULL:
		return tasks[NR_RUNNING] && !oncpu;
	case PSI_NONIDLE:
		return tasks[NR_IOWAIT] || tasks[NR_MEMSTALL] || tasks[NR_RUNNING];
	case NR_PSI_STATES:
		break;
	}
	return false;
}

static void record_times(struct psi_group_cpu *gc, uint64_t now)
{
	uint32_t delta = (uint32_t)(now - gc->state_start);

	gc->state_start = now;
	/* Each FULL only within its SOME. */
	for (int s = PSI_IO_SOME; s <= PSI_CPU_SOME; s += 2) {
		if (!(gc->state_mask & (1u << s)))
			continue;
		gc->times[s] += delta;
		if (gc->state_mask & (1u << (s + 1)))
			gc->times[s + 1] += delta;
	}
	if (gc->state_mask & (1u << PSI_NONIDLE))
		gc->times[PSI_NONIDLE] += delta;
}

static void get_recent_times(struct psi_group *g, int cpu, uint64_t now, uint32_t *times,
			     uint32_t *changed)
{
	struct psi_group_cpu *gc = &g->pcpu[cpu];

	*changed = 0;
	if (now > gc->clock)
		gc->clock = now; /* a later change is not dated before this read */
	for (int s = 0; s < NR_PSI_STATES; s++) {
		uint32_t t = gc->times[s];

		/* The current state counts up to now: states may last for
		 * many periods. */
		if ((gc->state_mask & (1u << s)) && now > gc->state_start)
			t += (uint32_t)(now - gc->state_start);
		times[s] = t - gc->times_prev[s];
		gc->times_prev[s] = t;
		if (times[s])
			*changed |= 1u << s;
	}
}

/* Each CPU weighted by its non-idle time (in whole jiffies, as the
 * kernel's nsecs_to_jiffies() truncates it) in the period. */
static uint32_t collect_percpu_times(struct psi_group *g, uint64_t now)
{
	uint64_t deltas[NR_PSI_STATES - 1] = { 0 };
	uint64_t nonidle_total = 0;
	uint32_t changed = 0;

	for (int c = 0; c < g->nr_cpus; c++) {
		uint32_t times[NR_PSI_STATES], cpu_changed;

		get_recent_times(g, c, now, times, &cpu_changed);
		changed |= cpu_changed;
		uint64_t nonidle = times[PSI_NONIDLE] / g->tick_ns;
		nonidle_total += nonidle;
		for (int s = 0; s < PSI_NONIDLE; s++)
			deltas[s] += (uint64_t)times[s] * nonidle;
	}
	for (int s = 0; s < NR_PSI_STATES - 1; s++)
		g->total[s] += deltas[s] / (nonidle_total ? nonidle_total : 1);
	/* The worker re-arms while anything was non-idle. */
	if (changed & (1u << PSI_NONIDLE))
		changed |= PSI_STATE_RESCHEDULE;
	return changed;
}

static void calc_avgs(unsigned long avg[3], uint64_t missed, uint64_t time, uint64_t period)
{
	static const unsigned long exp[3] = { EXP_10s, EXP_60s, EXP_300s };
	unsigned long pct = (unsigned long)(time * 100 / (period ? period : 1)) * PSI_FIXED_1;

	for (int i = 0; i < 3; i++) {
		if (missed) /* zeroes for the periods of no activity */
			avg[i] = psi_calc_load_n(avg[i], exp[i], 0, (unsigned)missed);
		avg[i] = psi_calc_load(avg[i], exp[i], pct);
	}
}

static uint64_t update_averages(struct psi_group *g, uint64_t now)
{
	uint64_t expires = g->avg_next_update, missed = 0;

	if (now - expires >= g->period_ns)
		missed = (now - expires) / g->period_ns;
	/* Fixed intervals (no drift); the sample is the real time since
	 * the last update. */
	uint64_t next = expires + (1 + missed) * g->period_ns;
	uint64_t period = now - (g->avg_last_update + missed * g->period_ns);

	g->avg_last_update = now;
	for (int s = 0; s < NR_PSI_STATES - 1; s++) {
		uint32_t sample = (uint32_t)(g->total[s] - g->avg_total[s]);

		/* Time that slipped into this period is reported in the
		 * next rather than as more than 100%. */
		if (sample > period)
			sample = (uint32_t)period;
		g->avg_total[s] += sample;
		calc_avgs(g->avg[s], missed, sample, period);
	}
	return next;
}

static void avgs_work(struct psi_group *g, uint64_t now)
{
	uint32_t changed = collect_percpu_times(g, now);

	if (now >= g->avg_next_update)
		g->avg_next_update = update_averages(g, now);
	if (!(changed & PSI_STATE_RESCHEDULE)) {
		g->work_pending = false; /* idle: the clock stops */
		return;
	}
	/* schedule_delayed_work(nsecs_to_jiffies(next - now) + 1): a timer
	 * on the jiffy. */
	g->work_at = (now / g->tick_ns + (g->avg_next_update - now) / g->tick_ns + 1) * g->tick_ns;
}

void psi_advance(struct psi_group *g, uint64_t now)
{
	while (g->work_pending && g->work_at <= now)
		avgs_work(g, g->work_at);
}

/* The ONCPU flag first (no count: the state mask's bit), then the
 * counts, then the states they make. */
static uint32_t oncpu_mask(struct psi_group_cpu *gc, const struct psi_task *t, unsigned *clear,
			   unsigned *set)
{
	if (*clear & TSK_ONCPU) {
		*clear &= ~TSK_ONCPU;
		gc->curr = NULL;
		return 0;
	}
	if (*set & TSK_ONCPU) {
		*set &= ~TSK_ONCPU;
		gc->curr = t;
		return PSI_ONCPU;
	}
	return gc->state_mask & PSI_ONCPU;
}

static void psi_group_change(struct psi_group *g, const struct psi_task *t, unsigned clear,
			     unsigned set, uint64_t now)
{
	struct psi_group_cpu *gc = &g->pcpu[t->cpu];

	psi_advance(g, now);
	if (now < gc->clock)
		now = gc->clock;
	gc->clock = now;
	uint32_t mask = oncpu_mask(gc, t, &clear, &set);
	for (int i = 0; i < NR_PSI_TASK_COUNTS; i++) {
		if ((clear & (1u << i)) && gc->tasks[i])
			gc->tasks[i]--;
		if (set & (1u << i))
			gc->tasks[i]++;
	}
	for (int s = 0; s < NR_PSI_STATES; s++)
		if (test_state(gc->tasks, s, mask & PSI_ONCPU))
			mask |= 1u << s;
	/* A reclaiming current task: nothing productive could run here
	 * even if it were runnable. */
	if ((mask & PSI_ONCPU) && gc->curr && gc->curr->in_memstall)
		mask |= 1u << PSI_MEM_FULL;
	record_times(gc, now);
	gc->state_mask = mask;
	if (!g->work_pending) {
		g->work_pending = true; /* schedule_delayed_work(PSI_FREQ) */
		g->work_at = (now / g->tick_ns + g->period_ns / g->tick_ns) * g->tick_ns;
	}
}

/* The kernel takes one now (cpu_clock()) for a change and applies it to
 * every group up the hierarchy.  A change dated before a CPU's latest
 * time is taken at the latest time of that CPU in ANY of the task's
 * groups: were each group to clamp on its own clock (which changes of
 * tasks in other cgroups, or a read, have moved), the same stall would
 * start at different moments in a cgroup and its parent. */
void psi_task_change(struct psi_group *g, struct psi_task *t, unsigned clear, unsigned set, uint64_t now)
{
	for (const struct psi_group *p = g; p; p = p->parent)
		if (p->pcpu[t->cpu].clock > now)
			now = p->pcpu[t->cpu].clock;
	t->flags = (t->flags & ~clear) | set;
	for (; g; g = g->parent)
		psi_group_change(g, t, clear, set, now);
}

void psi_memstall_enter(struct psi_group *g, struct psi_task *t, uint64_t now)
{
	if (t->in_memstall)
		return;
	t->in_memstall = true;
	psi_task_change(g, t, 0, TSK_MEMSTALL | TSK_MEMSTALL_RUNNING, now);
}

void psi_memstall_leave(struct psi_group *g, struct psi_task *t, uint64_t now)
{
	if (!t->in_memstall)
		return;
	t->in_memstall = false;
	psi_task_change(g, t, TSK_MEMSTALL | TSK_MEMSTALL_RUNNING, 0, now);
}

void psi_show(struct psi_group *g, enum psi_res res, uint64_t now, struct psi_line out[2])
{
	psi_advance(g, now);
	collect_percpu_times(g, now);
	if (now >= g->avg_next_update)
		g->avg_next_update = update_averages(g, now);
	for (int full = 0; full < 2; full++) {
		int s = (int)res * 2 + full;

		out[full] = (struct psi_line){ 0 };
		/* CPU full is undefined at the system level. */
		if (!g->parent && res == PSI_CPU && full)
			continue;
		for (int w = 0; w < 3; w++)
			out[full].avg[w] = g->avg[s][w];
		out[full].total_us = g->total[s] / 1000;
	}
}

int psi_format_line(char *buf, int len, const char *name, const struct psi_line *l)
{
#define LOAD_INT(x) ((x) >> PSI_FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (PSI_FIXED_1 - 1)) * 100)
	return snprintf(buf, (size_t)len, "%s avg10=%lu.%02lu avg60=%lu.%02lu avg300=%lu.%02lu total=%llu",
			name, LOAD_INT(l->avg[0]), LOAD_FRAC(l->avg[0]), LOAD_INT(l->avg[1]),
			LOAD_FRAC(l->avg[1]), LOAD_INT(l->avg[2]), LOAD_FRAC(l->avg[2]),
			(unsigned long long)l->total_us);
#undef LOAD_INT
#undef LOAD_FRAC
}
