/* html_compare.c - see html_compare.h. */
#include "html_compare.h"
#include "html_sweep.h"
#include "../report/chart.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_W 240      /* a figure's bars, per design */
#define ROW_H 18
#define KPLOT_W 360     /* a policy's ratios, per counter */
#define KROW_H 16
#define RATIO_MAX 128.0  /* drawn at the chart's edge beyond this */

/* --- the tables' markup, shared -------------------------------------- */

static void th(FILE *out, const char *text, const char *suffix)
{
	fputs("<th>", out);
	html_escape(out, text);
	fputs(suffix, out);
	fputs("</th>", out);
}

static void row_begin(FILE *out, const char *name)
{
	fputs("<tr><td>", out);
	html_escape(out, name);
	fputs("</td>", out);
}

static void na(FILE *out) { fputs("<td class=\"na\">-</td>", out); }
static void num(FILE *out, double v) { fprintf(out, "<td class=\"n\">%.0f</td>", v); }

/* --- the records comparison's table and bars --------------------------- */

static bool significant(const struct cmp_cell *cc) { return !isnan(cc->p) && cc->p < CMP_ALPHA; }

/* The 95% interval of a mean over seeds (Student's t), NAN below 2. */
static void interval(const struct summary *s, double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (s->n < 2)
		return;
	double h = t_quantile(0.975, s->n - 1) * s->sd / sqrt(s->n);
	*lo = s->mean - h;
	*hi = s->mean + h;
}

/* Enough digits to tell designs apart, never an exponent below 1e9. */
static void put_value(FILE *out, double v, int digits)
{
	if (fabs(v) >= 1e9 || (v != 0 && fabs(v) < 1e-3))
		fprintf(out, "%.*g", digits, v);
	else if (fabs(v) >= pow(10, digits))
		fprintf(out, "%.0f", v);
	else
		fprintf(out, "%.*g", digits, v);
}

static void design_cell(FILE *out, const struct cmp_cell *cc, int d)
{
	if (!cc->s.n) {
		na(out);
		return;
	}
	fputs("<td class=\"n\">", out);
	put_value(out, cc->s.mean, 4);
	fputs(" &plusmn; ", out);
	put_value(out, cc->s.sd, 2);
	if (d && !isnan(cc->change_pct))
		fprintf(out, " (%+.1f%%)", cc->change_pct);
	if (d && !isnan(cc->p))
		fprintf(out, "<span class=\"%s\" title=\"%s p = %.3g\">%s</span>", significant(cc) ? "sig" : "nsig",
			sig_test_names[cc->test], cc->p, significant(cc) ? "*" : "&nbsp;");
	fputs("</td>", out);
}

/* A figure's name, and which way is better for a workload's figure of
 * merit: "read_iops (higher is better)". */
static void metric_title(const struct cmp_table *x, int m, char *buf, size_t len)
{
	int b = compare_better(x, m);
	snprintf(buf, len, "%s%s%s%s", x->metrics[m], b ? " (" : "", compare_better_words(b), b ? ")" : "");
}

static void designs_table(FILE *out, const struct cmp_table *x)
{
	fputs("<table class=\"t cmp\"><tr>", out);
	th(out, "", "");
	for (int d = 0; d < x->nr_designs; d++)
		th(out, x->designs[d], d ? "" : " (baseline)");
	fputs("</tr>\n", out);
	for (int m = 0; m < x->nr_metrics; m++) {
		char name[160];
		metric_title(x, m, name, sizeof(name));
		row_begin(out, name);
		for (int d = 0; d < x->nr_designs; d++)
			design_cell(out, &x->cells[m * x->nr_designs + d], d);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static struct chart *bars(const struct cmp_table *x, int m)
{
	struct chart *c = chart_new(CHART_HBARS, PLOT_W, ROW_H * x->nr_designs);
	chart_class(c, "plot");
	char name[160];
	metric_title(x, m, name, sizeof(name));
	chart_title(c, name);
	chart_axis(c, 'x', NULL, CHART_LINEAR);
	chart_flags(c, CHART_NO_LEGEND);
	int base = chart_series(c, "baseline", "#7f7f7f"), other = chart_series(c, "design", "#1f77b4");
	chart_series_class(c, base, "base");
	char t[400], lab[32];
	for (int d = 0; d < x->nr_designs; d++) {
		const struct cmp_cell *cc = &x->cells[m * x->nr_designs + d];
		int cat = chart_category(c, x->designs[d]);
		if (!cc->s.n)
			continue;
		double lo, hi;
		interval(&cc->s, &lo, &hi);
		if (!d && isfinite(lo))
			chart_band(c, 'x', lo, hi, "band", "#ccc", "the baseline's 95% interval");
		int k = snprintf(t, sizeof(t), "%s: mean %.4g, stddev %.3g over %d", x->designs[d], cc->s.mean, cc->s.sd,
				 cc->s.n);
		if (d && !isnan(cc->p))
			snprintf(t + k, sizeof(t) - (size_t)k, "; %+.1f%%, %s p = %.3g", cc->change_pct,
				 sig_test_names[cc->test], cc->p);
		snprintf(lab, sizeof(lab), "%+.1f%%", cc->change_pct);
		int b = chart_bar(c, d ? other : base, cat, cc->s.mean, lo, hi, t,
				  d && !isnan(cc->change_pct) ? lab : NULL);
		if (d && significant(cc)) {
			snprintf(t, sizeof(t), "significant: %s p = %.3g < %.2f", sig_test_names[cc->test], cc->p, CMP_ALPHA);
			chart_mark(c, CHART_MARK_SIG, 0, 0, b, t);
		}
	}
	return c;
}

static void config_heading(FILE *out, const struct cmp_table *x)
{
	fputs("<h2>", out);
	html_escape(out, x->config);
	fprintf(out, "</h2>\n<p>%d design%s, %d run%s", x->nr_designs, x->nr_designs == 1 ? "" : "s", x->nr_runs,
		x->nr_runs == 1 ? "" : "s");
	if (x->nr_unavailable)
		fprintf(out, ", %d could not run", x->nr_unavailable);
	if (x->nr_unfinished)
		fprintf(out, ", <span class=\"stop\">%d did not finish (OOM kill or --max-time)</span>", x->nr_unfinished);
	fputs("; baseline ", out);
	html_escape(out, x->designs[0]);
	fputs(".</p>\n", out);
}

static void config_body(FILE *out, const struct cmp_table *x)
{
	if (x->nr_unavailable == x->nr_runs) {
		fputs("<p class=\"na\">None to compare.</p>\n", out);
		return;
	}
	designs_table(out, x);
	for (int m = 0; m < x->nr_metrics; m++) {
		bool any = false;
		for (int d = 0; d < x->nr_designs; d++)
			any |= x->cells[m * x->nr_designs + d].s.n > 0;
		if (!any)
			continue;
		struct chart *ch = bars(x, m);
		chart_svg(ch, out);
		chart_free(ch);
	}
}

static void records_intro(FILE *out)
{
	fprintf(out, "<p>Designs against a baseline over seeds, in the shape of mmtests' compare-kernels: mean "
		"&plusmn; stddev, %% change against the baseline's mean, <span class=\"sig\">*</span> where the "
		"difference is significant (p &lt; %.2f: Welch's t-test with 5 or more seeds a side, else an exact "
		"Mann-Whitney U test). In the bars the whiskers are 95%% intervals of the mean and the grey band is "
		"the baseline's.</p>\n", CMP_ALPHA);
}

/* --- the kernel's columns ---------------------------------------------- */

static const char *const verdict_text[] = { "yes", "no", "missing", "not counted" };

/* tested: the p column (both sides have two or more values). */
static void kernel_table(FILE *out, const struct kcmp *x, int p, bool tested)
{
	static const char *const head[] = { "counter", "kernel median", "min..max", "pagelab", "ratio", "within", "p" };
	fputs("<table class=\"t\"><tr>", out);
	for (int h = 0; h < 6 + tested; h++)
		th(out, head[h], "");
	fputs("</tr>\n", out);
	for (int k = 0; k < x->nrows; k++) {
		const struct kcmp_row *r = &x->row[p * x->nrows + k];
		row_begin(out, r->name);
		if (r->kfound) {
			num(out, r->med);
			fprintf(out, "<td class=\"n\">%.0f..%.0f</td>", r->kmin, r->kmax);
		} else {
			na(out);
			na(out);
		}
		if (r->sfound)
			num(out, r->sim);
		else
			na(out);
		if (r->kfound && r->sfound && r->med > 0)
			fprintf(out, "<td class=\"n\">%.2f</td>", r->sim / r->med);
		else
			na(out);
		fprintf(out, "<td class=\"v%d\">%s</td>", (int)r->verdict, verdict_text[r->verdict]);
		if (tested && !isnan(r->p))
			fprintf(out, "<td class=\"n\">%.3f</td>", r->p);
		else if (tested)
			na(out);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static double clamp_ratio(double v) { return fmin(RATIO_MAX, fmax(1 / RATIO_MAX, v)); }

static bool has_ratio(const struct kcmp_row *r)
{
	return r->kfound && r->sfound && r->med > 0 && r->verdict != KCMP_NOT_COUNTED;
}

static void ratio_bar(struct chart *c, const struct kcmp_row *r, int yes, int no)
{
	char t[256], lab[32];
	int cat = chart_category(c, r->name);
	double v = r->sim / r->med;
	/* The ratio against the kernel's extremes: where pagelab's value
	 * would sit had the median been the smallest or largest run. */
	double lo = r->kmax > 0 ? r->sim / r->kmax : NAN, hi = r->kmin > 0 ? r->sim / r->kmin : NAN;
	snprintf(t, sizeof(t), "%s: kernel %.0f (%.0f..%.0f), pagelab %.0f, ratio %.3g", r->name, r->med, r->kmin,
		 r->kmax, r->sim, v);
	snprintf(lab, sizeof(lab), "%.2f", v);
	chart_bar(c, r->verdict == KCMP_YES ? yes : no, cat, clamp_ratio(fmax(v, 1e-9)),
		  isnan(lo) ? NAN : clamp_ratio(fmax(lo, 1e-9)), isnan(hi) ? NAN : clamp_ratio(hi), t, lab);
}

/* NULL when no counter has a ratio (the kernel counted 0 or nothing). */
static struct chart *ratios(const struct kcmp *x, int p, const struct kcmp_setup *s)
{
	int n = 0;
	for (int k = 0; k < x->nrows; k++)
		n += has_ratio(&x->row[p * x->nrows + k]);
	if (!n)
		return NULL;
	struct chart *c = chart_new(CHART_HBARS, KPLOT_W, KROW_H * n);
	chart_class(c, "plot");
	char t[256];
	snprintf(t, sizeof(t), "pagelab / kernel median, policy %s", x->pol[p]);
	chart_title(c, t);
	chart_axis(c, 'x', "ratio (log2)", CHART_LOG2);
	int yes = chart_series(c, "within", "#2ca02c"), no = chart_series(c, "outside", "#d62728");
	snprintf(t, sizeof(t), "within +-%g%%", s->tol);
	chart_band(c, 'x', fmax(1 / RATIO_MAX, 1 - s->tol / 100), 1 + s->tol / 100, "band", "#ddd", t);
	for (int k = 0; k < x->nrows; k++)
		if (has_ratio(&x->row[p * x->nrows + k]))
			ratio_bar(c, &x->row[p * x->nrows + k], yes, no);
	return c;
}

static void policy_body(FILE *out, const struct cmp_html_kernel *kh, int p)
{
	const struct kcmp *x = kh->x;
	fputs("<h2>", out);
	html_escape(out, x->pol[p]);
	fprintf(out, ": %d of %d counters agree</h2>\n", x->agree[p], x->compared[p]);
	struct chart *c = ratios(x, p, kh->s);
	if (c) {
		chart_svg(c, out);
		chart_free(c);
	}
	char note[160];
	const char *tail;
	bool tested = kcmp_p_note(kh->s, note, sizeof(note), &tail);
	kernel_table(out, x, p, tested);
	if (tested)
		fprintf(out, "<p>%s %s.</p>\n", note, tail);
}

static void escaped(FILE *out, const char *head, const char *s, const char *tail)
{
	fputs(head, out);
	html_escape(out, s);
	fputs(tail, out);
}

/* Where the kernel's counters came from. */
static void kernel_sources(FILE *out, const struct kcmp *x)
{
	if (!x->own[0] && !x->traced[0])
		return;
	if (x->own[0])
		escaped(out, " From the cgroup's own memory.stat: ", x->own, ";");
	if (x->traced[0])
		escaped(out, " from the tracepoints of its tasks' reclaim and its folios' activations: ", x->traced,
			";");
	fputs(" the host's /proc/vmstat for the rest.", out);
}

static void kernel_intro(FILE *out, const struct cmp_html_kernel *kh)
{
	const struct kcmp_setup *s = kh->s;
	escaped(out, "<p>Workload <code>", kh->cmd, "</code>");
	fprintf(out, " in a memory cgroup of %s with %s of swap: %llu run%s on this host's kernel "
		"(pagelab kernel%s) beside pagelab's simulated machine %s with %llu CPU%s",
		s->memcg, s->swap, (unsigned long long)s->repeat, s->repeat == 1 ? "" : "s",
		s->cached == s->repeat ? ", cached reports" : s->cached ? ", some cached" : "", s->machine,
		(unsigned long long)s->cpus, s->cpus == 1 ? "" : "s");
	if (s->sets && s->sets[0])
		escaped(out, " (with <code>", s->sets, "</code>)");
	if (s->seeds > 1)
		fprintf(out, ", the median of seeds %llu..%llu", (unsigned long long)s->seed0,
			(unsigned long long)(s->seed0 + s->seeds - 1));
	fprintf(out, ". A counter agrees within &plusmn;%g%% of the kernel's median%s. <em>Not counted</em>: the "
		"kernel leaves it out of cgroup limit reclaim (6.x: <code>if (!cgroup_reclaim(sc))</code>).", s->tol,
		s->floor > 0 ? ", or under the floor on both sides" : "");
	if (s->fit && s->fit[0])
		escaped(out, " ", s->fit, ".");
	kernel_sources(out, kh->x);
	fputs("</p>\n", out);
}

/* --- the page ---------------------------------------------------------- */

/* The style of both: the records' significance mark, the kernel's
 * verdicts (yes, no, missing or not counted). */
static const char style[] = ".sig{color:#c00;font-weight:bold}\n"
			    ".v0{color:#2ca02c}.v1{color:#d62728;font-weight:bold}.v2,.v3{color:#777}\n"
			    ".hs{background:#eee;color:#777;text-align:center}\n"
			    ".heat td,.heat th{font-size:11px;white-space:nowrap;padding:1px 3px}\n";

void compare_html(FILE *out, const struct cmp_table *t, int n, const struct records *rs,
		  const struct cmp_html_kernel *kernel, const struct html_provenance *pv)
{
	html_page_begin(out, kernel ? "pagelab compare: the kernel and the simulator" : "pagelab compare", style);
	html_provenance(out, pv);
	if (kernel)
		kernel_intro(out, kernel);
	else
		records_intro(out);
	/* A section per table: the kernel's per policy, the records' per
	 * configuration. */
	int nsec = kernel ? kernel->x->npol : n;
	for (int i = 0; i < nsec; i++) {
		fprintf(out, "<section class=\"%s\">\n", kernel ? "policy" : "config");
		if (kernel) {
			policy_body(out, kernel, i);
		} else {
			config_heading(out, &t[i]);
			config_body(out, &t[i]);
		}
		fputs("</section>\n", out);
	}
	if (rs)
		html_records_params(out, rs);
	html_page_end(out);
}

/* --- the matrix's heat map ------------------------------------------- */

/* A cell of the heat map: ratio s/k coloured by its class. */
static void heat_cell(FILE *out, double k, double s, enum km_class cl)
{
	if (cl == KM_NONE) {
		na(out);
		return;
	}
	if (cl == KM_SMALL) {
		fprintf(out, "<td class=\"hs\" title=\"kernel %.6g, pagelab %.6g\">&middot;</td>", k, s);
		return;
	}
	double r = k > 0 ? s / k : s > 0 ? INFINITY : 1;
	/* 0 at agreement, 1 at a factor of 8 either way or beyond */
	double d = fmin(1, fabs(log2(fmax(r, 1e-9))) / 3);
	int shade = 235 - (int)(d * 150);
	if (cl == KM_WITHIN)
		fputs("<td class=\"n\" style=\"background:#b8e0b0\"", out);
	else if (r > 1)
		fprintf(out, "<td class=\"n\" style=\"background:rgb(255,%d,%d)\"", shade, shade);
	else
		fprintf(out, "<td class=\"n\" style=\"background:rgb(%d,%d,255)\"", shade, shade);
	fprintf(out, " title=\"kernel %.6g, pagelab %.6g\">", k, s);
	if (isinf(r))
		fputs("k=0</td>", out);
	else
		fprintf(out, "%.2f</td>", r);
}

/* Whether any case has a cell in row k of design p. */
static bool heat_column(const struct kmatrix *m, int p, int k)
{
	for (int c = 0; c < m->ncase; c++)
		if (km_row_class(m, c, p, k) != KM_NONE)
			return true;
	return false;
}

static void heat_map(FILE *out, const struct kmatrix *m, int p)
{
	fputs("<table class=\"t heat\"><tr>", out);
	th(out, "case", "");
	for (int k = 0; k < m->nrows; k++)
		if (heat_column(m, p, k))
			th(out, m->c[0].x->row[k].name, "");
	th(out, "elapsed", "");
	th(out, "system", "");
	fputs("</tr>\n", out);
	for (int c = 0; c < m->ncase; c++) {
		const struct kmatrix_case *kc = &m->c[c];
		row_begin(out, kc->name);
		for (int k = 0; k < m->nrows; k++) {
			if (!heat_column(m, p, k))
				continue;
			const struct kcmp_row *r = &kc->x->row[p * m->nrows + k];
			heat_cell(out, r->med, r->sim, km_row_class(m, c, p, k));
		}
		heat_cell(out, kc->kel, kc->sel[p], km_classify(kc->kel, kc->sel[p], m->tol, 0));
		heat_cell(out, kc->ksys, kc->ssys[p], km_classify(kc->ksys, kc->ssys[p], m->tol, 0));
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void tally_text(FILE *out, const char *what, const struct km_tally *t)
{
	fprintf(out, "%s %d of %d", what, t->within, t->within + t->miss);
	if (t->within + t->miss)
		fprintf(out, " (%.1f%%)", 100.0 * t->within / (t->within + t->miss));
}

void compare_html_matrix(FILE *out, const struct kmatrix *m, const struct html_provenance *pv)
{
	html_page_begin(out, "pagelab compare --matrix: the kernel and the simulator", style);
	html_provenance(out, pv);
	fprintf(out, "<p>%d cases. A cell is the simulator's median over its seeds divided by the kernel's "
		"median over its runs: <span style=\"background:#b8e0b0\">within &plusmn;%g%%</span>, "
		"<span style=\"background:rgb(255,85,85)\">above</span> or <span style=\"background:rgb(85,85,255)"
		"\">below</span> it, darker to a factor of 8; &middot;: both under %g (counted apart, not as "
		"passes); -: not compared (a side lacks it, or the kernel does not count it under cgroup limit "
		"reclaim). Hover a cell for its two medians.</p>\n", m->ncase, m->tol, m->floor);
	for (int p = 0; p < m->npol; p++) {
		fputs("<section class=\"policy\">\n<h2>", out);
		html_escape(out, m->pol[p]);
		fputs(": ", out);
		tally_text(out, "page cells", &m->pages[p]);
		fprintf(out, ", %d both under the floor; ", m->pages[p].small);
		tally_text(out, "elapsed", &m->elapsed[p]);
		fputs(", ", out);
		tally_text(out, "system time", &m->sys[p]);
		fputs("</h2>\n", out);
		heat_map(out, m, p);
		fputs("</section>\n", out);
	}
	html_page_end(out);
}
