/* cell.c - one simulation of the run matrix: its run spec (runspec.h)
 * from the cell's command lines, run by the one runner.  The seed of
 * workload i is the cell's seed + i, as `pagelab run` gives them, so a
 * cell's figures are those of its `pagelab run` command line. */
#include "cell.h"
#include "runspec.h"
#include "../policy/policy.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cell_split_args(char *s, char **argv, int max)
{
	int n = 0;
	char *save = NULL;
	for (char *tok = strtok_r(s, " ", &save); tok && n < max; tok = strtok_r(NULL, " ", &save))
		argv[n++] = tok;
	return n;
}

/* The cell's spec: its machine and cgroup as the matrix sized them, its
 * workloads created; false (with a message) if this build lacks one or
 * it rejects its command line. */
static bool cell_spec(const struct cell *c, struct runspec *s, char *err, size_t errlen)
{
	runspec_init(s, &c->prof, c->pol);
	memcpy(s->tun, c->tun, (size_t)policy_nr_tunables(c->pol) * sizeof(double));
	s->mo = c->mo;
	s->mo.progress = false;
	s->sized = true;
	s->residency_wl = c->residency_wl;
	for (int i = 0; i < c->nr_wl; i++) {
		if (!runspec_add_cmdline(s, c->wl[i], err, errlen)) {
			runspec_free(s);
			return false;
		}
	}
	memcpy(s->start_ns, c->start_ns, sizeof(c->start_ns));
	return true;
}

bool cell_check(const struct cell *c, char *err, size_t errlen)
{
	struct runspec s;
	if (!cell_spec(c, &s, err, errlen))
		return false;
	runspec_free(&s);
	return true;
}

void cell_run(const struct cell *c, struct run_result *rr)
{
	char err[1200];
	struct runspec s;
	if (!cell_spec(c, &s, err, sizeof(err))) {
		rr->why = xstrdup(err);
		return;
	}
	runspec_run(&s, rr);
	runspec_free(&s);
}
