/* exp_cgroup.c - the metric function `custom:cgroup:PATH:FILE` of
 * experiment files: one figure of a --cgroup tree's cgroup at the end of
 * the run (memory.events.low, memory.stat.workingset_refault_anon,
 * memory.peak in MB...: report_cgroup_file(), src/report/cgreport.c).
 * n/a when the run has no such cgroup or file. */
#include "exp_named.h"
#include "../report/report.h"

#include <stdio.h>
#include <string.h>

static bool cgroup_metric(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
			  double *v)
{
	(void)r;
	const char *colon = mt->arg ? strchr(mt->arg, ':') : NULL;
	if (!colon)
		return false;
	char path[64];
	snprintf(path, sizeof(path), "%.*s", (int)(colon - mt->arg), mt->arg);
	return report_cgroup_file(rr, path, colon + 1, v);
}

const struct exp_named_metric exp_cgroup_metric_fns[] = {
	{ "cgroup", cgroup_metric },
	{ NULL, NULL },
};
