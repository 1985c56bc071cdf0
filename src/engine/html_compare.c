/* html_compare.c - see html_compare.h. */
#include "html_compare.h"
#include "html_sweep.h"
#include "../report/chart.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_W 240
#define ROW_H 18

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

static void table(FILE *out, const struct cmp_table *x)
{
	fputs("<table class=\"t cmp\"><tr><th></th>", out);
	for (int d = 0; d < x->nr_designs; d++) {
		fputs("<th>", out);
		html_escape(out, x->designs[d]);
		fputs(d ? "</th>" : " (baseline)</th>", out);
	}
	fputs("</tr>\n", out);
	for (int m = 0; m < x->nr_metrics; m++) {
		fputs("<tr><td>", out);
		html_escape(out, x->metrics[m]);
		fputs("</td>", out);
		for (int d = 0; d < x->nr_designs; d++) {
			const struct cmp_cell *cc = &x->cells[m * x->nr_designs + d];
			if (!cc->s.n) {
				fputs("<td class=\"n\">-</td>", out);
				continue;
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
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static struct chart *bars(const struct cmp_table *x, int m)
{
	struct chart *c = chart_new(CHART_HBARS, PLOT_W, ROW_H * x->nr_designs);
	chart_class(c, "plot");
	chart_title(c, x->metrics[m]);
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

void compare_html(FILE *out, const struct cmp_table *t, int n, const struct records *rs,
		  const struct html_provenance *pv)
{
	html_page_begin(out, "pagelab compare", ".sig{color:#c00;font-weight:bold}\n");
	html_provenance(out, pv);
	fprintf(out, "<p>Designs against a baseline over seeds, in the shape of mmtests' compare-kernels: mean "
		"&plusmn; stddev, %% change against the baseline's mean, <span class=\"sig\">*</span> where the "
		"difference is significant (p &lt; %.2f: Welch's t-test with 5 or more seeds a side, else an exact "
		"Mann-Whitney U test). In the bars the whiskers are 95%% intervals of the mean and the grey band is "
		"the baseline's.</p>\n", CMP_ALPHA);
	for (int c = 0; c < n; c++) {
		const struct cmp_table *x = &t[c];
		fputs("<section class=\"config\">\n<h2>", out);
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
		if (x->nr_unavailable == x->nr_runs) {
			fputs("<p class=\"na\">None to compare.</p>\n</section>\n", out);
			continue;
		}
		table(out, x);
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
		fputs("</section>\n", out);
	}
	if (rs)
		html_records_params(out, rs);
	html_page_end(out);
}
