/* machine_opts.h - the machine options, one group of the option tables
 * (opt.h) for every command that describes a simulated machine: the
 * profile, the policy, RAM, swap, CPUs, disk, the memory cgroup and any
 * --set NAME=VALUE.  `pagelab sweep` takes each as a comma-separated list
 * (an axis of its matrix); `pagelab run` (and compare's simulator side)
 * one value each.  The group parses them the same way for all: each
 * option as given, in the order given, --set split into NAME and VALUE,
 * and hands it to the command's take(), which applies its rules (a sweep
 * axis; the run spec's profile, machine_opts and tunables, through
 * runspec_set(), src/engine/runspec.h). */
#ifndef PAGELAB_CLI_MACHINE_OPTS_H
#define PAGELAB_CLI_MACHINE_OPTS_H

#include "opt.h"

/* What a machine option is, for take(). */
enum machine_opt_kind { MO_WORD, MO_SIZE, MO_NUMBER, MO_SET };

/* Valid during take() only (a --set's NAME is a copy). */
struct machine_arg {
	const char *name;        /* "ram", or a --set's NAME */
	const char *value;       /* the value (a --set's VALUE) */
	const char *typed;       /* "--ram", or --set's whole NAME=VALUE */
	enum machine_opt_kind kind;
};

struct machine_args {
	bool lists;              /* each value a list (sweep) */
	const char *machine, *policy;   /* the command's defaults, then the last given */
	/* Every other option, as it comes: OPT_GO, or an exit status. */
	int (*take)(struct machine_args *ma, const struct machine_arg *a);
	void *ctx;               /* the command's, for take() */
};

/* The group: { .kind = OPT_GROUP, .group = machine_opts, .at = offsetof
 * the command's struct machine_args } (flags OPT_LISTS in sweep). */
extern const struct opt machine_opts[];

#endif
