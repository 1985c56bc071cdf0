/* pagelab.c - libpagelab (include/pagelab.h): the simulator behind a
 * handle, for programs that embed it.  It drives the same layers as
 * `pagelab run` (profile, policy, workloads, machine, report) and never
 * exits: every failure is a return value and a one-line message. */
#include "../../include/pagelab.h"
#include "../machine/machine.h"
#include "../policy/policy.h"
#include "../policy/plugin.h"
#include "../workload/workload.h"
#include "../workload/wlist.h"
#include "../report/report.h"
#include "../engine/runspec.h"
#include "../engine/cell.h"
#include "../lib/util.h"
#include "../lib/version.h"
#include "../cachesim/cachesim.h"

#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct pagelab_sim {
	struct runspec spec;      /* the run, as configured */
	const char *machine_name;
	struct run_result rr;     /* what it gave */
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

/* Handles alive: when the last is freed, the workloads' caches kept for a
 * next run go too, so a program done with pagelab holds none of its
 * memory (qsbench keeps up to 256 MB of sort recordings otherwise). */
static atomic_int live_handles;

pagelab_sim *pagelab_new(const char *machine)
{
	const struct profile *p = runspec_find_machine(machine, new_err, sizeof(new_err));
	if (!p)
		return NULL;
	pagelab_sim *s = xcalloc(1, sizeof(*s));
	runspec_init(&s->spec, p, policy_find("clock"));
	s->machine_name = p->name;
	atomic_fetch_add(&live_handles, 1);
	return s;
}

void pagelab_free(pagelab_sim *s)
{
	if (!s)
		return;
	/* A machine stopped halfway was freed with the workloads it took
	 * (their s->spec.wl[i].w NULL since, runner.c's build()); the
	 * others, never handed over, are runspec_free()'s. */
	runspec_free(&s->spec);
	run_result_free(&s->rr);
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
	return runspec_spec_set(&s->spec, name, value, s->err, sizeof(s->err)) == RS_SET_BAD ? -1 : 0;
}

int pagelab_add_cgroup(pagelab_sim *s, const char *spec)
{
	if (configuring(s))
		return -1;
	if (!spec)
		return fail(s, "pagelab_add_cgroup needs a spec");
	return pagelab_set(s, "cgroup", spec);
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
	runspec_set_policy(&s->spec, p);
	return 0;
}

int pagelab_set_policy_struct(pagelab_sim *s, const struct pagelab_policy *pol)
{
	if (configuring(s))
		return -1;
	if (!pol)
		return fail(s, "no policy struct");
	const struct policy_ops *p = policy_plugin_struct(pol, s->err, sizeof(s->err));
	if (!p)
		return -1;
	runspec_set_policy(&s->spec, p);
	return 0;
}

int pagelab_set_seed(pagelab_sim *s, uint64_t seed)
{
	if (configuring(s))
		return -1;
	s->spec.mo.seed = seed;
	return 0;
}

int pagelab_set_check(pagelab_sim *s, int on)
{
	if (configuring(s))
		return -1;
	s->spec.mo.check = on != 0;
	return 0;
}

int pagelab_set_max_time(pagelab_sim *s, double seconds)
{
	if (configuring(s))
		return -1;
	if (!(seconds > 0) || seconds > 1e9)
		return fail(s, "bad max time %g s", seconds);
	s->spec.mo.max_time_ns = (uint64_t)(seconds * 1e9);
	return 0;
}

int pagelab_add_workload(pagelab_sim *s, int argc, const char *const *argv)
{
	if (configuring(s))
		return -1;
	if (argc < 1 || !argv || !argv[0])
		return fail(s, "a workload needs at least its name");
	/* The words as given: the spec takes copies. */
	char **av = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++)
		av[i] = (char *)(argv[i] ? argv[i] : "");
	bool ok = runspec_add_workload(&s->spec, argc, av, s->err, sizeof(s->err));
	free(av);
	return ok ? 0 : -1;
}

int pagelab_run(pagelab_sim *s)
{
	if (configuring(s))
		return -1;
	if (!s->spec.nr_wl)
		return fail(s, "no workload added");
	s->spec.sized = false;        /* the cgroup's RAM rule, on the settings as they are now */
	run_result_free(&s->rr);
	jmp_buf escape;
	jmp_buf *outer = usage_escape;
	usage_escape = &escape;
	die_usage_set_handler(usage_to_error);
	if (setjmp(escape)) {
		/* The machine stopped halfway, at an op boundary (a workload
		 * opened a file that does not exist, a trace turned bad, the
		 * disk filled): it is freed and the handle can only be dropped. */
		die_usage_set_handler(NULL);
		usage_escape = outer;
		runspec_abandon(&s->spec);
		s->state = -2;
		return fail(s, "%s", usage_msg);
	}
	runspec_run(&s->spec, &s->rr);
	die_usage_set_handler(NULL);
	usage_escape = outer;
	if (!s->rr.available) {
		/* A refused spec leaves the handle configurable; a machine
		 * that could not start does not. */
		if (!s->rr.refused)
			s->state = -1;
		return fail(s, "%s", s->rr.why);
	}
	s->state = 1;
	if (s->rr.check_failed)
		return 1;
	return s->rr.timed_out ? 3 : 0;
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
				*value = s->rr.ev[i];
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
	return s ? s->spec.nr_wl : 0;
}

int pagelab_workload_times(const pagelab_sim *s, int i, struct pagelab_times *t)
{
	if (!ran(s) || i < 0 || i >= s->rr.nr_wl || !t)
		return -1;
	const struct time_figures *tf = &run_wl_c(&s->rr, i)->times;
	*t = (struct pagelab_times){ .user = tf->user, .sys = tf->sys, .elapsed = tf->elapsed,
				     .major_faults = tf->majflt, .minor_faults = tf->minflt,
				     .killed = tf->killed };
	return 0;
}

int pagelab_event(const pagelab_sim *s, int i, double *t, int *kind, const char **text)
{
	if (!ran(s) || i < 0 || (uint64_t)i >= s->rr.nr_log)
		return -1;
	const struct run_event *e = &s->rr.log[i];
	if (t)
		*t = (double)e->t / 1e9;
	if (kind)
		*kind = e->kind == RUN_EV_KERNEL ? PAGELAB_EVENT_KERNEL : PAGELAB_EVENT_EXIT;
	if (text)
		*text = e->kind == RUN_EV_KERNEL ? e->text : run_wl_c(&s->rr, e->wl)->cmd;
	return 0;
}

int pagelab_report(const pagelab_sim *s, FILE *out, int json)
{
	if (!ran(s) || !out)
		return -1;
	struct run_info ri = { .machine = s->machine_name, .policy = s->spec.pol->name, .seed = s->spec.mo.seed };
	if (json)
		report_json(&s->rr, &ri, out);
	else
		report_text(&s->rr, &ri, out);
	return ferror(out) ? -1 : 0;
}

/* The policy of pagelab_cache_replay: a cache policy by name, or a
 * struct, which the plugin adapter runs (it evicts only through
 * pagelab_evict(), keeps no shadow entries and has no clock: what the
 * cache-only replay asks). */
static const struct policy_ops *cache_policy(const char *policy, const struct pagelab_policy *pol, char *err,
					     size_t errlen)
{
	if (!policy) {
		if (!pol)
			snprintf(err, errlen, "no policy: a name or a struct");
		return pol ? policy_plugin_struct(pol, err, errlen) : NULL;
	}
	const struct policy_ops *p = policy_lookup(policy, err, errlen);
	if (p && !cachesim_policy_ok(p)) {
		snprintf(err, errlen, "%s is not a cache policy: the cache-only replay runs %s", policy,
			 "fifo, clock, lru, opt, arc, 2q, lirs, clockpro, s3fifo, sieve, lfu, lruk");
		return NULL;
	}
	return p;
}

/* The replay, its die_usage() caught (a trace turned bad, host memory
 * exhausted) into j->err. */
struct cache_job {
	const struct policy_ops *ops;
	const char *trace;
	uint64_t frames;
	struct cachesim *cs;
	bool ok;
	char *err;
	size_t errlen;
};

static void cache_job_run(struct cache_job *j)
{
	struct trace_opts o = { .format = TRACE_FMT_AUTO };
	jmp_buf escape;
	jmp_buf *outer = usage_escape;
	usage_escape = &escape;
	die_usage_set_handler(usage_to_error);
	if (setjmp(escape)) {
		snprintf(j->err, j->errlen, "%s", usage_msg);
		j->ok = false;
	} else {
		j->cs = cachesim_new(j->ops, NULL, j->frames);
		struct cachesim_trace tr;
		j->ok = cachesim_replay(j->cs, j->trace, &o, false, &tr, j->err, j->errlen);
	}
	die_usage_set_handler(NULL);
	usage_escape = outer;
}

int pagelab_cache_replay(const char *trace, uint64_t frames, const char *policy, const struct pagelab_policy *pol,
			 struct pagelab_cache_result *out, char *err, size_t errlen)
{
	char none[8];
	if (!err || !errlen) {
		err = none;
		errlen = sizeof(none);
	}
	if (!trace || !out)
		return snprintf(err, errlen, "no trace or no result"), -1;
	if (frames < 1 || frames >= PFN_NONE)
		return snprintf(err, errlen, "the cache-only replay takes 1 to %u frames", PFN_NONE - 1), -1;
	struct cache_job j = { .ops = cache_policy(policy, pol, err, errlen), .trace = trace, .frames = frames,
			       .err = err, .errlen = errlen };
	if (!j.ops)
		return -1;
	cache_job_run(&j);
	if (j.cs) {
		struct cachesim_stats st;
		cachesim_stats(j.cs, &st);
		*out = (struct pagelab_cache_result){ .refs = st.refs, .misses = st.misses, .major = st.major,
						      .evictions = st.evictions, .writebacks = st.writebacks,
						      .pages = st.pages };
		cachesim_free(j.cs);
	}
	return j.ok ? 0 : -1;
}
