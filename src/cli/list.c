/* list.c - pagelab policies / workloads / machines. */
#include "cli.h"
#include "../policy/policy.h"
#include "../workload/workload.h"
#include "../machine/profile.h"
#include "../engine/runspec.h"
#include "../lib/util.h"
#include "../lib/wrap.h"

#include <stdio.h>
#include <string.h>

/* --names: a registry's names, one a line, for scripts (the tests, the
 * man page and completion generators): the listing's text wraps. */
#define PUT_NAMES(reg) for (int i_ = 0; (reg)[i_]; i_++) puts((reg)[i_]->name)

/* The listings take one option or none, each alone: their tables give
 * --help, the man page and completion; the forms are checked below. */
static const struct opt policies_table[] = {
	{ "--tunables", NULL, OPT_STR, 0, "POLICY", .help = "that policy's tunables and their defaults" },
	{ "--names", NULL, OPT_FLAG, 0, .help = "only the policies' names, one a line" },
	{ .kind = OPT_END },
};

const struct opt_cmd policies_cmd = {
	.name = "policies",
	.usage =
"usage: pagelab policies [--tunables POLICY | --names]\n"
"List every reclaim policy with its one-line summary, or one policy's\n"
"tunables (settable with pagelab run --set NAME=VALUE) with their defaults.\n",
	.opts = policies_table,
	.col = 21,
};

static const struct opt workloads_table[] = {
	{ "NAME [--help]", .kind = OPT_POS, .help = "that workload's options and what it models" },
	{ "--names", NULL, OPT_FLAG, 0, .help = "only the workloads' names, one a line" },
	{ .kind = OPT_END },
};

const struct opt_cmd workloads_cmd = {
	.name = "workloads",
	.usage =
"usage: pagelab workloads [NAME [--help] | --names]\n"
"List the workloads, or show one workload's options and what it models.\n",
	.opts = workloads_table,
	.col = 17,
};

static const struct opt machines_table[] = {
	{ "--show", NULL, OPT_STR, 0, "NAME", .help = "every parameter of that profile" },
	{ "--names", NULL, OPT_FLAG, 0, .help = "only the profiles' names, one a line" },
	{ .kind = OPT_END },
};

const struct opt_cmd machines_cmd = {
	.name = "machines",
	.usage =
"usage: pagelab machines [--show NAME | --names]\n"
"List the machine profiles, or every parameter of one (each settable with\n"
"pagelab run --set NAME=VALUE).  Disk models for --disk are listed too.\n",
	.opts = machines_table,
	.col = 15,
};

/* --help or -h as the first argument. */
static bool wants_help(int argc, char **argv, const struct opt_cmd *c)
{
	if (argc < 2 || (strcmp(argv[1], "--help") && strcmp(argv[1], "-h")))
		return false;
	opt_usage(c, stdout);
	return true;
}

int cmd_policies(int argc, char **argv)
{
	if (wants_help(argc, argv, &policies_cmd))
		return 0;
	if (argc == 2 && !strcmp(argv[1], "--names")) {
		PUT_NAMES(policy_registry);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--tunables")) {
		if (argc != 3)
			die_usage("policies --tunables needs exactly one policy name");
		char err[512];
		const struct policy_ops *p = policy_lookup(argv[2], err, sizeof(err));
		if (!p)
			die_usage("%s", err);
		int n = policy_nr_tunables(p);
		if (!n) {
			printf("%s has no tunables\n", p->name);
			return 0;
		}
		/* One row per tunable: name and default, then the kernel's name
		 * for it and what it does, wrapped under each other. */
		printf("%-24s %-10s %s\n", "TUNABLE", "DEFAULT", "KERNEL NAME; MEANING");
		for (int i = 0; i < n; i++) {
			const struct tunable *t = &p->tunables[i];
			char left[64];
			snprintf(left, sizeof(left), "%-24s %-10g", t->name, t->def);
			wrap_row(stdout, left, 36, t->kernel_name, "", WRAP_WIDTH);
			if (t->help && *t->help)
				wrap_row(stdout, "", 38, t->help, "", WRAP_WIDTH);
		}
		return 0;
	}
	if (argc > 1)
		die_usage("policies: unexpected argument '%s'", argv[1]);
	printf("%-10s %s\n", "POLICY", "SUMMARY");
	for (int i = 0; policy_registry[i]; i++)
		wrap_row(stdout, policy_registry[i]->name, 11, policy_registry[i]->summary, "", WRAP_WIDTH);
	return 0;
}

int cmd_workloads(int argc, char **argv)
{
	if (wants_help(argc, argv, &workloads_cmd))
		return 0;
	if (argc == 2 && !strcmp(argv[1], "--names")) {
		PUT_NAMES(workload_registry);
		return 0;
	}
	if (argc >= 2) {
		const struct workload_ops *w = workload_find(argv[1]);
		if (!w)
			die_usage("unknown workload '%s' (see pagelab workloads)", argv[1]);
		if (argc > 3 || (argc == 3 && strcmp(argv[2], "--help") && strcmp(argv[2], "-h")))
			die_usage("workloads: unexpected argument '%s'", argv[2]);
		w->help(stdout);
		return 0;
	}
	printf("%-10s %s\n", "WORKLOAD", "SUMMARY");
	for (int i = 0; workload_registry[i]; i++)
		wrap_row(stdout, workload_registry[i]->name, 11, workload_registry[i]->summary, "", WRAP_WIDTH);
	return 0;
}

int cmd_machines(int argc, char **argv)
{
	if (wants_help(argc, argv, &machines_cmd))
		return 0;
	if (argc == 2 && !strcmp(argv[1], "--names")) {
		PUT_NAMES(profile_presets);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--show")) {
		if (argc != 3)
			die_usage("machines --show needs exactly one machine name");
		char err[512];
		const struct profile *p = runspec_find_machine(argv[2], err, sizeof(err));
		if (!p)
			die_usage("%s", err);
		profile_print(p, stdout);
		return 0;
	}
	if (argc > 1)
		die_usage("machines: unexpected argument '%s'", argv[1]);
	printf("%-14s %s\n", "MACHINE", "DESCRIPTION");
	for (int i = 0; profile_presets[i]; i++)
		wrap_row(stdout, profile_presets[i]->name, 15, profile_presets[i]->description, "", WRAP_WIDTH);
	printf("\ndisk models (--disk):");
	for (int i = 0; disk_presets[i]; i++)
		printf(" %s", disk_presets[i]->model);
	printf("\n");
	return 0;
}
