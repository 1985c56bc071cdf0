/* runspec.c - the one path from a run's description to a ready machine
 * (runspec.h). */
#include "runspec.h"
#include "cgspec.h"
#include "delay.h"
#include "../machine/profile_file.h"
#include "../cachesim/cachesim.h"
#include "../policy/policy.h"
#include "../lib/util.h"
#include "../workload/wlist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct profile *runspec_find_machine(const char *name, char *err, size_t errlen)
{
	if (profile_is_file(name))
		return profile_file_find(name, err, errlen);
	const struct profile *p = name ? profile_find(name) : NULL;
	if (!p)
		snprintf(err, errlen, "unknown machine '%s' (see pagelab machines)", name ? name : "(null)");
	return p;
}

const struct disk_params *runspec_find_disk(const char *name, char *err, size_t errlen)
{
	const struct disk_params *d = disk_preset_find(name);
	if (!d)
		snprintf(err, errlen, "unknown disk model '%s' (see pagelab machines)", name);
	return d;
}

uint64_t runspec_seed(uint64_t seed, int k)
{
	return seed + (uint64_t)k;
}

void runspec_set_memcg(struct profile *prof, struct machine_opts *mo, uint64_t limit, bool ram_given)
{
	uint64_t room = limit + limit / 4 + (64ULL << 20);  /* room beside the cgroup */
	if (limit && !ram_given && prof->ram < room)
		prof->ram = room;
	mo->memcg_pages = limit / PAGE_SIZE;
}

bool runspec_is_start_key(const char *name)
{
	return !strncmp(name, "start.", 6);
}

enum runspec_set_kind runspec_set_start(const char *name, const char *value, uint64_t *start, int max, char *err,
					size_t errlen)
{
	uint64_t k, ns;
	if (!parse_u64(name + 6, &k) || k >= (uint64_t)max) {
		snprintf(err, errlen, "bad %s: start.K, K a workload from 0 to %d", name, max - 1);
		return RS_SET_BAD;
	}
	if (!parse_duration_ns(value, &ns)) {
		snprintf(err, errlen, "bad %s '%s' (seconds)", name, value);
		return RS_SET_BAD;
	}
	start[k] = ns;
	return RS_SET_RUN;
}

double *runspec_default_tunables(const struct policy_ops *pol)
{
	int n = policy_nr_tunables(pol);
	double *tun = xcalloc((size_t)n + 1, sizeof(double));
	for (int t = 0; t < n; t++)
		tun[t] = pol->tunables[t].def;
	return tun;
}

/* memcg=LIMIT: the cgroup's limit, sized beside the RAM later (by
 * runspec_set_memcg(), once the RAM is known). */
static enum runspec_set_kind set_limit(struct machine_opts *mo, const char *value, char *err, size_t errlen)
{
	uint64_t b;
	if (!parse_size(value, &b) || b > (1ULL << 50)) {
		snprintf(err, errlen, "bad size '%s' for memcg", value);
		return RS_SET_BAD;
	}
	if (b < RUNSPEC_MIN_MEMCG) {
		snprintf(err, errlen, "memcg %s: a cgroup needs at least 16 pages", value);
		return RS_SET_BAD;
	}
	mo->memcg_pages = b / PAGE_SIZE;
	return RS_SET_CGROUP;
}

/* The run's options that are no machine parameter: vmstat, make-inputs,
 * psi (pressure stall information, src/machine/pressure.c);
 * and disk, a model standing for every disk.* parameter. */
static enum runspec_set_kind set_run_option(struct profile *prof, struct machine_opts *mo, const char *name,
					    const char *value, char *err, size_t errlen)
{
	if (!strcmp(name, "disk")) {
		const struct disk_params *d = runspec_find_disk(value, err, errlen);
		if (!d)
			return RS_SET_BAD;
		prof->disk = *d;
		return RS_SET_MACHINE;
	}
	if (!strcmp(name, "vmstat")) {
		if (!parse_duration_ns(value, &mo->vmstat_ns) || mo->vmstat_ns < 1000000) {
			snprintf(err, errlen, "bad vmstat '%s' (seconds, at least 0.001)", value);
			return RS_SET_BAD;
		}
		return RS_SET_RUN;
	}
	if (strcmp(value, "0") && strcmp(value, "1")) {
		snprintf(err, errlen, "bad value '%s' for %s (0 or 1)", value, name);
		return RS_SET_BAD;
	}
	*(!strcmp(name, "psi") ? &mo->psi : &mo->make_inputs) = value[0] == '1';
	return RS_SET_RUN;
}

static bool is_run_option(const char *name)
{
	return !strcmp(name, "disk") || !strcmp(name, "vmstat") || !strcmp(name, "make-inputs") ||
	       !strcmp(name, "psi");
}

enum runspec_set_kind runspec_set_machine(struct profile *prof, struct machine_opts *mo, const char *name,
					  const char *value, char *err, size_t errlen)
{
	if (is_run_option(name))
		return set_run_option(prof, mo, name, value, err, errlen);
	if (!strcmp(name, "memcg"))
		return set_limit(mo, value, err, errlen);
	if (!strcmp(name, "cgroup"))
		return cgspec_add(&mo->cgroups, value, err, errlen) ? RS_SET_CGROUP : RS_SET_BAD;
	if (cgspec_is_key_name(name))
		return cgspec_set(&mo->cgroups, name, value, err, errlen) ? RS_SET_CGROUP : RS_SET_BAD;
	if (!strcmp(name, "memory_recursiveprot")) {
		if (strcmp(value, "0") && strcmp(value, "1")) {
			snprintf(err, errlen, "bad value '%s' for memory_recursiveprot (0 or 1)", value);
			return RS_SET_BAD;
		}
		mo->cgroups.recursiveprot = value[0] == '1';
		return RS_SET_CGROUP;
	}
	if (!strcmp(name, "memcg.v1")) {
		if (strcmp(value, "0") && strcmp(value, "1")) {
			snprintf(err, errlen, "bad value '%s' for memcg.v1 (0 or 1)", value);
			return RS_SET_BAD;
		}
		if (!mo->memcg_pages) {
			snprintf(err, errlen, "--set memcg.v1 needs --memcg LIMIT");
			return RS_SET_BAD;
		}
		mo->memcg_v1 = value[0] == '1';
		return RS_SET_CGROUP;
	}
	if (!profile_has_param(name)) {
		snprintf(err, errlen, "'%s' is not a machine parameter (see pagelab machines --show NAME)", name);
		return RS_SET_BAD;
	}
	return profile_set(prof, name, value, err, errlen) ? RS_SET_MACHINE : RS_SET_BAD;
}

bool runspec_is_machine_key(const char *name)
{
	return !strcmp(name, "memcg") || !strcmp(name, "memcg.v1") || !strcmp(name, "cgroup") ||
	       !strcmp(name, "memory_recursiveprot") || is_run_option(name) ||
	       cgspec_is_key_name(name) || profile_has_param(name);
}

enum runspec_set_kind runspec_set(struct profile *prof, struct machine_opts *mo, const struct policy_ops *pol,
				  double *tun, const char *name, const char *value, char *err, size_t errlen)
{
	if (runspec_is_machine_key(name))
		return runspec_set_machine(prof, mo, name, value, err, errlen);
	int ti = policy_tunable_index(pol, name);
	if (ti < 0) {
		snprintf(err, errlen, "unknown parameter '%s': not a machine parameter nor a tunable of %s", name,
			 pol->name);
		return RS_SET_BAD;
	}
	double v;
	if (!tunable_parse(&pol->tunables[ti], value, &v, err, errlen))
		return RS_SET_BAD;
	tun[ti] = v;
	return RS_SET_TUNABLE;
}

bool runspec_memcg_ok(const struct policy_ops *pol, const struct machine_opts *mo, char *err, size_t errlen)
{
	if (mo->memcg_pages && mo->cgroups.n) {
		snprintf(err, errlen, "give --memcg (one cgroup) or --cgroup (a tree), not both");
		return false;
	}
	if (mo->cgroups.recursiveprot && !mo->cgroups.n) {
		/* A mount option of the tree: nothing to apply it to. */
		snprintf(err, errlen, "--set memory_recursiveprot=1 needs a --cgroup tree");
		return false;
	}
	if (mo->cgroups.n && (pol->flags & POLICY_NO_MEMCG)) {
		snprintf(err, errlen, "policy %s cannot run under --cgroup: its reclaim works only against the zones' free-page shortage, which a cgroup limit does not create",
			 pol->name);
		return false;
	}
	if (!mo->memcg_pages || !(pol->flags & POLICY_NO_MEMCG))
		return true;
	snprintf(err, errlen,
		 "policy %s cannot run under --memcg: its reclaim works only against the zones' free-page shortage, which a cgroup limit does not create",
		 pol->name);
	return false;
}

bool runspec_cache_only(const struct runspec_cache_q *q)
{
	return q->wl_name && !strcmp(q->wl_name, "trace") && !q->full_machine && !strcmp(q->machine, "ideal") &&
	       !q->machine_options && !q->observed && cachesim_policy_ok(q->pol);
}
