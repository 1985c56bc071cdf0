/* html.c - see html.h. */
#include "html.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_W 300
#define PLOT_H 110
#define PLOT_PAD 34
#define MAX_POINTS 400

static void esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

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

static void polyline(FILE *out, const struct run_result *rr, enum series s, double tmax, double vmax,
		     const char *color)
{
	uint64_t n = rr->nr_samples, stride = n > MAX_POINTS ? (n + MAX_POINTS - 1) / MAX_POINTS : 1;
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.3\" points=\"", color);
	for (uint64_t i = 0; i < n; i += stride) {
		double x = PLOT_PAD + (double)rr->samples[i].t / 1e9 / tmax * PLOT_W;
		double y = 8 + PLOT_H - sample_value(rr, i, s) / vmax * PLOT_H;
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", x, y);
	}
	fputs("\"/>\n", out);
}

static void fmt_axis(char *buf, size_t len, double v)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.0fk", v / 1e3);
	else
		snprintf(buf, len, "%.4g", v);
}

/* One small chart: one or two series of a run over its simulated time. */
static void chart(FILE *out, const struct run_result *rr, const char *title, const char *unit,
		  enum series a, const char *ca, int b, const char *cb)
{
	double tmax = 0, vmax = 0;
	for (uint64_t i = 0; i < rr->nr_samples; i++) {
		double t = (double)rr->samples[i].t / 1e9;
		if (t > tmax)
			tmax = t;
		double v = sample_value(rr, i, a);
		if (v > vmax)
			vmax = v;
		if (b >= 0 && (v = sample_value(rr, i, (enum series)b)) > vmax)
			vmax = v;
	}
	if (tmax <= 0)
		tmax = 1;
	if (vmax <= 0)
		vmax = 1;
	char vm[32], tm[32];
	fmt_axis(vm, sizeof(vm), vmax);
	fmt_axis(tm, sizeof(tm), tmax);
	fprintf(out, "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
		PLOT_W + PLOT_PAD + 8, PLOT_H + 40, PLOT_W + PLOT_PAD + 8, PLOT_H + 40);
	fprintf(out, "<title>");
	esc(out, title);
	fprintf(out, "</title>\n<rect x=\"%d\" y=\"8\" width=\"%d\" height=\"%d\" fill=\"#fbfbfb\" stroke=\"#bbb\"/>\n",
		PLOT_PAD, PLOT_W, PLOT_H);
	fprintf(out, "<text x=\"%d\" y=\"16\" class=\"ax\" text-anchor=\"end\">%s</text>\n", PLOT_PAD - 3, vm);
	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"ax\" text-anchor=\"end\">0</text>\n", PLOT_PAD - 3, PLOT_H + 8);
	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"ax\" text-anchor=\"end\">%s s</text>\n", PLOT_PAD + PLOT_W, PLOT_H + 20, tm);
	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"lbl\">", PLOT_PAD, PLOT_H + 34);
	esc(out, title);
	fprintf(out, " (%s)", unit);
	if (b >= 0)
		fprintf(out, " <tspan fill=\"%s\">si</tspan> <tspan fill=\"%s\">so</tspan>", ca, cb);
	fputs("</text>\n", out);
	if (rr->nr_samples) {
		polyline(out, rr, a, tmax, vmax, ca);
		if (b >= 0)
			polyline(out, rr, (enum series)b, tmax, vmax, cb);
	}
	fputs("</svg>\n", out);
}

/* One comparison on a shared log axis (1/8 to 8, ticks and gridlines at
 * the powers of 2): the thread's ratio as a bar from 1 with its tolerance
 * band shaded, pagelab's as a bar below with its 95% interval over seeds
 * as a whisker.  Every ratio row has the same axis, so rows compare. */
#define BAR_W 240
#define BAR_H 34
static double bar_x(double ratio)
{
	double l = log2(ratio);
	l = l < -3 ? -3 : l > 3 ? 3 : l;
	return 8 + (l + 3) / 6 * BAR_W;
}

static void ratio_bar(FILE *out, const struct exp_comparison *cm, const struct cmp_outcome *o)
{
	fprintf(out, "<svg class=\"bar\" width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		BAR_W + 16, BAR_H + 12);
	for (int k = -3; k <= 3; k++) {
		double x = bar_x(pow(2, k));
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"2\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>\n", x, x,
			BAR_H, k ? "#ddd" : "#888");
		fprintf(out, "<text class=\"ax\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s%g</text>\n", x, BAR_H + 10,
			k < 0 ? "1/" : "", k < 0 ? pow(2, -k) : pow(2, k));
	}
	double one = bar_x(1);
	if (isfinite(o->pub_ratio) && o->pub_ratio > 0) {
		double lo = bar_x(o->pub_ratio / (1 + cm->tol)), hi = bar_x(o->pub_ratio * (1 + cm->tol));
		fprintf(out, "<rect class=\"band\" x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"%d\" fill=\"#fd8\" "
			"fill-opacity=\"0.45\"><title>tolerance x%.2f</title></rect>\n", lo, hi - lo, BAR_H - 2, 1 + cm->tol);
		double x = bar_x(o->pub_ratio);
		fprintf(out, "<rect class=\"pub\" x=\"%.1f\" y=\"6\" width=\"%.1f\" height=\"9\" fill=\"#36c\">"
			"<title>thread %.3g</title></rect>\n", x < one ? x : one, fabs(x - one) + 1, o->pub_ratio);
	}
	if (o->v != V_NA && isfinite(o->sim_ratio) && o->sim_ratio > 0) {
		double x = bar_x(o->sim_ratio);
		fprintf(out, "<rect class=\"sim\" x=\"%.1f\" y=\"19\" width=\"%.1f\" height=\"9\" fill=\"#c33\">"
			"<title>pagelab %.3g</title></rect>\n", x < one ? x : one, fabs(x - one) + 1, o->sim_ratio);
		if (o->nr_seeds > 1)
			fprintf(out, "<line class=\"ci\" x1=\"%.1f\" y1=\"23.5\" x2=\"%.1f\" y2=\"23.5\" stroke=\"#000\" "
				"stroke-width=\"1.5\"><title>95%% interval %.3g to %.3g over %d seeds</title></line>\n",
				bar_x(o->lo), bar_x(o->hi), o->lo, o->hi, o->nr_seeds);
	}
	fputs("</svg>", out);
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
		esc(out, mt->name);
		fputs(": ", out);
		esc(out, cm->b);
		if (cm->a) {
			fputs(" vs ", out);
			esc(out, cm->a);
		}
		fputs("</td><td>", out);
		if (cm->kind == CMP_RATIO)
			fprintf(out, "ratio %.3g", o.pub_ratio);
		else {
			fputs("&ldquo;", out);
			esc(out, cm->statement);
			fputs("&rdquo;", out);
		}
		fputs(" <span class=\"src\">", out);
		esc(out, cm->source);
		fputs("</span></td><td>", out);
		if (o.v != V_NA && cm->kind != CMP_ZERO)
			fprintf(out, "ratio %.3g: ", o.sim_ratio);
		esc(out, o.note);
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
			esc(out, buf);
		}
		fputs("</h3>\n", out);
		for (int d = 0; d < e->nr_designs; d++) {
			const struct run_result *rr = exp_rr(r, d, run, 0);
			fputs("<div class=\"design\"><h4>", out);
			esc(out, e->designs[d].label);
			fputs(" <span class=\"src\">", out);
			esc(out, e->designs[d].policy);
			if (e->designs[d].sets) {
				fputs(" --set ", out);
				esc(out, e->designs[d].sets);
			}
			fputs("</span></h4>\n", out);
			if (!rr->available) {
				fputs("<p class=\"na\">not available: ", out);
				esc(out, rr->why);
				fputs("</p></div>\n", out);
				continue;
			}
			chart(out, rr, "free memory", "MB", S_FREE, "#2a7", -1, NULL);
			chart(out, rr, "swap in / out", "KB/s", S_SI, "#27c", S_SO, "#c33");
			chart(out, rr, "pages scanned", "pages/s", S_SCAN, "#a60", -1, NULL);
			if (x->residency_wl >= 0) {
				char t[300];
				snprintf(t, sizeof(t), "resident: %s", rr->nr_wl > x->residency_wl ? rr->wl[x->residency_wl].cmd : "");
				chart(out, rr, t, "MB", S_RESIDENT, "#729", -1, NULL);
			}
			fputs("</div>\n", out);
		}
	}
}

void html_report(struct exp_result **res, const struct html_provenance *pv, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>pagelab reproduce</title>\n<style>\n"
	      "body{font-family:sans-serif;max-width:1200px;margin:1em auto;padding:0 1em;color:#222}\n"
	      "pre{background:#f4f4f4;padding:.6em;overflow-x:auto;font-size:12px}\n"
	      "table.verdicts{border-collapse:collapse;font-size:13px;margin:.5em 0}\n"
	      "table.verdicts td,table.verdicts th{border:1px solid #ccc;padding:2px 6px;vertical-align:top}\n"
	      ".v0{background:#cfc}.v1{background:#fcc}.v2{background:#eee}.v3{background:#ffd}\n"
	      ".src{color:#777;font-size:11px}.na{color:#777;font-style:italic}\n"
	      ".design{display:inline-block;vertical-align:top;margin:0 1em 1em 0}\n"
	      ".design h4{margin:.3em 0}.plot{display:block;margin-bottom:2px}\n"
	      ".ax{font-size:10px;fill:#555}.lbl{font-size:11px;fill:#222}\n"
	      ".prov{font-size:12px;color:#555}.stop{color:#a40;font-weight:bold}\n"
	      "</style>\n</head>\n<body>\n<h1>pagelab reproduce</h1>\n", out);
	bool full = false;
	for (int i = 0; res[i]; i++)
		full = res[i]->full;
	fprintf(out, "<p>%s. Each experiment re-runs a mailing-list thread's test with the designs it compared; "
		"the thread's figures stand next to pagelab's, and each comparison has a verdict: does pagelab agree on "
		"which design wins, and by roughly how much? Designs or workloads missing from this build are marked n/a.</p>\n",
		full ? "Full mode: the threads' machines and sizes" : "Quick mode: machines and sizes scaled down together");
	fputs("<p class=\"prov\">", out);
	fputs("pagelab ", out);
	esc(out, pv->version);
	fputs(" &middot; ", out);
	esc(out, full ? "full mode" : "quick mode");
	fputs(" &middot; ", out);
	esc(out, pv->date);
	fputs("<br><code>", out);
	esc(out, pv->cmdline);
	fputs("</code></p>\n", out);
	tally(out, res);
	fputs("<ul>\n", out);
	for (int i = 0; res[i]; i++)
		{
			fprintf(out, "<li><a href=\"#exp-%d\">Experiment %d: ", res[i]->e->id, res[i]->e->id);
			esc(out, res[i]->e->title);
			fputs("</a></li>\n", out);
		}
	fputs("</ul>\n", out);
	for (int i = 0; res[i]; i++) {
		struct exp_result *r = res[i];
		fprintf(out, "<section id=\"exp-%d\">\n<h2>Experiment %d: ", r->e->id, r->e->id);
		esc(out, r->e->title);
		fputs("</h2>\n<pre>", out);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		if (f) {
			exp_print_header(r, f);
			r->e->print(r, f);
			fclose(f);
			esc(out, buf);
			free(buf);
		}
		fputs("</pre>\n", out);
		verdict_table(out, r);
		timelines(out, r);
		fputs("</section>\n", out);
	}
	fputs("</body>\n</html>\n", out);
}
