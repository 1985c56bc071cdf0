/* runner.c - the one runner (runspec.h): a spec in, a run_result out.
 * `pagelab run`, sweep's and reproduce's cells and libpagelab's handle
 * run here, so the checks before a run, the inputs made for it, what is
 * sampled and what is kept of it are the same for all of them. */
#include "runspec.h"
#include "delay.h"
#include "../report/html_run.h"
#include "../native/native.h"
#include "../policy/policy.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* What one run holds while the machine runs (runspec.h: running). */
struct runner_state {
	struct machine m;
	bool built;                 /* m was built: machine_free() it */
	struct workload_ops *wrap;  /* a late workload's wrapper */
	uint64_t *start;
	void **inst;
};

/* The reference string of a lone trace replay, for a policy that needs
 * it; false if the policy needs one and the run has none. */
static bool find_oracle(const struct runspec *s, const uint64_t **oracle, uint64_t *len, char *err, size_t errlen)
{
	*oracle = NULL;
	*len = 0;
	if (!(s->pol->flags & POLICY_NEEDS_ORACLE))
		return true;
	if (s->nr_wl == 1 && s->wl[0].ops->oracle && s->wl[0].ops->oracle(s->wl[0].w, oracle, len))
		return true;
	snprintf(err, errlen,
		 "policy %s needs the whole reference string: it runs only when the only workload is a trace replay",
		 s->pol->name);
	return false;
}

/* Build the machine: the oracle check (a policy needing the whole
 * reference string runs only on a lone trace replay; a policy that
 * cannot run in a cgroup, not in one), machine_init, the oracle, the
 * policy, the workloads (a late one wrapped into wrap[k]). */
static bool build(struct machine *m, bool *built, struct runspec *s, const struct machine_opts *mo,
		  struct workload_ops *wrap, struct run_result *rr, char *err, size_t errlen)
{
	const uint64_t *oracle;
	uint64_t oracle_len;
	if (!runspec_memcg_ok(s->pol, mo, err, errlen) || !find_oracle(s, &oracle, &oracle_len, err, errlen)) {
		rr->refused = true;
		return false;
	}
	if (!machine_init(m, &s->prof, mo, err, errlen))
		return false;
	/* From here an escape by longjmp (a plugin that dies in its
	 * cgroup_init(), while the policy is set) leaves a machine to free. */
	*built = true;
	if (oracle)
		mm_set_oracle(&m->mm, oracle, oracle_len);
	if (m->mm.cgt) {   /* a cgroup's swappiness= (cgtree_lru.c) */
		int si = policy_tunable_index(s->pol, "swappiness");
		m->mm.cgt->swappiness_tun = si;
		m->mm.cgt->nr_tun = policy_nr_tunables(s->pol);
		m->mm.cgt->swappiness_max = si >= 0 ? s->pol->tunables[si].max : 0;
	}
	machine_set_policy(m, s->pol, s->tun);
	for (int k = 0; k < s->nr_wl; k++) {
		const struct workload_ops *ops = s->wl[k].ops;
		void *w = s->wl[k].w;
		if (s->wl[k].start_ns) {
			w = delay_wrap(ops, w, s->wl[k].start_ns, &wrap[k]);
			ops = &wrap[k];
		}
		machine_add_workload(m, ops, w, s->wl[k].cmd);
		s->wl[k].w = NULL;    /* the machine's now */
		const struct wl_inst *wi = &m->wls[m->nr_wls - 1];
		for (int i = 0; i < wi->ntasks; i++)   /* its @PATH */
			mm_cgroup_attach(&m->mm, m->tasks[wi->first_task + i].id, s->wl[k].cgroup);
	}
	return true;
}

/* --make-inputs: pagelab kernel's walk (src/native/prepare.c) over the
 * workloads, each input made on the simulated disk. */
static bool make_inputs(struct machine *m, const struct runspec *s, void *const *wls, char *err, size_t errlen)
{
	struct nworkload *nw = xcalloc((size_t)s->nr_wl, sizeof(*nw));
	for (int w = 0; w < s->nr_wl; w++)
		nw[w] = (struct nworkload){ .ops = s->wl[w].ops, .argc = s->wl[w].argc, .argv = s->wl[w].argv,
					    .seed = runspec_seed(s->mo.seed, w), .cmd = s->wl[w].cmd };
	struct nplan plan;
	bool built = nplan_build(&plan, nw, wls, s->nr_wl, true, err, errlen), ok = built;
	for (int i = 0; ok && i < plan.ninputs; i++) {
		if (!machine_add_file(m, plan.inputs[i].name, plan.inputs[i].npages)) {
			snprintf(err, errlen, "run: input %s exists already", plan.inputs[i].name);
			ok = false;
		} else if (s->notes) {
			fprintf(s->notes, "pagelab: made %s, %llu pages, on the disk and uncached\n",
				plan.inputs[i].name, (unsigned long long)plan.inputs[i].npages);
		}
	}
	if (built)
		nplan_free(&plan);
	free(nw);
	return ok;
}

/* What to sample: --html wants timelines, sampled as vmstat would,
 * without printing the lines nobody asked for; with --vmstat SECONDS the
 * lines keep their interval and the timelines take samples of their own,
 * as finely as without it. */
static void sampling(const struct runspec *s, struct machine_opts *mo, struct run_result *rr)
{
	if (!s->html_samples)
		return;
	if (!mo->vmstat_ns && !s->prof.untimed) {
		mo->vmstat_ns = HTML_VMSTAT_NS;
		rr->vmstat_hidden = true;
	} else if (mo->vmstat_ns > HTML_VMSTAT_NS) {
		mo->timeline_ns = HTML_VMSTAT_NS;
	}
}

struct hook_arg {
	struct run_result *rr;
	int wl;      /* workload whose residency is sampled, -1 for none */
	uint64_t swap_peak;
	uint64_t cap;
};

/* Called after each vmstat sample: the swap peak, and the residency of one
 * workload beside the sample (experiment 3's "how much of mtest01 stayed
 * in memory"). */
static void sample_hook(const struct machine *m, void *arg)
{
	struct hook_arg *h = arg;
	uint64_t sw = (uint64_t)m->mm.swap.used * (PAGE_SIZE / 1024);
	if (sw > h->swap_peak)
		h->swap_peak = sw;
	if (h->wl < 0)
		return;
	if (m->nr_samples > h->cap) {
		h->cap = h->cap ? h->cap * 2 : 256;
		h->rr->resident_kb = xrealloc(h->rr->resident_kb, h->cap * sizeof(uint64_t));
	}
	const struct wl_inst *w = &m->wls[h->wl];
	uint64_t rss = 0;
	for (int i = 0; i < w->ntasks; i++) {
		const struct task *t = &m->tasks[w->first_task + i];
		if (t->state != T_EXITED && t->as && !t->as->dead)
			rss += t->as->rss;
	}
	h->rr->resident_kb[m->nr_samples - 1] = rss * (PAGE_SIZE / 1024);
}

/* start.K: each delayed workload's start; false if K (or residency's)
 * is past the last workload. */
static bool starts(struct runspec *s, char *err, size_t errlen)
{
	for (int k = 0; k < RUNSPEC_MAX_START; k++) {
		if (!s->start_ns[k])
			continue;
		if (k >= s->nr_wl) {
			snprintf(err, errlen, "start.%d: the run has %d workload%s", k, s->nr_wl, s->nr_wl == 1 ? "" : "s");
			return false;
		}
		s->wl[k].start_ns = s->start_ns[k];
	}
	if (s->residency_wl >= s->nr_wl) {
		snprintf(err, errlen, "residency=%d: the run has %d workload%s", s->residency_wl, s->nr_wl,
			 s->nr_wl == 1 ? "" : "s");
		return false;
	}
	return true;
}

void runspec_run(struct runspec *s, struct run_result *rr)
{
	char err[1200];
	if (!starts(s, err, sizeof(err))) {
		rr->why = xstrdup(err);
		rr->refused = true;
		return;
	}
	runspec_size_ram(s);
	struct machine_opts mo = s->mo;
	struct hook_arg h = { .rr = rr, .wl = s->residency_wl };
	mo.sample_hook = sample_hook;
	mo.sample_arg = &h;
	sampling(s, &mo, rr);
	/* On the heap, where an escape by longjmp can still find it. */
	struct runner_state *rs = s->running = xcalloc(1, sizeof(*rs));
	struct machine *m = &rs->m;
	struct workload_ops *wrap = rs->wrap = xcalloc((size_t)s->nr_wl + 1, sizeof(*wrap));
	uint64_t *start = rs->start = xcalloc((size_t)s->nr_wl + 1, sizeof(*start));
	void **inst = rs->inst = xcalloc((size_t)s->nr_wl + 1, sizeof(void *));
	for (int k = 0; k < s->nr_wl; k++) {
		start[k] = s->wl[k].start_ns;
		inst[k] = s->wl[k].w;
	}
	if (!build(m, &rs->built, s, &mo, wrap, rr, err, sizeof(err))) {
		rr->why = xstrdup(err);
		runspec_abandon(s);
		return;
	}
	if ((s->before_run && !s->before_run(s->before_arg, err, sizeof(err))) ||
	    (s->mo.make_inputs && !make_inputs(m, s, inst, err, sizeof(err)))) {
		rr->why = xstrdup(err);
		rr->refused = true;
	} else {
		rr->available = true;
		rr->vmstat_ns = mo.vmstat_ns;
		rr->prof = m->prof;
		machine_run(m);
		runspec_collect(m, rr, start);
		uint64_t sw = (uint64_t)m->mm.swap.used * (PAGE_SIZE / 1024);
		rr->swap_peak_kb = h.swap_peak > sw ? h.swap_peak : sw;
	}
	runspec_abandon(s);
}

void runspec_abandon(struct runspec *s)
{
	struct runner_state *rs = s->running;
	if (!rs)
		return;
	if (rs->built)
		machine_free(&rs->m);
	free(rs->inst);
	free(rs->start);
	free(rs->wrap);
	free(rs);
	s->running = NULL;
}
