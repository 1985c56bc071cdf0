/* exp_check.c - see exp_check.h. */
#include "../engine/runspec.h"
#include "exp_check.h"
#include "../engine/cell.h"
#include "experiment.h"
#include "../workload/workload.h"

#include <stdio.h>
#include <string.h>

bool exp_check_workload(const char *tmpl, double scale, char *err, size_t errlen)
{
	struct exp_result r = { .scale = scale };
	char line[1024], werr[300] = "";
	exp_expand(&r, tmpl, line, sizeof(line));
	char *argv[128];
	int argc = cell_split_args(line, argv, 127);
	argv[argc] = NULL;
	if (!argc) {
		snprintf(err, errlen, "empty workload line");
		return false;
	}
	const struct workload_ops *ops = workload_find(argv[0]);
	if (!ops) {
		snprintf(err, errlen, "no workload named '%.100s' (see pagelab workloads)", argv[0]);
		return false;
	}
	/* A last word @PATH places it in a cgroup (cgspec.h): not the
	 * workload's; the cgroup is looked up when the run is built. */
	if (argc > 1 && argv[argc - 1][0] == '@')
		argv[--argc] = NULL;
	/* Created and destroyed at once: creating parses, a workload does
	 * its work only when the machine asks for its ops (but for those
	 * with a check()). */
	void *w = ops->check ? NULL : ops->create(argc, argv, 1, werr, sizeof(werr));
	if (ops->check ? !ops->check(argc, argv, werr, sizeof(werr)) : !w) {
		snprintf(err, errlen, "workload '%.300s': %s", tmpl, werr[0] ? werr : "bad arguments");
		return false;
	}
	if (w)
		ops->destroy(w);
	return true;
}

bool exp_check_machine_sets(struct profile *p, struct machine_opts *mo, const char *tmpl, double scale, char *err,
			    size_t errlen)
{
	struct exp_result r = { .scale = scale };
	char line[512], why[300];
	exp_expand(&r, tmpl, line, sizeof(line));
	char *argv[32];
	int n = cell_split_args(line, argv, 32);
	for (int i = 0; i < n; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq)
			continue;      /* refused by the reader already */
		*eq = 0;
		if (runspec_set_machine(p, mo, argv[i], eq + 1, why, sizeof(why)) == RS_SET_BAD) {
			snprintf(err, errlen, "machine-set '%.200s': %s", tmpl, why);
			return false;
		}
	}
	return true;
}
