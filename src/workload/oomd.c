/* oomd.c - systemd-oomd's memory-pressure killer (systemd 247+,
 * src/oom/oomd-manager.c and oomd-util.c; ManagedOOMMemoryPressure=kill
 * on the monitored cgroup).
 *
 * Every second it reads the monitored cgroup's memory.pressure "full"
 * avg10 (oomd_cgroup_context_acquire() reads PRESSURE_TYPE_FULL, not
 * "some") and memory.stat pgscan.  Pressure above LIMIT starts a clock;
 * once it has stayed above for DURATION (oomd_pressure_above()) and the
 * cgroup shows reclaim activity (its pgscan grew since the last poll),
 * it picks among the leaf cgroups below the monitored one the one whose
 * pgscan grew most since the last poll (oomd_select_by_pgscan_rate(); the
 * larger memory.current on a tie) and kills every process in it
 * (oomd_cgroup_kill(), here cgroup.kill).  After a kill it waits 15 s
 * (POST_ACTION_DELAY_USEC) before it judges again.  Defaults: LIMIT 60%
 * (DefaultMemoryPressureLimit), DURATION 30 s
 * (DefaultMemoryPressureDurationSec).  Left out: swap-based kills
 * (ManagedOOMSwap=), memory.oom.preference xattrs, the monitored unit's
 * own processes.  The agent ends when no task is left in its cgroup. */
#include "workload.h"
#include "args.h"
#include "agent.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define OOMD_POST_ACTION_NS (15ULL * 1000000000ULL)

struct oomd {
	struct wl_agent a;       /* first: agent_target() */
	double limit;               /* percent */
	uint64_t duration_ns;
	bool started;
	uint64_t since_ns;          /* pressure above the limit since (0: not) */
	uint64_t wait_until_ns;     /* after a kill */
	uint64_t last_pgscan, leaf_pgscan[WL_CG_LEAVES];
	char victim[48];
	/* what it did */
	uint64_t kills, killed_tasks;
	char last_victim[48];
	double last_avg10;
	uint64_t kill_at_ns;
};

static void od_help(FILE *out)
{
	fputs(
"usage: oomd [--limit PERCENT] [--duration TIME] CGROUP\n"
"systemd-oomd's ManagedOOMMemoryPressure=kill on CGROUP: every second\n"
"it reads CGROUP's memory.pressure full avg10; above PERCENT (default\n"
"60) for TIME (default 30s) with reclaim going on, it kills every task\n"
"of the leaf cgroup below CGROUP whose pgscan grew most, then waits 15 s.\n"
"Ends when CGROUP has no task left.  pagelab run needs --set psi=1 (its\n"
"PSI); pagelab kernel needs CGROUP among its --cgroup paths on a cgroup\n"
"v2 host whose kernel counts PSI (memory.pressure; psi=1 on the command\n"
"line of a kernel built with PSI off by default).\n", out);
}

static void *od_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	(void)seed;
	struct oomd o = { .limit = 60, .duration_ns = 30ULL * 1000000000ULL };
	for (int i = 1; i < argc; i++) {
		const char *v = NULL;
		if (wl_longopt(argc, argv, &i, "limit", 0, true, &v)) {
			if (!v || !parse_double(v, &o.limit) || !(o.limit >= 0 && o.limit < 100)) {
				snprintf(err, errlen, "oomd: bad value '%s' for --limit (0 to 100)", v ? v : "");
				return NULL;
			}
		} else if (wl_longopt(argc, argv, &i, "duration", 0, true, &v)) {
			if (!v || !parse_duration_ns(v, &o.duration_ns)) {
				snprintf(err, errlen, "oomd: bad value '%s' for --duration", v ? v : "");
				return NULL;
			}
		} else if (!agent_path(&o.a, "oomd", argv[i], err, errlen)) {
			return NULL;
		}
	}
	if (!agent_has_path(&o.a, "oomd", "monitors", err, errlen))
		return NULL;
	return wl_keep(&o, sizeof(o));
}

static bool od_next_op(void *p, int task, struct op *op)
{
	(void)task;
	return agent_next_op(&((struct oomd *)p)->a, op);
}

/* oomd_select_by_pgscan_rate(): the leaf whose pgscan grew most. */
static int pick_victim(struct oomd *o, const struct wl_cgroup_state *s)
{
	int best = -1;
	uint64_t best_rate = 0;
	for (int k = 0; k < s->nr_leaves; k++) {
		uint64_t rate = s->leaf[k].pgscan - o->leaf_pgscan[k];
		if (best < 0 || rate > best_rate || (rate == best_rate && s->leaf[k].current > s->leaf[best].current)) {
			best = k;
			best_rate = rate;
		}
	}
	return best;
}

/* One poll: judge the pressure, maybe choose a victim. */
static void od_poll(struct oomd *o, const struct wl_cgroup_state *s)
{
	bool reclaiming = s->pgscan > o->last_pgscan;
	int victim = -1;
	o->last_avg10 = s->full_avg10;
	if (s->full_avg10 <= o->limit)
		o->since_ns = 0;
	else if (!o->since_ns)
		o->since_ns = s->now_ns;
	else if (s->now_ns - o->since_ns >= o->duration_ns && reclaiming && s->now_ns >= o->wait_until_ns)
		victim = pick_victim(o, s);
	o->last_pgscan = s->pgscan;
	for (int k = 0; k < s->nr_leaves; k++)
		o->leaf_pgscan[k] = s->leaf[k].pgscan;
	o->a.next = AGENT_SLEEP;
	if (victim < 0)
		return;
	snprintf(o->victim, sizeof(o->victim), "%s", s->leaf[victim].path);
	o->a.act = (struct op){ .kind = OP_CG_KILL, .name = o->victim };
	o->a.next = AGENT_ACT;
}

static void od_done(void *p, int task, const struct wl_cgroup_state *s)
{
	(void)task;
	struct oomd *o = p;
	if (o->a.next == AGENT_ACT) {
		o->kills++;
		o->killed_tasks += (uint64_t)s->nr_killed;
		snprintf(o->last_victim, sizeof(o->last_victim), "%s", o->victim);
		o->kill_at_ns = s->now_ns;
		o->wait_until_ns = s->now_ns + OOMD_POST_ACTION_NS;
		o->since_ns = 0;
		o->a.next = AGENT_SLEEP;
		return;
	}
	if (!s->nr_tasks) {
		o->a.next = AGENT_DONE;
		return;
	}
	if (!o->started) {
		o->started = true;
		o->last_pgscan = s->pgscan;
		for (int k = 0; k < s->nr_leaves; k++)
			o->leaf_pgscan[k] = s->leaf[k].pgscan;
		o->a.next = AGENT_SLEEP;
		return;
	}
	od_poll(o, s);
}

static void od_report(void *p, const double *elapsed, FILE *out)
{
	(void)elapsed;
	const struct oomd *o = p;
	if (!o->kills) {
		fprintf(out, "oomd: %s: no kill (full avg10 %.2f%% at the last poll, limit %.2f%%)\n", o->a.cg,
			o->last_avg10, o->limit);
		return;
	}
	fprintf(out, "oomd: %s: %llu kill(s), %llu task(s); the last: %s at %.3f s\n", o->a.cg,
		(unsigned long long)o->kills, (unsigned long long)o->killed_tasks, o->last_victim,
		(double)o->kill_at_ns / 1e9);
}

const struct workload_ops oomd_workload = {
	.name = "oomd",
	.summary = "systemd-oomd: kills a cgroup when memory pressure stays above a limit",
	.help = od_help,
	.create = od_create,
	.destroy = wl_free,
	.nr_tasks = wl_one_task,
	.next_op = od_next_op,
	.report = od_report,
	.cgroup_target = agent_target,
	.cgroup_done = od_done,
};
