/* cgops.c - a workload's reads and writes of a cgroup's files (OP_CG_*):
 * what a user-space agent (senpai, systemd-oomd, a shell's echo) does
 * with cgroupfs, done at once in the task's CPU chunk.
 *
 * - OP_CG_RECLAIM writes memory.reclaim: mm_memcg_reclaim() (6.x
 *   memory_reclaim(), src/mm/memcg_reclaim.c), the writer's system time.
 * - OP_CG_READ reads memory.current, memory.stat pgscan (recursive, as
 *   v2's memory.stat), cgroup.procs (the live tasks but the reader's own)
 *   and memory.pressure (psi_show(), as reading the
 *   file folds and averages: src/mm/psi.c), and lists the leaf cgroups of
 *   the subtree with theirs (what systemd-oomd walks for candidates).
 * - OP_CG_KILL writes 1 to cgroup.kill (5.14 cgroup_kill()): SIGKILL to
 *   every task of the subtree, counted in no memory.events (a user-space
 *   kill is no OOM kill). */
#include "machine.h"
#include "tasks.h"
#include "../lib/util.h"

#include <string.h>

/* The id of the cgroup at path (its tree has been checked before the run:
 * runspec's cgroup_target test), -1 when none. */
static int find_cg(const struct cgtree *t, const char *path)
{
	for (int c = 0; t && path && c < t->n; c++)
		if (!strcmp(t->cg[c].conf.path, path))
			return c;
	return -1;
}

static uint64_t subtree_pgscan(const struct cgtree *t, int cg)
{
	uint64_t n = 0;
	for (int c = 0; c < t->n; c++)
		if (cg_in_subtree(t, c, cg))
			n += t->cg[c].stat[CGS_PGSCAN];
	return n;
}

static bool is_leaf(const struct cgtree *t, int cg)
{
	for (int c = cg + 1; c < t->n; c++)
		if (t->cg[c].conf.parent == cg)
			return false;
	return true;
}

static void read_cg(struct machine *m, const struct task *self, int cg, uint64_t now, struct wl_cgroup_state *s)
{
	const struct cgtree *t = m->mm.cgt;
	s->current = t->cg[cg].current * PAGE_SIZE;
	s->pgscan = subtree_pgscan(t, cg);
	for (int i = 0; i < m->nr_tasks; i++) {
		const struct task *k = &m->tasks[i];
		s->nr_tasks += k != self && !k->kthread && k->state != T_EXITED &&
			       cg_in_subtree(t, cgtree_task_cg(t, k->id), cg);
	}
	struct psi_line l[2];
	s->psi = machine_psi_cgroup(m, cg, now, l);
	if (s->psi) {
		s->some_total_us = l[0].total_us;
		s->full_total_us = l[1].total_us;
		s->some_avg10 = (double)l[0].avg[0] / PSI_FIXED_1;
		s->full_avg10 = (double)l[1].avg[0] / PSI_FIXED_1;
	}
	for (int c = 0; c < t->n && s->nr_leaves < WL_CG_LEAVES; c++) {
		if (!cg_in_subtree(t, c, cg) || !is_leaf(t, c))
			continue;
		int k = s->nr_leaves++;
		snprintf(s->leaf[k].path, sizeof(s->leaf[k].path), "%s", t->cg[c].conf.path);
		s->leaf[k].current = t->cg[c].current * PAGE_SIZE;
		s->leaf[k].pgscan = subtree_pgscan(t, c);
	}
}

/* cgroup.kill: every live user task of the subtree. */
static int kill_cg(struct machine *m, int cg, uint64_t now)
{
	const struct cgtree *t = m->mm.cgt;
	int n = 0;
	for (int i = 0; i < m->nr_tasks; i++) {
		struct task *k = &m->tasks[i];
		if (k->kthread || k->state == T_EXITED || !cg_in_subtree(t, cgtree_task_cg(t, k->id), cg))
			continue;
		task_sigkill(m, k, now);
		n++;
	}
	return n;
}

/* memory.reclaim for t, begun at its first call; false when t must wait
 * for writeback (it is blocked, and the op runs again when it wakes). */
static bool reclaim(struct machine *m, struct task *t, struct mm_ctx *ctx, int cg, struct wl_cgroup_state *s)
{
	const struct op *op = &t->op;
	if (!t->op_done++)
		mm_memcg_reclaim_begin(&t->cg_reclaim, cg, op->npages, op->swappiness);
	int ret = mm_memcg_reclaim(&m->mm, ctx, &t->cg_reclaim);
	if (ret == MEMCG_RECLAIM_WAIT) {
		/* reclaim_throttle(VMSCAN_THROTTLE_WRITEBACK): until a write
		 * completes or the timeout; no memory stall */
		machine_block(m, t, W_MEMORY, ctx->t0 + ctx->user_ns + ctx->sys_ns + m->prof.congestion_wait_ns);
		return false;
	}
	s->ret = ret;
	s->reclaimed = t->cg_reclaim.done;
	return true;
}

bool machine_cgroup_op(struct machine *m, struct task *t, struct mm_ctx *ctx)
{
	struct wl_inst *wl = &m->wls[t->wl];
	const struct op *op = &t->op;
	int cg = find_cg(m->mm.cgt, op->name);
	if (cg < 0)
		panic("workload %s: no cgroup '%s' (runspec checks cgroup_target)", wl->ops->name,
		      op->name ? op->name : "");
	struct wl_cgroup_state s = { 0 };
	if (op->kind == OP_CG_RECLAIM && !reclaim(m, t, ctx, cg, &s))
		return false;
	uint64_t now = ctx->t0 + ctx->user_ns + ctx->sys_ns;
	s.now_ns = now;
	if (op->kind == OP_CG_KILL)
		s.nr_killed = kill_cg(m, cg, now);
	else
		read_cg(m, t, cg, now, &s);
	if (wl->ops->cgroup_done && t->state != T_EXITED)
		wl->ops->cgroup_done(wl->w, t->wl_task, &s);
	return true;
}
