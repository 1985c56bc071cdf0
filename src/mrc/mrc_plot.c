/* mrc_plot.c - miss-ratio curves drawn with the shared chart module
 * (src/report/chart.h): miss ratio against cache size in pages on a log
 * axis, one line per curve, as an SVG file or a self-contained HTML page
 * (the page frame of every pagelab report, src/report/htmlpage.h, with the
 * figures in a table under the plot). */
#include "mrc_out.h"
#include "../engine/matrix.h"
#include "../report/chart.h"
#include "../report/htmlpage.h"
#include "../lib/util.h"
#include "../lib/version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct chart *mrc_chart(const struct mrc_result *r, const char *path)
{
	struct chart *c = chart_new(CHART_LINES, 640, 320);
	char buf[512];
	snprintf(buf, sizeof(buf), "Miss ratio: %.300s, %llu references", path, (unsigned long long)r->nrefs);
	chart_title(c, buf);
	chart_axis(c, 'x', "cache size (pages)", CHART_LOG10);
	chart_axis(c, 'y', "miss ratio", CHART_LINEAR);
	chart_range(c, 'y', 0, 1);
	for (int i = 0; i < r->nr_curves; i++) {
		const struct mrc_curve *cv = &r->curves[i];
		int s = chart_series(c, cv->name, NULL);
		for (int k = 0; k < r->nr_sizes; k++) {
			char sz[32];
			size_name(sz, sizeof(sz), r->sizes[k] * PAGE_SIZE);
			snprintf(buf, sizeof(buf), "%.100s: %llu pages (%s), miss ratio %.4f, %.0f misses", cv->name,
				 (unsigned long long)r->sizes[k], sz, cv->ratio[k], cv->misses[k]);
			chart_point(c, s, (double)r->sizes[k], cv->ratio[k], NAN, NAN, buf);
		}
	}
	return c;
}

void mrc_plot_svg(FILE *out, const struct mrc_result *r, const char *path)
{
	struct chart *c = mrc_chart(r, path);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	chart_svg(c, out);
	chart_free(c);
}

void mrc_plot_html(FILE *out, const struct mrc_result *r, const char *path, int argc, char *const *argv)
{
	char date[64], title[400];
	html_date(date, sizeof(date));
	char *cmd = html_cmdline(argc, argv);
	struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmd, .date = date };
	snprintf(title, sizeof(title), "pagelab mrc: %.300s", path);
	html_page_begin(out, title, NULL);
	html_provenance(out, &pv);
	free(cmd);
	fprintf(out, "<p>%s trace, %llu references, ", r->format, (unsigned long long)r->nrefs);
	if (r->npages)
		fprintf(out, "%llu distinct pages.</p>\n", (unsigned long long)r->npages);
	else
		fprintf(out, "about %llu distinct pages (SHARDS' estimate).</p>\n",
			(unsigned long long)r->npages_estimated);
	struct chart *c = mrc_chart(r, path);
	chart_svg(c, out);
	chart_free(c);
	fputs("\n<table class=\"t mrc\">\n<tr><th>size</th><th>pages</th>", out);
	for (int i = 0; i < r->nr_curves; i++) {
		fputs("<th>", out);
		html_escape(out, r->curves[i].name);
		fprintf(out, " (%s)</th>", mrc_method_name(r->curves[i].method));
	}
	fputs("</tr>\n", out);
	for (int k = 0; k < r->nr_sizes; k++) {
		char sz[32];
		size_name(sz, sizeof(sz), r->sizes[k] * PAGE_SIZE);
		fprintf(out, "<tr><td class=\"n\">%s</td><td class=\"n\">%llu</td>", sz, (unsigned long long)r->sizes[k]);
		for (int i = 0; i < r->nr_curves; i++)
			fprintf(out, "<td class=\"n\">%.4f</td>", r->curves[i].ratio[k]);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	for (int i = 0; i < r->nr_curves; i++) {
		const struct mrc_curve *cv = &r->curves[i];
		if (cv->method != MRC_SHARDS_RATE && cv->method != MRC_SHARDS_SIZE)
			continue;
		fputs("<p>", out);
		html_escape(out, cv->name);
		fprintf(out, ": rate %.4g, %llu of %llu references sampled", cv->rate, (unsigned long long)cv->sampled,
			(unsigned long long)r->nrefs);
		if (cv->mae >= 0)
			fprintf(out, "; mean absolute error against the exact curve %.4f", cv->mae);
		fputs(".</p>\n", out);
	}
	if (r->interrupted)
		fputs("<p class=\"stop\">Interrupted: the curves cover the references read until then.</p>\n", out);
	html_page_end(out);
}
