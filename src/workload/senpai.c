/* senpai.c - Meta's senpai, the proactive reclaim agent of TMO (Weiner
 * et al., "TMO: Transparent Memory Offloading in Datacenters", ASPLOS
 * 2022), with memory.reclaim as its actuator.
 *
 * The control loop is senpai.py of facebookincubator/senpai (commit
 * c51e8e2, the memory.high version; read through the search tool): every
 * second it reads the cgroup's memory.pressure "some" total (us) and adds
 * the delta to an integral.  Above the target PRESSURE it backs off,
 * adj = min((integral / PRESSURE / COEFF_BACKOFF)^2 x MAX_BACKOFF,
 * MAX_BACKOFF); otherwise, once INTERVAL ticks of grace have passed, it
 * probes, adj = min((PRESSURE / max(integral, 1) / COEFF_PROBE)^2 x
 * MAX_PROBE, MAX_PROBE); either resets the integral and grants INTERVAL
 * - 1 ticks of grace.  senpai.py scales memory.high by (1 + adj) for a
 * backoff and (1 - adj) for a probe, between MIN_SIZE and MAX_SIZE.  The
 * memory.reclaim variant (the TMO paper's Senpai, the form the kernel's
 * memory.reclaim was added for) cannot loosen anything: a probe writes
 * memory.current x adj to memory.reclaim (no lower than MIN_SIZE), a
 * backoff only resets the integral and the grace (so --max-backoff and
 * --coeff-backoff are taken, for senpai.py's command line, and unused).  That variant's own
 * source is not in the stored copy; pagelab keeps senpai.py's arithmetic
 * and turns the cut of the limit into a reclaim of the same size.
 *
 * Defaults are senpai.py's argparse defaults: --interval 6, --pressure
 * 10000 (us per interval), --max-probe 0.01, --max-backoff 1.0,
 * --coeff-probe 10, --coeff-backoff 20, --min-size 100M.  The agent
 * ends when no task is left in its cgroup. */
#include "workload.h"
#include "args.h"
#include "agent.h"
#include "../lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct senpai {
	struct wl_agent a;       /* first: agent_target() */
	uint64_t interval, pressure, min_size;
	double max_probe, max_backoff, coeff_probe, coeff_backoff;
	/* the loop */
	bool started;
	uint64_t last_total, grace;
	int64_t integral;
	/* what it did */
	uint64_t ticks, probes, backoffs, reclaimed, eagain;
};

static void sp_help(FILE *out)
{
	fputs(
"usage: senpai [--interval TICKS] [--pressure US] [--max-probe F]\n"
"              [--max-backoff F] [--coeff-probe N] [--coeff-backoff N]\n"
"              [--min-size SIZE] CGROUP\n"
"Meta's senpai (senpai.py's control loop) writing memory.reclaim: every\n"
"second it reads CGROUP's memory.pressure some total; when the stall time\n"
"gathered since its last move stays under US microseconds for TICKS\n"
"seconds it reclaims memory.current x adj, adj up to F (--max-probe) as\n"
"the stall falls to 1/N (--coeff-probe) of the target; above the target\n"
"it backs off (waits).  Defaults 6, 10000, 0.01, 1.0, 10, 20, 100M (those\n"
"of senpai.py).  Ends when CGROUP has no task left.  pagelab run needs\n"
"--set psi=1 (its PSI); pagelab kernel needs CGROUP among its --cgroup\n"
"paths on a cgroup v2 host whose kernel counts PSI (memory.pressure;\n"
"psi=1 on the command line of a kernel built with PSI off by default).\n", out);
}

/* One --name VALUE; false when the value is bad. */
static bool sp_option(struct senpai *s, const char *name, const char *v)
{
	uint64_t n;
	double d;
	if (!v)
		return false;
	if (!strcmp(name, "interval"))
		return wl_u64_in(v, 1, 3600, &s->interval);
	if (!strcmp(name, "pressure"))
		return wl_u64_in(v, 1, 1000000000, &s->pressure);
	if (!strcmp(name, "min-size"))
		return parse_size(v, &s->min_size);
	if (!strcmp(name, "coeff-probe") || !strcmp(name, "coeff-backoff")) {
		if (!wl_u64_in(v, 1, 1000000, &n))
			return false;
		*(name[6] == 'p' ? &s->coeff_probe : &s->coeff_backoff) = (double)n;
		return true;
	}
	if (!parse_double(v, &d) || !(d > 0 && d <= 1))
		return false;
	*(!strcmp(name, "max-probe") ? &s->max_probe : &s->max_backoff) = d;
	return true;
}

static void *sp_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	(void)seed;
	static const char *const opts[] = { "interval", "pressure", "max-probe", "max-backoff",
					    "coeff-probe", "coeff-backoff", "min-size" };
	struct senpai s = { .interval = 6, .pressure = 10000, .max_probe = 0.01, .max_backoff = 1.0,
			    .coeff_probe = 10, .coeff_backoff = 20, .min_size = 100ULL << 20 };
	for (int i = 1; i < argc; i++) {
		const char *v = NULL;
		size_t k = 0;
		while (k < sizeof(opts) / sizeof(opts[0]) && !wl_longopt(argc, argv, &i, opts[k], 0, true, &v))
			k++;
		if (k < sizeof(opts) / sizeof(opts[0])) {
			if (!sp_option(&s, opts[k], v)) {
				snprintf(err, errlen, "senpai: bad value '%s' for --%s", v ? v : "", opts[k]);
				return NULL;
			}
		} else if (!agent_path(&s.a, "senpai", argv[i], err, errlen)) {
			return NULL;
		}
	}
	if (!agent_has_path(&s.a, "senpai", "sizes", err, errlen))
		return NULL;
	return wl_keep(&s, sizeof(s));
}

static bool sp_next_op(void *p, int task, struct op *op)
{
	(void)task;
	return agent_next_op(&((struct senpai *)p)->a, op);
}

/* A probe: memory.current x adj, no lower than --min-size (0: none). */
static uint64_t probe_pages(const struct senpai *s, uint64_t current, double adj)
{
	uint64_t want = (uint64_t)((double)current * adj);
	uint64_t room = current > s->min_size ? current - s->min_size : 0;
	return (want < room ? want : room) / PAGE_SIZE;
}

/* Senpai.tick() on a fresh memory.pressure read. */
static void sp_tick(struct senpai *s, const struct wl_cgroup_state *st)
{
	uint64_t delta = st->some_total_us - s->last_total;
	s->last_total = st->some_total_us;
	s->integral += (int64_t)delta;
	s->ticks++;
	s->a.next = AGENT_SLEEP;
	if (s->integral > (int64_t)s->pressure) {
		/* senpai.py raises memory.high by its backoff adj here;
		 * what memory.reclaim took cannot be given back */
		s->backoffs++;
		s->integral = 0;
		s->grace = s->interval - 1;
		return;
	}
	if (s->grace) {
		s->grace--;
		return;
	}
	double err = (double)s->pressure / (double)(s->integral > 1 ? s->integral : 1);
	double adj = (err / s->coeff_probe) * (err / s->coeff_probe);
	adj = adj * s->max_probe < s->max_probe ? adj * s->max_probe : s->max_probe;
	uint64_t pages = probe_pages(s, st->current, adj);
	s->probes++;
	s->integral = 0;
	s->grace = s->interval - 1;
	if (!pages)
		return;
	s->a.act = (struct op){ .kind = OP_CG_RECLAIM, .name = s->a.cg, .npages = pages, .swappiness = -1 };
	s->a.next = AGENT_ACT;
}

static void sp_done(void *p, int task, const struct wl_cgroup_state *st)
{
	(void)task;
	struct senpai *s = p;
	if (s->a.next == AGENT_ACT) {
		s->reclaimed += st->reclaimed;
		s->eagain += st->ret == -EAGAIN;
		s->a.next = AGENT_SLEEP;
		return;
	}
	if (!st->nr_tasks) {
		s->a.next = AGENT_DONE;
		return;
	}
	if (!s->started) {
		/* Senpai.__init__: last_total = cgroup.total() */
		s->started = true;
		s->last_total = st->some_total_us;
		s->grace = s->interval;
		s->a.next = AGENT_SLEEP;
		return;
	}
	sp_tick(s, st);
}

static void sp_report(void *p, const double *elapsed, FILE *out)
{
	(void)elapsed;
	const struct senpai *s = p;
	fprintf(out, "senpai: %s: %llu ticks, %llu probes reclaimed %llu kB, %llu backoffs", s->a.cg,
		(unsigned long long)s->ticks, (unsigned long long)s->probes,
		(unsigned long long)(s->reclaimed * (PAGE_SIZE / 1024)), (unsigned long long)s->backoffs);
	if (s->eagain)
		fprintf(out, ", %llu EAGAIN", (unsigned long long)s->eagain);
	fputc('\n', out);
}

const struct workload_ops senpai_workload = {
	.name = "senpai",
	.summary = "Meta's senpai: PSI-driven proactive reclaim of a cgroup (memory.reclaim)",
	.help = sp_help,
	.create = sp_create,
	.destroy = wl_free,
	.nr_tasks = wl_one_task,
	.next_op = sp_next_op,
	.report = sp_report,
	.cgroup_target = agent_target,
	.cgroup_done = sp_done,
};
