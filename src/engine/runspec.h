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
#include "../report/result.h"

/* A machine profile or a disk model by name; NULL with the one line of
 * every caller in err ("unknown machine 'X' (see pagelab machines)"). */
const struct profile *runspec_find_machine(const char *name, char *err, size_t errlen);
const struct disk_params *runspec_find_disk(const char *name, char *err, size_t errlen);

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
enum runspec_set_kind { RS_SET_BAD = -1, RS_SET_MACHINE, RS_SET_TUNABLE, RS_SET_CGROUP, RS_SET_RUN };

/* One --set NAME=VALUE, however given (--set, a sweep axis, an experiment
 * file, pagelab_set()): memcg (the cgroup's limit, a size of at least 16
 * pages: call runspec_set_memcg() once the RAM is known), memcg.v1 (0 or
 * 1, with a cgroup already set), cgroup (PATH[:KEY=VALUE,...], one more
 * cgroup of a tree: src/engine/cgspec.h), a machine parameter of prof, disk (a
 * disk model, as --disk), the run's own options that are no machine
 * parameter (RS_SET_RUN: vmstat=SECONDS as --vmstat, make-inputs=0|1 as
 * --make-inputs, psi=0|1: pressure stall information), or a tunable of
 * pol into tun.  RS_SET_BAD with one line
 * in err on bad input. */
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

/* start.K=SECONDS: workload K (from 0) starts SECONDS into the run (a
 * delayed start, as an experiment file's `delayed`), into start[K], K <
 * max: RS_SET_RUN, or RS_SET_BAD with one line in err.  Only for a name
 * runspec_is_start_key() takes. */
#define RUNSPEC_MAX_START 16
bool runspec_is_start_key(const char *name);
enum runspec_set_kind runspec_set_start(const char *name, const char *value, uint64_t *start, int max, char *err,
					size_t errlen);

/* The policy's default tunables, in a new array of at least one value. */
double *runspec_default_tunables(const struct policy_ops *pol);

/* ---- the spec and its runner ------------------------------------------ */

/* A workload of a spec: its words, created (seeded seed + k) as it is
 * added, and when it starts. */
struct runspec_wl {
	const struct workload_ops *ops;
	void *w;                  /* the run's once it ran */
	char *cmd;                /* the words joined by blanks */
	int argc;
	char **argv;              /* own copies: --make-inputs reads them */
	uint64_t start_ns;        /* a workload starting late, or 0 */
	int cgroup;               /* its trailing @PATH: the cgroup's id (0: the root) */
};

/* Everything one run is.  Built with runspec_init(), runspec_set...(),
 * runspec_add_workload(); run by runspec_run(); freed by runspec_free(). */
struct runspec {
	struct profile prof;      /* the machine, every option applied */
	const struct policy_ops *pol;
	double *tun;              /* pol's tunables (the spec's) */
	struct machine_opts mo;   /* seed, cgroup, limits, sampling, check */
	bool ram_given;           /* a RAM the user gave: the cgroup's RAM rule stands aside */
	uint64_t memcg_bytes;     /* --memcg as given (0: mo.memcg_pages) */
	bool sized;               /* runspec_size() done */
	struct runspec_wl *wl;
	int nr_wl;
	int residency_wl;         /* workload whose resident set is sampled, or -1 */
	uint64_t start_ns[RUNSPEC_MAX_START];  /* start.K: workload K's start, or 0 */
	bool html_samples;        /* sample for --html's timelines (runspec_sample_html) */
	FILE *notes;              /* where the inputs made are said, or NULL */
	/* Called with the machine built, before it runs (run --html opens its
	 * file there); false with one line in err stops the run. */
	bool (*before_run)(void *arg, char *err, size_t errlen);
	void *before_arg;
	/* The run in progress (runner.c), NULL between runs: a caller that
	 * escapes a run with longjmp (libpagelab's bad input found halfway)
	 * frees it with runspec_abandon(). */
	struct runner_state *running;
};

/* A spec of machine prof under policy pol (its default tunables), seed 1,
 * the default --max-time, no workload. */
void runspec_init(struct runspec *s, const struct profile *prof, const struct policy_ops *pol);
/* Change the policy: its tunables back to their defaults. */
void runspec_set_policy(struct runspec *s, const struct policy_ops *pol);
/* One NAME=VALUE (runspec_set() on the spec's parts; start.K; and
 * residency=K: sample workload K's resident set beside each vmstat
 * sample, as an experiment file's `residency`). */
enum runspec_set_kind runspec_spec_set(struct runspec *s, const char *name, const char *value, char *err,
				       size_t errlen);
/* --memcg LIMIT in bytes (at least RUNSPEC_MIN_MEMCG). */
void runspec_memcg(struct runspec *s, uint64_t bytes);
/* Size the machine around the cgroup (once; the runner does it if the
 * caller did not), then check the policy can run in it and its tunables
 * go together: false with one line in err if not. */
bool runspec_size(struct runspec *s, char *err, size_t errlen);
/* The RAM rule alone (once), as the runner applies it. */
void runspec_size_ram(struct runspec *s);
/* Add a workload from its words (argv[0] its name), created with seed
 * runspec_seed(seed, k): false with the workload's reason in err. */
bool runspec_add_workload(struct runspec *s, int argc, char *const *argv, char *err, size_t errlen);
/* The same, of a command line split on blanks (a sweep's, an experiment
 * file's): "workload X not available..." / "'CMD' rejected..." */
bool runspec_add_cmdline(struct runspec *s, const char *cmd, char *err, size_t errlen);
/* --html: sample for the timelines, as vmstat would (or at their own
 * interval beside a longer --vmstat), without printing those lines. */
void runspec_sample_html(struct runspec *s);
/* Run the spec into rr (zeroed by the caller): build the machine (the
 * oracle and cgroup checks, machine_init, the policy, the workloads, a
 * late one delayed), make the inputs, run it and collect everything a
 * report needs.  The spec's workloads are the run's afterwards.  A spec
 * that cannot run leaves rr->available false, rr->why saying why
 * (rr->refused if nothing was done). */
void runspec_run(struct runspec *s, struct run_result *rr);
/* Free the machine of a run left by longjmp out of runspec_run() (a
 * die_usage() caught by libpagelab: a workload opened a file that does
 * not exist, at an op boundary, where the machine is whole). */
void runspec_abandon(struct runspec *s);
void runspec_free(struct runspec *s);

/* Fill rr from a machine that ran (collect.c); start[k]: workload k's
 * start, residency_wl as in the spec. */
void runspec_collect(struct machine *m, struct run_result *rr, const uint64_t *start);

/* The cache-only replay (src/cachesim) stands in for the whole machine
 * when nothing could tell them apart: one trace workload alone on the
 * ideal machine as it is, under a cache policy, with nothing reading the
 * machine's time or state. */
struct runspec_cache_q {
	const char *machine;        /* profile name */
	const struct policy_ops *pol;
	const char *wl_name;        /* the only workload's name, or NULL if more */
	bool full_machine;          /* --full-machine */
	bool machine_options;       /* --swap, --cpus, --disk, --memcg, --cgroup or a machine --set other than ram */
	bool observed;              /* --vmstat, --check, --json, --html, --make-inputs */
};
bool runspec_cache_only(const struct runspec_cache_q *q);

#endif
