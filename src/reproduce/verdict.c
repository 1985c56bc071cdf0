/* verdict.c - reading an experiment's figures back: a metric's value for
 * a design (the mean over the repeats that have it) and each comparison's
 * verdict against the thread's (the ratio, its interval over the seeds,
 * agree / disagree / too noisy). */
#include "experiment.h"
#include "../engine/stats.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- metrics ------------------------------------------------------------ */

static bool run_metric(const struct exp_result *r, const struct exp_metric *mt,
		       const struct run_result *rr, double *v)
{
	if (!rr->available || mt->wl >= rr->nr_wl)
		return false;
	const struct wl_result *w = &rr->wl[mt->wl];
	bool wl_done = w->done;
	switch (mt->kind) {
	case MK_ELAPSED: *v = w->tf.elapsed; return wl_done && !w->tf.killed;
	case MK_USER: *v = w->tf.user; return wl_done && !w->tf.killed;
	case MK_SYS: *v = w->tf.sys; return wl_done && !w->tf.killed;
	case MK_CPU_PCT: *v = w->tf.cpu_pct; return wl_done && !w->tf.killed;
	case MK_MAJFLT: *v = (double)w->tf.majflt; return true;
	case MK_MINFLT: *v = (double)w->tf.minflt; return true;
	case MK_SWAPS: *v = (double)w->tf.swaps; return true;
	case MK_COUNTER:
		for (int i = 0; i < NR_VM_EVENTS; i++)
			if (!strcmp(vm_event_names[i], mt->arg)) {
				*v = (double)rr->ev[i];
				return true;
			}
		return false;
	case MK_SWAP_PEAK_MB: *v = (double)rr->swap_peak_kb / 1024.0; return true;
	case MK_KTHREAD_CPU: *v = rr->kthread_cpu_s; return true;
	case MK_CUSTOM: return mt->fn(r, mt, rr, v);
	}
	return false;
}

bool exp_metric_value(const struct exp_result *r, int design, int metric, double *v)
{
	const struct exp_metric *mt = &r->e->metrics[metric];
	int run = exp_run_index(r->e, mt->run);
	if (run < 0)
		panic("experiment %d: metric %s names no run", r->e->id, mt->key);
	double sum = 0;
	int n = 0;
	for (int k = 0; k < exp_reps(r, run); k++) {
		double x;
		if (run_metric(r, mt, exp_rr(r, design, run, k), &x)) {
			sum += x;
			n++;
		}
	}
	if (!n)
		return false;
	*v = sum / n;
	return true;
}

/* ---- verdicts ----------------------------------------------------------- */

const char *const verdict_names[] = { "agree", "disagree", "n/a", "too noisy" };

/* -1: b smaller, 0: tie, 1: b larger. */
static int direction(double ratio, double tie)
{
	if (ratio > 1 + tie)
		return 1;
	if (ratio < 1 / (1 + tie))
		return -1;
	return 0;
}

static double ratio_of(double a, double b)
{
	if (a <= 0)
		return b > 0 ? INFINITY : 1;
	return b / a;
}

static const char *why_missing(const struct exp_result *r, int design, int metric)
{
	const struct exp_metric *mt = &r->e->metrics[metric];
	int run = exp_run_index(r->e, mt->run);
	const struct run_result *rr = exp_rr(r, design, run, 0);
	if (!rr->available)
		return rr->why ? rr->why : "not run";
	if (mt->wl < rr->nr_wl && rr->wl[mt->wl].tf.killed)
		return "killed by OOM";
	if (rr->timed_out)
		return "stopped at the simulated time limit";
	if (mt->wl < rr->nr_wl && !rr->wl[mt->wl].done)
		return "the workload did not finish";
	if (!rr->finished)
		return "the run did not finish";
	return "the figure is not in the workload's output";
}

/* The 95% interval of the ratio b / a over the seeds both designs ran:
 * each repeat's seed is the same for every design, so the ratios pair up;
 * their logarithms' mean +- t(0.975, n - 1) standard errors, back on the
 * ratio scale.  One seed gives a point. */
static void ratio_interval(const struct exp_result *r, const struct exp_comparison *cm, int da, int db, int mi,
			   struct cmp_outcome *out)
{
	const struct exp_metric *mt = &r->e->metrics[mi];
	int run = exp_run_index(r->e, mt->run);
	double lr[64];
	int n = 0;
	double fl = cm->floor * r->scale;
	for (int k = 0; k < exp_reps(r, run) && n < 64; k++) {
		double a = 1, b;
		if (da >= 0 && !run_metric(r, mt, exp_rr(r, da, run, k), &a))
			continue;
		if (!run_metric(r, mt, exp_rr(r, db, run, k), &b))
			continue;
		a = a < fl ? fl : a;
		b = b < fl ? fl : b;
		double x = ratio_of(a, b);
		if (!(x > 0) || !isfinite(x))
			continue;
		lr[n++] = log(x);
	}
	out->nr_seeds = n;
	out->lo = out->hi = out->sim_ratio;
	if (n < 2)
		return;
	struct summary s = summarize(lr, n);
	double h = t_quantile(0.975, n - 1) * s.sd / sqrt(n);
	out->lo = exp(s.mean - h);
	out->hi = exp(s.mean + h);
}

/* CMP_FIGURE: one design's figure against the one its thread published
 * (no second design): agree when the published figure is within x(1+tol)
 * of pagelab's interval over the seeds (of the point, with one seed).
 * The "ratio" printed is pagelab's over the thread's, sim_a the thread's. */
static void figure_verdict(const struct exp_result *r, const struct exp_comparison *cm, int db, int mi,
			   struct cmp_outcome *out)
{
	const struct exp_published *pb = exp_published_find(r->e, cm->b, cm->metric);
	double pub = pb->value;
	out->sim_a = pub;
	out->pub_ratio = 1;
	out->sim_ratio = ratio_of(pub, out->sim_b);
	ratio_interval(r, cm, -1, db, mi, out); /* the figure's own interval */
	double lo = out->nr_seeds > 1 ? fmin(out->lo, out->sim_b) : out->sim_b;
	double hi = out->nr_seeds > 1 ? fmax(out->hi, out->sim_b) : out->sim_b;
	out->lo = ratio_of(pub, lo);
	out->hi = ratio_of(pub, hi);
	double lr = pub < lo ? log(lo / pub) : pub > hi ? log(pub / hi) : 0;
	bool close = isfinite(lr) && lr <= log(1 + cm->tol) + 1e-12;
	out->v = close ? V_AGREE : V_DISAGREE;
	snprintf(out->note, sizeof(out->note), close ? "within x%.2f of the thread's figure"
		 : "not within x%.2f of the thread's figure", 1 + cm->tol);
}

void exp_compare(const struct exp_result *r, int c, struct cmp_outcome *out)
{
	const struct experiment *e = r->e;
	const struct exp_comparison *cm = &e->cmps[c];
	memset(out, 0, sizeof(*out));
	out->v = V_NA;
	out->pub_ratio = out->sim_ratio = NAN;
	int mi = exp_metric_index(e, cm->metric);
	int da = exp_design_index(e, cm->a), db = exp_design_index(e, cm->b);
	if (mi < 0 || db < 0 || (cm->a && da < 0))
		panic("experiment %d: comparison %d names an unknown metric or design", e->id, c);
	const struct exp_metric *mt = &e->metrics[mi];
	const struct exp_published *pa = NULL, *pb = NULL;
	if (cm->kind == CMP_RATIO) {
		pa = exp_published_find(e, cm->a, cm->metric);
		pb = exp_published_find(e, cm->b, cm->metric);
		if (!pa || !pb || isnan(pa->value) || isnan(pb->value))
			panic("experiment %d: comparison %d lacks published figures", e->id, c);
		double qa = pa->value < cm->floor ? cm->floor : pa->value;
		double qb = pb->value < cm->floor ? cm->floor : pb->value;
		out->pub_ratio = ratio_of(qa, qb);
	}
	int dd[2] = { da, db };
	double sim[2] = { 0, 0 };
	for (int i = 0; i < 2; i++) {
		if (dd[i] < 0)
			continue;
		if (!r->design_ok[dd[i]]) {
			snprintf(out->note, sizeof(out->note), "%s", r->design_why[dd[i]]);
			return;
		}
	}
	for (int i = 0; i < 2; i++) {
		if (dd[i] < 0)
			continue;
		if (!exp_metric_value(r, dd[i], mi, &sim[i])) {
			snprintf(out->note, sizeof(out->note), "%s: %s", e->designs[dd[i]].label, why_missing(r, dd[i], mi));
			return;
		}
	}
	out->sim_a = sim[0];
	out->sim_b = sim[1];
	if (cm->kind == CMP_FIGURE) {
		figure_verdict(r, cm, db, mi, out);
		return;
	}
	double fl = cm->floor * r->scale;
	double a = sim[0] < fl ? fl : sim[0], b = sim[1] < fl ? fl : sim[1];
	out->sim_ratio = ratio_of(a, b);
	ratio_interval(r, cm, da, db, mi, out);
	int sdir = direction(out->sim_ratio, cm->tie);
	/* The interval reaches both sides of a tie: these seeds cannot say
	 * which design is better, let alone by how much. */
	bool noisy = out->nr_seeds > 1 && out->lo < 1 / (1 + cm->tie) && out->hi > 1 + cm->tie;
	/* "worse" in the metric's own sense */
	int worse = mt->higher_better ? -1 : 1;
	switch (cm->kind) {
	case CMP_RATIO: {
		int pdir = direction(out->pub_ratio, cm->tie);
		bool same = pdir == sdir;
		/* close: the thread's ratio within the tolerance of pagelab's
		 * interval over seeds (of the point, with one seed) */
		double lo = out->nr_seeds > 1 ? fmin(out->lo, out->sim_ratio) : out->sim_ratio;
		double hi = out->nr_seeds > 1 ? fmax(out->hi, out->sim_ratio) : out->sim_ratio;
		double lr = out->pub_ratio < lo ? log(lo / out->pub_ratio) : out->pub_ratio > hi ? log(out->pub_ratio / hi) : 0;
		bool close = isfinite(lr) && lr <= log(1 + cm->tol) + 1e-12;
		if (noisy) {
			out->v = V_NOISY;
			snprintf(out->note, sizeof(out->note), "too noisy to tell: the interval spans both winners");
			break;
		}
		const char *pw = pdir == 0 ? "a tie" : pdir == worse ? cm->a : cm->b;
		const char *sw = sdir == 0 ? "a tie" : sdir == worse ? cm->a : cm->b;
		if (same && close) {
			out->v = V_AGREE;
			snprintf(out->note, sizeof(out->note), "%s%s, ratio within x%.2f", pdir ? "winner " : "", pw, 1 + cm->tol);
		} else if (same) {
			out->v = V_DISAGREE;
			snprintf(out->note, sizeof(out->note), "same winner (%s) but ratio off by more than x%.2f", pw, 1 + cm->tol);
		} else {
			out->v = V_DISAGREE;
			snprintf(out->note, sizeof(out->note), "thread: %s%s; pagelab: %s%s", pdir ? "winner " : "", pw,
				 sdir ? "winner " : "", sw);
		}
		break;
	}
	case CMP_WORSE:
		if (noisy) {
			out->v = V_NOISY;
			snprintf(out->note, sizeof(out->note), "too noisy to tell: the interval spans both winners");
			break;
		}
		out->v = sdir == worse ? V_AGREE : V_DISAGREE;
		snprintf(out->note, sizeof(out->note), "%s %s than %s", cm->b,
			 sdir == worse ? "is worse" : "is not worse", cm->a);
		break;
	case CMP_NOT_WORSE: {
		bool ok = mt->higher_better ? out->sim_ratio >= 1 / (1 + cm->tol) : out->sim_ratio <= 1 + cm->tol;
		out->v = ok ? V_AGREE : V_DISAGREE;
		snprintf(out->note, sizeof(out->note), "%s %s %s by more than x%.2f", cm->b,
			 ok ? "is not worse than" : "is worse than", cm->a, 1 + cm->tol);
		break;
	}
	case CMP_FIGURE: /* figure_verdict() above */
		break;
	case CMP_ZERO:
	case CMP_NONZERO:
		out->sim_ratio = NAN;
		out->v = (sim[1] == 0) == (cm->kind == CMP_ZERO) ? V_AGREE : V_DISAGREE;
		snprintf(out->note, sizeof(out->note), "%s: %s = %g", cm->b, mt->name, sim[1]);
		break;
	}
}
