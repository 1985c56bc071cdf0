/* html.h - `pagelab reproduce --html FILE`: one self-contained HTML page
 * (inline CSS and SVG; no script, no network) that reads as a report: the
 * tally and what to expect, then per experiment its verdicts with the
 * thread's figures against pagelab's and both ratios as bars, the
 * timelines of every design from the vmstat samples (free memory, swap
 * out, swap in, pages scanned, and a workload's residency where the
 * experiment samples one; each on its own value axis), and folded away
 * the text report's tables and the machine's parameters. */
#ifndef PAGELAB_HTML_H
#define PAGELAB_HTML_H

#include <stdio.h>
#include "experiment.h"
#include "../report/htmlpage.h"

/* builtin: the experiments are the built-in ones, whose expected verdicts
 * docs/reproduce.md lists (the page says so). */
void html_report(struct exp_result **res, const struct html_provenance *pv, bool builtin, FILE *out);

#endif
