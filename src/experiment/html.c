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

static void verdict_table(FILE *out, const struct exp_result *r)
{
	const struct experiment *e = r->e;
	fputs("<table class=\"verdicts\"><tr><th>comparison</th><th>thread</th><th>pagelab</th><th>verdict</th></tr>\n", out);
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
		fprintf(out, "</td><td class=\"v%d\">%s</td></tr>\n", (int)o.v, verdict_names[o.v]);
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

void html_report(struct exp_result **res, FILE *out)
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
	      "</style>\n</head>\n<body>\n<h1>pagelab reproduce</h1>\n", out);
	bool full = false;
	for (int i = 0; res[i]; i++)
		full = res[i]->full;
	fprintf(out, "<p>%s. Each experiment re-runs a mailing-list thread's test with the designs it compared; "
		"the thread's figures stand next to pagelab's, and each comparison has a verdict: does pagelab agree on "
		"which design wins, and by roughly how much? Designs or workloads missing from this build are marked n/a.</p>\n",
		full ? "Full mode: the threads' machines and sizes" : "Quick mode: machines and sizes scaled down together");
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
