/* chart.h - inline SVG charts for the HTML reports (run, sweep, compare,
 * reproduce, mrc): line charts (series of points, each optionally with an
 * interval) and bar charts (bars from a base value, grouped per category,
 * optionally with a whisker and a label), on linear or log axes with ticks,
 * gridlines and a legend; markers for runs cut short (an OOM kill is a red
 * cross, a stop at --max-time an orange flag) and for significance; shaded
 * bands.  Several charts can share an axis (chart_share) so that figures
 * side by side read on the same scale.
 *
 * A chart is built with calls that copy their strings, then written once
 * with chart_svg(): one <svg> element, inline attributes only (it needs
 * no stylesheet, no script, no font), every coordinate printed with one
 * decimal, so the same calls give the same bytes.  Element classes, for
 * tests and for the page's CSS: the series' lines are <polyline
 * class="series">, points <circle class="pt">, bars <rect class="CLS">
 * (the series' class, default "bar"), whiskers <line class="ci">, bands
 * <rect class="CLS"> (default "band"), markers <path class="mark-oom">,
 * <path class="mark-maxtime"> and <text class="mark-sig">, legend entries
 * <g class="legend-entry">. */
#ifndef PAGELAB_CHART_H
#define PAGELAB_CHART_H

#include <stdbool.h>
#include <stdio.h>

enum chart_kind {
	CHART_LINES,   /* x and y are values */
	CHART_VBARS,   /* categories along x, values up the y axis */
	CHART_HBARS,   /* categories down the y axis, values along x */
};

enum chart_scale {
	CHART_LINEAR,
	CHART_LOG10,   /* ticks at powers of 10 (and 2, 5 within one decade) */
	CHART_LOG2,    /* ticks at powers of 2, labelled 1/4 ... 4: ratios */
};

enum chart_mark {
	CHART_MARK_OOM,      /* a workload was OOM-killed here */
	CHART_MARK_MAXTIME,  /* the run stopped at --max-time here */
	CHART_MARK_SIG,      /* significant (a '*' above a bar) */
	CHART_NR_MARKS
};

/* Layout flags. */
#define CHART_COMPACT   1u  /* no title, axis labels, category labels or legend:
			     * a bar in a table cell */
#define CHART_NO_LEGEND 2u

struct chart;

/* A chart whose plot area is plot_w x plot_h pixels (margins, title and
 * legend come on top, so charts of one size align whatever they hold). */
struct chart *chart_new(enum chart_kind kind, int plot_w, int plot_h);
void chart_free(struct chart *c);
void chart_flags(struct chart *c, unsigned flags);
/* The <svg>'s class (default "chart"). */
void chart_class(struct chart *c, const char *cls);
void chart_title(struct chart *c, const char *title);

/* Axis 'x' or 'y': its label (NULL: none) and scale.  The value axis of
 * a bar chart starts at 0 on a linear scale and is always the one whose
 * scale is set (y for VBARS, x for HBARS); the category axis has none. */
void chart_axis(struct chart *c, char axis, const char *label, enum chart_scale scale);
/* Fix an axis' range (otherwise it is fitted to the data, rounded to
 * ticks; a linear value axis includes 0). */
void chart_range(struct chart *c, char axis, double lo, double hi);
/* Give n charts the same range on axis: the union of their data (fixed
 * ranges count as data), rounded the same way for each. */
void chart_share(struct chart *const *cs, int n, char axis);

/* A series: its legend name (NULL: not in the legend) and colour (NULL:
 * the next of a fixed palette).  Returns its index. */
int chart_series(struct chart *c, const char *name, const char *color);
void chart_series_class(struct chart *c, int s, const char *cls);

/* Line charts: a point of series s; with an interval lo..hi on y (drawn
 * as a whisker) when lo and hi are not NAN.  A y that is NAN breaks the
 * line.  title (NULL: none) is the point's tooltip. */
void chart_point(struct chart *c, int s, double x, double y, double lo, double hi, const char *title);

/* Bar charts: categories in order; a bar of series s in category cat of
 * value v (from the base, default 0, 1 on a log axis), with a whisker
 * lo..hi unless NAN, a tooltip and a label printed past its end (NULL:
 * none).  Returns the bar's index. */
int chart_category(struct chart *c, const char *name);
void chart_bar_base(struct chart *c, double base);
int chart_bar(struct chart *c, int s, int cat, double v, double lo, double hi, const char *title,
	      const char *label);

/* A marker at (x, y) in data coordinates; y NAN: at the top of the plot
 * with a dashed line down at x (an event in time).  On bar charts, bar
 * gives the position instead (x, y ignored): at the end of bar. */
void chart_mark(struct chart *c, enum chart_mark m, double x, double y, int bar, const char *title);

/* A shaded band lo..hi across axis (an x band is vertical). */
void chart_band(struct chart *c, char axis, double lo, double hi, const char *cls, const char *color,
		const char *title);

/* Write the chart as one <svg> element. */
void chart_svg(const struct chart *c, FILE *out);

/* Text for HTML and SVG: & < > " escaped. */
void html_escape(FILE *out, const char *s);

#endif
