/* html_compare.h - `pagelab compare RESULTS --html FILE`: compare.h's
 * tables as a self-contained page (src/report/htmlpage.h).  Per
 * configuration, the compare-kernels table (mean ± stddev, % change
 * against the baseline, * where significant) and per figure a bar chart:
 * each design's mean with its 95% interval as a whisker, the baseline's
 * interval shaded across, the % change printed at each bar's end and a
 * '*' where the difference is significant (p < CMP_ALPHA). */
#ifndef PAGELAB_HTML_COMPARE_H
#define PAGELAB_HTML_COMPARE_H

#include <stdio.h>

#include "compare.h"
#include "../report/htmlpage.h"

/* rs: the results t was computed from, for their machine parameters. */
void compare_html(FILE *out, const struct cmp_table *t, int n, const struct records *rs,
		  const struct html_provenance *pv);

#endif
