/* html.c - see html.h. */
#include "html.h"
#include "cpu_claim.h"
#include "../lib/util.h"
#include "../report/chart.h"
#include "../report/timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_W 500
#define PLOT_H 160

/* One figure of one run: every design's timeline on the same axes. */
static struct chart *timeline(const struct exp_result *r, int run, const char *title, enum tl_fig f)
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
		timeline_draw(rr, &(struct tl_line){ c, k, f }, 1, 1);
		timeline_stop_marks(c, rr, e->designs[d].label);
	}
	return c;
}

/* One comparison on a shared log axis (1/8 to 8, ticks and gridlines at
 * the powers of 2): the thread's ratio as a bar from 1 with its tolerance
 * band shaded, pagelab's as a bar below with its 95% interval over seeds
 * as a whisker, each labelled with its value.  Every ratio row has the
 * same axis, so rows compare. */
#define BAR_W 300
#define BAR_H 40
static double clamp_ratio(double v)
{
	return v < 0.125 ? 0.125 : v > 8 ? 8 : v;
}

static void ratio_bar(FILE *out, const struct exp_comparison *cm, const struct cmp_outcome *o)
{
	struct chart *c = chart_new(CHART_HBARS, BAR_W, BAR_H);
	chart_flags(c, CHART_NO_LEGEND);
	chart_class(c, "bar");
	chart_axis(c, 'x', NULL, CHART_LOG2);
	chart_range(c, 'x', 0.125, 8);
	int pub = chart_series(c, "thread", "#36c"), sim = chart_series(c, "pagelab", "#c33");
	chart_series_class(c, pub, "pub");
	chart_series_class(c, sim, "sim");
	int cp = chart_category(c, "thread"), cs = chart_category(c, "pagelab");
	char t[128], lab[32];
	if (isfinite(o->pub_ratio) && o->pub_ratio > 0) {
		snprintf(t, sizeof(t), "tolerance x%.2f", 1 + cm->tol);
		chart_band(c, 'x', clamp_ratio(o->pub_ratio / (1 + cm->tol)), clamp_ratio(o->pub_ratio * (1 + cm->tol)),
			   "band", "#fd8", t);
		snprintf(t, sizeof(t), "thread %.3g", o->pub_ratio);
		snprintf(lab, sizeof(lab), "x%.3g", o->pub_ratio);
		chart_bar(c, pub, cp, clamp_ratio(o->pub_ratio), NAN, NAN, t, lab);
	}
	if (o->v != V_NA && isfinite(o->sim_ratio) && o->sim_ratio > 0) {
		bool ci = o->nr_seeds > 1;
		snprintf(t, sizeof(t), ci ? "pagelab %.3g, 95%% interval %.3g to %.3g over %d seeds" : "pagelab %.3g",
			 o->sim_ratio, o->lo, o->hi, o->nr_seeds);
		snprintf(lab, sizeof(lab), "x%.3g", o->sim_ratio);
		chart_bar(c, sim, cs, clamp_ratio(o->sim_ratio), ci ? clamp_ratio(o->lo) : NAN,
			  ci ? clamp_ratio(o->hi) : NAN, t, lab);
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
		fprintf(out, "<tr><td><a href=\"#exp-%d\">%d. ", r->e->id, r->e->id);
		html_escape(out, r->e->title);
		fprintf(out, "</a></td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>", n[V_AGREE], n[V_DISAGREE],
			n[V_NOISY], n[V_NA]);
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
	fputs("</table>\n<p class=\"src\">In each experiment, per comparison: <span style=\"color:#36c\">&#9632;</span> the thread's ratio, "
	      "<span style=\"color:#c33\">&#9632;</span> pagelab's with its 95% interval over seeds, "
	      "<span style=\"color:#db3\">&#9632;</span> the tolerance band around the thread's.</p>\n", out);
}

/* A published figure as the thread wrote it ("915.98user"), else its value. */
static void published_text(FILE *out, const struct experiment *e, const char *design, const char *metric)
{
	const struct exp_published *p = exp_published_find(e, design, metric);
	if (p && p->text)
		html_escape(out, p->text);
	else if (p)
		fprintf(out, "%.4g", p->value);
}

/* The thread's side of a comparison: its two figures and their ratio, or
 * its words; the file and line they are from. */
static void thread_cell(FILE *out, const struct experiment *e, const struct exp_comparison *cm,
			const struct cmp_outcome *o)
{
	if (cm->kind == CMP_RATIO) {
		published_text(out, e, cm->b, cm->metric);
		fputs(" / ", out);
		published_text(out, e, cm->a, cm->metric);
		fprintf(out, " = <b>%.3g</b>", o->pub_ratio);
	} else {
		fputs("&ldquo;", out);
		html_escape(out, cm->statement);
		fputs("&rdquo;", out);
	}
	fputs("<br><span class=\"src\">", out);
	html_escape(out, cm->source);
	fputs("</span>", out);
}

static void pagelab_cell(FILE *out, const struct exp_comparison *cm, const struct cmp_outcome *o)
{
	if (o->v != V_NA && cm->kind != CMP_ZERO && cm->kind != CMP_NONZERO) {
		fprintf(out, "%.4g / %.4g = <b>%.3g</b>", o->sim_b, o->sim_a, o->sim_ratio);
		if (o->nr_seeds > 1)
			fprintf(out, " <span class=\"src\">(95%%: %.3g-%.3g, %d seeds)</span>", o->lo, o->hi, o->nr_seeds);
		fputs("<br>", out);
	}
	fputs("<span class=\"note\">", out);
	html_escape(out, o->note);
	fputs("</span>", out);
}

/* What a reader sees first of an experiment: per comparison its verdict,
 * the thread's figures and pagelab's, and both ratios as bars. */
static void verdict_table(FILE *out, const struct exp_result *r)
{
	const struct experiment *e = r->e;
	fputs("<table class=\"verdicts cmp\"><tr><th>verdict</th><th>comparison (b vs a)</th><th>the thread: b / a</th>"
	      "<th>pagelab: b / a</th><th>ratio b / a, log scale</th></tr>\n", out);
	for (int c = 0; c < e->nr_cmps; c++) {
		const struct exp_comparison *cm = &e->cmps[c];
		const struct exp_metric *mt = &e->metrics[exp_metric_index(e, cm->metric)];
		struct cmp_outcome o;
		exp_compare(r, c, &o);
		fprintf(out, "<tr><td class=\"v v%d\">%s</td><td>", (int)o.v, verdict_names[o.v]);
		html_escape(out, mt->name);
		fputs(":<br><b>", out);
		html_escape(out, cm->b);
		if (cm->a) {
			fputs("</b> vs <b>", out);
			html_escape(out, cm->a);
		}
		fputs("</b></td><td>", out);
		thread_cell(out, e, cm, &o);
		fputs("</td><td>", out);
		pagelab_cell(out, cm, &o);
		fputs("</td><td>", out);
		if (cm->kind == CMP_RATIO)
			ratio_bar(out, cm, &o);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* The figures of one run, one chart per quantity, each on its own value
 * axis (swap in is often a thousandth of swap out: on a shared axis it
 * would vanish) and all on one time axis, so that they read down the
 * page. */
static void run_timelines(FILE *out, const struct exp_result *r, int run)
{
	const struct experiment *e = r->e;
	const struct exp_run *x = &e->runs[run];
	fputs("<h4>", out);
	for (int w = 0; w < EXP_MAX_WL && x->wl[w]; w++) {
		char buf[512];
		exp_expand(r, x->wl[w], buf, sizeof(buf));
		fputs(w ? " + " : "", out);
		html_escape(out, buf);
	}
	const struct run_result *r0 = exp_rr(r, 0, run, 0);
	uint64_t most = 0, every = 0;
	for (int d = 0; d < e->nr_designs; d++) {
		const struct run_result *rr = exp_rr(r, d, run, 0);
		most = rr->available && rr->nr_samples > most ? rr->nr_samples : most;
		every = rr->available ? rr->vmstat_ns : every;
	}
	if (most)
		fprintf(out, " <span class=\"src\">(vmstat every %.3g s of simulated time, up to %llu samples; the "
			"first seed of each design)</span>", (double)every / 1e9, (unsigned long long)most);
	fputs("</h4>\n", out);
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
	cs[n++] = timeline(r, run, "free memory (MB)", TL_FREE);
	cs[n++] = timeline(r, run, "swap out (KB/s)", TL_SO);
	cs[n++] = timeline(r, run, "swap in (KB/s)", TL_SI);
	cs[n++] = timeline(r, run, "pages scanned (pages/s)", TL_SCAN);
	if (x->residency_wl >= 0) {
		char t[300];
		snprintf(t, sizeof(t), "resident (MB): %s", r0->nr_wl > x->residency_wl ? r0->wl[x->residency_wl].cmd : "");
		cs[n++] = timeline(r, run, t, TL_RESIDENT);
	}
	chart_share(cs, n, 'x');
	fputs("<div class=\"plots\">\n", out);
	for (int k = 0; k < n; k++) {
		chart_svg(cs[k], out);
		chart_free(cs[k]);
	}
	fputs("</div>\n", out);
}

/* The verdicts of one experiment in a line: "3 agree, 8 disagree, ...". */
static void counts_line(FILE *out, const struct exp_result *r)
{
	int n[4] = { 0 };
	for (int c = 0; c < r->e->nr_cmps; c++) {
		struct cmp_outcome o;
		exp_compare(r, c, &o);
		n[o.v]++;
	}
	static const int order[] = { V_AGREE, V_DISAGREE, V_NOISY, V_NA };
	fputs("<p class=\"counts\">", out);
	for (int k = 0; k < 4; k++)
		fprintf(out, "%s<span class=\"v v%d\">%d %s</span>", k ? " " : "", order[k], n[order[k]],
			verdict_names[order[k]]);
	int killed, timed;
	count_stops(r, &killed, &timed);
	if (killed)
		fprintf(out, " <span class=\"stop\">&#9888; %d run%s OOM-killed</span>", killed, killed == 1 ? "" : "s");
	if (timed)
		fprintf(out, " <span class=\"stop\">&#9201; %d at --max-time</span>", timed);
	fputs("</p>\n", out);
}

/* What a text printer writes for r, as a string (NULL if no memory). */
static char *text_of(void (*print)(const struct exp_result *, FILE *), const struct exp_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	print(r, f);
	fclose(f);
	return buf;
}

/* The header lines of the text report (thread, machine, designs), which
 * say what ran, above the charts. */
static void experiment_header(FILE *out, const struct exp_result *r)
{
	char *buf = text_of(exp_print_header, r);
	if (!buf)
		return;
	/* Its first line ("== Experiment N: title ==", maybe wrapped)
	 * repeats the <h2>. */
	const char *nl = strstr(buf, " ==\n");
	fputs("<pre class=\"head\">", out);
	html_escape(out, nl ? nl + 4 : buf);
	fputs("</pre>\n", out);
	free(buf);
}

/* The experiment's own tables, as the text report prints them, folded:
 * they are the evidence, the charts above are the summary. */
static void program_output(FILE *out, const struct exp_result *r)
{
	char *buf = text_of(r->e->print, r);
	if (!buf)
		return;
	fputs("<details class=\"output\"><summary>the thread's tables with pagelab's runs (the text report)</summary>\n"
	      "<pre>", out);
	html_escape(out, buf);
	fputs("</pre>\n</details>\n", out);
	free(buf);
	/* the CPU claims' breakdowns, as the text report prints them */
	buf = text_of(cpu_claim_print, r);
	if (buf && *buf) {
		fputs("<details class=\"output\"><summary>CPU from counted work: each CPU claim's operations "
		      "(the text report)</summary>\n<pre>", out);
		html_escape(out, buf);
		fputs("</pre>\n</details>\n", out);
	}
	free(buf);
}

static void experiment_section(FILE *out, const struct exp_result *r)
{
	fprintf(out, "<section id=\"exp-%d\">\n<h2>Experiment %d: ", r->e->id, r->e->id);
	html_escape(out, r->e->title);
	fputs("</h2>\n", out);
	counts_line(out, r);
	experiment_header(out, r);
	fputs("<h3>The thread's figures against pagelab's</h3>\n", out);
	verdict_table(out, r);
	fputs("<h3>Timelines</h3>\n", out);
	for (int run = 0; run < r->e->nr_runs; run++)
		run_timelines(out, r, run);
	program_output(out, r);
	html_profile_params(out, "every parameter of this experiment's machine", &r->prof);
	fputs("</section>\n", out);
}

void html_report(struct exp_result **res, const struct html_provenance *pv, bool builtin, FILE *out)
{
	html_page_begin(out, "pagelab reproduce",
	      "table.verdicts{border-collapse:collapse;font-size:13px;margin:.5em 0}\n"
	      "table.verdicts td,table.verdicts th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}\n"
	      "table.cmp td{vertical-align:middle}\n"
	      ".v0{background:#cfc}.v1{background:#fcc}.v2{background:#eee}.v3{background:#ffd}\n"
	      "td.v{font-weight:bold;text-align:center}\n"
	      "p.counts span.v{padding:1px 6px;margin-right:2px;border-radius:3px}\n"
	      ".note{font-size:12px;color:#444}\n"
	      ".expect{background:#eef4ff;border-left:4px solid #36c;padding:.4em .8em}\n"
	      "pre.head{background:none;padding:0;margin:.3em 0}\n"
	      "details.output{margin:.8em 0}\n"
	      "summary{cursor:pointer;color:#236}\n"
	      "svg.bar{margin:0}\n");
	bool full = false;
	for (int i = 0; res[i]; i++)
		full = res[i]->full;
	fprintf(out, "<p>%s. Each experiment re-runs a mailing-list thread's test with the designs it compared; "
		"the thread's figures stand next to pagelab's, and each comparison has a verdict: does pagelab agree on "
		"which design wins, and by roughly how much?</p>\n",
		full ? "Full mode: the threads' machines and sizes" : "Quick mode: machines and sizes scaled down together");
	struct html_provenance p = *pv;
	p.mode = full ? "full mode" : "quick mode";
	html_provenance(out, &p);
	tally(out, res);
	if (builtin) {
		fputs("<p class=\"expect\"><b>What to expect:</b> ", out);
		html_escape(out, exp_expectations);
		fputs("</p>\n", out);
	}
	for (int i = 0; res[i]; i++)
		experiment_section(out, res[i]);
	html_page_end(out);
}
