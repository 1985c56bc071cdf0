/* timeline.c - see timeline.h. */
#include "timeline.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>

static double value(const struct run_result *rr, uint64_t i, const struct vmstat_sample *s, enum tl_fig f)
{
	switch (f) {
	case TL_FREE: return (double)s->free / 1024.0;
	case TL_SWPD: return (double)s->swpd / 1024.0;
	case TL_SI: return (double)s->si;
	case TL_SO: return (double)s->so;
	case TL_SCAN: return (double)s->scan;
	case TL_INACT: return (double)s->inact / 1024.0;
	case TL_ACTIVE: return (double)s->active / 1024.0;
	case TL_US: return s->us;
	case TL_SY: return s->sy;
	case TL_WA: return s->wa;
	case TL_RESIDENT: return rr->resident_kb ? (double)rr->resident_kb[i] / 1024.0 : 0;
	case TL_CG0: break;
	}
	if (f >= TL_CG0 && f - TL_CG0 < (int)(sizeof(s->cg_kb) / sizeof(s->cg_kb[0])))
		return (double)s->cg_kb[f - TL_CG0] / 1024.0;
	return 0;
}

void timeline_draw(const struct run_result *rr, const struct tl_line *v, int n, uint64_t stride)
{
	struct run_sample_iter it;
	uint64_t nr, every;
	struct vmstat_sample s;
	run_timeline_rewind(rr, &it, &nr, &every);
	for (uint64_t i = 0; run_sample_next(&it, &s); i++)
		for (int k = 0; k < n && i % stride == 0; k++)
			chart_point(v[k].c, v[k].k, (double)s.t / 1e9, value(rr, i, &s, v[k].f), NAN, NAN, NULL);
}

void timeline_stop_marks(struct chart *c, const struct run_result *rr, const char *label)
{
	char t[600];
	for (int w = 0; w < rr->nr_wl; w++) {
		const struct wl_result *x = run_wl_c(rr, w);
		if (!x->tf.killed)
			continue;
		double at = (double)x->end_ns / 1e9;
		if (label)
			snprintf(t, sizeof(t), "%s: %s OOM-killed at %.3g s", label, x->cmd, at);
		else
			snprintf(t, sizeof(t), "%s %s at %.3f s", x->cmd,
				 x->signal == SIGBUS ? "killed by SIGBUS" : "OOM-killed", at);
		chart_mark(c, CHART_MARK_OOM, at, NAN, -1, t);
	}
	if (rr->timed_out) {
		if (label)
			snprintf(t, sizeof(t), "%s: stopped at --max-time, %.3g s", label, (double)rr->sim_ns / 1e9);
		else
			snprintf(t, sizeof(t), "stopped at --max-time %.9g s", (double)rr->max_time_ns / 1e9);
		chart_mark(c, CHART_MARK_MAXTIME, (double)rr->sim_ns / 1e9, NAN, -1, t);
	}
}
