/* html_sweep.h - `pagelab sweep --html FILE`: a sweep's results as a
 * self-contained page (src/report/htmlpage.h).  One chart per figure (the
 * CSV's, record_csv_metrics), every design on the same axes against the
 * swept parameter - the first axis after the policy with more than one
 * value (RAM, swap, a --set ...) - as the mean over seeds with its 95%
 * interval; a sweep of designs alone gets bars.  A group of cells in which
 * a workload was OOM-killed gets a cross, one stopped at --max-time a
 * flag, each with how many seeds it was. */
#ifndef PAGELAB_HTML_SWEEP_H
#define PAGELAB_HTML_SWEEP_H

#include <stdio.h>

#include "record.h"
#include "../report/htmlpage.h"

void sweep_html(FILE *out, const struct records *rs, const char *const *axis_names, int nr_axes,
		const struct html_provenance *pv);

/* Every machine parameter of the results, as --json recorded them: one
 * table per configuration (machine options and workloads) among rs, at
 * most 16, from its first record that ran. */
void html_records_params(FILE *out, const struct records *rs);

#endif
