/* runspec.h - what one simulated run is, and the one path from it to a
 * ready machine.  `pagelab run`, the experiment engine's cells (sweep,
 * compare, reproduce, experiment files) and libpagelab's handle all build
 * their machines here, so a rule about a run (the seed of workload k, the
 * RAM beside a memory cgroup, what a --set NAME means, a policy that needs
 * the whole reference string) is written once and holds for all of them.
 *
 * A spec is a machine profile with every option applied, the cgroup and
 * the other machine_opts (seed, limits, sampling), the policy with its
 * tunables, and the workloads (created by the caller from their argv with
 * runspec_seed(), each with its start time). */
#ifndef PAGELAB_RUNSPEC_H
#define PAGELAB_RUNSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../machine/machine.h"

/* The seed of workload k of a run seeded `seed`: every caller gives it,
 * so a sweep cell's figures are those of its `pagelab run` line. */
uint64_t runspec_seed(uint64_t seed, int k);

/* Put the run in one memory cgroup of `limit` bytes (0: none).  Without
 * a RAM the user gave (ram_given false), the machine gets at least
 * limit * 5/4 + 64 MiB, room for the kernel and the page cache beside
 * the cgroup. */
void runspec_set_memcg(struct profile *prof, struct machine_opts *mo, uint64_t limit, bool ram_given);

/* The smallest cgroup limit a run takes, in bytes. */
#define RUNSPEC_MIN_MEMCG (16 * PAGE_SIZE)

/* What runspec_set() set. */
enum runspec_set_kind { RS_SET_BAD = -1, RS_SET_MACHINE, RS_SET_TUNABLE, RS_SET_CGROUP };

/* One --set NAME=VALUE, however given (--set, a sweep axis, an experiment
 * file, pagelab_set()): memcg (the cgroup's limit, a size of at least 16
 * pages: call runspec_set_memcg() once the RAM is known), memcg.v1 (0 or
 * 1, with a cgroup already set), a machine parameter of prof, or a
 * tunable of pol into tun.  RS_SET_BAD with one line in err on bad input. */
/* The machine part alone (memcg, memcg.v1, machine parameters), for an
 * experiment file's machine-set, which has no policy. */
enum runspec_set_kind runspec_set_machine(struct profile *prof, struct machine_opts *mo, const char *name,
					  const char *value, char *err, size_t errlen);
bool runspec_is_machine_key(const char *name);

/* False with one line in err if pol cannot run in a cgroup and mo has
 * one (runspec_machine() refuses such a spec). */
bool runspec_memcg_ok(const struct policy_ops *pol, const struct machine_opts *mo, char *err, size_t errlen);

enum runspec_set_kind runspec_set(struct profile *prof, struct machine_opts *mo, const struct policy_ops *pol,
				  double *tun, const char *name, const char *value, char *err, size_t errlen);

/* The policy's default tunables, in a new array of at least one value. */
double *runspec_default_tunables(const struct policy_ops *pol);

/* A created workload of a spec. */
struct runspec_wl {
	const struct workload_ops *ops;
	void *w;                  /* the machine owns it once built */
	const char *cmd;
	uint64_t start_ns;        /* a workload starting late, or 0 */
};

/* Everything but the workloads.  */
struct runspec {
	const struct profile *prof;
	const struct machine_opts *mo;
	const struct policy_ops *pol;
	const double *tun;
};

/* What runspec_machine() did. */
enum runspec_built {
	RS_BUILT,        /* the machine is ready and owns the workloads */
	RS_REFUSED,      /* the spec cannot run (the oracle check): nothing done */
	RS_NO_MACHINE,   /* machine_init failed (a machine that cannot be sized) */
};

/* Build the machine of a spec: the oracle check (a policy needing the
 * whole reference string runs only on a lone trace replay; a policy that
 * cannot run in a cgroup, not in one), machine_init,
 * the oracle, the policy, the workloads (a late one wrapped into wrap[k],
 * which must outlive the machine).  Unless RS_BUILT, one line in err and
 * the workloads still the caller's. */
enum runspec_built runspec_machine(struct machine *m, const struct runspec *rs, struct runspec_wl *wl, int n,
		     struct workload_ops *wrap, char *err, size_t errlen);

/* The cache-only replay (src/cachesim) stands in for the whole machine
 * when nothing could tell them apart: one trace workload alone on the
 * ideal machine as it is, under a cache policy, with nothing reading the
 * machine's time or state. */
struct runspec_cache_q {
	const char *machine;        /* profile name */
	const struct policy_ops *pol;
	const char *wl_name;        /* the only workload's name, or NULL if more */
	bool full_machine;          /* --full-machine */
	bool machine_options;       /* --swap, --cpus, --disk, --memcg or a machine --set other than ram */
	bool observed;              /* --vmstat, --check, --json, --html, --make-inputs */
};
bool runspec_cache_only(const struct runspec_cache_q *q);

#endif
