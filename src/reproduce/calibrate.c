/* calibrate.c - `reproduce --calibrate` (calibrate.h).
 *
 * Why it exists: a profile's CPU costs and disk figures are estimates from
 * the era's hardware (docs/machines.md), and where a thread's absolute
 * figures are far from pagelab's (akpm's 10 s of system time for usemem
 * against pagelab's 0.7 s), a verdict on a ratio may hinge on them.  This
 * asks the honest version of "what if the machine was different?": fit the
 * parameters the thread does not state to the figures it gives for the
 * baseline kernel alone, then predict the other kernels with them.
 *
 * The search is small and deterministic: coordinate descent over the
 * profile's unknown parameters, each a factor on the profile's value in
 * log2 space within 1/16 .. 16, by golden section (6 evaluations over the
 * whole range, then 3 over +-0.75 around the first pass's result), each
 * evaluation one run of each of the baseline's runs with the first seed.  The
 * objective is the mean squared log error of the baseline's figures plus
 * a small pull towards the profile's own value, so that a parameter no
 * figure depends on stays as it was.  A figure the baseline does not
 * produce at some setting (the run was OOM-killed or timed out) costs as
 * much as being off by x16.
 *
 * Quick mode: the published figures are at the thread's sizes.  Figures
 * where higher is better (throughput, %cpu, seeks/s) are rates and are
 * compared as they are; the others (times, counts, MB) are amounts and
 * are compared with published x the quick scale, which is how quick mode's
 * own figures relate to full mode's (roughly: docs/reproduce.md).
 * --full --calibrate fits at the threads' sizes. */
#include "calibrate.h"
#include "cpu_claim.h"
#include "../engine/json.h"
#include "../lib/util.h"
#include "../lib/output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RANGE_LOG2 4.0       /* factors 1/16 .. 16 */
#define PULL 1e-3            /* per (log factor)^2: the profile's value wins ties */
#define MISSING_COST 7.687   /* ln(16)^2: a missing figure is as bad as x16 off */
#define PASS1_EVALS 6
#define PASS2_EVALS 3
#define PASS2_HALF 0.75

static int baseline_design(const struct experiment *e)
{
	for (int d = 0; d < e->nr_designs; d++)
		if (e->designs[d].kind == DESIGN_THREAD)
			return d;
	return e->nr_designs ? 0 : -1;
}

/* The baseline's numeric published figures, with the floor of the
 * comparisons on the same metric. */
static void collect_figures(struct calib_result *c, const struct exp_result *r)
{
	const struct experiment *e = c->e;
	c->figs = xcalloc((size_t)e->nr_published + 1, sizeof(*c->figs));
	for (int i = 0; i < e->nr_published; i++) {
		const struct exp_published *p = &e->published[i];
		if (strcmp(p->design, c->baseline) || isnan(p->value))
			continue;
		int mi = exp_metric_index(e, p->metric);
		/* A CPU claim's figure is the same run's time rebuilt from its
		 * counted work: fitting it too would count that time twice. */
		if (mi < 0 || cpu_claim_metric(&e->metrics[mi]))
			continue;
		double floor = 0;
		for (int k = 0; k < e->nr_cmps; k++)
			if (!strcmp(e->cmps[k].metric, p->metric) && e->cmps[k].floor > floor)
				floor = e->cmps[k].floor;
		if (p->value <= 0 && floor <= 0)
			continue; /* a zero has no logarithm and nothing to scale */
		struct calib_figure *f = &c->figs[c->nr_figs++];
		f->metric = mi;
		f->published = p->value;
		f->target = e->metrics[mi].higher_better ? p->value : p->value * r->scale;
		f->floor = floor * r->scale;
		f->raw = f->fitted = NAN;
	}
}

/* Mean squared log error of the baseline's figures in r; each figure's
 * value into out[] (NAN where the run has none) if out is not NULL. */
static double figure_error(const struct calib_result *c, const struct exp_result *r, int d, bool raw)
{
	double sum = 0;
	for (int i = 0; i < c->nr_figs; i++) {
		struct calib_figure *f = &c->figs[i];
		double v;
		bool ok = exp_metric_value(r, d, f->metric, &v);
		if (raw)
			f->raw = ok ? v : NAN;
		else
			f->fitted = ok ? v : NAN;
		if (!ok) {
			sum += MISSING_COST;
			continue;
		}
		double q = log((fmax(v, 0) + f->floor) / (f->target + f->floor));
		sum += isfinite(q) ? q * q : MISSING_COST;
	}
	return c->nr_figs ? sum / c->nr_figs : 0;
}

static void set_factors(struct calib_result *c, const double *x)
{
	for (int i = 0; i < c->nr_params; i++)
		c->fit[i].factor = exp2(x[i]);
}

/* Run the experiment with the factors in c->fit: the baseline only
 * (only_baseline) or every design. */
static struct exp_result *run_with(struct calib_result *c, const struct reproduce_opts *o, bool only_baseline)
{
	struct reproduce_opts eo = *o;
	eo.only = 0;
	eo.progress = false;
	eo.only_design = only_baseline ? c->baseline : NULL;
	eo.factors = c->fit;
	eo.nr_factors = c->nr_params;
	eo.max_repeats = only_baseline ? 1 : 0;
	const struct experiment *list[2] = { c->e, NULL };
	struct exp_result **res = experiments_run(list, &eo);
	struct exp_result *r = res[0];
	free(res);
	return r;
}

static void result_free(struct exp_result *r)
{
	if (!r)
		return;
	struct exp_result **res = xcalloc(2, sizeof(*res));
	res[0] = r;
	experiments_free(res);
}

struct search {
	struct calib_result *c;
	const struct reproduce_opts *o;
	int d;          /* the baseline's index */
	int budget;     /* evaluations planned, for progress */
};

/* The objective at x: the figures' error plus the pull. */
static double evaluate(struct search *s, const double *x)
{
	struct calib_result *c = s->c;
	set_factors(c, x);
	struct exp_result *r = run_with(c, s->o, true);
	double err = figure_error(c, r, s->d, false);
	result_free(r);
	c->evals++;
	if (s->o->progress)
		fprintf(stderr, "\rpagelab reproduce --calibrate: experiment %d, run %d of %d ", c->e->id, c->evals,
			s->budget);
	double pull = 0;
	for (int i = 0; i < c->nr_params; i++)
		pull += x[i] * x[i];
	return err + PULL * pull;
}

/* Golden-section search of coordinate i over [lo, hi] with n evaluations;
 * x[i] ends at the best point seen (its current value included, whose
 * objective is *fx). */
static void golden(struct search *s, double *x, int i, double lo, double hi, int n, double *fx)
{
	const double g = (sqrt(5.0) - 1) / 2;
	double best = x[i], fbest = *fx;
	double a = lo, b = hi;
	double p = b - g * (b - a), q = a + g * (b - a), fp, fq;
	x[i] = p;
	fp = evaluate(s, x);
	x[i] = q;
	fq = evaluate(s, x);
	for (int k = 2; k < n && !output_interrupted(); k++) {
		if (fp <= fq) {
			b = q;
			q = p;
			fq = fp;
			p = b - g * (b - a);
			x[i] = p;
			fp = evaluate(s, x);
		} else {
			a = p;
			p = q;
			fp = fq;
			q = a + g * (b - a);
			x[i] = q;
			fq = evaluate(s, x);
		}
	}
	if (fp < fbest) { best = p; fbest = fp; }
	if (fq < fbest) { best = q; fbest = fq; }
	x[i] = best;
	*fx = fbest;
}

static struct calib_result *calibrate_one(const struct experiment *e, const struct reproduce_opts *o)
{
	struct calib_result *c = xcalloc(1, sizeof(*c));
	c->e = e;
	int d = baseline_design(e);
	const struct profile *prof = profile_find(e->profile);
	if (!prof)
		panic("experiment %d: no machine profile %s", e->id, e->profile);
	if (prof->unknown) {
		char buf[256];
		snprintf(buf, sizeof(buf), "%s", prof->unknown);
		char *save = NULL;
		for (char *t = strtok_r(buf, " ", &save); t && c->nr_params < CALIB_MAX_PARAMS;
		     t = strtok_r(NULL, " ", &save)) {
			uint64_t v;
			if (!profile_get_u64(prof, t, &v) || !v)
				panic("profile %s: unknown parameter %s is not a non-zero number", prof->name, t);
			snprintf(c->names[c->nr_params], sizeof(c->names[0]), "%s", t);
			c->fit[c->nr_params] = (struct param_factor){ c->names[c->nr_params], 1.0 };
			c->profile_value[c->nr_params] = (double)v;
			c->nr_params++;
		}
	}
	/* The raw run: every design with the profile's values (factors 1). */
	c->raw = run_with(c, o, false);
	if (d < 0) {
		c->why = "the experiment has no design";
		return c;
	}
	c->baseline = e->designs[d].label;
	collect_figures(c, c->raw);
	c->err_raw = figure_error(c, c->raw, d, true);
	if (!c->nr_params)
		c->why = "the machine profile marks no parameter unknown";
	else if (!c->nr_figs)
		c->why = "the thread gives no figure for the baseline";
	else if (!c->raw->design_ok[d])
		c->why = "the baseline's policy is not in this build";
	if (c->why) {
		c->err_fit = c->err_raw;
		return c;
	}
	double x[CALIB_MAX_PARAMS] = { 0 };
	struct search s = { c, o, d, 1 + c->nr_params * (PASS1_EVALS + PASS2_EVALS) };
	/* The search runs the first seed only (a deterministic objective at a
	 * fraction of the cost); the raw and fitted errors printed are over
	 * every seed. */
	double fx = evaluate(&s, x);
	for (int i = 0; i < c->nr_params && !output_interrupted(); i++)
		golden(&s, x, i, -RANGE_LOG2, RANGE_LOG2, PASS1_EVALS, &fx);
	for (int i = 0; i < c->nr_params && !output_interrupted(); i++)
		golden(&s, x, i, fmax(-RANGE_LOG2, x[i] - PASS2_HALF), fmin(RANGE_LOG2, x[i] + PASS2_HALF), PASS2_EVALS,
		       &fx);
	if (o->progress)
		fputc('\n', stderr);
	set_factors(c, x);
	c->cal = run_with(c, o, false);
	c->err_fit = figure_error(c, c->cal, d, false);
	return c;
}

struct calib_result **calibrate_run(const struct experiment *const *list, const struct reproduce_opts *o)
{
	int n = 0;
	while (list[n])
		n++;
	struct calib_result **cr = xcalloc((size_t)n + 1, sizeof(*cr));
	int k = 0;
	for (int i = 0; i < n && !output_interrupted(); i++)
		if (!o->only || list[i]->id == o->only)
			cr[k++] = calibrate_one(list[i], o);
	return cr;
}

void calibrate_free(struct calib_result **cr)
{
	for (int i = 0; cr && cr[i]; i++) {
		result_free(cr[i]->raw);
		result_free(cr[i]->cal);
		free(cr[i]->figs);
		free(cr[i]);
	}
	free(cr);
}

/* ---- output ------------------------------------------------------------- */

/* A parameter's value to three digits in a unit that suits it. */
static void fmt_param(const char *name, double v, char *buf, size_t len)
{
	const char *u = profile_param_unit(name);
	if (!u)
		u = "";
	if (!strcmp(u, "ps")) { /* cost.ref: shown in ns like the other costs */
		u = "ns";
		v /= 1000;
	}
	if (!strcmp(u, "ns"))
		snprintf(buf, len, v >= 1e6 ? "%.3g ms" : v >= 1e3 ? "%.3g us" : "%.3g ns",
			 v >= 1e6 ? v / 1e6 : v >= 1e3 ? v / 1e3 : v);
	else if (!strcmp(u, "bytes"))
		snprintf(buf, len, "%.3g MiB", v / 1048576);
	else if (!strcmp(u, "bytes/s"))
		snprintf(buf, len, "%.3g MiB/s", v / 1048576);
	else
		snprintf(buf, len, "%.3g", v);
}

static void fmt_fig(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1000 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

static void print_fit(const struct calib_result *c, FILE *out);

static void print_one(const struct calib_result *c, FILE *out, int *raw_counts, int *cal_counts)
{
	const struct experiment *e = c->e;
	const struct exp_result *r = c->raw;
	fprintf(out, "== Calibration, experiment %d: %s (%s) ==\n", e->id, e->slug,
		r->full ? "the thread's sizes" : "quick mode");
	const struct exp_result *cal = c->cal ? c->cal : c->raw;
	if (c->why)
		fprintf(out, "nothing fitted: %s\n", c->why);
	else
		print_fit(c, out);
	fprintf(out, "verdicts (ratio = second design / first), the profile's values -> fitted:\n");
	for (int k = 0; k < e->nr_cmps; k++) {
		struct cmp_outcome a, b;
		exp_compare(r, k, &a);
		exp_compare(cal, k, &b);
		raw_counts[a.v]++;
		cal_counts[b.v]++;
		const struct exp_comparison *cm = &e->cmps[k];
		char tr[16], ar[16], br[16];
		fmt_fig(tr, sizeof(tr), a.pub_ratio);
		fmt_fig(ar, sizeof(ar), a.sim_ratio);
		fmt_fig(br, sizeof(br), b.sim_ratio);
		fprintf(out, "  %.40s: %.30s%s%.30s\n", cm->metric, cm->b, cm->a ? " / " : "", cm->a ? cm->a : "");
		fprintf(out, "    thread %-6s raw %-6s %-10s calibrated %-6s %s%s\n", tr, ar, verdict_names[a.v], br,
			verdict_names[b.v], a.v != b.v ? "  (changed)" : "");
	}
	fputc('\n', out);
}

static void print_fit(const struct calib_result *c, FILE *out)
{
	const struct experiment *e = c->e;
	const struct exp_result *r = c->raw;
	int d = exp_design_index(e, c->baseline);
	fprintf(out, "baseline %s [%s]: %d published figure%s, %d runs of it\n", c->baseline,
		e->designs[d].policy, c->nr_figs, c->nr_figs == 1 ? "" : "s", c->evals);
	fprintf(out, "machine %s, its unknown parameters (full-size values):\n", e->profile);
	fprintf(out, "  %-18s %12s %12s %9s\n", "parameter", "profile", "fitted", "factor");
	for (int i = 0; i < c->nr_params; i++) {
		char pv[32], fv[32];
		fmt_param(c->names[i], c->profile_value[i], pv, sizeof(pv));
		fmt_param(c->names[i], c->profile_value[i] * c->fit[i].factor, fv, sizeof(fv));
		/* Near the end of the searched range: the figures want more
		 * than a x16 change, a sign that the model lacks something. */
		bool limit = fabs(log2(c->fit[i].factor)) > RANGE_LOG2 - 0.5;
		fprintf(out, "  %-18s %12s %12s %8.3gx%s\n", c->names[i], pv, fv, c->fit[i].factor,
			limit ? "  (search limit)" : "");
	}
	fprintf(out, "the baseline's figures%s:\n", r->full ? "" : " (thread x quick scale for amounts)");
	fprintf(out, "  %-30s %10s %10s %10s %10s\n", "figure", "thread", "target", "raw", "fitted");
	for (int i = 0; i < c->nr_figs; i++) {
		const struct calib_figure *f = &c->figs[i];
		char a[24], b[24], x[24], y[24];
		fmt_fig(a, sizeof(a), f->published);
		fmt_fig(b, sizeof(b), f->target);
		fmt_fig(x, sizeof(x), f->raw);
		fmt_fig(y, sizeof(y), f->fitted);
		fprintf(out, "  %-30.30s %10s %10s %10s %10s\n", e->metrics[f->metric].name, a, b, x, y);
	}
	fprintf(out, "  mean squared log error: raw %.3g, fitted %.3g\n", c->err_raw, c->err_fit);
}

void calibrate_print_text(struct calib_result **cr, FILE *out)
{
	int raw[4] = { 0 }, cal[4] = { 0 }, n = 0;
	for (int i = 0; cr[i]; i++, n++)
		print_one(cr[i], out, raw, cal);
	fprintf(out, "summary: %d experiment%s; %d agree / %d disagree / %d too noisy / %d n/a\n", n,
		n == 1 ? "" : "s", raw[V_AGREE], raw[V_DISAGREE], raw[V_NOISY], raw[V_NA]);
	fprintf(out, "  with the profiles' values; calibrated: %d / %d / %d / %d\n", cal[V_AGREE], cal[V_DISAGREE],
		cal[V_NOISY], cal[V_NA]);
	fprintf(out, "  (only the baseline designs' published figures were fitted)\n");
}

/* `, "key": v` (null when v is not finite). */
static void json_field(FILE *out, const char *key, double v)
{
	fprintf(out, ", \"%s\": ", key);
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

void calibrate_print_json(struct calib_result **cr, FILE *out)
{
	fputs("{\"calibrate\": [", out);
	for (int i = 0; cr[i]; i++) {
		const struct calib_result *c = cr[i];
		const struct experiment *e = c->e;
		fprintf(out, "%s\n {\"id\": %d, \"slug\": ", i ? "," : "", e->id);
		json_str(out, e->slug);
		fprintf(out, ", \"mode\": \"%s\", \"machine\": ", c->raw->full ? "full" : "quick");
		json_str(out, e->profile);
		fputs(", \"baseline\": ", out);
		json_str(out, c->baseline);
		fputs(", \"why_not_fitted\": ", out);
		if (c->why)
			json_str(out, c->why);
		else
			fputs("null", out);
		fprintf(out, ", \"evaluations\": %d", c->evals);
		json_field(out, "error_raw", c->err_raw);
		json_field(out, "error_fitted", c->err_fit);
		fputs(",\n  \"params\": [", out);
		for (int k = 0; k < c->nr_params; k++) {
			fprintf(out, "%s{\"name\": ", k ? ", " : "");
			json_str(out, c->names[k]);
			fprintf(out, ", \"unit\": \"%s\", \"profile\": %.0f, \"fitted\": %.0f", profile_param_unit(c->names[k]),
				c->profile_value[k], round(c->profile_value[k] * c->fit[k].factor));
			json_field(out, "factor", c->fit[k].factor);
			fputc('}', out);
		}
		fputs("],\n  \"figures\": [", out);
		for (int k = 0; k < c->nr_figs; k++) {
			const struct calib_figure *f = &c->figs[k];
			fprintf(out, "%s{\"metric\": ", k ? ", " : "");
			json_str(out, e->metrics[f->metric].key);
			json_field(out, "published", f->published);
			json_field(out, "target", f->target);
			json_field(out, "raw", f->raw);
			json_field(out, "fitted", f->fitted);
			fputc('}', out);
		}
		fputs("],\n  \"comparisons\": [", out);
		for (int k = 0; k < e->nr_cmps; k++) {
			const struct exp_comparison *cm = &e->cmps[k];
			struct cmp_outcome a, b;
			exp_compare(c->raw, k, &a);
			if (c->cal)
				exp_compare(c->cal, k, &b);
			else
				b = a;
			fprintf(out, "%s{\"metric\": ", k ? ", " : "");
			json_str(out, cm->metric);
			fputs(", \"a\": ", out);
			if (cm->a)
				json_str(out, cm->a);
			else
				fputs("null", out);
			fputs(", \"b\": ", out);
			json_str(out, cm->b);
			json_field(out, "thread_ratio", a.pub_ratio);
			json_field(out, "raw_ratio", a.sim_ratio);
			fprintf(out, ", \"raw_verdict\": \"%s\"", verdict_names[a.v]);
			json_field(out, "calibrated_ratio", b.sim_ratio);
			fprintf(out, ", \"calibrated_verdict\": \"%s\"}", verdict_names[b.v]);
		}
		fputs("]}", out);
	}
	fputs("\n]}\n", out);
}
