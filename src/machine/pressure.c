/* pressure.c - `--set psi=1`: the machine's pressure stall information
 * (/proc/pressure/memory), the accounting of src/mm/psi.c (6.x
 * kernel/sched/psi.c) fed by the machine's task states.
 *
 * A task's PSI flags follow its state (psi_enqueue/psi_dequeue/
 * psi_task_switch): runnable or running, TSK_RUNNING; on a CPU,
 * TSK_ONCPU; blocked on page I/O or in a reclaim wait (wait_is_io(),
 * as the machine's own iowait), TSK_IOWAIT; in a memory stall,
 * TSK_MEMSTALL (and TSK_MEMSTALL_RUNNING while runnable).  A memory stall
 * is what 6.x brackets with psi_memstall_enter/leave: direct and limit
 * reclaim (do_try_to_free_pages, mm.c), the wait a reclaim ends in
 * (reclaim_throttle(), tasks.c), kswapd's balance_pgdat() (kthreads.c),
 * and waiting for the read of a PG_workingset page - a refault of the
 * workingset (folio_wait_bit_common()'s thrashing case, tasks.c).  The
 * dirty throttle (balance_dirty_pages) is not one.  A stall that ends in
 * a wait is left when the task next gets a CPU, as the kernel's leave
 * runs after the wait.  A task's CPU is the one it last ran on (with the
 * one run queue of the older schedulers, the kernel's task_cpu() has no
 * counterpart for a task that waits for any CPU). */
#include "machine.h"

static unsigned psi_wanted(const struct task *t)
{
	unsigned f = 0;
	bool ms = t->psi.in_memstall;

	if (t->state == T_EXITED)
		return 0;
	if (t->state == T_RUNNING || t->state == T_RUNNABLE)
		f |= TSK_RUNNING | (ms ? TSK_MEMSTALL_RUNNING : 0);
	if (t->state == T_RUNNING)
		f |= TSK_ONCPU;
	if (ms)
		f |= TSK_MEMSTALL;
	if (t->state == T_BLOCKED && wait_is_io(t->wait))
		f |= TSK_IOWAIT;
	return f;
}

void machine_psi_sync(struct machine *m, struct task *t, uint64_t when)
{
	if (!m->opt.psi)
		return;
	if (t->state == T_EXITED)
		t->psi.in_memstall = t->psi_leave_on_run = false;
	if (t->cpu != t->psi.cpu && t->cpu >= 0 && t->cpu < m->psi.nr_cpus) {
		/* Migrated: its counts leave the old CPU for the new one. */
		if (t->psi.flags)
			psi_task_change(&m->psi, &t->psi, t->psi.flags, 0, when);
		t->psi.cpu = t->cpu;
	}
	unsigned want = psi_wanted(t), have = t->psi.flags;
	if (want != have)
		psi_task_change(&m->psi, &t->psi, have & ~want, want & ~have, when);
}

void machine_psi_memstall(struct machine *m, struct task *t, bool enter, uint64_t when)
{
	if (!m->opt.psi || t->psi.in_memstall == enter)
		return;
	t->psi.in_memstall = enter;
	if (!enter)
		t->psi_leave_on_run = false;
	machine_psi_sync(m, t, when);
}

/* mm_io.memstall: reclaim's stall section, entered only if not already
 * in one (the kernel's nesting through *flags). */
static bool io_memstall(void *arg, int task, bool enter, uint64_t t)
{
	struct machine *m = arg;
	if (task < 0 || task >= m->nr_tasks)
		return false;
	struct task *k = &m->tasks[task];
	if (enter && k->psi.in_memstall)
		return false;
	machine_psi_memstall(m, k, enter, t);
	return true;
}

void machine_psi_init(struct machine *m)
{
	if (!m->opt.psi)
		return;
	psi_group_init(&m->psi, NULL, (int)m->prof.cpus, (unsigned)m->prof.hz, 0);
	m->mm.io.memstall = io_memstall;
}

bool machine_psi_memory(struct machine *m, uint64_t now, struct psi_line out[2])
{
	if (!m->opt.psi)
		return false;
	psi_show(&m->psi, PSI_MEM, now, out);
	return true;
}
