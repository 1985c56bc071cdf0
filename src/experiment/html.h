/* html.h - `pagelab reproduce --html FILE`: one self-contained HTML page
 * (inline CSS and SVG; no script, no network) with each experiment's tables
 * and verdicts and, per design, timelines from the vmstat samples: free
 * memory, swap in/out, pages scanned, and a workload's residency where the
 * experiment samples one. */
#ifndef PAGELAB_HTML_H
#define PAGELAB_HTML_H

#include <stdio.h>
#include "experiment.h"
#include "../report/htmlpage.h"

void html_report(struct exp_result **res, const struct html_provenance *pv, FILE *out);

#endif
