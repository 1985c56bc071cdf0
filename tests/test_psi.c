/* test_psi.c - src/mm/psi.c against sequences worked by hand from 6.x
 * kernel/sched/psi.c: HZ 1000 (a jiffy is 1 ms, PSI_FREQ 2001 jiffies,
 * psi_period 2.001 s), FIXED_1 = 2048, times in ms unless said. */
#include "test.h"
#include "../src/mm/psi.h"

#include <string.h>

void test_psi_some_full_states(void);
void test_psi_averages_two_periods(void);
void test_psi_missed_periods(void);
void test_psi_cpus_weighted_by_nonidle(void);
void test_psi_fixed_point(void);
void test_psi_cgroup_hierarchy(void);

#define MS 1000000ull

static void line(struct psi_group *g, enum psi_res r, uint64_t now, int full, char *buf)
{
	struct psi_line l[2];

	psi_show(g, r, now, l);
	psi_format_line(buf, 128, full ? "full" : "some", &l[full]);
}

/* The resource's some (full 0) or full line at time now is want. */
static bool line_is(struct psi_group *g, enum psi_res r, uint64_t now, int full, const char *want)
{
	char buf[128];

	line(g, r, now, full, buf);
	return !strcmp(buf, want);
}

/* One CPU, HZ 1000; task a on it and in a memory stall from time 0. */
static void stalled_from_0(struct psi_group *g, struct psi_task *a)
{
	psi_group_init(g, NULL, 1, 1000, 0);
	psi_task_change(g, a, 0, TSK_RUNNING | TSK_ONCPU, 0);
	psi_memstall_enter(g, a, 0);
}

void test_psi_some_full_states(void)
{
	struct psi_group g;
	struct psi_task a = { .cpu = 0 }, b = { .cpu = 0 };

	psi_group_init(&g, NULL, 1, 1000, 0);
	psi_task_change(&g, &a, 0, TSK_RUNNING | TSK_ONCPU, 0);
	psi_task_change(&g, &b, 0, TSK_RUNNING, 0);
	/* 100: A reclaims on the CPU: SOME, and FULL although B could
	 * run (cpu_curr(cpu)->in_memstall). */
	psi_memstall_enter(&g, &a, 100 * MS);
	/* 200: A preempted, B on the CPU: B is productive, SOME only. */
	psi_task_change(&g, &a, TSK_ONCPU, 0, 200 * MS);
	psi_task_change(&g, &b, 0, TSK_ONCPU, 200 * MS);
	/* 400: B sleeps, A back: running == memstall_running, FULL. */
	psi_task_change(&g, &b, TSK_RUNNING | TSK_ONCPU, 0, 400 * MS);
	psi_task_change(&g, &a, 0, TSK_ONCPU, 400 * MS);
	psi_memstall_leave(&g, &a, 500 * MS);
	psi_memstall_leave(&g, &a, 550 * MS); /* not in a stall: nothing */
	/* At 600, before the first average (2001): SOME 100..500 = 400 ms,
	 * FULL 100..200 + 400..500 = 200 ms; one CPU, its non-idle 600
	 * jiffies weigh 1. */
	CHECK(line_is(&g, PSI_MEM, 600 * MS, 0,
		      "some avg10=0.00 avg60=0.00 avg300=0.00 total=400000"));
	CHECK(line_is(&g, PSI_MEM, 600 * MS, 1,
		      "full avg10=0.00 avg60=0.00 avg300=0.00 total=200000"));
	/* CPU: two running, one on the CPU, 0..400. */
	CHECK(line_is(&g, PSI_CPU, 600 * MS, 0,
		      "some avg10=0.00 avg60=0.00 avg300=0.00 total=400000"));
	/* undefined for the system */
	CHECK(line_is(&g, PSI_CPU, 600 * MS, 1,
		      "full avg10=0.00 avg60=0.00 avg300=0.00 total=0"));
	CHECK(line_is(&g, PSI_IO, 600 * MS, 0, "some avg10=0.00 avg60=0.00 avg300=0.00 total=0"));
	CHECK_EQ(a.flags, TSK_RUNNING | TSK_ONCPU);
	psi_group_free(&g);
}

void test_psi_averages_two_periods(void)
{
	struct psi_group g;
	struct psi_task a = { .cpu = 0 };

	stalled_from_0(&g, &a);
	/* The worker, armed at 0 for PSI_FREQ, runs at 2001 = the first
	 * avg_next_update: sample 2001 ms of 2001, pct = 100 * 2048 =
	 * 204800.  avg10 = (0 * 1677 + 204800 * 371 + 2047) / 2048 = 37100
	 * = 18 + 236/2048 -> 18.11; avg60 = (204800 * 67 + 2047) / 2048 =
	 * 6700 -> 3.27; avg300 = (204800 * 14 + 2047) / 2048 = 1400 ->
	 * 0.68. */
	CHECK(line_is(&g, PSI_MEM, 2001 * MS, 0,
		      "some avg10=18.11 avg60=3.27 avg300=0.68 total=2001000"));
	/* Re-armed for nsecs_to_jiffies(4002 - 2001) + 1 jiffies: 4003.
	 * Period 2.002 s, sample 2002 ms: 100% again.  avg10 = (37100 *
	 * 1677 + 204800 * 371 + 2047) / 2048 = 138199547 / 2048 = 67480 =
	 * 32 + 1944/2048 -> 32.94; avg60 = 13181 -> 6.43; avg300 = 2791 ->
	 * 1.36. */
	CHECK(line_is(&g, PSI_MEM, 4003 * MS, 1,
		      "full avg10=32.94 avg60=6.43 avg300=1.36 total=4003000"));
	CHECK_EQ(g.avg_next_update, 6003 * MS);
	psi_group_free(&g);
}

void test_psi_missed_periods(void)
{
	struct psi_group g;
	struct psi_task a = { .cpu = 0 };
	char buf[128];

	stalled_from_0(&g, &a);
	psi_memstall_leave(&g, &a, 1000 * MS);
	psi_task_change(&g, &a, TSK_RUNNING | TSK_ONCPU, 0, 1000 * MS);
	/* 2001: 1000 ms of 2001: pct = 49 (49.98), 49 * 2048 = 100352;
	 * avg10 = (100352 * 371 + 2047) / 2048 = 18179.  4003: idle, sample
	 * 0: avg10 = 18179 * 1677 / 2048 = 14885, and nothing was non-idle:
	 * the clock stops. */
	psi_advance(&g, 5000 * MS);
	CHECK_EQ(g.avg[PSI_MEM_SOME][0], 14885);
	CHECK(!g.work_pending);
	/* 20000: A wakes; the worker, armed for 22001, finds 22001 - 6003 =
	 * 15998 ms past due: 7 missed periods.  fixed_power_int(1677, 7):
	 * 1677 * 1373 -> 1124, 1373^2 -> 920, 1124 * 920 -> 505;
	 * 14885 * 505 / 2048 = 3670, then the sample (0): 3670 * 1677 /
	 * 2048 = 3005 = 1 + 957/2048 -> 1.46. */
	psi_task_change(&g, &a, 0, TSK_RUNNING | TSK_ONCPU, 20000 * MS);
	line(&g, PSI_MEM, 22001 * MS, 0, buf);
	CHECK(!strncmp(buf, "some avg10=1.46 ", 16));
	CHECK(!strcmp(strstr(buf, " total="), " total=1000000"));
	/* next = 6003 + 8 * 2001 = 22011 */
	CHECK_EQ(g.avg_next_update, 22011 * MS);
	CHECK_EQ(g.avg_last_update, 22001 * MS);
	psi_group_free(&g);
}

void test_psi_cpus_weighted_by_nonidle(void)
{
	struct psi_group g;
	struct psi_task a = { .cpu = 0 }, b = { .cpu = 1 };

	psi_group_init(&g, NULL, 2, 1000, 0);
	psi_task_change(&g, &a, 0, TSK_RUNNING | TSK_ONCPU, 0);
	psi_task_change(&g, &b, 0, TSK_RUNNING | TSK_ONCPU, 0);
	psi_memstall_enter(&g, &a, 0);
	psi_memstall_leave(&g, &a, 1000 * MS);
	psi_task_change(&g, &a, TSK_RUNNING | TSK_ONCPU, 0, 1000 * MS);
	/* At 2000: CPU 0 stalled 1000 ms of its 1000 non-idle jiffies, CPU
	 * 1 not at all in 2000: (1e9 * 1000 + 0 * 2000) / 3000 =
	 * 333333333 ns.  FULL the same: A was alone on CPU 0. */
	CHECK(line_is(&g, PSI_MEM, 2000 * MS, 0,
		      "some avg10=0.00 avg60=0.00 avg300=0.00 total=333333"));
	CHECK(line_is(&g, PSI_MEM, 2000 * MS, 1,
		      "full avg10=0.00 avg60=0.00 avg300=0.00 total=333333"));
	psi_group_free(&g);
}

void test_psi_fixed_point(void)
{
	/* fixed_power_int(1677, 2) = (1677^2 + 1024) >> 11 = 1373, then
	 * 37100 * 1373 / 2048 = 24872.2 (no round-up: active < load). */
	CHECK_EQ(psi_calc_load_n(37100, EXP_10s, 0, 2), 24872);
	CHECK_EQ(psi_calc_load_n(37100, EXP_10s, 0, 0), psi_calc_load(37100, 2048, 0));
	CHECK_EQ(psi_calc_load(0, EXP_10s, 204800), 37100);
}

void test_psi_cgroup_hierarchy(void)
{
	struct psi_group root, cg;
	struct psi_task a = { .cpu = 0 }, b = { .cpu = 0 };

	psi_group_init(&root, NULL, 1, 1000, 0);
	psi_group_init(&cg, &root, 1, 1000, 0);
	/* A in the cgroup, runnable in a memory stall (off the CPU); B in
	 * the root, on the CPU, 0..100 ms. */
	psi_task_change(&cg, &a, 0, TSK_RUNNING, 0);
	psi_task_change(&root, &b, 0, TSK_RUNNING | TSK_ONCPU, 0);
	psi_memstall_enter(&cg, &a, 0);
	psi_memstall_leave(&cg, &a, 100 * MS);
	/* The cgroup: its one running task stalled, FULL 100 ms.  The root
	 * sees both: B runs productively, SOME only. */
	CHECK(line_is(&cg, PSI_MEM, 200 * MS, 1,
		      "full avg10=0.00 avg60=0.00 avg300=0.00 total=100000"));
	CHECK(line_is(&root, PSI_MEM, 200 * MS, 0,
		      "some avg10=0.00 avg60=0.00 avg300=0.00 total=100000"));
	CHECK(line_is(&root, PSI_MEM, 200 * MS, 1,
		      "full avg10=0.00 avg60=0.00 avg300=0.00 total=0"));
	/* CPU full exists for a cgroup: A waited for the CPU B had. */
	CHECK(line_is(&cg, PSI_CPU, 200 * MS, 1,
		      "full avg10=0.00 avg60=0.00 avg300=0.00 total=200000"));
	psi_group_free(&cg);
	psi_group_free(&root);
}
