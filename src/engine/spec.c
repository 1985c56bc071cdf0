/* spec.c - building a run spec (runspec.h): the machine, the policy and
 * its tunables, every NAME=VALUE, the cgroup, the workloads with their
 * seeds.  `pagelab run`, the cells of sweep and reproduce, and
 * libpagelab's handle all fill one through these calls. */
#include "runspec.h"
#include "cell.h"
#include "cgspec.h"
#include "../policy/policy.h"
#include "../workload/workload.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void runspec_init(struct runspec *s, const struct profile *prof, const struct policy_ops *pol)
{
	memset(s, 0, sizeof(*s));
	s->prof = *prof;
	s->pol = pol;
	s->tun = runspec_default_tunables(pol);
	s->mo = (struct machine_opts){ .seed = 1, .max_time_ns = 100000ULL * 1000000000ULL };
	s->residency_wl = -1;
}

void runspec_set_policy(struct runspec *s, const struct policy_ops *pol)
{
	free(s->tun);
	s->pol = pol;
	s->tun = runspec_default_tunables(pol);
}

enum runspec_set_kind runspec_spec_set(struct runspec *s, const char *name, const char *value, char *err,
				       size_t errlen)
{
	if (runspec_is_start_key(name))
		return runspec_set_start(name, value, s->start_ns, RUNSPEC_MAX_START, err, errlen);
	if (!strcmp(name, "residency")) {
		uint64_t k;
		if (!parse_u64(value, &k) || k >= RUNSPEC_MAX_START) {
			snprintf(err, errlen, "bad residency '%s' (a workload, from 0 to %d)", value, RUNSPEC_MAX_START - 1);
			return RS_SET_BAD;
		}
		s->residency_wl = (int)k;
		return RS_SET_RUN;
	}
	enum runspec_set_kind k = runspec_set(&s->prof, &s->mo, s->pol, s->tun, name, value, err, errlen);
	if (k != RS_SET_BAD)
		s->ram_given |= !strcmp(name, "ram");
	return k;
}

void runspec_memcg(struct runspec *s, uint64_t bytes)
{
	s->memcg_bytes = bytes;
	s->mo.memcg_pages = bytes / PAGE_SIZE;
}

void runspec_size_ram(struct runspec *s)
{
	if (!s->sized)
		runspec_set_memcg(&s->prof, &s->mo, s->memcg_bytes ? s->memcg_bytes : s->mo.memcg_pages * PAGE_SIZE,
				  s->ram_given);
	s->sized = true;
}

bool runspec_size(struct runspec *s, char *err, size_t errlen)
{
	runspec_size_ram(s);
	if (!runspec_memcg_ok(s->pol, &s->mo, err, errlen))
		return false;
	return !s->pol->check_tunables || s->pol->check_tunables(s->tun, err, errlen);
}

/* An agent (memreclaim, senpai, oomd: ops->cgroup_target) acts on a
 * cgroup of the tree, and one that reads memory.pressure needs PSI. */
static bool agent_ok(const struct runspec *s, const struct workload_ops *ops, void *w, char *err, size_t errlen)
{
	bool psi = false;
	const char *path = ops->cgroup_target ? ops->cgroup_target(w, &psi) : NULL;
	if (!path)
		return true;
	if (!s->mo.cgroups.n || cgspec_find(&s->mo.cgroups, path) < 0) {
		snprintf(err, errlen, "%s: no cgroup %s (declare it with --cgroup %s)", ops->name, path, path);
		return false;
	}
	if (psi && !s->mo.psi) {
		snprintf(err, errlen, "%s reads %s's memory.pressure: give --set psi=1", ops->name, path);
		return false;
	}
	return true;
}

/* Create workload ops from argv and add it; false with the workload's own
 * reason in err (empty if it gave none). */
static bool add_created(struct runspec *s, const struct workload_ops *ops, int argc, char *const *argv, char *err,
			size_t errlen)
{
	/* A last word @PATH places it in a cgroup: not the workload's. */
	int words = argc;
	int cg = cgspec_placement(&s->mo.cgroups, &argc, argv, err, errlen);
	if (cg < 0)
		return false;
	/* The workloads' parsers take a mutable argv, as main() gets. */
	char **av = xcalloc((size_t)words + 1, sizeof(char *));
	for (int i = 0; i < words; i++)
		av[i] = xstrdup(argv[i] ? argv[i] : "");
	char *cmd = join_words(words, av);
	if (words > argc) {
		free(av[argc]);
		av[argc] = NULL;
	}
	err[0] = 0;
	void *w = ops->create(argc, av, runspec_seed(s->mo.seed, s->nr_wl), err, errlen);
	if (!w) {
		for (int i = 0; i < argc; i++)
			free(av[i]);
		free(av);
		free(cmd);
		return false;
	}
	if (!agent_ok(s, ops, w, err, errlen)) {
		ops->destroy(w);
		for (int i = 0; i < argc; i++)
			free(av[i]);
		free(av);
		free(cmd);
		return false;
	}
	s->wl = xrealloc(s->wl, (size_t)(s->nr_wl + 1) * sizeof(*s->wl));
	s->wl[s->nr_wl++] = (struct runspec_wl){ .ops = ops, .w = w, .cmd = cmd, .argc = argc, .argv = av,
						 .cgroup = cg };
	return true;
}

bool runspec_add_workload(struct runspec *s, int argc, char *const *argv, char *err, size_t errlen)
{
	const struct workload_ops *ops = argc > 0 ? workload_find(argv[0]) : NULL;
	if (!ops) {
		snprintf(err, errlen, "unknown workload '%s' (see pagelab workloads)", argc > 0 ? argv[0] : "(none)");
		return false;
	}
	if (add_created(s, ops, argc, argv, err, errlen))
		return true;
	if (!err[0])
		snprintf(err, errlen, "bad workload arguments");   /* as wl_spec_create() */
	return false;
}

bool runspec_add_cmdline(struct runspec *s, const char *cmd, char *err, size_t errlen)
{
	char copy[1024], werr[300];
	char *argv[128];
	snprintf(copy, sizeof(copy), "%s", cmd);
	int argc = cell_split_args(copy, argv, 127);
	argv[argc] = NULL;
	const struct workload_ops *ops = argc ? workload_find(argv[0]) : NULL;
	if (!ops) {
		snprintf(err, errlen, "workload %s not available in this build", argc ? argv[0] : "(none)");
		return false;
	}
	if (!add_created(s, ops, argc, argv, werr, sizeof(werr))) {
		snprintf(err, errlen, "'%s' rejected by this build: %s", cmd, werr[0] ? werr : "bad arguments");
		return false;
	}
	/* The command line as given, not as rejoined. */
	free(s->wl[s->nr_wl - 1].cmd);
	s->wl[s->nr_wl - 1].cmd = xstrdup(cmd);
	return true;
}

void runspec_sample_html(struct runspec *s)
{
	s->html_samples = true;
}

void runspec_free(struct runspec *s)
{
	for (int k = 0; k < s->nr_wl; k++) {
		if (s->wl[k].w)
			s->wl[k].ops->destroy(s->wl[k].w);
		for (int i = 0; i < s->wl[k].argc; i++)
			free(s->wl[k].argv[i]);
		free(s->wl[k].argv);
		free(s->wl[k].cmd);
	}
	free(s->wl);
	free(s->tun);
	memset(s, 0, sizeof(*s));
}
