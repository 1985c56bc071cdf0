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
#include "../lib/util.h"

#include <stdlib.h>

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

/* The group of cgroup cg: the machine's for the root. */
static struct psi_group *cg_group(struct machine *m, int cg)
{
	return cg > 0 && m->cg_psi ? &m->cg_psi[cg] : &m->psi;
}

static int task_cgroup(const struct machine *m, const struct task *t)
{
	return m->cg_psi && !t->kthread ? cgtree_task_cg(m->mm.cgt, t->id) : 0;
}

void machine_psi_sync(struct machine *m, struct task *t, uint64_t when)
{
	if (!m->opt.psi)
		return;
	if (t->state == T_EXITED)
		t->psi.in_memstall = t->psi_leave_on_run = false;
	int cg = task_cgroup(m, t);
	bool moved = cg != t->psi_cg;
	if ((moved || t->cpu != t->psi.cpu) && t->cpu >= 0 && t->cpu < m->psi.nr_cpus) {
		/* Migrated, or placed in its cgroup (cgroup_move_task()):
		 * its counts leave the old CPU and group for the new. */
		if (t->psi.flags)
			psi_task_change(cg_group(m, t->psi_cg), &t->psi, t->psi.flags, 0, when);
		t->psi.cpu = t->cpu;
		t->psi_cg = cg;
	}
	unsigned want = psi_wanted(t), have = t->psi.flags;
	if (want != have)
		psi_task_change(cg_group(m, t->psi_cg), &t->psi, have & ~want, want & ~have, when);
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
	const struct cgtree *t = m->mm.cgt;
	if (!t)
		return;
	/* Parents before children (a parent's id is below its own). */
	m->cg_psi = xcalloc((size_t)t->n, sizeof(*m->cg_psi));
	for (int c = 1; c < t->n; c++)
		psi_group_init(&m->cg_psi[c], cg_group(m, t->cg[c].conf.parent), (int)m->prof.cpus,
			       (unsigned)m->prof.hz, 0);
}

void machine_psi_free(struct machine *m)
{
	if (!m->opt.psi)
		return;
	for (int c = 1; m->cg_psi && c < m->mm.cgt->n; c++)
		psi_group_free(&m->cg_psi[c]);
	free(m->cg_psi);
	m->cg_psi = NULL;
	psi_group_free(&m->psi);
}

bool machine_psi_cgroup(struct machine *m, int cg, uint64_t now, struct psi_line out[2])
{
	if (!m->opt.psi)
		return false;
	psi_show(cg_group(m, cg), PSI_MEM, now, out);
	return true;
}

bool machine_psi_memory(struct machine *m, uint64_t now, struct psi_line out[2])
{
	if (!m->opt.psi)
		return false;
	psi_show(&m->psi, PSI_MEM, now, out);
	return true;
}
