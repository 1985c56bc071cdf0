/* html_kcompare.c - pagelab compare -- WORKLOAD --html: the tables of
 * kcompare_table.c as a page, with a chart per policy of pagelab/kernel
 * for every counter both sides count, on a log2 axis (1/2 and 2 are the
 * same distance from agreement), the tolerance as a shaded band and the
 * kernel's min..max over its runs as a whisker. */
#include "kcompare.h"
#include "../report/chart.h"
#include "../report/htmlpage.h"

#include <math.h>
#include <stdio.h>

#define PLOT_W 360
#define ROW_H 16
#define RATIO_MAX 128.0  /* drawn at the chart's edge beyond this */

static const char *const verdict_text[] = { "yes", "no", "missing", "not counted" };

static void num(FILE *out, double v) { fprintf(out, "<td class=\"n\">%.0f</td>", v); }

/* tested: the p column (both sides have two or more values). */
static void table(FILE *out, const struct kcmp *x, int p, bool tested)
{
	fputs("<table class=\"t\"><tr><th>counter</th><th>kernel median</th><th>min..max</th>"
	      "<th>pagelab</th><th>ratio</th><th>within</th>", out);
	fputs(tested ? "<th>p</th></tr>\n" : "</tr>\n", out);
	for (int k = 0; k < x->nrows; k++) {
		const struct kcmp_row *r = &x->row[p * x->nrows + k];
		fputs("<tr><td>", out);
		html_escape(out, r->name);
		fputs("</td>", out);
		if (r->kfound) {
			num(out, r->med);
			fprintf(out, "<td class=\"n\">%.0f..%.0f</td>", r->kmin, r->kmax);
		} else {
			fputs("<td class=\"na\">-</td><td class=\"na\">-</td>", out);
		}
		if (r->sfound)
			num(out, r->sim);
		else
			fputs("<td class=\"na\">-</td>", out);
		if (r->kfound && r->sfound && r->med > 0)
			fprintf(out, "<td class=\"n\">%.2f</td>", r->sim / r->med);
		else
			fputs("<td class=\"na\">-</td>", out);
		fprintf(out, "<td class=\"v%d\">%s</td>", (int)r->verdict, verdict_text[r->verdict]);
		if (tested && !isnan(r->p))
			fprintf(out, "<td class=\"n\">%.3f</td>", r->p);
		else if (tested)
			fputs("<td class=\"na\">-</td>", out);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static double clamp_ratio(double v) { return fmin(RATIO_MAX, fmax(1 / RATIO_MAX, v)); }

/* NULL when no counter has a ratio (the kernel counted 0 or nothing). */
static struct chart *ratios(const struct kcmp *x, int p, const struct kcmp_setup *s)
{
	int n = 0;
	for (int k = 0; k < x->nrows; k++) {
		const struct kcmp_row *r = &x->row[p * x->nrows + k];
		n += r->kfound && r->sfound && r->med > 0 && r->verdict != KCMP_NOT_COUNTED;
	}
	if (!n)
		return NULL;
	struct chart *c = chart_new(CHART_HBARS, PLOT_W, ROW_H * n);
	chart_class(c, "plot");
	char t[256], lab[32];
	snprintf(t, sizeof(t), "pagelab / kernel median, policy %s", x->pol[p]);
	chart_title(c, t);
	chart_axis(c, 'x', "ratio (log2)", CHART_LOG2);
	int yes = chart_series(c, "within", "#2ca02c"), no = chart_series(c, "outside", "#d62728");
	snprintf(t, sizeof(t), "within +-%g%%", s->tol);
	chart_band(c, 'x', fmax(1 / RATIO_MAX, 1 - s->tol / 100), 1 + s->tol / 100, "band", "#ddd", t);
	for (int k = 0; k < x->nrows; k++) {
		const struct kcmp_row *r = &x->row[p * x->nrows + k];
		if (!(r->kfound && r->sfound && r->med > 0 && r->verdict != KCMP_NOT_COUNTED))
			continue;
		int cat = chart_category(c, r->name);
		double v = r->sim / r->med;
		/* The ratio against the kernel's extremes: where pagelab's value
		 * would sit had the median been the smallest or largest run. */
		double lo = r->kmax > 0 ? r->sim / r->kmax : NAN, hi = r->kmin > 0 ? r->sim / r->kmin : NAN;
		snprintf(t, sizeof(t), "%s: kernel %.0f (%.0f..%.0f), pagelab %.0f, ratio %.3g", r->name, r->med,
			 r->kmin, r->kmax, r->sim, v);
		snprintf(lab, sizeof(lab), "%.2f", v);
		chart_bar(c, r->verdict == KCMP_YES ? yes : no, cat, clamp_ratio(fmax(v, 1e-9)),
			  isnan(lo) ? NAN : clamp_ratio(fmax(lo, 1e-9)), isnan(hi) ? NAN : clamp_ratio(hi), t, lab);
	}
	return c;
}

void kcmp_html(FILE *out, const struct kcmp *x, const struct kcmp_setup *s, const char *cmd,
	       const struct html_provenance *pv)
{
	html_page_begin(out, "pagelab compare: the kernel and the simulator",
			".v0{color:#2ca02c}.v1{color:#d62728;font-weight:bold}.v2,.v3{color:#777}\n");
	html_provenance(out, pv);
	fputs("<p>Workload <code>", out);
	html_escape(out, cmd);
	fprintf(out, "</code> in a memory cgroup of %s with %s of swap: %llu run%s on this host's kernel "
		"(pagelab kernel%s) beside pagelab's simulated machine %s with %llu CPU%s",
		s->memcg, s->swap, (unsigned long long)s->repeat, s->repeat == 1 ? "" : "s",
		s->cached == s->repeat ? ", cached reports" : s->cached ? ", some cached" : "", s->machine,
		(unsigned long long)s->cpus, s->cpus == 1 ? "" : "s");
	if (s->sets && s->sets[0]) {
		fputs(" (with <code>", out);
		html_escape(out, s->sets);
		fputs("</code>)", out);
	}
	if (s->seeds > 1)
		fprintf(out, ", the median of seeds %llu..%llu", (unsigned long long)s->seed0,
			(unsigned long long)(s->seed0 + s->seeds - 1));
	fprintf(out, ". A counter agrees within &plusmn;%g%% of the kernel's median%s. <em>Not counted</em>: the "
		"kernel leaves it out of cgroup limit reclaim (6.x: <code>if (!cgroup_reclaim(sc))</code>).", s->tol,
		s->floor > 0 ? ", or under the floor on both sides" : "");
	if (s->fit && s->fit[0]) {
		fputc(' ', out);
		html_escape(out, s->fit);
		fputc('.', out);
	}
	if (x->own[0] || x->traced[0]) {
		if (x->own[0]) {
			fputs(" From the cgroup's own memory.stat: ", out);
			html_escape(out, x->own);
			fputs(";", out);
		}
		if (x->traced[0]) {
			fputs(" from the tracepoints of its tasks' reclaim and its folios' activations: ", out);
			html_escape(out, x->traced);
			fputs(";", out);
		}
		fputs(" the host's /proc/vmstat for the rest.", out);
	}
	fputs("</p>\n", out);
	for (int p = 0; p < x->npol; p++) {
		fputs("<section class=\"policy\">\n<h2>", out);
		html_escape(out, x->pol[p]);
		fprintf(out, ": %d of %d counters agree</h2>\n", x->agree[p], x->compared[p]);
		struct chart *c = ratios(x, p, s);
		if (c) {
			chart_svg(c, out);
			chart_free(c);
		}
		char note[160];
		const char *tail;
		bool tested = kcmp_p_note(s, note, sizeof(note), &tail);
		table(out, x, p, tested);
		if (tested)
			fprintf(out, "<p>%s %s.</p>\n", note, tail);
		fputs("</section>\n", out);
	}
	html_page_end(out);
}
