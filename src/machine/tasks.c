/* tasks.c - the workloads' tasks on the machine: running a task's ops
 * (memory references and their faults, file ops, mlock, fork and wait,
 * barriers) in its CPU chunk, its exit, and the OOM killer that ends one.
 * The CPUs, the run queue and the event loop that call it are machine.c's. */
#include "machine.h"
#include "tasks.h"
#include "../lib/util.h"

#include <signal.h>

static void exit_task(struct machine *m, struct task *t, struct mm_ctx *ctx, uint64_t at);

/* 2.6.36+ oom_badness(): resident pages plus swap entries; the highest
 * score dies.  Only the tasks of cgroup `scope`'s subtree (0: all; --cgroup,
 * mem_cgroup_scan_tasks()).  NULL when nothing can be killed. */
static struct task *oom_victim(struct machine *m, int scope)
{
	struct task *victim = NULL;
	uint64_t best = 0;
	for (int i = 0; i < m->nr_tasks; i++) {
		struct task *t = &m->tasks[i];
		if (t->kthread || t->state == T_EXITED || !t->as)
			continue;
		if (scope && !cg_in_subtree(m->mm.cgt, cgtree_task_cg(m->mm.cgt, t->id), scope))
			continue;
		uint64_t points = t->as->rss + t->as->swapents;
		if (!victim || points > best) {
			victim = t;
			best = points;
		}
	}
	return victim;
}

/* oom_kill_process() of one task: the kernel's line, then its exit. */
static void oom_kill_task(struct machine *m, struct task *victim, uint64_t now, bool in_memcg)
{
	char msg[256];
	snprintf(msg, sizeof(msg),
		 "%s: Killed process %d (%s) total-vm:%llukB, anon-rss:%llukB, file-rss:0kB, shmem-rss:0kB",
		 in_memcg ? "Memory cgroup out of memory" : "Out of memory",
		 victim->id + 1000, victim->comm,
		 (unsigned long long)(victim->as->total_vm * (PAGE_SIZE / 1024)),
		 (unsigned long long)(victim->as->rss * (PAGE_SIZE / 1024)));
	machine_log(m, now, LOG_KERNEL, -1, msg);
	m->mm.ev[OOM_KILL]++;
	if (m->mm.cgt)
		cgtree_event(m->mm.cgt, cgtree_task_cg(m->mm.cgt, victim->id), CGE_OOM_KILL);
	task_sigkill(m, victim, now);
}

void task_sigkill(struct machine *m, struct task *victim, uint64_t now)
{
	victim->killed = true;
	m->wls[victim->wl].killed = true;
	m->wls[victim->wl].signal = SIGKILL;
	if (victim->state == T_BLOCKED) {
		if (wait_is_io(victim->wait))
			m->nr_iowait--;
		victim->wait = W_NONE;
		victim->wait_gen++;
	}
	struct mm_ctx ctx = { .t0 = now, .task = victim->id };
	bool self = victim->state == T_RUNNING && m->cur_task == victim->id;
	exit_task(m, victim, &ctx, now);
	if (!self) {
		/* The victim's exit costs are its own, not the caller's. */
		victim->stime += ctx.sys_ns;
		m->sys_ns += ctx.sys_ns;
	} else {
		m->self_exit_ns += ctx.sys_ns;
	}
}

/* A charge that failed in a tree's cgroup (cgtree.c): the kernel's
 * mem_cgroup_out_of_memory() line, then its victim; with memory.oom.group
 * set on the victim's cgroup or an ancestor inside the OOM domain, the
 * highest such cgroup's every task (mem_cgroup_get_oom_group(),
 * oom_kill_memcg_member()). */
static bool cgroup_oom_kill(struct machine *m, int dom, uint64_t now)
{
	struct cgtree *t = m->mm.cgt;
	t->oom_cg = 0;
	char msg[256];
	const struct cgroup *g = &t->cg[dom];
	snprintf(msg, sizeof(msg), "memory: usage %llukB, limit %llukB, failcnt %llu (%s)",
		 (unsigned long long)(g->current * (PAGE_SIZE / 1024)),
		 (unsigned long long)(g->conf.max * (PAGE_SIZE / 1024)), (unsigned long long)g->failcnt,
		 g->conf.path);
	struct task *victim = oom_victim(m, dom);
	if (!victim)
		return task_oom_kill(m, now);   /* nothing in it: the node's killer */
	machine_log(m, now, LOG_KERNEL, -1, msg);
	int group = 0;
	for (int c = cgtree_task_cg(t, victim->id); c; c = c == dom ? 0 : t->cg[c].conf.parent)
		if (t->cg[c].conf.oom_group)
			group = c;
	oom_kill_task(m, victim, now, true);
	for (struct task *k; group && (k = oom_victim(m, group));)
		oom_kill_task(m, k, now, true);
	return true;
}

bool task_oom_kill(struct machine *m, uint64_t now)
{
	if (m->mm.cgt && m->mm.cgt->oom_cg)
		return cgroup_oom_kill(m, m->mm.cgt->oom_cg, now);
	struct task *victim = oom_victim(m, 0);
	char msg[256];
	if (!victim) {
		machine_log(m, now, LOG_KERNEL, -1, "Kernel panic - not syncing: System is deadlocked on memory");
		m->panicked = true;
		return false;
	}
	/* A charge that failed at the cgroup's limit: mem_cgroup_out_of_memory()
	 * picks among the cgroup's tasks (all of the workloads') and says so. */
	bool in_memcg = m->mm.memcg.oom_pending;
	if (in_memcg) {
		m->mm.memcg.oom_pending = false;
		m->mm.memcg.oom_kill++;
		snprintf(msg, sizeof(msg), "memory: usage %llukB, limit %llukB, failcnt %llu",
			 (unsigned long long)(m->mm.memcg.charged * (PAGE_SIZE / 1024)),
			 (unsigned long long)(m->mm.memcg.limit * (PAGE_SIZE / 1024)),
			 (unsigned long long)m->mm.memcg.failcnt);
		machine_log(m, now, LOG_KERNEL, -1, msg);
	}
	oom_kill_task(m, victim, now, in_memcg);
	return true;
}

/* ---- tasks ------------------------------------------------------------ */

/* OP_BARRIER: complete when every task of the workload but `self` has
 * exited or waits at the barrier (an OOM kill or an early exit must not
 * leave the others waiting forever). */
static bool barrier_complete(struct machine *m, const struct wl_inst *wl, const struct task *self)
{
	bool waiting = false;
	for (int i = 0; i < wl->ntasks; i++) {
		const struct task *k = &m->tasks[wl->first_task + i];
		if (k == self || k->state == T_EXITED)
			continue;
		if (k->state != T_BLOCKED || k->wait != W_BARRIER)
			return false;
		waiting = true;
	}
	return self || waiting;
}

static void barrier_release(struct machine *m, const struct wl_inst *wl, uint64_t at)
{
	for (int i = 0; i < wl->ntasks; i++) {
		struct task *k = &m->tasks[wl->first_task + i];
		if (k->state == T_BLOCKED && k->wait == W_BARRIER)
			machine_wake(m, k, at);
	}
}

static void exit_task(struct machine *m, struct task *t, struct mm_ctx *ctx, uint64_t at)
{
	if (t->as && !t->as->dead)
		mm_aspace_exit(&m->mm, ctx, t->as);
	fileops_task_exit(m, t, ctx);
	t->state = T_EXITED;
	t->end = at + ctx->user_ns + ctx->sys_ns;
	machine_psi_sync(m, t, t->end);
	struct wl_inst *wl = &m->wls[t->wl];
	if (t->end > wl->end)
		wl->end = t->end;
	m->live_user--;
	if (--wl->live == 0)
		machine_log(m, wl->end, LOG_EXIT, t->wl, NULL);
	for (int i = 0; i < m->nr_tasks; i++)
		if (m->tasks[i].state == T_BLOCKED && m->tasks[i].wait == W_CHILD &&
		    m->tasks[i].wait_task == t->id)
			machine_wake(m, &m->tasks[i], t->end);
	if (barrier_complete(m, wl, NULL))
		barrier_release(m, wl, t->end);
	/* Whoever waited for memory this task held may go on. */
	machine_wake_memory_waiters(m, at);
}

/* PSI: task t is in a memory stall from now until it next runs. */
static void stall_until_run(struct machine *m, struct task *t, uint64_t now)
{
	if (!m->opt.psi)
		return;
	machine_psi_memstall(m, t, true, now);
	t->psi_leave_on_run = t->psi.in_memstall;
}

/* React to a fault that could not complete.  Returns true if the task
 * stays runnable (the fault is retried). */
static bool fault_blocked(struct machine *m, struct task *t, struct mm_ctx *ctx,
			  enum fault_status st, enum step_result *res)
{
	uint64_t now = ctx->t0 + ctx->user_ns + ctx->sys_ns;
	switch (st) {
	case FAULT_WAIT_PAGE:
		t->wait_pfn = ctx->wait_pfn;
		/* folio_wait_bit_common(): waiting for the read of a
		 * workingset page is thrashing, a memory stall. */
		if (t->wait_pfn != PFN_NONE && (mm_page(&m->mm, t->wait_pfn)->flags & PG_workingset))
			stall_until_run(m, t, now);
		machine_block(m, t, W_PAGE, 0);
		t->blocked_at = now;
		*res = STEP_BLOCKED;
		return false;
	case FAULT_WAIT_RECLAIM:
		/* congestion_wait(): sleep until writeback completes or the
		 * timeout; reclaim's (reclaim_throttle(), in the stall of
		 * the reclaim it ends), not the dirty throttle's. */
		if (ctx->reclaim_wait)
			stall_until_run(m, t, now);
		machine_block(m, t, W_MEMORY, now + m->prof.congestion_wait_ns);
		t->blocked_at = now;
		*res = STEP_BLOCKED;
		return false;
	case FAULT_OOM:
		if (!task_oom_kill(m, now)) {
			*res = STEP_EXITED;
			return false;
		}
		if (t->state == T_EXITED) {
			*res = STEP_EXITED;
			return false;
		}
		return true;
	case FAULT_SEGV:
		panic("task %d (%s): workload touched memory outside its mappings", t->id, t->comm);
	case FAULT_SIGBUS: {
		/* A file mapping's page past the end of the file (the file is
		 * shorter than the mapping, e.g. its writer has not got that
		 * far): filemap_fault() returns VM_FAULT_SIGBUS and the
		 * program dies of SIGBUS; the machine goes on. */
		char msg[320];
		snprintf(msg, sizeof(msg), "%s[%d]: bus error: access to a mapped page beyond the end of its file",
			 t->comm, t->id + 1000);
		machine_log(m, now, LOG_KERNEL, -1, msg);
		t->killed = true;
		m->wls[t->wl].killed = true;
		if (!m->wls[t->wl].signal)
			m->wls[t->wl].signal = SIGBUS;
		t->have_op = false;
		exit_task(m, t, ctx, ctx->t0);
		*res = STEP_EXITED;
		return false;
	}
	case FAULT_ENOENT: {
		/* E.g. a link step whose compiler was OOM-killed: the program
		 * reports the error and exits; the machine goes on. */
		char msg[320];
		snprintf(msg, sizeof(msg), "%s: %s: No such file or directory", t->comm,
			 t->op.name ? t->op.name : "?");
		machine_log(m, now, LOG_KERNEL, -1, msg);
		t->have_op = false;
		exit_task(m, t, ctx, ctx->t0);
		*res = STEP_EXITED;
		return false;
	}
	case FAULT_DONE:
		break;
	}
	return true;
}

/* The step returns to user space: memory.high's penalty, if the task's
 * charges owe one (mm_memcg_return_to_user()), is a sleep in a memory
 * stall (schedule_timeout_killable() between psi_memstall_enter and
 * leave); the task goes on with its op when it wakes. */
static bool over_high_sleep(struct machine *m, struct task *t, struct mm_ctx *ctx)
{
	uint64_t ns = mm_memcg_return_to_user(&m->mm, ctx);
	if (!ns)
		return false;
	uint64_t now = ctx->t0 + ctx->user_ns + ctx->sys_ns;
	stall_until_run(m, t, now);
	machine_block(m, t, W_SLEEP, now + ns);
	return true;
}

/* sys_mlock() of 2.0 to 2.6.8: "we may lock at most half of physical
 * memory... (this check is pretty bogus, but doesn't hurt)" - locked_vm
 * plus the new range above num_physpages / 2 is -ENOMEM.  Those eras
 * thus never see more than half of RAM locked, which is why 2.4.17's
 * out_of_memory() can leave the OOM killer out while swap is free. */
static bool mlock_refused(const struct machine *m, const struct task *t, const struct op *op)
{
	if (!m->mm.vm.mlock_half_ram)
		return false;
	const struct vma *v = &t->as->vmas[op->region];
	if (v->flags & (VMA_LOCKED | VMA_MLOCKING))
		return false;
	uint64_t num_physpages = m->prof.ram / PAGE_SIZE;
	return t->as->locked_vm + op->npages > num_physpages / 2;
}

enum step_result task_run_user(struct machine *m, struct task *t, struct mm_ctx *ctx, uint64_t budget)
{
	struct wl_inst *wl = &m->wls[t->wl];
	enum step_result res = STEP_CONTINUE;
	while (ctx->user_ns + ctx->sys_ns < budget) {
		if (!t->have_op) {
			if (!wl->ops->next_op(wl->w, t->wl_task, &t->op))
				t->op.kind = OP_EXIT;
			t->have_op = true;
			t->op_done = 0;
		}
		struct op *op = &t->op;
		enum fault_status st = FAULT_DONE;
		bool done = true;
		switch (op->kind) {
		case OP_MMAP_ANON:
		case OP_MMAP_DATA: {
			uint32_t v = mm_mmap_anon(&m->mm, t->as, op->npages,
						  (op->kind == OP_MMAP_DATA ? VMA_NOZERO : 0) |
						  (uint32_t)op->data_kind << VMA_KIND_SHIFT);
			if (v != op->region)
				panic("workload %s: region %u mapped as vma %u", wl->ops->name, op->region, v);
			ctx->sys_ns += m->prof.cost.fault_ns;
			break;
		}
		case OP_MUNMAP:
			mm_munmap(&m->mm, ctx, t->as, op->region);
			break;
		case OP_TOUCH:
		case OP_MLOCK: {
			if (op->kind == OP_MLOCK && !t->op_done && mlock_refused(m, t, op)) {
				/* The program sees ENOMEM, reports it and exits. */
				char msg[320];
				snprintf(msg, sizeof(msg), "%s: mlock: Cannot allocate memory", t->comm);
				machine_log(m, ctx->t0 + ctx->user_ns + ctx->sys_ns, LOG_KERNEL, -1, msg);
				t->failed = true;
				t->have_op = false;
				exit_task(m, t, ctx, ctx->t0);
				return STEP_EXITED;
			}
			uint64_t n;
			ctx->retry = t->retry;
			if (op->kind == OP_TOUCH)
				n = mm_touch(&m->mm, ctx, t->as, op->region, op->first + t->op_done,
					     op->npages - t->op_done, op->refs,
					     !op->write ? TOUCH_READ : op->load_first ? TOUCH_LOAD_STORE : TOUCH_WRITE,
					     budget, &st);
			else
				n = mm_mlock(&m->mm, ctx, t->as, op->region, op->first + t->op_done,
					     op->npages - t->op_done, budget, &st);
			t->retry = ctx->retry;
			t->op_done += n;
			done = t->op_done >= op->npages;
			/* Blocked inside a fault, it holds mmap_sem: the swap
			 * token's "in the middle of a page fault". */
			t->as->in_fault = !done && (st == FAULT_WAIT_PAGE || st == FAULT_WAIT_RECLAIM);
			if (!done && st != FAULT_DONE && !fault_blocked(m, t, ctx, st, &res))
				return res;
			break;
		}
		case OP_MUNLOCK:
			mm_munlock(&m->mm, ctx, t->as, op->region);
			break;
		case OP_CPU: {
			uint64_t left = op->ns - t->op_done;
			uint64_t room = budget - (ctx->user_ns + ctx->sys_ns);
			uint64_t run = left < room ? left : room;
			ctx->user_ns += run;
			t->op_done += run;
			done = t->op_done >= op->ns;
			break;
		}
		case OP_SLEEP:
			t->have_op = false;
			machine_block(m, t, W_SLEEP, ctx->t0 + ctx->user_ns + ctx->sys_ns + op->ns);
			return STEP_BLOCKED;
		case OP_EXIT:
			exit_task(m, t, ctx, ctx->t0);
			return STEP_EXITED;
		case OP_EXEC:
			/* The old image goes; a new process starts in this slot. */
			mm_aspace_exit(&m->mm, ctx, t->as);
			t->as = mm_aspace_new(&m->mm, t->id);
			ctx->sys_ns += m->prof.cost.fault_ns;
			break;
		case OP_WAIT: {
			if (op->region >= (uint32_t)wl->ntasks)
				panic("workload %s: waits for task %u of %d", wl->ops->name, op->region, wl->ntasks);
			struct task *child = &m->tasks[wl->first_task + (int)op->region];
			if (child->state == T_EXITED)
				break;
			t->have_op = false;
			t->wait_task = child->id;
			machine_block(m, t, W_CHILD, 0);
			return STEP_BLOCKED;
		}
		case OP_BARRIER:
			if (barrier_complete(m, wl, t)) {
				barrier_release(m, wl, ctx->t0 + ctx->user_ns + ctx->sys_ns);
				break;
			}
			t->have_op = false;
			machine_block(m, t, W_BARRIER, 0);
			return STEP_BLOCKED;
		case OP_CG_RECLAIM:
		case OP_CG_READ:
		case OP_CG_KILL:
			if (!machine_cgroup_op(m, t, ctx))
				return STEP_BLOCKED;
			if (t->state == T_EXITED)
				return STEP_EXITED;   /* it killed its own cgroup */
			break;
		case OP_MARK:
			if (wl->ops->mark)
				wl->ops->mark(wl->w, t->wl_task, op->region, ctx->t0 + ctx->user_ns + ctx->sys_ns,
					      t->utime + t->stime + ctx->user_ns + ctx->sys_ns);
			if (wl->ops->mark_faults)
				wl->ops->mark_faults(wl->w, t->wl_task, op->region, t->majflt);
			break;
		case OP_CREATE:
		case OP_OPEN:
		case OP_CLOSE:
		case OP_READ:
		case OP_WRITE:
		case OP_FSYNC:
		case OP_UNLINK:
		case OP_TRUNCATE:
		case OP_MMAP_FILE:
			done = machine_file_op(m, t, ctx, budget, &st);
			if (!done && st != FAULT_DONE && !fault_blocked(m, t, ctx, st, &res))
				return res;
			break;
		}
		if (done)
			t->have_op = false;
		if (m->mm.cgt && over_high_sleep(m, t, ctx))
			return STEP_BLOCKED;
	}
	return res;
}
