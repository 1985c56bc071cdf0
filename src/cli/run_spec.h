/* run_spec.h - `pagelab run`'s options into a run spec (src/engine/
 * runspec.h), and the run of it: the cache-only replay where it would do,
 * else the one runner and the reports drawn from its result. */
#ifndef PAGELAB_CLI_RUN_SPEC_H
#define PAGELAB_CLI_RUN_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/runspec.h"

struct run_set { const char *name, *value; };

/* The machine and policy options as parsed (0 / UINT64_MAX / NULL: not
 * given). */
struct run_opts {
	const char *machine, *policy, *disk;
	const struct machine_opts *mo;
	uint64_t ram, swap, cpus, memcg;
	const struct run_set *sets;
	int nsets;
	bool machine_sets;        /* out: a --set of a machine parameter other than ram */
};

/* The spec of o, sized around its cgroup: NULL, or the one line of why
 * not (the spec is then not made). */
const char *run_spec(struct runspec *s, struct run_opts *o);

/* What the run is asked besides the spec. */
struct run_out {
	const char *machine;      /* the profile's name, for the reports */
	const char *ram_arg;      /* --ram as given */
	double ram_share;         /* --ram N%, or 0 */
	bool machine_options;     /* --swap, --cpus, --disk or a machine --set other than ram */
	bool full_machine, json, make_inputs;
	const char *html;
	const char *warmup;       /* --warmup N or F as given, or NULL */
	uint64_t window;          /* --window N, or 0 */
};

/* Add the '+'-joined workloads of argv to s, run it and report: the exit
 * status of pagelab run.  Frees s. */
int run_workloads(struct runspec *s, const struct run_out *o, int argc, char **argv);

#endif
