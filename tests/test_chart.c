/* test_chart.c - the SVG chart module (src/report/chart.h): element counts
 * of small hand-built charts, the ticks of linear and log axes, shared
 * axes, escaping, markers and the legend, and byte-identical output. */
#include "test.h"
#include "../src/report/chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *render(const struct chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	chart_svg(c, f);
	fclose(f);
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* The tick labels of the svg, in order, joined by spaces. */
static void tick_labels(const char *svg, char *out, size_t len)
{
	out[0] = 0;
	for (const char *p = svg; (p = strstr(p, "<text class=\"ax\"")); p++) {
		const char *a = strchr(p, '>') + 1, *b = strchr(a, '<');
		size_t n = strlen(out);
		snprintf(out + n, len - n, "%s%.*s", n ? " " : "", (int)(b - a), a);
	}
}

void test_chart_lines(void);
void test_chart_lines(void)
{
	struct chart *c = chart_new(CHART_LINES, 300, 100);
	chart_title(c, "free <memory> & \"swap\"");
	chart_axis(c, 'x', "time (s)", CHART_LINEAR);
	int a = chart_series(c, "clock", NULL), b = chart_series(c, "lru<2>", "#123456");
	for (int i = 0; i <= 4; i++) {
		chart_point(c, a, i, 10 * i, NAN, NAN, NULL);
		chart_point(c, b, i, 37 - 3 * i, 30 - 3 * i, 44 - 3 * i, "p");
	}
	chart_mark(c, CHART_MARK_OOM, 2, NAN, -1, "usemem killed");
	chart_mark(c, CHART_MARK_MAXTIME, 4, 25, -1, NULL);
	char *s = render(c);
	CHECK_EQ(count(s, "<svg"), 1);
	CHECK_EQ(count(s, "<polyline class=\"series\""), 2);
	CHECK_EQ(count(s, "<circle class=\"pt\""), 10);
	CHECK_EQ(count(s, "<line class=\"ci\""), 5);          /* b's intervals only */
	CHECK_EQ(count(s, "<path class=\"mark-oom\""), 2);    /* the plot's and the legend's */
	CHECK_EQ(count(s, "<path class=\"mark-maxtime\""), 2);
	CHECK_EQ(count(s, "<line class=\"mark-line\""), 1);   /* only the OOM one has no y */
	CHECK_EQ(count(s, "<g class=\"legend-entry\""), 4);   /* 2 series + 2 kinds of marker */
	CHECK_EQ(count(s, "<title>usemem killed</title>"), 1);
	CHECK(strstr(s, "free &lt;memory&gt; &amp; &quot;swap&quot;") != NULL);
	CHECK(strstr(s, "lru&lt;2&gt;") != NULL);
	CHECK(strstr(s, "<memory>") == NULL);
	CHECK(strstr(s, "stroke=\"#123456\"") != NULL);
	/* x: 0..4 in steps of 1; y: 0..44 fitted to 0..50 in steps of 10. */
	char ticks[512];
	tick_labels(s, ticks, sizeof(ticks));
	if (strcmp(ticks, "0 1 2 3 4 0 10 20 30 40 50"))
		fprintf(stderr, "ticks: %s\n", ticks), test_failures++;
	/* The same calls, the same bytes. */
	char *again = render(c);
	CHECK(!strcmp(s, again));
	free(again);
	free(s);
	chart_free(c);
}

void test_chart_log_axes(void);
void test_chart_log_axes(void)
{
	char ticks[512];
	struct chart *c = chart_new(CHART_LINES, 200, 100);
	chart_axis(c, 'x', "cache size", CHART_LOG10);
	int s = chart_series(c, "lru", NULL);
	chart_point(c, s, 3, 0.5, NAN, NAN, NULL);
	chart_point(c, s, 700, 0.1, NAN, NAN, NULL);
	chart_point(c, s, 0, 0.9, NAN, NAN, NULL);  /* not on a log axis: breaks the line */
	char *svg = render(c);
	tick_labels(svg, ticks, sizeof(ticks));
	/* x: 3..700 out to 1..1000; y: 0.1..0.5 with 0 in, step 0.1. */
	if (strcmp(ticks, "1 10 100 1000 0 0.1 0.2 0.3 0.4 0.5"))
		fprintf(stderr, "ticks: %s\n", ticks), test_failures++;
	CHECK_EQ(count(svg, "<polyline"), 1);
	CHECK_EQ(count(svg, "<circle"), 2);
	free(svg);
	chart_free(c);

	/* One decade: 2 and 5 too.  Log 2 ratios: 1/4 .. 4. */
	c = chart_new(CHART_HBARS, 200, 30);
	chart_axis(c, 'x', NULL, CHART_LOG2);
	chart_range(c, 'x', 0.25, 4);
	s = chart_series(c, NULL, NULL);
	chart_bar(c, s, chart_category(c, "r"), 3, NAN, NAN, NULL, NULL);
	svg = render(c);
	tick_labels(svg, ticks, sizeof(ticks));
	if (strcmp(ticks, "1/4 1/2 1 2 4"))
		fprintf(stderr, "ticks: %s\n", ticks), test_failures++;
	/* The bar starts at 1, the base of a log axis: the plot starts after
	 * the category label (12 + 6 px for "r"), 1 is its middle. */
	CHECK(strstr(svg, "<rect class=\"bar\" x=\"118.0\"") != NULL);
	/* The gridline at the base is darker. */
	CHECK_EQ(count(svg, "stroke=\"#888\""), 1);
	free(svg);
	chart_free(c);

	c = chart_new(CHART_VBARS, 200, 100);
	chart_axis(c, 'y', NULL, CHART_LOG10);
	s = chart_series(c, NULL, NULL);
	chart_bar(c, s, chart_category(c, "a"), 20, NAN, NAN, NULL, NULL);
	chart_bar(c, s, chart_category(c, "b"), 30, NAN, NAN, NULL, NULL);
	svg = render(c);
	tick_labels(svg, ticks, sizeof(ticks));
	if (strcmp(ticks, "10 20 50 100"))
		fprintf(stderr, "ticks: %s\n", ticks), test_failures++;
	free(svg);
	chart_free(c);
}

void test_chart_shared_axes(void);
void test_chart_shared_axes(void)
{
	struct chart *cs[2];
	for (int k = 0; k < 2; k++) {
		cs[k] = chart_new(CHART_LINES, 200, 80);
		int s = chart_series(cs[k], "x", NULL);
		chart_point(cs[k], s, 0, 1, NAN, NAN, NULL);
		chart_point(cs[k], s, k ? 30 : 7, k ? 2 : 900, NAN, NAN, NULL);
	}
	chart_share(cs, 2, 'x');
	char t0[512], t1[512];
	char *a = render(cs[0]), *b = render(cs[1]);
	tick_labels(a, t0, sizeof(t0));
	tick_labels(b, t1, sizeof(t1));
	/* x is 0..30 on both; y is each one's own. */
	if (strcmp(t0, "0 5 10 15 20 25 30 0 200 400 600 800 1000") ||
	    strcmp(t1, "0 5 10 15 20 25 30 0 0.5 1 1.5 2"))
		fprintf(stderr, "ticks:\n  %s\n  %s\n", t0, t1), test_failures++;
	free(a);
	free(b);
	chart_free(cs[0]);
	chart_free(cs[1]);
}

void test_chart_bars(void);
void test_chart_bars(void)
{
	struct chart *c = chart_new(CHART_VBARS, 300, 120);
	chart_title(c, "elapsed (s)");
	int base = chart_series(c, "splitlru", NULL), other = chart_series(c, "mglru", NULL);
	chart_series_class(c, other, "other");
	for (int k = 0; k < 3; k++) {
		char name[16];
		snprintf(name, sizeof(name), "%dM", 256 << k);
		int cat = chart_category(c, name);
		chart_bar(c, base, cat, 10.0 * (k + 1), 9.0 * (k + 1), 11.0 * (k + 1), NULL, NULL);
		int i = chart_bar(c, other, cat, 12.0 * (k + 1), NAN, NAN, "mglru", "+20%");
		if (k == 2)
			chart_mark(c, CHART_MARK_SIG, 0, 0, i, "p = 0.01");
	}
	chart_mark(c, CHART_MARK_OOM, 0, 0, 0, "killed");
	chart_band(c, 'y', 5, 15, NULL, NULL, "tolerance");
	char *s = render(c);
	CHECK_EQ(count(s, "<rect class=\"bar\""), 3);
	CHECK_EQ(count(s, "<rect class=\"other\""), 3);
	CHECK_EQ(count(s, "<line class=\"ci\""), 3);
	CHECK_EQ(count(s, "<rect class=\"band\""), 1);
	CHECK_EQ(count(s, "<text class=\"mark-sig\""), 2);   /* the bar's and the legend's */
	CHECK_EQ(count(s, "<path class=\"mark-oom\""), 2);
	CHECK_EQ(count(s, ">+20%</text>"), 3);
	CHECK_EQ(count(s, "<text class=\"cat\""), 3);
	CHECK_EQ(count(s, "<g class=\"legend-entry\""), 4);
	free(s);
	chart_free(c);

	/* Compact: no legend, no labels, no frame. */
	c = chart_new(CHART_HBARS, 100, 20);
	chart_flags(c, CHART_COMPACT);
	int k = chart_series(c, "a", NULL);
	chart_bar(c, k, chart_category(c, "a"), 1, NAN, NAN, NULL, NULL);
	s = render(c);
	CHECK_EQ(count(s, "legend"), 0);
	CHECK_EQ(count(s, "class=\"cat\""), 0);
	CHECK_EQ(count(s, "class=\"frame\""), 0);
	free(s);
	chart_free(c);
}

/* Degenerate data: one value, no value, a fixed empty range - finite
 * coordinates and the ticks of a real axis, never "nan" or "inf". */
void test_chart_degenerate(void);
void test_chart_degenerate(void)
{
	for (int scale = CHART_LINEAR; scale <= CHART_LOG2; scale++)
		for (int k = 0; k < 4; k++) {
			struct chart *c = chart_new(CHART_LINES, 100, 50);
			chart_axis(c, 'x', NULL, (enum chart_scale)scale);
			chart_axis(c, 'y', NULL, (enum chart_scale)scale);
			int s = chart_series(c, "s", NULL);
			if (k == 1)
				chart_point(c, s, 5, 5, NAN, NAN, NULL);
			if (k == 2)
				chart_range(c, 'x', 3, 3);
			if (k == 3)
				chart_point(c, s, -1, 0, -2, 2, NULL);
			chart_mark(c, CHART_MARK_OOM, 5, NAN, -1, NULL);
			char *svg = render(c);
			CHECK(!strstr(svg, "nan") && !strstr(svg, "inf"));
			if (count(svg, "<text class=\"ax\"") < 4)
				fprintf(stderr, "scale %d case %d: %d ticks\n", scale, k, count(svg, "<text class=\"ax\"")), test_failures++;
			free(svg);
			chart_free(c);
		}
}
