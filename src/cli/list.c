/* list.c - pagelab policies / workloads / machines. */
#include "cli.h"
#include "../policy/policy.h"
#include "../workload/workload.h"
#include "../machine/profile.h"
#include "../lib/util.h"

#include <stdio.h>
#include <string.h>

int cmd_policies(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: pagelab policies [--tunables POLICY]\n"
		     "List every reclaim policy with its one-line summary, or one policy's\n"
		     "tunables (settable with pagelab run --set NAME=VALUE) with their defaults.");
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--tunables")) {
		if (argc != 3)
			die_usage("policies --tunables needs exactly one policy name");
		const struct policy_ops *p = policy_find(argv[2]);
		if (!p)
			die_usage("unknown policy '%s' (see pagelab policies)", argv[2]);
		int n = policy_nr_tunables(p);
		if (!n) {
			printf("%s has no tunables\n", p->name);
			return 0;
		}
		for (int i = 0; i < n; i++) {
			const struct tunable *t = &p->tunables[i];
			printf("%-24s %-10g %-40s %s\n", t->name, t->def, t->kernel_name, t->help);
		}
		return 0;
	}
	if (argc > 1)
		die_usage("policies: unexpected argument '%s'", argv[1]);
	for (int i = 0; policy_registry[i]; i++)
		printf("%-10s %s\n", policy_registry[i]->name, policy_registry[i]->summary);
	return 0;
}

int cmd_workloads(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: pagelab workloads [NAME [--help]]\n"
		     "List the workloads, or show one workload's options and what it models.");
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
	for (int i = 0; workload_registry[i]; i++)
		printf("%-10s %s\n", workload_registry[i]->name, workload_registry[i]->summary);
	return 0;
}

int cmd_machines(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: pagelab machines [--show NAME]\n"
		     "List the machine profiles, or every parameter of one (each settable with\n"
		     "pagelab run --set NAME=VALUE).  Disk models for --disk are listed too.");
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--show")) {
		if (argc != 3)
			die_usage("machines --show needs exactly one machine name");
		const struct profile *p = profile_find(argv[2]);
		if (!p)
			die_usage("unknown machine '%s' (see pagelab machines)", argv[2]);
		profile_print(p, stdout);
		return 0;
	}
	if (argc > 1)
		die_usage("machines: unexpected argument '%s'", argv[1]);
	for (int i = 0; profile_presets[i]; i++)
		printf("%-14s %s\n", profile_presets[i]->name, profile_presets[i]->description);
	printf("\ndisk models (--disk):");
	for (int i = 0; disk_presets[i]; i++)
		printf(" %s", disk_presets[i]->model);
	printf("\n");
	return 0;
}
