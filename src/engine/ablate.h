/* ablate.h - `pagelab ablate`: a design with its mechanisms turned off one
 * at a time (or two at a time), each variant run over seeds as a sweep's
 * cells and compared with the full design as `pagelab compare` does
 * (compare.h: the same means, % changes and significance tests).
 *
 * A mechanism switch is, by the policies' convention (docs/policies.md,
 * "Mechanism switches"), a whole-number tunable with min 0, max 1 and
 * default 1: 1 is the kernel's code, 0 the design without that mechanism.
 * A variant is the full design with some switches at 0. */
#ifndef PAGELAB_ABLATE_H
#define PAGELAB_ABLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "../policy/policy.h"

/* Whether t is a mechanism switch (min 0, max 1, default 1). */
bool ablate_is_switch(const struct tunable *t);

/* The switches of pol, in its tunables' order: their tunable indices in
 * idx (room for policy_nr_tunables(pol)); how many. */
int ablate_switches(const struct policy_ops *pol, int *idx);

#define ABLATE_MAX_OFF 2   /* switches off in one variant: one, or a pair */

struct ablate_variant {
	int n;                      /* 0: the full design */
	int off[ABLATE_MAX_OFF];    /* tunable indices set to 0 */
};

/* The variants of an ablation: the full design first, then each switch
 * of `list` (comma-separated names; NULL: every switch of pol) off alone,
 * then with `pairs` every pair of them in list order.  False with one
 * line in err: a name that is no tunable, a tunable that is no switch, a
 * name given twice, an empty list, a policy without switches.  *v is
 * freed with free(). */
bool ablate_variants(const struct policy_ops *pol, const char *list, bool pairs, struct ablate_variant **v, int *n,
		     char *err, size_t errlen);

/* The figures of an ablation, NULL-terminated, into a new array (free
 * the array only: the names are static, record.h's or figures'):
 * elapsed_s, each workload's own time (elapsed_s.K) when there are
 * several, the workloads' figures of merit (`figures`, NULL-terminated,
 * or NULL: record_figure_columns() of the runs: read_iops, p99_ms...),
 * major faults, refaults, pgscan, pgsteal, then every row of reclaim's
 * work (src/mm/work.h) the design counts. */
const char **ablate_metrics(int nr_wl, char *const *figures);

/* How many runs of design in config (records rs) had a workload
 * OOM-killed. */
int ablate_killed(const struct records *rs, const char *config, const char *design);

/* The tables (one per configuration, from rs) in the ablation's shape,
 * within 80 columns: the designs with an OOM kill, then per figure (a
 * workload's figure of merit says which way is better) a row for the
 * full design and one per variant, the mean and standard
 * deviation over seeds, the % change against the full design, the
 * test's p and '*' where p < CMP_ALPHA.  A figure that is 0 in every run
 * is left out, its name listed at the end; `policy` the design's name. */
void ablate_print_text(const struct cmp_table *t, int n, const struct records *rs, const char *policy, FILE *out);

#endif
