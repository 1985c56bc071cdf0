/* cgagent.c - the agents' cgroup ops (OP_CG_*: memreclaim, senpai,
 * oomd, src/workload/) on the host's cgroup v2 files, below the run's
 * own cgroup, as src/machine/cgops.c does them on the simulator's tree.
 * After Documentation/admin-guide/cgroup-v2.rst of Linux 6.18:
 *
 * - OP_CG_RECLAIM writes "BYTES[ swappiness=N]" to memory.reclaim.
 *   memory_reclaim() (mm/memcontrol.c, 5.19-6.15; 6.16's
 *   user_proactive_reclaim() in mm/vmscan.c) loops until it has
 *   reclaimed at least BYTES, in batches of a quarter of what is left
 *   (at least SWAP_CLUSTER_MAX), so it may take more, and fails with
 *   EAGAIN after MAX_RECLAIM_RETRIES rounds without progress, keeping
 *   what it took: the pages reclaimed are memory.stat's pgsteal (6.15+:
 *   pgsteal_proactive) across the write, not BYTES.
 * - OP_CG_READ reads memory.current, memory.stat's pgscan (v2's
 *   memory.stat counts the subtree), memory.pressure's some and full
 *   lines (avg10 and total), the tasks of the subtree (each cgroup's
 *   cgroup.procs, which lists the cgroup's own: the agent's own process
 *   and the runner's, pagelab's machinery, left out) and the leaf
 *   cgroups of the subtree with their memory.current and pgscan, which
 *   systemd-oomd walks for its candidates (not the leaf that holds the
 *   agent: systemd-oomd runs in a unit of its own, and the simulator's
 *   agents at the root, outside any candidate).  A memory.pressure that
 *   cannot be read fails the op: an agent that reads it would steer
 *   blind (the simulator's --set psi=1 refusal).
 * - OP_CG_KILL writes "1" to cgroup.kill (cgroup_kill(), 5.14): the tasks
 *   of the subtree counted just before are the ones killed.
 * Each op's findings are recorded in the run's shared memory, so that
 * the report's replay (session.c) gives the agent's copy the same. */
#define _GNU_SOURCE
#include "native.h"
#include "../lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The cgroup an op names: "/" is the run's own. */
static void target_of(const struct ncgroup *top, const char *name, struct ncgroup *out)
{
	ncg_child(top, name && strcmp(name, "/") ? name : "", out);
}

static uint64_t read_u64(const struct ncgroup *c, const char *file, bool *ok)
{
	char buf[64];
	bool got = ncg_read(c, file, buf, sizeof(buf)) && buf[0] >= '0' && buf[0] <= '9';
	if (ok)
		*ok = got;
	return got ? strtoull(buf, NULL, 10) : 0;
}

static uint64_t pgscan_of(const struct ncgroup *c)
{
	char buf[8192];
	return ncg_read(c, "memory.stat", buf, sizeof(buf)) ? ncg_stat_field(buf, "pgscan") : 0;
}

/* Calls fn on each child cgroup of c; how many there were. */
static int each_sub(const struct ncgroup *c, void (*fn)(const struct ncgroup *, void *), void *arg)
{
	DIR *d = opendir(c->path);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.' ||
		    strlen(c->path) + strlen(e->d_name) + 2 > sizeof(c->path))
			continue;
		struct ncgroup k = *c;
		snprintf(k.path + strlen(c->path), sizeof(k.path) - strlen(c->path), "/%s", e->d_name);
		fn(&k, arg);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* The pids in c's cgroup.procs but ours and our parent's (the runner):
 * how many, and whether one of ours was there. */
static int own_tasks(const struct ncgroup *c, bool *ours)
{
	char buf[65536];
	int n = 0;
	*ours = false;
	if (!ncg_read(c, "cgroup.procs", buf, sizeof(buf)))
		return 0;
	for (char *s = buf, *end; *s; s = end) {
		long pid = strtol(s, &end, 10);
		if (end == s)
			break;
		bool mine = pid == getpid() || pid == getppid();
		*ours |= mine;
		n += pid > 0 && !mine;
	}
	return n;
}

/* The same over c's subtree, added to *(int *)arg. */
static void count_tasks(const struct ncgroup *c, void *arg)
{
	bool ours;
	each_sub(c, count_tasks, arg);
	*(int *)arg += own_tasks(c, &ours);
}

struct leaf_walk {
	const struct ncgroup *top;
	struct wl_cgroup_state *s;
};

/* The leaves of c's subtree but the agent's own (v2 puts the agent in a
 * leaf, where the simulator runs it at the root, no candidate). */
static void add_leaves(const struct ncgroup *c, void *arg)
{
	struct leaf_walk *lw = arg;
	struct wl_cgroup_state *s = lw->s;
	bool ours;
	if (each_sub(c, add_leaves, arg) || s->nr_leaves >= WL_CG_LEAVES)
		return;
	own_tasks(c, &ours);
	if (ours)
		return;
	int k = s->nr_leaves++;
	const char *rel = c->path + strlen(lw->top->path);
	snprintf(s->leaf[k].path, sizeof(s->leaf[k].path), "%s", rel[0] ? rel : "/");
	s->leaf[k].current = read_u64(c, "memory.current", NULL);
	s->leaf[k].pgscan = pgscan_of(c);
}

/* "some avg10=A avg60=B avg300=C total=T" and the full line. */
static bool read_pressure(const struct ncgroup *c, struct wl_cgroup_state *s)
{
	char buf[512];
	if (!ncg_read(c, "memory.pressure", buf, sizeof(buf)))
		return false;
	const char *full = strstr(buf, "full ");
	unsigned long long st, ft;
	if (!full || sscanf(buf, "some avg10=%lf avg60=%*f avg300=%*f total=%llu", &s->some_avg10, &st) != 2 ||
	    sscanf(full, "full avg10=%lf avg60=%*f avg300=%*f total=%llu", &s->full_avg10, &ft) != 2)
		return false;
	s->some_total_us = st;
	s->full_total_us = ft;
	s->psi = true;
	return true;
}

static bool cg_read(const struct ncgroup *top, const struct ncgroup *c, struct wl_cgroup_state *s, char *err,
		    size_t errlen)
{
	bool ok;
	s->current = read_u64(c, "memory.current", &ok);
	if (!ok || !read_pressure(c, s)) {
		snprintf(err, errlen, "cannot read %s/%s", c->path, ok ? "memory.pressure" : "memory.current");
		return false;
	}
	s->pgscan = pgscan_of(c);
	count_tasks(c, &s->nr_tasks);
	struct leaf_walk lw = { top, s };
	add_leaves(c, &lw);
	return true;
}

/* The pages reclaim freed in c's subtree so far: memory.stat's
 * pgsteal_proactive where the kernel counts proactive reclaim apart
 * (6.15+), else pgsteal (every reclaim of the subtree). */
static uint64_t stolen(const struct ncgroup *c)
{
	char buf[8192];
	if (!ncg_read(c, "memory.stat", buf, sizeof(buf)))
		return 0;
	bool apart = !strncmp(buf, "pgsteal_proactive ", 18) || strstr(buf, "\npgsteal_proactive ");
	return ncg_stat_field(buf, apart ? "pgsteal_proactive" : "pgsteal");
}

/* What the write reclaimed is what memory.stat counts across it: the
 * kernel reclaims in batches and stops past the count asked (6.12
 * reclaimed 4346 pages for a write of 4096 in tools/v2vm.sh's run),
 * and a write that fails with EAGAIN keeps what it took before. */
static bool cg_reclaim(const struct ncgroup *c, const struct op *op, struct wl_cgroup_state *s, char *err,
		       size_t errlen)
{
	char v[64];
	int n = snprintf(v, sizeof(v), "%llu", (unsigned long long)(op->npages * PAGE_SIZE));
	if (op->swappiness >= 0)
		snprintf(v + n, sizeof(v) - (size_t)n, " swappiness=%d", op->swappiness);
	uint64_t before = stolen(c);
	bool ok = ncg_write(c, "memory.reclaim", v);
	int e = errno;
	uint64_t after = stolen(c);
	s->reclaimed = after > before ? after - before : 0;
	if (ok)
		return true;
	if (e == EAGAIN) {
		s->ret = -EAGAIN;
		return true;
	}
	s->reclaimed = 0;
	snprintf(err, errlen, "cannot write '%s' to %s/memory.reclaim: %s", v, c->path, strerror(e));
	return false;
}

bool nagent_op(const struct ncgroup *top, const struct op *op, uint64_t now_ns, struct wl_cgroup_state *s,
	       char *err, size_t errlen)
{
	struct ncgroup c;
	target_of(top, op->name, &c);
	memset(s, 0, sizeof(*s));
	s->now_ns = now_ns;
	switch (op->kind) {
	case OP_CG_RECLAIM:
		return cg_reclaim(&c, op, s, err, errlen);
	case OP_CG_READ:
		return cg_read(top, &c, s, err, errlen);
	case OP_CG_KILL:
		count_tasks(&c, &s->nr_killed);
		if (ncg_write(&c, "cgroup.kill", "1"))
			return true;
		snprintf(err, errlen, "cannot write 1 to %s/cgroup.kill: %s", c.path, strerror(errno));
		return false;
	default:
		snprintf(err, errlen, "op %d is no cgroup op", (int)op->kind);
		return false;
	}
}

bool nagent_step(const struct nexec_ctx *c, const struct op *op, uint64_t now_ns, char *err, size_t errlen)
{
	struct wl_cgroup_state s;
	if (!c->cg) {
		snprintf(err, errlen, "a cgroup op outside pagelab kernel's cgroup");
		return false;
	}
	if (!nagent_op(c->cg, op, now_ns, &s, err, errlen))
		return false;
	uint64_t i = __atomic_fetch_add(&c->sh->ncgops, 1, __ATOMIC_RELAXED);
	if (i < NCGOPS_MAX)
		c->sh->cgops[i] = (struct ncgop){ .task = c->task, .s = s };
	if (c->ops->cgroup_done)
		c->ops->cgroup_done(c->w, c->wl_task, &s);
	return true;
}

bool nagent_replay(const struct nshared *sh, int task, uint64_t *cur, const struct workload_ops *ops, void *w,
		   int wl_task)
{
	uint64_t n = sh->ncgops < NCGOPS_MAX ? sh->ncgops : NCGOPS_MAX;
	while (*cur < n && sh->cgops[*cur].task != task)
		(*cur)++;
	if (*cur == n)
		/* None left: the task died within this op (it was taken,
		 * not done), unless the record was full. */
		return sh->ncgops <= NCGOPS_MAX;
	if (ops->cgroup_done)
		ops->cgroup_done(w, wl_task, &sh->cgops[*cur].s);
	(*cur)++;
	return true;
}
