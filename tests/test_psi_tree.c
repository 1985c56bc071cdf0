/* test_psi_tree.c - PSI of a cgroup and its parent (src/mm/psi.c), worked
 * by hand from 6.x kernel/sched/psi.c: psi_task_change() applies one
 * change, at one time, to the task's group and every ancestor, and
 * collect_percpu_times() weighs each CPU by the group's own non-idle
 * time.  HZ 1000, times in ms, read before the first average (2001). */
#include "test.h"
#include "../src/mm/psi.h"

#include <string.h>

void test_psi_tree_one_time_per_change(void);
void test_psi_tree_parent_some_weighted(void);

#define MS 1000000ull

static uint64_t some_us(struct psi_group *g, uint64_t now)
{
	struct psi_line l[2];

	psi_show(g, PSI_MEM, now, l);
	return l[0].total_us;
}

/* A change dated before the latest time of its CPU in the parent (moved
 * there by a task of the parent) is taken at that time in the child
 * too: a stall starts at one moment in every group. */
void test_psi_tree_one_time_per_change(void)
{
	struct psi_group root, cg;
	struct psi_task x = { .cpu = 0 }, y = { .cpu = 0 };

	psi_group_init(&root, NULL, 1, 1000, 0);
	psi_group_init(&cg, &root, 1, 1000, 0);
	psi_task_change(&root, &x, 0, TSK_IOWAIT, 100 * MS); /* root's CPU 0 at 100 */
	/* y, in the cgroup, reports a reclaim dated 50: taken at 100. */
	psi_task_change(&cg, &y, 0, TSK_RUNNING | TSK_ONCPU, 50 * MS);
	psi_memstall_enter(&cg, &y, 50 * MS);
	psi_memstall_leave(&cg, &y, 300 * MS);
	psi_task_change(&cg, &y, TSK_RUNNING | TSK_ONCPU, 0, 300 * MS);
	psi_task_change(&root, &x, TSK_IOWAIT, 0, 300 * MS);
	/* One CPU: its non-idle weighs 1.  Both 100..300. */
	CHECK_EQ(some_us(&cg, 400 * MS), 200000);
	CHECK_EQ(some_us(&root, 400 * MS), 200000);
	CHECK_EQ(cg.pcpu[0].times[PSI_MEM_SOME], 200 * MS);
	CHECK_EQ(root.pcpu[0].times[PSI_MEM_SOME], 200 * MS);
	psi_group_free(&cg);
	psi_group_free(&root);
}

/* /b's task stalls on CPU 0 for 0..1000 and sleeps; /a's runs on CPU 1
 * for 0..2000.  /b: CPU 0 only non-idle, some 1000 ms.  The root: CPU 0
 * stalled 1000 ms of 1000 non-idle, CPU 1 non-idle 2000, not stalled:
 * (1e9 * 1000 + 0 * 2000) / 3000 = 333333333 ns.  The parent's total is
 * SMALLER than its child's, as the kernel's: SOME is the share of
 * non-idle CPU time in a stall, and the root had more CPUs busy.  Per
 * CPU, the parent's time in a state is never below a child's. */
void test_psi_tree_parent_some_weighted(void)
{
	struct psi_group root, a, b;
	struct psi_task x = { .cpu = 1 }, y = { .cpu = 0 };

	psi_group_init(&root, NULL, 2, 1000, 0);
	psi_group_init(&a, &root, 2, 1000, 0);
	psi_group_init(&b, &root, 2, 1000, 0);
	psi_task_change(&a, &x, 0, TSK_RUNNING | TSK_ONCPU, 0);
	psi_task_change(&b, &y, 0, TSK_RUNNING | TSK_ONCPU, 0);
	psi_memstall_enter(&b, &y, 0);
	psi_memstall_leave(&b, &y, 1000 * MS);
	psi_task_change(&b, &y, TSK_RUNNING | TSK_ONCPU, 0, 1000 * MS);
	CHECK_EQ(some_us(&b, 2000 * MS), 1000000);
	CHECK_EQ(some_us(&a, 2000 * MS), 0);
	CHECK_EQ(some_us(&root, 2000 * MS), 333333);
	for (int c = 0; c < 2; c++) {
		CHECK(root.pcpu[c].times[PSI_MEM_SOME] >= b.pcpu[c].times[PSI_MEM_SOME]);
		CHECK(root.pcpu[c].times[PSI_NONIDLE] >= b.pcpu[c].times[PSI_NONIDLE]);
	}
	CHECK_EQ(root.pcpu[0].times[PSI_MEM_SOME], 1000 * MS);
	psi_group_free(&b);
	psi_group_free(&a);
	psi_group_free(&root);
}
