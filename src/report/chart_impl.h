/* chart_impl.h - what chart.c (building a chart) and chart_svg.c
 * (drawing it) share: the chart as the calls of chart.h left it.  Not an
 * interface: only those two files include it. */
#ifndef PAGELAB_CHART_IMPL_H
#define PAGELAB_CHART_IMPL_H

#include "chart.h"

#define MAX_POINTS 600      /* per series: a longer one is drawn every n-th point */
#define DOTS_UP_TO 40       /* series of at most this many points get dots... */
#define LEGEND_ROW 14

struct point { double x, y, lo, hi; char *title; };
struct series { char *name, *color, *cls; struct point *p; int n; };
struct bar { int s, cat; double v, lo, hi; char *title, *label; };
struct mark { enum chart_mark m; double x, y; int bar; char *title; };
struct band { int axis; double lo, hi; char *cls, *color, *title; };

struct axis {
	char *label;
	enum chart_scale scale;
	double dlo, dhi;        /* data extent (finite, and > 0 on a log axis) */
	bool fixed;
	double flo, fhi;
};

struct chart {
	enum chart_kind kind;
	int pw, ph;
	unsigned flags;
	char *cls, *title;
	struct axis ax[2];
	struct series *s;
	int ns;
	char **cats;
	int ncats;
	double base;
	bool base_set;
	struct bar *bars;
	int nbars;
	struct mark *marks;
	int nmarks;
	struct band *bands;
	int nbands;
};

/* The axis values are read along: y but on horizontal bar charts. */
static inline int value_axis(const struct chart *c) { return c->kind != CHART_HBARS; }

#endif
