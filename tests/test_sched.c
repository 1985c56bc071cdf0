/* test_sched.c - the EEVDF run queue (src/machine/sched.c, --set
 * sched_eevdf=1) on hand-built machines: who is picked, the lag kept
 * across a sleep, who is preempted on a wakeup; a run queue per CPU
 * (src/machine/sched_balance.c, --set sched_percpu=1): where a waking
 * task is queued, when a CPU pulls a task and which, the lag a moved task
 * keeps; and whole runs under --check.  Cost: about two seconds. */
#include "test.h"
#include "sim.h"
#include "../src/machine/machine.h"
#include "../src/machine/sched.h"
#include "../src/workload/workload.h"
#include "../src/policy/policy.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>

#define MS 1000000LL
#define US 1000LL

/* A machine with only what the scheduler reads: tasks, one run queue,
 * CPUs, a 3 ms slice and HZ 1000 (lag limit max(2 x 3 ms, 1 ms) = 6 ms). */
struct hm {
	struct machine m;
	struct task tasks[4];
	int runq[8];
	struct cpu cpus[2];
};

static void hm_init(struct hm *h, int ncpus)
{
	memset(h, 0, sizeof(*h));
	h->m.tasks = h->tasks;
	h->m.nr_tasks = 4;
	h->m.runq = h->runq;
	h->m.rq_cap = 8;
	h->m.cpus = h->cpus;
	h->m.prof.cpus = (uint64_t)ncpus;
	h->m.prof.quantum_ns = 3 * MS;
	h->m.prof.hz = 1000;
	h->m.prof.sched_eevdf = 1;
	for (int i = 0; i < 4; i++) {
		h->tasks[i].id = i;
		h->tasks[i].state = T_EXITED;
	}
	for (int c = 0; c < 2; c++)
		h->cpus[c].task = -1;
	h->m.cur_task = -1; /* woken by an interrupt unless a test says */
}

static void hm_run(struct hm *h, int c, int tid, int64_t v)
{
	h->tasks[tid].state = T_RUNNING;
	h->tasks[tid].vruntime = v;
	h->cpus[c].task = tid;
}

static void hm_queue(struct hm *h, int tid, int64_t v, int64_t deadline)
{
	h->tasks[tid].state = T_RUNNABLE;
	h->tasks[tid].vruntime = v;
	h->tasks[tid].deadline = deadline;
	h->runq[(h->m.rq_head + h->m.rq_len++) % h->m.rq_cap] = tid;
}

/* Running 0 at 9 ms; queued 1 at 6 ms (deadline 12) before 2 at 0 ms
 * (deadline 9): the average is 5 ms, only 2 is eligible, 2 is picked
 * although 1 is first in the queue.  With 0 at 0 ms and 1 alone queued at
 * 6 ms (average 3 ms), nothing queued is eligible: 1, the least vruntime. */
void test_sched_eevdf_pick(void)
{
	struct hm h;
	hm_init(&h, 1);
	hm_run(&h, 0, 0, 9 * MS);
	hm_queue(&h, 1, 6 * MS, 12 * MS);
	hm_queue(&h, 2, 0, 9 * MS);
	CHECK_EQ(sched_eevdf_pick(&h.m, 0), 2);
	CHECK_EQ(h.m.rq_len, 1);
	CHECK_EQ(h.runq[h.m.rq_head], 1);
	CHECK_EQ(sched_eevdf_pick(&h.m, 0), 1);
	CHECK_EQ(sched_eevdf_pick(&h.m, 0), -1);

	hm_init(&h, 1);
	hm_run(&h, 0, 0, 0);
	hm_queue(&h, 1, 6 * MS, 9 * MS);
	CHECK_EQ(sched_eevdf_pick(&h.m, 0), 1);
}

/* Two CPUs run 0 and 1 at 10 ms; 2 goes to sleep at 2 ms: lag 8 ms,
 * kept as 6 (the limit).  0 and 1 run on to 20 ms and 22 ms; 2 wakes:
 * placed at their average 21 less 6 = 15 ms, deadline 18 ms.  The average
 * of the three is 19 ms: 2 is eligible, 0 and 1 are not, so the CPU of
 * the one furthest ahead (1, on CPU 1) is told to switch.  A wakeup
 * placed beside an eligible running task preempts nothing. */
void test_sched_eevdf_lag_and_wakeup_preemption(void)
{
	struct hm h;
	hm_init(&h, 2);
	hm_run(&h, 0, 0, 10 * MS);
	hm_run(&h, 1, 1, 10 * MS);
	h.tasks[2].state = T_RUNNING;
	h.tasks[2].vruntime = 2 * MS;
	sched_eevdf_sleep(&h.m, &h.tasks[2]);
	CHECK_EQ(h.tasks[2].vlag, 6 * MS);
	h.tasks[2].state = T_BLOCKED;
	sched_eevdf_ran(&h.tasks[0], 10 * MS);
	sched_eevdf_ran(&h.tasks[1], 12 * MS);
	hm_queue(&h, 2, h.tasks[2].vruntime, 0);
	sched_eevdf_wake(&h.m, &h.tasks[2]);
	CHECK_EQ(h.tasks[2].vruntime, 15 * MS);
	CHECK_EQ(h.tasks[2].deadline, 18 * MS);
	CHECK(!h.cpus[0].resched);
	CHECK(h.cpus[1].resched);

	/* One CPU running 0 at 10 ms, 1 queued at 12 ms; 2 wakes with no
	 * lag: placed at 11 ms, the average is 11 ms and 0 is eligible. */
	hm_init(&h, 1);
	hm_run(&h, 0, 0, 10 * MS);
	hm_queue(&h, 1, 12 * MS, 15 * MS);
	hm_queue(&h, 2, 0, 0);
	sched_eevdf_wake(&h.m, &h.tasks[2]);
	CHECK_EQ(h.tasks[2].vruntime, 11 * MS);
	CHECK(!h.cpus[0].resched);
}

/* Whole runs: three usemem processes sweeping 18 MB three times in a 40 MB
 * machine (7 MB above the kernel's reserve), swapping, under --check,
 * round robin and EEVDF: both finish every task with sound invariants,
 * each first touch of the 4608 pages a fault, and EEVDF's run is
 * deterministic.  (Half of the 36 MB in 48 MB it was: --check walks every
 * PTE after every event, and the sizes play no part in what is asserted.) */
static void run_usemem(struct machine *m, uint64_t eevdf)
{
	struct profile prof = *profile_find("modern");
	prof.cpus = 2;
	prof.ram = 40ULL << 20;
	prof.swap = 64ULL << 20;
	prof.sched_eevdf = eevdf;
	struct machine_opts mo = { .seed = 1, .check = true, .max_time_ns = 100ULL * 1000000000ULL };
	char err[256], cmd[] = "usemem -n 3 -m 6 -r 3", *argv[16];
	if (!machine_init(m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	int argc = 0;
	for (char *tok = strtok(cmd, " "); tok; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	const struct workload_ops *wo = workload_find("usemem");
	void *w = wo->create(argc, argv, 1, err, sizeof(err));
	if (!w)
		panic("%s", err);
	machine_set_policy(m, policy_find("linux6"), NULL);
	machine_add_workload(m, wo, w, "usemem -n 3 -m 6 -r 3");
	machine_run(m);
}

void test_sched_eevdf_whole_run(void)
{
	struct machine rr, e1, e2;
	run_usemem(&rr, 0);
	run_usemem(&e1, 1);
	run_usemem(&e2, 1);
	CHECK(!rr.check_failed && !e1.check_failed);
	CHECK_EQ(rr.live_user, 0);
	CHECK_EQ(e1.live_user, 0);
	CHECK(rr.mm.ev[PSWPOUT] > 0 && e1.mm.ev[PSWPOUT] > 0);
	CHECK(rr.mm.ev[PGFAULT] >= 4608 && e1.mm.ev[PGFAULT] >= 4608);
	CHECK_EQ(e1.mm.ev[PSWPOUT], e2.mm.ev[PSWPOUT]);
	CHECK_EQ(e1.now, e2.now);
	machine_free(&rr);
	machine_free(&e1);
	machine_free(&e2);
}

/* ---- a run queue per CPU (src/machine/sched_balance.c, sched_percpu=1) */

/* hm_init(2) with per-CPU queues and both CPUs idle; balancing is due at
 * once (next_balance 0); the migration cost is 500 us (the default). */
static void hb_init(struct hm *h)
{
	hm_init(h, 2);
	h->m.prof.sched_percpu = 1;
	for (int c = 0; c < 2; c++)
		h->cpus[c] = (struct cpu){ .task = -1, .last_task = -1, .idle = true };
}

static void hb_run(struct hm *h, int c, int tid, int64_t v)
{
	h->tasks[tid].state = T_RUNNING;
	h->tasks[tid].vruntime = v;
	h->tasks[tid].cpu = c;
	h->cpus[c].task = tid;
	h->cpus[c].idle = false;
}

static void hb_queue(struct hm *h, int c, int tid, int64_t v, uint64_t last_ran)
{
	h->tasks[tid].state = T_RUNNABLE;
	h->tasks[tid].vruntime = v;
	h->tasks[tid].cpu = c;
	h->tasks[tid].last_ran = last_ran;
	h->runq[(h->m.rq_head + h->m.rq_len++) % h->m.rq_cap] = tid;
	h->cpus[c].idle = false;
}

/* select_idle_sibling(): the previous CPU while it is idle; else the
 * idle one; else the previous CPU's queue, though it is busy. */
void test_sched_percpu_wake_placement(void)
{
	struct hm h;
	hb_init(&h);
	h.tasks[0].cpu = 1;
	CHECK_EQ(sched_select_cpu(&h.m, &h.tasks[0]), 1);
	h.cpus[1].idle = false;
	CHECK_EQ(sched_select_cpu(&h.m, &h.tasks[0]), 0);
	h.cpus[0].idle = false;
	CHECK_EQ(sched_select_cpu(&h.m, &h.tasks[0]), 1);
	h.tasks[0].cpu = 0;
	CHECK_EQ(sched_select_cpu(&h.m, &h.tasks[0]), 0);
}

/* Woken by a task running on the other CPU (wake_affine_weight, loads
 * in tasks, the previous CPU's weighed by 100 + (117 - 100) / 2 = 108):
 * task 0 (previous CPU 1) is woken by task 3 running on CPU 0. */
void test_sched_percpu_wake_affine(void)
{
	struct hm h;
	hb_init(&h);
	hb_run(&h, 0, 3, 0);
	h.m.cur_task = 3;
	h.tasks[0].cpu = 1;
	/* CPU 1 idle: the previous CPU (wake_affine_idle). */
	CHECK_EQ(sched_select_cpu(&h.m, &h.tasks[0]), 1);
	/* CPU 1 runs task 1: waker's 1 + 1 = 2 x 100 against 1 x 108 there:
	 * the previous CPU. */
	hb_run(&h, 1, 1, 0);
	CHECK_EQ(sched_select_cpu(&h.m, &h.tasks[0]), 1);
	/* Task 2 waits there too: 200 against 216, the waker's CPU. */
	hb_queue(&h, 1, 2, 0, 0);
	CHECK_EQ(sched_select_cpu(&h.m, &h.tasks[0]), 0);
	/* Woken by an interrupt (no task running): the previous CPU's
	 * queue, though it is longer. */
	h.m.cur_task = -1;
	CHECK_EQ(sched_select_cpu(&h.m, &h.tasks[0]), 1);
}

/* Three tasks on CPU 0 (0 running at 10 ms, 1 and 2 queued at 10 and
 * 14 ms), one on CPU 1 (3 running at 40 ms); at 20 ms CPU 1's periodic
 * balance: 3 against 1 is two apart, so it pulls the first cold waiting
 * task, 1 (last ran at 15 ms, 5 ms ago).  Its lag on CPU 0 was the
 * average of the others there (10 and 14: 12 ms; sched_eevdf_sleep's
 * convention) less its 10 ms, +2 ms; on CPU 1 (average 40 ms) it is
 * placed at 38 ms.  The next balance is
 * busy_factor (16) x 2 ms later.  Queues now 2 and 2: nothing moves. */
void test_sched_percpu_busy_balance_pulls_one(void)
{
	struct hm h;
	hb_init(&h);
	hb_run(&h, 0, 0, 10 * MS);
	hb_queue(&h, 0, 1, 10 * MS, 15 * MS);
	hb_queue(&h, 0, 2, 14 * MS, 16 * MS);
	hb_run(&h, 1, 3, 40 * MS);
	CHECK_EQ(sched_queued(&h.m, 0), 2);
	CHECK_EQ(sched_queued(&h.m, 1), 0);
	sched_balance(&h.m, 1, 20 * MS);
	CHECK_EQ(h.tasks[1].cpu, 1);
	CHECK_EQ(h.tasks[2].cpu, 0);
	int64_t lag = (10 * MS + 14 * MS) / 2 - 10 * MS;
	CHECK_EQ(h.tasks[1].vruntime, 40 * (int64_t)MS - lag);
	CHECK_EQ(h.cpus[1].next_balance, 20 * MS + 32 * MS);
	CHECK_EQ(sched_queued(&h.m, 0), 1);
	CHECK_EQ(sched_queued(&h.m, 1), 1);
	h.cpus[1].next_balance = 0;
	sched_balance(&h.m, 1, 21 * MS);
	CHECK_EQ(h.tasks[2].cpu, 0);
	CHECK_EQ(h.cpus[1].balance_failed, 0u);

	/* Before its interval has passed a busy CPU does not balance. */
	hb_init(&h);
	hb_run(&h, 0, 0, 0);
	hb_queue(&h, 0, 1, 0, 0);
	hb_queue(&h, 0, 2, 0, 0);
	hb_run(&h, 1, 3, 0);
	h.cpus[1].next_balance = 30 * MS;
	sched_balance(&h.m, 1, 25 * MS);
	CHECK_EQ(h.tasks[1].cpu, 0);
	CHECK_EQ(h.tasks[2].cpu, 0);
}

/* Cache-hot tasks (ran within 500 us) stay on a busy balance until it has
 * failed more than cache_nice_tries (1) times in a row: the first two
 * balances fail, the third moves one. */
void test_sched_percpu_hot_tasks_stay(void)
{
	struct hm h;
	hb_init(&h);
	hb_run(&h, 0, 0, 0);
	hb_queue(&h, 0, 1, 0, 10 * MS);
	hb_queue(&h, 0, 2, 0, 10 * MS);
	hb_run(&h, 1, 3, 0);
	for (unsigned k = 1; k <= 2; k++) {
		h.cpus[1].next_balance = 0;
		sched_balance(&h.m, 1, 10 * MS + 100 * US);
		CHECK_EQ(h.tasks[1].cpu, 0);
		CHECK_EQ(h.tasks[2].cpu, 0);
		CHECK_EQ(h.cpus[1].balance_failed, k);
	}
	h.cpus[1].next_balance = 0;
	sched_balance(&h.m, 1, 10 * MS + 100 * US);
	CHECK_EQ(h.tasks[1].cpu, 1);
	CHECK_EQ(h.cpus[1].balance_failed, 0u);
}

/* A CPU with nothing to run pulls a waiting task at once (new-idle),
 * but not a cache-hot one; an idle CPU's own balance, due, takes even a
 * hot one and the CPU is woken to run it.  One task waiting alone on a
 * queue whose CPU runs another is "two", enough for an idle CPU. */
void test_sched_percpu_idle_pulls(void)
{
	struct hm h;
	hb_init(&h);
	hb_run(&h, 0, 0, 0);
	hb_queue(&h, 0, 1, 0, 1 * MS);
	h.cpus[1].next_balance = 100 * MS;
	sched_balance(&h.m, 1, 5 * MS); /* CPU 1 has nothing: new-idle */
	CHECK_EQ(h.tasks[1].cpu, 1);

	hb_init(&h);
	hb_run(&h, 0, 0, 0);
	hb_queue(&h, 0, 1, 0, 5 * MS);
	h.cpus[1].next_balance = 100 * MS;
	sched_balance(&h.m, 1, 5 * MS + 100 * US);
	CHECK_EQ(h.tasks[1].cpu, 0); /* hot */
	CHECK_EQ(h.cpus[1].next_balance, 5 * MS + 100 * US + 2 * MS); /* going idle */
	/* CPU 1 idles; CPU 0's next chunk, past CPU 1's interval, balances
	 * for it: the idle balance ignores hotness and wakes CPU 1. */
	h.cpus[1].idle = true;
	h.tasks[1].last_ran = 7 * MS;
	h.cpus[0].next_balance = 100 * MS;
	sched_balance(&h.m, 0, 7 * MS + 200 * US);
	CHECK_EQ(h.tasks[1].cpu, 1);
	CHECK(!h.cpus[1].idle);
	CHECK_EQ(h.m.q.n, 1u); /* CPU 1's event, now */
	evq_free(&h.m.q);
}

/* rq->avg_idle: an eighth of the way to each idle period's length,
 * capped at twice the migration cost (1 ms). */
void test_sched_percpu_avg_idle(void)
{
	struct hm h;
	hb_init(&h);
	h.cpus[0].avg_idle = 1 * MS;
	h.cpus[0].idle_since = 10 * MS;
	sched_cpu_busy(&h.m, 0, 10 * MS + 200 * US);
	CHECK_EQ(h.cpus[0].avg_idle, 1 * MS - (800 * US) / 8);
	h.cpus[0].idle_since = 20 * MS;
	sched_cpu_busy(&h.m, 0, 40 * MS);
	CHECK_EQ(h.cpus[0].avg_idle, 1 * MS);
}

/* Whole runs: four usemem processes sweeping 20 MB three times on two
 * CPUs with a queue per CPU, in 40 MB, under --check: every task
 * finishes, the same seed gives the same run, other seeds (other starts)
 * and the one queue other runs. */
struct run_end {
	bool check_failed;
	int live_user;
	uint64_t pswpout, now;
};

static struct run_end run_percpu(uint64_t seed, const char *percpu)
{
	const char *sets[] = { "cpus", "2", "swap", "64M", "sched_percpu", percpu, NULL };
	char cmd[] = "usemem -n 4 -m 5 -r 3", *argv[16];
	int argc = 0;
	for (char *tok = strtok(cmd, " "); tok; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	struct machine *m = sim_run_checked("modern", 40ULL << 20, "linux6", sets, seed, argc, argv);
	struct run_end e = { m->check_failed, m->live_user, m->mm.ev[PSWPOUT], m->now };
	machine_free(m);
	return e;
}

void test_sched_percpu_whole_run(void)
{
	struct run_end a = run_percpu(1, "1"), b = run_percpu(1, "1");
	CHECK(!a.check_failed);
	CHECK_EQ(a.live_user, 0);
	CHECK(a.pswpout > 0);
	CHECK_EQ(a.pswpout, b.pswpout);
	CHECK_EQ(a.now, b.now);
	bool differ = false;
	for (uint64_t s = 2; s <= 8 && !differ; s++) {
		struct run_end c = run_percpu(s, "1");
		CHECK(!c.check_failed);
		CHECK_EQ(c.live_user, 0);
		differ = c.now != a.now;
	}
	CHECK(differ);
	struct run_end one = run_percpu(1, "0");
	CHECK(one.now != a.now);
}
