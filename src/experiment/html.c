/* html.c - see html.h. */
#include "html.h"
#include "../lib/util.h"
#include "../report/chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_W 300
#define PLOT_H 110

enum series { S_FREE, S_SI, S_SO, S_SCAN, S_RESIDENT };

static double sample_value(const struct run_result *rr, uint64_t i, enum series s)
{
	const struct vmstat_sample *v = &rr->samples[i];
	switch (s) {
	case S_FREE: return (double)v->free / 1024.0;
	case S_SI: return (double)v->si;
	case S_SO: return (double)v->so;
	case S_SCAN: return (double)v->scan;
	case S_RESIDENT: return rr->resident_kb ? (double)rr->resident_kb[i] / 1024.0 : 0;
	}
	return 0;
}

/* Where a design's run was cut short: a cross where a workload was
 * OOM-killed, a flag where the run hit the simulated time limit. */
static void stop_marks(struct chart *c, const struct run_result *rr, const char *label)
{
	char t[300];
	for (int w = 0; w < rr->nr_wl; w++)
		if (rr->wl[w].tf.killed) {
			snprintf(t, sizeof(t), "%s: %s OOM-killed at %.3g s", label, rr->wl[w].cmd,
				 (double)rr->wl[w].end_ns / 1e9);
			chart_mark(c, CHART_MARK_OOM, (double)rr->wl[w].end_ns / 1e9, NAN, -1, t);
		}
	if (rr->timed_out) {
		snprintf(t, sizeof(t), "%s: stopped at --max-time, %.3g s", label, (double)rr->sim_ns / 1e9);
		chart_mark(c, CHART_MARK_MAXTIME, (double)rr->sim_ns / 1e9, NAN, -1, t);
	}
}

/* One figure of one run: every design's timeline on the same axes. */
static struct chart *timeline(const struct exp_result *r, int run, const char *title, enum series s)
{
	const struct experiment *e = r->e;
	struct chart *c = chart_new(CHART_LINES, PLOT_W, PLOT_H);
	chart_class(c, "plot");
	chart_title(c, title);
	chart_axis(c, 'x', "simulated time (s)", CHART_LINEAR);
	chart_axis(c, 'y', NULL, CHART_LINEAR);
	for (int d = 0; d < e->nr_designs; d++) {
		const struct run_result *rr = exp_rr(r, d, run, 0);
		int k = chart_series(c, e->designs[d].label, NULL);
		if (!rr->available)
			continue;
		for (uint64_t i = 0; i < rr->nr_samples; i++)
			chart_point(c, k, (double)rr->samples[i].t / 1e9, sample_value(rr, i, s), NAN, NAN, NULL);
		stop_marks(c, rr, e->designs[d].label);
	}
	return c;
}

/* One comparison on a shared log axis (1/8 to 8, ticks and gridlines at
 * the powers of 2): the thread's ratio as a bar from 1 with its tolerance
 * band shaded, pagelab's as a bar below with its 95% interval over seeds
 * as a whisker.  Every ratio row has the same axis, so rows compare. */
#define BAR_W 240
#define BAR_H 34
static double clamp_ratio(double v)
{
	return v < 0.125 ? 0.125 : v > 8 ? 8 : v;
}

static void ratio_bar(FILE *out, const struct exp_comparison *cm, const struct cmp_outcome *o)
{
	struct chart *c = chart_new(CHART_HBARS, BAR_W, BAR_H - 2);
	chart_flags(c, CHART_COMPACT);
	chart_class(c, "bar");
	chart_axis(c, 'x', NULL, CHART_LOG2);
	chart_range(c, 'x', 0.125, 8);
	int pub = chart_series(c, "thread", "#36c"), sim = chart_series(c, "pagelab", "#c33");
	chart_series_class(c, pub, "pub");
	chart_series_class(c, sim, "sim");
	int cp = chart_category(c, "thread"), cs = chart_category(c, "pagelab");
	char t[128];
	if (isfinite(o->pub_ratio) && o->pub_ratio > 0) {
		snprintf(t, sizeof(t), "tolerance x%.2f", 1 + cm->tol);
		chart_band(c, 'x', clamp_ratio(o->pub_ratio / (1 + cm->tol)), clamp_ratio(o->pub_ratio * (1 + cm->tol)),
			   "band", "#fd8", t);
		snprintf(t, sizeof(t), "thread %.3g", o->pub_ratio);
		chart_bar(c, pub, cp, clamp_ratio(o->pub_ratio), NAN, NAN, t, NULL);
	}
	if (o->v != V_NA && isfinite(o->sim_ratio) && o->sim_ratio > 0) {
		bool ci = o->nr_seeds > 1;
		snprintf(t, sizeof(t), ci ? "pagelab %.3g, 95%% interval %.3g to %.3g over %d seeds" : "pagelab %.3g",
			 o->sim_ratio, o->lo, o->hi, o->nr_seeds);
		chart_bar(c, sim, cs, clamp_ratio(o->sim_ratio), ci ? clamp_ratio(o->lo) : NAN,
			  ci ? clamp_ratio(o->hi) : NAN, t, NULL);
	}
	chart_svg(c, out);
	chart_free(c);
}

/* Runs cut short: an OOM kill or the simulated time limit, per experiment. */
static void count_stops(const struct exp_result *r, int *killed, int *timed_out)
{
	const struct experiment *e = r->e;
	*killed = *timed_out = 0;
	for (int d = 0; d < e->nr_designs; d++)
		for (int run = 0; run < e->nr_runs; run++)
			for (int k = 0; k < exp_reps(r, run); k++) {
				const struct run_result *rr = exp_rr(r, d, run, k);
				*killed += rr->available && rr->ev[OOM_KILL] > 0;
				*timed_out += rr->timed_out;
			}
}

/* The tally at the top: per experiment, the verdicts as a stacked bar and
 * the runs an OOM kill or the time limit cut short. */
static void tally(FILE *out, struct exp_result **res)
{
	static const char *const colors[] = { "#5b5", "#d55", "#bbb", "#db3" };
	fputs("<table class=\"verdicts tally\"><tr><th>experiment</th><th>agree</th><th>disagree</th>"
	      "<th>too noisy</th><th>n/a</th><th></th><th>runs cut short</th></tr>\n", out);
	for (int i = 0; res[i]; i++) {
		const struct exp_result *r = res[i];
		int n[4] = { 0 }, tot = r->e->nr_cmps;
		for (int c = 0; c < r->e->nr_cmps; c++) {
			struct cmp_outcome o;
			exp_compare(r, c, &o);
			n[o.v]++;
		}
		fprintf(out, "<tr><td><a href=\"#exp-%d\">%d</a></td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>",
			r->e->id, r->e->id, n[V_AGREE], n[V_DISAGREE], n[V_NOISY], n[V_NA]);
		fputs("<svg class=\"tallybar\" width=\"200\" height=\"12\" xmlns=\"http://www.w3.org/2000/svg\">", out);
		double x = 0;
		static const int order[] = { V_AGREE, V_DISAGREE, V_NOISY, V_NA };
		for (int k = 0; k < 4 && tot; k++) {
			double w = 200.0 * n[order[k]] / tot;
			if (w > 0)
				fprintf(out, "<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"12\" fill=\"%s\"/>", x, w,
					colors[order[k] == V_AGREE ? 0 : order[k] == V_DISAGREE ? 1 : order[k] == V_NA ? 2 : 3]);
			x += w;
		}
		int killed, timed;
		count_stops(r, &killed, &timed);
		fputs("</svg></td><td>", out);
		if (killed)
			fprintf(out, "<span class=\"stop\">&#9888; %d OOM-killed</span> ", killed);
		if (timed)
			fprintf(out, "<span class=\"stop\">&#9201; %d at --max-time</span>", timed);
		if (!killed && !timed)
			fputs("none", out);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n<p class=\"src\">Bars: <span style=\"color:#36c\">&#9632;</span> the thread's ratio, "
	      "<span style=\"color:#c33\">&#9632;</span> pagelab's with its 95% interval over seeds, "
	      "<span style=\"color:#db3\">&#9632;</span> the tolerance band around the thread's.</p>\n", out);
}

static void verdict_table(FILE *out, const struct exp_result *r)
{
	const struct experiment *e = r->e;
	fputs("<table class=\"verdicts\"><tr><th>comparison</th><th>thread</th><th>pagelab</th><th>verdict</th>"
	      "<th>ratio b / a (log scale)</th></tr>\n", out);
	for (int c = 0; c < e->nr_cmps; c++) {
		const struct exp_comparison *cm = &e->cmps[c];
		const struct exp_metric *mt = &e->metrics[exp_metric_index(e, cm->metric)];
		struct cmp_outcome o;
		exp_compare(r, c, &o);
		fputs("<tr><td>", out);
		html_escape(out, mt->name);
		fputs(": ", out);
		html_escape(out, cm->b);
		if (cm->a) {
			fputs(" vs ", out);
			html_escape(out, cm->a);
		}
		fputs("</td><td>", out);
		if (cm->kind == CMP_RATIO)
			fprintf(out, "ratio %.3g", o.pub_ratio);
		else {
			fputs("&ldquo;", out);
			html_escape(out, cm->statement);
			fputs("&rdquo;", out);
		}
		fputs(" <span class=\"src\">", out);
		html_escape(out, cm->source);
		fputs("</span></td><td>", out);
		if (o.v != V_NA && cm->kind != CMP_ZERO)
			fprintf(out, "ratio %.3g: ", o.sim_ratio);
		html_escape(out, o.note);
		fprintf(out, "</td><td class=\"v%d\">%s</td><td>", (int)o.v, verdict_names[o.v]);
		if (cm->kind == CMP_RATIO)
			ratio_bar(out, cm, &o);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void timelines(FILE *out, const struct exp_result *r)
{
	const struct experiment *e = r->e;
	for (int run = 0; run < e->nr_runs; run++) {
		const struct exp_run *x = &e->runs[run];
		fputs("<h3>Timelines: ", out);
		for (int w = 0; w < EXP_MAX_WL && x->wl[w]; w++) {
			char buf[512];
			exp_expand(r, x->wl[w], buf, sizeof(buf));
			fputs(w ? " + " : "", out);
			html_escape(out, buf);
		}
		fputs("</h3>\n", out);
		for (int d = 0; d < e->nr_designs; d++) {
			const struct run_result *rr = exp_rr(r, d, run, 0);
			if (rr->available)
				continue;
			fputs("<p class=\"na\">", out);
			html_escape(out, e->designs[d].label);
			fputs(" not available: ", out);
			html_escape(out, rr->why);
			fputs("</p>\n", out);
		}
		struct chart *cs[5];
		int n = 0;
		cs[n++] = timeline(r, run, "free memory (MB)", S_FREE);
		cs[n++] = timeline(r, run, "swap in (KB/s)", S_SI);
		cs[n++] = timeline(r, run, "swap out (KB/s)", S_SO);
		cs[n++] = timeline(r, run, "pages scanned (pages/s)", S_SCAN);
		if (x->residency_wl >= 0) {
			const struct run_result *rr = exp_rr(r, 0, run, 0);
			char t[300];
			snprintf(t, sizeof(t), "resident (MB): %s", rr->nr_wl > x->residency_wl ? rr->wl[x->residency_wl].cmd : "");
			cs[n++] = timeline(r, run, t, S_RESIDENT);
		}
		/* One time axis for the run's figures, so they read down a column;
		 * swap in and out on one scale. */
		chart_share(cs, n, 'x');
		chart_share(cs + 1, 2, 'y');
		for (int k = 0; k < n; k++) {
			chart_svg(cs[k], out);
			chart_free(cs[k]);
		}
	}
}

void html_report(struct exp_result **res, const struct html_provenance *pv, FILE *out)
{
	html_page_begin(out, "pagelab reproduce",
	      "table.verdicts{border-collapse:collapse;font-size:13px;margin:.5em 0}\n"
	      "table.verdicts td,table.verdicts th{border:1px solid #ccc;padding:2px 6px;vertical-align:top}\n"
	      ".v0{background:#cfc}.v1{background:#fcc}.v2{background:#eee}.v3{background:#ffd}\n"
	      "svg.bar{margin:0}\n");
	bool full = false;
	for (int i = 0; res[i]; i++)
		full = res[i]->full;
	fprintf(out, "<p>%s. Each experiment re-runs a mailing-list thread's test with the designs it compared; "
		"the thread's figures stand next to pagelab's, and each comparison has a verdict: does pagelab agree on "
		"which design wins, and by roughly how much? Designs or workloads missing from this build are marked n/a.</p>\n",
		full ? "Full mode: the threads' machines and sizes" : "Quick mode: machines and sizes scaled down together");
	struct html_provenance p = *pv;
	p.mode = full ? "full mode" : "quick mode";
	html_provenance(out, &p);
	tally(out, res);
	fputs("<ul>\n", out);
	for (int i = 0; res[i]; i++)
		{
			fprintf(out, "<li><a href=\"#exp-%d\">Experiment %d: ", res[i]->e->id, res[i]->e->id);
			html_escape(out, res[i]->e->title);
			fputs("</a></li>\n", out);
		}
	fputs("</ul>\n", out);
	for (int i = 0; res[i]; i++) {
		struct exp_result *r = res[i];
		fprintf(out, "<section id=\"exp-%d\">\n<h2>Experiment %d: ", r->e->id, r->e->id);
		html_escape(out, r->e->title);
		fputs("</h2>\n<pre>", out);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		if (f) {
			exp_print_header(r, f);
			r->e->print(r, f);
			fclose(f);
			html_escape(out, buf);
			free(buf);
		}
		fputs("</pre>\n", out);
		html_profile_params(out, "every parameter of this experiment's machine", &r->prof);
		verdict_table(out, r);
		timelines(out, r);
		fputs("</section>\n", out);
	}
	html_page_end(out);
}
