/* pagelab.c - libpagelab (include/pagelab.h): the simulator behind a
 * handle, for programs that embed it.  It drives the same layers as
 * `pagelab run` (profile, policy, workloads, machine, report) and never
 * exits: every failure is a return value and a one-line message. */
#include "../../include/pagelab.h"
#include "../machine/machine.h"
#include "../policy/policy.h"
#include "../workload/workload.h"
#include "../workload/wlist.h"
#include "../report/report.h"
#include "../engine/runspec.h"
#include "../lib/util.h"
#include "../lib/version.h"

#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct api_workload {
	const struct workload_ops *ops;
	void *w;
	char *cmd;
};

struct pagelab_sim {
	struct profile prof;
	const char *machine_name;
	const struct policy_ops *pol;
	double *tun;
	struct machine_opts mo;
	bool ram_set;             /* pagelab_set(s, "ram", ...): the memcg RAM rule stands aside */
	struct api_workload *wls;
	int nwl;
	struct machine m;
	/* 0 configuring, 1 ran, -1 could not start, -2 stopped halfway */
	int state;
	char err[512];
};

static char new_err[512];

/* A condition the simulator cannot continue from (the simulated disk
 * full, host memory exhausted...) calls die_usage(), which in a program
 * would exit with status 2.  Inside the library it comes back here. */
static _Thread_local jmp_buf *usage_escape;
static _Thread_local char usage_msg[512];

static void usage_to_error(const char *msg)
{
	snprintf(usage_msg, sizeof(usage_msg), "%s", msg);
	longjmp(*usage_escape, 1);
}

static int fail(pagelab_sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(pagelab_sim *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s ? s->err : new_err, sizeof(new_err), fmt, ap);
	va_end(ap);
	return -1;
}

int pagelab_api_version(void) { return PAGELAB_API_VERSION; }
const char *pagelab_version_string(void) { return pagelab_version(); }

const char *pagelab_error(const pagelab_sim *s)
{
	return s ? s->err : new_err;
}

static void reset_tunables(pagelab_sim *s)
{
	free(s->tun);
	s->tun = runspec_default_tunables(s->pol);
}

/* Handles alive: when the last is freed, the workloads' caches kept for a
 * next run go too, so a program done with pagelab holds none of its
 * memory (qsbench keeps up to 256 MB of sort recordings otherwise). */
static atomic_int live_handles;

pagelab_sim *pagelab_new(const char *machine)
{
	const struct profile *p = machine ? profile_find(machine) : NULL;
	if (!p) {
		fail(NULL, "unknown machine '%s' (see pagelab machines)", machine ? machine : "(null)");
		return NULL;
	}
	pagelab_sim *s = xcalloc(1, sizeof(*s));
	s->prof = *p;
	s->machine_name = p->name;
	s->pol = policy_find("clock");
	s->mo = (struct machine_opts){ .seed = 1, .max_time_ns = 100000ULL * 1000000000ULL };
	reset_tunables(s);
	atomic_fetch_add(&live_handles, 1);
	return s;
}

void pagelab_free(pagelab_sim *s)
{
	if (!s)
		return;
	if (s->state == 1)
		machine_free(&s->m);
	else if (s->state != -2)
		for (int i = 0; i < s->nwl; i++)
			s->wls[i].ops->destroy(s->wls[i].w);
	for (int i = 0; i < s->nwl; i++)
		free(s->wls[i].cmd);
	free(s->wls);
	free(s->tun);
	free(s);
	if (atomic_fetch_sub(&live_handles, 1) == 1)
		workloads_drop_caches();
}

static int configuring(pagelab_sim *s)
{
	if (!s)
		return fail(NULL, "no simulation handle");
	if (s->state)
		return fail(s, "the simulation has already run: configure a new handle");
	return 0;
}

int pagelab_set(pagelab_sim *s, const char *name, const char *value)
{
	if (configuring(s))
		return -1;
	if (!name || !value)
		return fail(s, "pagelab_set needs a name and a value");
	if (runspec_set(&s->prof, &s->mo, s->pol, s->tun, name, value, s->err, sizeof(s->err)) == RS_SET_BAD)
		return -1;
	s->ram_set |= !strcmp(name, "ram");
	return 0;
}

int pagelab_set_policy(pagelab_sim *s, const char *policy)
{
	if (configuring(s))
		return -1;
	if (!policy)
		return fail(s, "no policy name");
	const struct policy_ops *p = policy_lookup(policy, s->err, sizeof(s->err));
	if (!p)
		return -1;
	s->pol = p;
	reset_tunables(s);
	return 0;
}

int pagelab_set_seed(pagelab_sim *s, uint64_t seed)
{
	if (configuring(s))
		return -1;
	s->mo.seed = seed;
	return 0;
}

int pagelab_set_check(pagelab_sim *s, int on)
{
	if (configuring(s))
		return -1;
	s->mo.check = on != 0;
	return 0;
}

int pagelab_set_max_time(pagelab_sim *s, double seconds)
{
	if (configuring(s))
		return -1;
	if (!(seconds > 0) || seconds > 1e9)
		return fail(s, "bad max time %g s", seconds);
	s->mo.max_time_ns = (uint64_t)(seconds * 1e9);
	return 0;
}

int pagelab_add_workload(pagelab_sim *s, int argc, const char *const *argv)
{
	if (configuring(s))
		return -1;
	if (argc < 1 || !argv || !argv[0])
		return fail(s, "a workload needs at least its name");
	const struct workload_ops *ops = workload_find(argv[0]);
	if (!ops)
		return fail(s, "unknown workload '%s' (see pagelab workloads)", argv[0]);
	/* The workloads' parsers take a mutable argv, as main() gets. */
	char **av = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++)
		av[i] = xstrdup(argv[i] ? argv[i] : "");
	char err[512] = "";
	struct wl_spec spec = { .ops = ops, .argc = argc, .argv = av };
	void *w = wl_spec_create(&spec, runspec_seed(s->mo.seed, s->nwl), err, sizeof(err));
	char *cmd = join_words(argc, av);
	for (int i = 0; i < argc; i++)
		free(av[i]);
	free(av);
	if (!w) {
		free(cmd);
		return fail(s, "%s", err);
	}
	s->wls = xrealloc(s->wls, (size_t)(s->nwl + 1) * sizeof(*s->wls));
	s->wls[s->nwl++] = (struct api_workload){ ops, w, cmd };
	return 0;
}

int pagelab_run(pagelab_sim *s)
{
	if (configuring(s))
		return -1;
	if (!s->nwl)
		return fail(s, "no workload added");
	runspec_set_memcg(&s->prof, &s->mo, s->mo.memcg_pages * PAGE_SIZE, s->ram_set);
	struct runspec_wl *rw = xcalloc((size_t)s->nwl, sizeof(*rw));
	for (int i = 0; i < s->nwl; i++)
		rw[i] = (struct runspec_wl){ .ops = s->wls[i].ops, .w = s->wls[i].w, .cmd = s->wls[i].cmd };
	struct runspec rs = { .prof = &s->prof, .mo = &s->mo, .pol = s->pol, .tun = s->tun };
	enum runspec_built b = runspec_machine(&s->m, &rs, rw, s->nwl, NULL, s->err, sizeof(s->err));
	free(rw);
	if (b != RS_BUILT) {
		/* A refused spec leaves the handle configurable; a machine
		 * that could not start does not. */
		if (b == RS_NO_MACHINE)
			s->state = -1;
		return -1;
	}
	s->state = 1;
	jmp_buf escape;
	jmp_buf *outer = usage_escape;
	usage_escape = &escape;
	die_usage_set_handler(usage_to_error);
	if (setjmp(escape)) {
		/* The machine stopped halfway: it can only be dropped (what it
		 * holds is leaked rather than freed in an unknown state). */
		die_usage_set_handler(NULL);
		usage_escape = outer;
		s->state = -2;
		return fail(s, "%s", usage_msg);
	}
	machine_run(&s->m);
	die_usage_set_handler(NULL);
	usage_escape = outer;
	if (s->m.check_failed)
		return 1;
	return s->m.timed_out ? 3 : 0;
}

static int ran(const pagelab_sim *s)
{
	return s && s->state == 1;
}

int pagelab_counter(const pagelab_sim *s, const char *name, uint64_t *value)
{
	if (!ran(s) || !name)
		return -1;
	for (int i = 0; i < NR_VM_EVENTS; i++)
		if (!strcmp(vm_event_names[i], name)) {
			if (value)
				*value = s->m.mm.ev[i];
			return 0;
		}
	return -1;
}

const char *pagelab_counter_name(int i)
{
	return i >= 0 && i < NR_VM_EVENTS ? vm_event_names[i] : NULL;
}

int pagelab_nr_workloads(const pagelab_sim *s)
{
	return s ? s->nwl : 0;
}

int pagelab_workload_times(const pagelab_sim *s, int i, struct pagelab_times *t)
{
	if (!ran(s) || i < 0 || i >= s->m.nr_wls || !t)
		return -1;
	struct time_figures tf;
	workload_times(&s->m, i, &tf);
	*t = (struct pagelab_times){ .user = tf.user, .sys = tf.sys, .elapsed = tf.elapsed,
				     .major_faults = tf.majflt, .minor_faults = tf.minflt,
				     .killed = tf.killed };
	return 0;
}

int pagelab_event(const pagelab_sim *s, int i, double *t, int *kind, const char **text)
{
	if (!ran(s) || i < 0 || (uint64_t)i >= s->m.nr_log)
		return -1;
	const struct log_entry *e = &s->m.log[i];
	if (t)
		*t = (double)e->t / 1e9;
	if (kind)
		*kind = e->kind == LOG_KERNEL ? PAGELAB_EVENT_KERNEL : PAGELAB_EVENT_EXIT;
	if (text)
		*text = e->kind == LOG_KERNEL ? e->text : s->m.wls[e->wl].cmd;
	return 0;
}

int pagelab_report(const pagelab_sim *s, FILE *out, int json)
{
	if (!ran(s) || !out)
		return -1;
	struct run_info ri = { .machine = s->machine_name, .policy = s->pol->name, .seed = s->mo.seed };
	if (json)
		report_json(&s->m, &ri, out);
	else
		report_text(&s->m, &ri, out);
	return ferror(out) ? -1 : 0;
}
