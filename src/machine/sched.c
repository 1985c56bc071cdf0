/* sched.c - EEVDF, the fair class of Linux 6.6+ (kernel/sched/fair.c of
 * 6.18: pick_eevdf, entity_eligible, place_entity, update_entity_lag,
 * check_preempt_wakeup_fair), as the order in which the machine's CPUs
 * run runnable tasks; `--set sched_eevdf=1`.
 *
 * Why it matters to reclaim: a round-robin run queue gives every task
 * equal turns, so a task that blocks on a swap-in every few microseconds
 * of CPU gets a sliver of each round while a task that does not fault
 * runs whole quanta; its pages go idle, are reclaimed, and it faults
 * more: one sort runs away while the others thrash (qsbench, fidelity.md).
 * EEVDF shares CPU time instead.  Each task has a virtual runtime (the
 * CPU it received) and a virtual deadline a slice ahead; a task is
 * eligible while its vruntime is not above the average of the runnable
 * ones (its lag is not negative).  The CPU runs the eligible task with
 * the earliest deadline; a task keeps its lag across a sleep (clamped to
 * max(2 slices, a tick)), so one that slept briefly comes back owed CPU;
 * and a waking task preempts a running one that is no longer eligible
 * (RUN_TO_PARITY protects only an eligible task to its slice's end).
 *
 * Simplified: all weights equal (nice 0, no cgroup hierarchy); one run
 * queue for all CPUs unless --set sched_percpu=1 (the kernel's are per
 * CPU, balanced by migration, sched_balance.c: with one queue tasks
 * started together get equal shares and stay in lockstep, where the
 * kernel's drift apart - qsbench, docs/fidelity.md); with a queue per CPU
 * each queue's average is its own tasks'; the slice is the profile's
 * quantum (6.18's base_slice is 0.75 ms x (1 + ilog2(CPUs))); a preemption takes effect at the end of the running
 * task's chunk (at most 200 us, design.md); no DELAY_DEQUEUE, no
 * PLACE_DEADLINE_INITIAL, no next buddy. */
#include "sched.h"
#include "machine.h"

bool sched_is_eevdf(const struct machine *m) { return m->prof.sched_eevdf != 0; }

/* avg_vruntime(): the mean vruntime of the runnable and running tasks of
 * CPU c's queue but `except`; false if there are none. */
static bool avg_vruntime(const struct machine *m, const struct task *except, int c, int64_t *avg)
{
	int64_t sum = 0, n = 0;
	for (int i = 0; i < m->nr_tasks; i++) {
		const struct task *t = &m->tasks[i];
		if (t == except || (t->state != T_RUNNABLE && t->state != T_RUNNING) || !sched_on_queue(m, t, c))
			continue;
		sum += t->vruntime;
		n++;
	}
	if (!n)
		return false;
	/* Floor division, so that the mean of negative vruntimes is not
	 * rounded up past one of them. */
	*avg = sum >= 0 ? sum / n : -((-sum + n - 1) / n);
	return true;
}

static int64_t slice_ns(const struct machine *m) { return (int64_t)m->prof.quantum_ns; }

int sched_eevdf_pick(struct machine *m, int c)
{
	int64_t avg = 0;
	avg_vruntime(m, NULL, c, &avg);
	int best = -1;
	bool best_eligible = false;
	for (int i = 0; i < m->rq_len; i++) {
		const struct task *t = &m->tasks[m->runq[(m->rq_head + i) % m->rq_cap]];
		if (t->state != T_RUNNABLE || !sched_on_queue(m, t, c))
			continue;
		bool eligible = t->vruntime <= avg;
		if (best >= 0) {
			const struct task *b = &m->tasks[m->runq[(m->rq_head + best) % m->rq_cap]];
			/* Eligible before not; among eligible the earliest
			 * deadline; if none is eligible (rounding), the least
			 * vruntime.  Ties: queue order. */
			if (best_eligible && !eligible)
				continue;
			if (eligible == best_eligible &&
			    (eligible ? t->deadline >= b->deadline : t->vruntime >= b->vruntime))
				continue;
		}
		best = i;
		best_eligible = eligible;
	}
	/* Close the gap; entries of tasks no longer runnable (the OOM
	 * killer's) go with it when nothing is picked (with a queue per CPU,
	 * only those: the other CPUs' tasks stay). */
	if (best < 0) {
		if (sched_is_percpu(m))
			sched_rq_drop_dead(m);
		else
			m->rq_len = 0;
		return -1;
	}
	return sched_rq_take(m, best);
}

void sched_eevdf_new_slice(struct machine *m, struct task *t)
{
	t->deadline = t->vruntime + slice_ns(m);
}

void sched_eevdf_ran(struct task *t, uint64_t ns)
{
	t->vruntime += (int64_t)ns;
}

void sched_eevdf_sleep(struct machine *m, struct task *t)
{
	int64_t avg, limit = 2 * slice_ns(m);
	int64_t tick = (int64_t)(1000000000ULL / (m->prof.hz ? m->prof.hz : 1));
	if (tick > limit)
		limit = tick;
	t->vlag = avg_vruntime(m, t, t->cpu, &avg) ? avg - t->vruntime : 0;
	if (t->vlag > limit)
		t->vlag = limit;
	if (t->vlag < -limit)
		t->vlag = -limit;
}

void sched_eevdf_wake(struct machine *m, struct task *t)
{
	int64_t avg;
	if (avg_vruntime(m, t, t->cpu, &avg))
		t->vruntime = avg - t->vlag;
	sched_eevdf_new_slice(m, t);
	/* check_preempt_wakeup_fair(): pick_eevdf() would now choose the
	 * woken task over a running one only if that one is no longer
	 * eligible and the woken one is, with the earliest deadline of the
	 * eligible queued tasks. */
	if (!avg_vruntime(m, NULL, t->cpu, &avg) || t->vruntime > avg)
		return;
	for (int i = 0; i < m->rq_len; i++) {
		const struct task *q = &m->tasks[m->runq[(m->rq_head + i) % m->rq_cap]];
		if (q != t && q->state == T_RUNNABLE && q->vruntime <= avg && q->deadline < t->deadline &&
		    sched_on_queue(m, q, t->cpu))
			return;
	}
	/* The CPU whose task is furthest ahead (with a queue per CPU, the
	 * woken task's CPU only). */
	int victim = -1;
	for (uint64_t c = 0; c < m->prof.cpus; c++) {
		const struct cpu *cpu = &m->cpus[c];
		if (!sched_on_queue(m, t, (int)c))
			continue;
		if (cpu->task < 0 || cpu->resched)
			continue;
		const struct task *cur = &m->tasks[cpu->task];
		if (cur->state != T_RUNNING || cur->vruntime <= avg)
			continue;
		if (victim < 0 || cur->vruntime > m->tasks[m->cpus[victim].task].vruntime)
			victim = (int)c;
	}
	if (victim >= 0)
		m->cpus[victim].resched = true;
}

void sched_eevdf_migrate(struct machine *m, struct task *t, int to)
{
	/* migrate_task_rq_fair() keeps the lag across the move: dequeued
	 * from one queue, placed on the other at its average less the lag. */
	int64_t avg;
	int64_t vlag = avg_vruntime(m, t, t->cpu, &avg) ? avg - t->vruntime : 0;
	t->cpu = to;
	if (avg_vruntime(m, t, to, &avg))
		t->vruntime = avg - vlag;
}
