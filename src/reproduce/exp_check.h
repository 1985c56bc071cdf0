/* exp_check.h - an experiment file's workload lines and machine settings
 * checked when the file is read (exp_file.c), by the parsers the runs
 * will use: a line no run could start is a FILE:LINE error and exit 2,
 * not a run reported as "n/a" with exit status 0. */
#ifndef PAGELAB_EXP_CHECK_H
#define PAGELAB_EXP_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "../machine/machine.h"

/* The workload command line tmpl ("usemem -m {M:1000}"), its template
 * expanded at scale, through the workload's own parser: false with one
 * line in err. */
bool exp_check_workload(const char *tmpl, double scale, char *err, size_t errlen);
/* The settings tmpl ("ram={S:836M} swap=64M memcg=64M") expanded at scale
 * and set on p (the experiment's machine) and mo (its cgroup), as a run
 * sets them. */
bool exp_check_machine_sets(struct profile *p, struct machine_opts *mo, const char *tmpl, double scale, char *err,
			    size_t errlen);

#endif
