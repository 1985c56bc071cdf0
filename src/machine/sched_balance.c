/* sched_balance.c - a run queue per CPU (--set sched_percpu=1), after
 * kernel/sched/fair.c of 6.18: where a waking task is queued
 * (select_task_rq_fair -> select_idle_sibling) and how the queues are
 * evened out (sched_balance_rq: the periodic balance of each CPU, busy or
 * idle, and the new-idle pull of a CPU that has nothing left to run).
 *
 * Why it matters to reclaim: with one queue for all CPUs, tasks started
 * together get equal shares and fault in lockstep.  The kernel's queues
 * are per CPU; four sorts woken at once on two CPUs start three and one
 * about half the time, and the one alone fills its array three times as
 * fast until a balance moves a task 50-110 ms later (measured on this
 * host, docs/fidelity.md, qsbench): it finishes before the cgroup is full
 * and sorts in memory, and its pages, touched again, are the first
 * activations of reclaim.
 *
 * Where woken tasks go: woken by a running task (a child's exit, a
 * barrier), wake_affine() chooses between the waker's CPU and the
 * previous one by their loads.  So 40 compiles released by the tree's
 * writer spread over both queues, as in the kernel (where 35 of 40 ended
 * within 0.33 s of each other); with the previous CPU alone they had all
 * drifted to one queue (the other CPU's new-idle pulls while the writer
 * ran there) and the second CPU ran them one by one, under the limit
 * where the kernel's swapped (kbuild, docs/zram.md).
 *
 * Simplified: one scheduling domain (a cache shared by every CPU, as on
 * a guest of two cores, so sd_weight = the CPU count); a queue's load is
 * its number of tasks (all nice 0, no PELT averages: a blocked task's
 * decaying load is not counted); a CPU pulls one task when the busiest
 * queue has at least two more than its own, or, new-idle or idle, when it
 * has any waiting; wake_wide() is left out; the running task is never
 * moved (no active balance); and the previous CPU of each task and each
 * CPU's balancing phase at the start are drawn from the run's seed, since
 * in the kernel they depend on where the launcher forked the tasks (fork
 * balancing on PELT loads: four sorts forked and woken together started
 * two and two in two of five runs, three and one in three) and when the
 * CPUs booted. */
#include "sched.h"
#include "machine.h"
#include "../lib/util.h"

#define US 1000ULL
/* sd_init(): a domain sharing a cache (SD_SHARE_LLC) and the package
 * level both get 117; 110 is SMT siblings' (not modelled). */
#define SD_IMBALANCE_PCT 117
#define MS 1000000ULL

bool sched_is_percpu(const struct machine *m) { return m->prof.sched_percpu != 0; }

bool sched_on_queue(const struct machine *m, const struct task *t, int c)
{
	return !m->prof.sched_percpu || t->cpu == c;
}

static uint64_t migration_cost(const struct machine *m)
{
	return m->prof.sched_migration_cost_ns ? m->prof.sched_migration_cost_ns : 500 * US;
}

/* get_sd_balance_interval(): the domain's balance_interval starts at
 * sd_weight ms and a busy CPU multiplies it by busy_factor (16). */
static uint64_t balance_interval(const struct machine *m, bool busy)
{
	uint64_t f = m->prof.sched_busy_factor ? m->prof.sched_busy_factor : 16;
	return m->prof.cpus * MS * (busy ? f : 1);
}

static struct task *rq_task(const struct machine *m, int i)
{
	return &m->tasks[m->runq[(m->rq_head + i) % m->rq_cap]];
}

int sched_queued(const struct machine *m, int c)
{
	int n = 0;
	for (int i = 0; i < m->rq_len; i++) {
		const struct task *t = rq_task(m, i);
		n += t->state == T_RUNNABLE && sched_on_queue(m, t, c);
	}
	return n;
}

/* rq->nr_running: the queued tasks and the one running. */
static int nr_running(const struct machine *m, int c)
{
	return sched_queued(m, c) + (m->cpus[c].task >= 0);
}

void sched_rq_drop_dead(struct machine *m)
{
	int k = 0;
	for (int i = 0; i < m->rq_len; i++) {
		int tid = m->runq[(m->rq_head + i) % m->rq_cap];
		if (m->tasks[tid].state == T_RUNNABLE)
			m->runq[(m->rq_head + k++) % m->rq_cap] = tid;
	}
	m->rq_len = k;
}

int sched_rq_take(struct machine *m, int i)
{
	int tid = m->runq[(m->rq_head + i) % m->rq_cap];
	for (; i > 0; i--)
		m->runq[(m->rq_head + i) % m->rq_cap] = m->runq[(m->rq_head + i - 1) % m->rq_cap];
	m->rq_head = (m->rq_head + 1) % m->rq_cap;
	m->rq_len--;
	return tid;
}

void sched_percpu_init(struct machine *m)
{
	struct rng r;
	rng_seed(&r, m->opt.seed ^ 0x7363686564ULL);
	for (int i = 0; i < m->nr_tasks; i++)
		m->tasks[i].cpu = (int)rng_below(&r, m->prof.cpus);
	for (uint64_t c = 0; c < m->prof.cpus; c++) {
		m->cpus[c].next_balance = rng_below(&r, balance_interval(m, true));
		m->cpus[c].avg_idle = 2 * migration_cost(m); /* sched_init() */
	}
}

/* wake_affine() for a task woken by one running on CPU `waker`: the
 * waker's CPU if the previous one is not idle and the waker's load with
 * the task on it is below the previous CPU's, biased toward the previous
 * one by half of imbalance_pct (wake_affine_weight with WA_BIAS; loads
 * counted in tasks, a task's weight each). */
static int wake_affine(const struct machine *m, int waker, int prev)
{
	if (m->cpus[prev].idle)
		return prev; /* wake_affine_idle() */
	int64_t this_load = (int64_t)(nr_running(m, waker) + 1) * 100;
	int64_t prev_load = (int64_t)nr_running(m, prev) * (100 + (SD_IMBALANCE_PCT - 100) / 2);
	return this_load < prev_load ? waker : prev;
}

int sched_select_cpu(struct machine *m, const struct task *t)
{
	int prev = t->cpu >= 0 && (uint64_t)t->cpu < m->prof.cpus ? t->cpu : 0;
	/* select_task_rq_fair(): woken by a task (not by an interrupt: the
	 * disk's completions, a timer), the target is wake_affine()'s
	 * choice between the waker's CPU and the previous one.  wake_wide()
	 * is left out: it would refuse only when the wakee too wakes many
	 * others. */
	int target = prev;
	if (m->cur_task >= 0 && m->cur_task != t->id) {
		int waker = m->tasks[m->cur_task].cpu;
		if (waker >= 0 && (uint64_t)waker < m->prof.cpus && waker != prev)
			target = wake_affine(m, waker, prev);
	}
	/* select_idle_sibling(): the target if it is idle, else the
	 * previous CPU if it is, else an idle CPU sharing their cache,
	 * else the target's queue. */
	if (m->cpus[target].idle)
		return target;
	if (m->cpus[prev].idle)
		return prev;
	for (uint64_t c = 0; c < m->prof.cpus; c++)
		if (m->cpus[c].idle)
			return (int)c;
	return target;
}

void sched_cpu_busy(struct machine *m, int c, uint64_t now)
{
	/* ttwu_do_activate(): the idle time just ended is a sample of
	 * rq->avg_idle (update_avg: an eighth of the way), capped at twice
	 * the domain's new-idle balance cost (sysctl_sched_migration_cost
	 * at boot). */
	struct cpu *cpu = &m->cpus[c];
	int64_t sample = now > cpu->idle_since ? (int64_t)(now - cpu->idle_since) : 0;
	int64_t avg = (int64_t)cpu->avg_idle;
	avg += (sample - avg) / 8;
	if (avg > (int64_t)(2 * migration_cost(m)))
		avg = (int64_t)(2 * migration_cost(m));
	cpu->avg_idle = avg > 0 ? (uint64_t)avg : 0;
}

void sched_cpu_wake(struct machine *m, int c, uint64_t now)
{
	m->cpus[c].idle = false;
	sched_cpu_busy(m, c, now);
	evq_push(&m->q, now, EV_CPU, (uint32_t)c, 0);
}

enum balance_kind { BALANCE_BUSY, BALANCE_IDLE, BALANCE_NEWIDLE };

/* sched_balance_rq() for CPU c: find the busiest queue and move one of
 * its waiting tasks here if that evens them out; true if one moved. */
static bool pull_one(struct machine *m, int c, uint64_t now, enum balance_kind kind)
{
	struct cpu *cpu = &m->cpus[c];
	int busiest = -1, most = 0;
	for (uint64_t o = 0; o < m->prof.cpus; o++) {
		int n = nr_running(m, (int)o);
		if ((int)o != c && n > most) {
			busiest = (int)o;
			most = n;
		}
	}
	/* Busy, a CPU takes a task only if that leaves the two queues
	 * closer (calculate_imbalance, counted in tasks); idle, any task
	 * that waits. */
	int mine = kind == BALANCE_BUSY ? nr_running(m, c) : 0;
	if (busiest < 0 || most - mine < 2) {
		if (kind != BALANCE_NEWIDLE)
			cpu->balance_failed = 0;
		return false;
	}
	for (int i = 0; i < m->rq_len; i++) {
		struct task *t = rq_task(m, i);
		if (t->state != T_RUNNABLE || t->cpu != busiest)
			continue;
		/* can_migrate_task(): a task that ran within the migration
		 * cost is cache-hot and stays, unless this CPU is idle
		 * (CPU_IDLE) or balancing failed more than cache_nice_tries
		 * (1) times in a row. */
		bool hot = t->last_ran > now || now - t->last_ran < migration_cost(m);
		if (hot && kind != BALANCE_IDLE && cpu->balance_failed <= 1)
			continue;
		if (sched_is_eevdf(m))
			sched_eevdf_migrate(m, t, c);
		else
			t->cpu = c;
		cpu->balance_failed = 0;
		return true;
	}
	if (kind != BALANCE_NEWIDLE)
		cpu->balance_failed++;
	return false;
}

void sched_balance(struct machine *m, int c, uint64_t now)
{
	struct cpu *cpu = &m->cpus[c];
	bool busy = cpu->task >= 0 || sched_queued(m, c) > 0;
	if (!busy && !pull_one(m, c, now, BALANCE_NEWIDLE) &&
	    cpu->next_balance > now + balance_interval(m, false))
		cpu->next_balance = now + balance_interval(m, false); /* going idle */
	if (now >= cpu->next_balance) {
		cpu->next_balance = now + balance_interval(m, busy);
		if (busy)
			pull_one(m, c, now, BALANCE_BUSY);
	}
	/* nohz_idle_balance(): a busy CPU's tick balances for the idle ones
	 * whose interval has passed, and wakes one that got a task. */
	for (uint64_t o = 0; o < m->prof.cpus; o++) {
		struct cpu *ic = &m->cpus[o];
		if (!ic->idle || now < ic->next_balance)
			continue;
		ic->next_balance = now + balance_interval(m, false);
		if (pull_one(m, (int)o, now, BALANCE_IDLE))
			sched_cpu_wake(m, (int)o, now);
	}
}
