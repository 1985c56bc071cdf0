/* html_compare.h - the one page of pagelab's comparisons, both written
 * by compare_html() in a self-contained page (src/report/htmlpage.h):
 *
 * - `pagelab compare RESULTS --html FILE`: compare.h's tables.  Per
 *   configuration, the compare-kernels table (mean ± stddev, % change
 *   against the baseline, * where significant) and per figure a bar
 *   chart: each design's mean with its 95% interval as a whisker, the
 *   baseline's interval shaded across, the % change printed at each bar's
 *   end and a '*' where the difference is significant (p < CMP_ALPHA).
 * - `pagelab compare --html FILE -- WORKLOAD`: with the kernel's columns
 *   (kcompare.h's tables).  Per policy, the kernel's median and min..max
 *   beside pagelab's, the ratio, whether it is within the tolerance and
 *   the test's p, and a chart of pagelab/kernel for every counter both
 *   sides count, on a log2 axis (1/2 and 2 are the same distance from
 *   agreement), the tolerance as a shaded band and the kernel's min..max
 *   over its runs as a whisker.
 *
 * - `pagelab compare --matrix FILE --html FILE`: the heat map below.
 *
 * All share the page's frame, its style, the sections (one per table:
 * a heading, the table, its charts) and the tables' markup. */
#ifndef PAGELAB_HTML_COMPARE_H
#define PAGELAB_HTML_COMPARE_H

#include <stdio.h>

#include "compare.h"
#include "kcompare.h"
#include "kmatrix.h"
#include "../report/htmlpage.h"

/* The kernel's columns: the host kernel against the simulator. */
struct cmp_html_kernel {
	const struct kcmp *x;
	const struct kcmp_setup *s;
	const char *cmd;   /* the workloads' words */
};

/* t, n: the records comparison's tables (none with kernel); rs: the
 * results they were computed from, for their machine parameters, or NULL;
 * kernel: the kernel comparison's, or NULL. */
void compare_html(FILE *out, const struct cmp_table *t, int n, const struct records *rs,
		  const struct cmp_html_kernel *kernel, const struct html_provenance *pv);

/* `pagelab compare --matrix FILE --html PAGE`: per design its strict
 * count and a heat map, a row per case and a column per counter (and the
 * two times), each cell the simulated median over the kernel's coloured
 * by how far it is: green within the tolerance, red above, blue below,
 * darker to a factor of 8 (log2), grey where both are under the floor. */
void compare_html_matrix(FILE *out, const struct kmatrix *m, const struct html_provenance *pv);

#endif
