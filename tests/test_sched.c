/* test_sched.c - the EEVDF run queue (src/machine/sched.c, --set
 * sched_eevdf=1) on hand-built machines: who is picked, the lag kept
 * across a sleep, who is preempted on a wakeup; and whole runs under
 * --check.  Cost: about a second (two 48 MB runs). */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/machine/sched.h"
#include "../src/workload/workload.h"
#include "../src/policy/policy.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>

#define MS 1000000LL

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
	CHECK_EQ(sched_eevdf_pick(&h.m), 2);
	CHECK_EQ(h.m.rq_len, 1);
	CHECK_EQ(h.runq[h.m.rq_head], 1);
	CHECK_EQ(sched_eevdf_pick(&h.m), 1);
	CHECK_EQ(sched_eevdf_pick(&h.m), -1);

	hm_init(&h, 1);
	hm_run(&h, 0, 0, 0);
	hm_queue(&h, 1, 6 * MS, 9 * MS);
	CHECK_EQ(sched_eevdf_pick(&h.m), 1);
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

/* Whole runs: three usemem processes sweeping 36 MB three times in a 48 MB
 * machine, swapping, under --check, round robin and EEVDF: both finish
 * every task with sound invariants, each first touch of the 9216 pages a
 * fault, and EEVDF's run is deterministic. */
static void run_usemem(struct machine *m, uint64_t eevdf)
{
	struct profile prof = *profile_find("modern");
	prof.cpus = 2;
	prof.ram = 48ULL << 20;
	prof.swap = 64ULL << 20;
	prof.sched_eevdf = eevdf;
	struct machine_opts mo = { .seed = 1, .check = true, .max_time_ns = 100ULL * 1000000000ULL };
	char err[256], cmd[] = "usemem -n 3 -m 12 -r 3", *argv[16];
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
	machine_add_workload(m, wo, w, "usemem -n 3 -m 12 -r 3");
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
	CHECK(rr.mm.ev[PGFAULT] >= 9216 && e1.mm.ev[PGFAULT] >= 9216);
	CHECK_EQ(e1.mm.ev[PSWPOUT], e2.mm.ev[PSWPOUT]);
	CHECK_EQ(e1.now, e2.now);
	machine_free(&rr);
	machine_free(&e1);
	machine_free(&e2);
}
