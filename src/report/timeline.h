/* timeline.h - a run's figures against simulated time, drawn from its
 * run_result (result.h) onto line charts (chart.h), with where the run
 * was cut short: the timelines of `pagelab run --html` (html_run.c) and
 * of reproduce's report (src/reproduce/html.c) are drawn here. */
#ifndef PAGELAB_TIMELINE_H
#define PAGELAB_TIMELINE_H

#include "chart.h"
#include "result.h"

/* A figure of a sample, in the unit its chart shows. */
enum tl_fig {
	TL_FREE, TL_SWPD,         /* MB */
	TL_SI, TL_SO,             /* KB/s */
	TL_SCAN,                  /* pages/s */
	TL_INACT, TL_ACTIVE,      /* MB */
	TL_US, TL_SY, TL_WA,      /* % */
	TL_RESIDENT,              /* MB: the sampled workload's resident set */
	TL_CG0,                   /* MB: cgroup 0's memory.current; cgroup c's is TL_CG0 + c */
};

/* One line to draw: figure f of the run onto series k of chart c. */
struct tl_line {
	struct chart *c;
	int k;
	enum tl_fig f;
};

/* Every stride-th sample of rr's timeline series (run_timeline_rewind())
 * onto each of the n lines, in one pass over the samples. */
void timeline_draw(const struct run_result *rr, const struct tl_line *v, int n, uint64_t stride);

/* Where the run was cut short, on chart c: a cross at the time a workload
 * was killed (its last task's end), a flag at --max-time.  label: the
 * design's name on a chart of several runs (reproduce), or NULL for a
 * run's own page. */
void timeline_stop_marks(struct chart *c, const struct run_result *rr, const char *label);

#endif
