/* chart.c - see chart.h: building a chart (its series, bars, marks and
 * bands, copied in); chart_svg.c draws it. */
#include "chart_impl.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

void html_escape(FILE *out, const char *s)
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

static int axis_index(char axis)
{
	if (axis != 'x' && axis != 'y')
		panic("chart: axis '%c'", axis);
	return axis == 'y';
}

struct chart *chart_new(enum chart_kind kind, int plot_w, int plot_h)
{
	struct chart *c = xcalloc(1, sizeof(*c));
	c->kind = kind;
	c->pw = plot_w;
	c->ph = plot_h;
	for (int a = 0; a < 2; a++) {
		c->ax[a].dlo = INFINITY;
		c->ax[a].dhi = -INFINITY;
	}
	return c;
}

void chart_free(struct chart *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->ns; i++) {
		for (int k = 0; k < c->s[i].n; k++)
			free(c->s[i].p[k].title);
		free(c->s[i].p);
		free(c->s[i].name);
		free(c->s[i].color);
		free(c->s[i].cls);
	}
	for (int i = 0; i < c->ncats; i++)
		free(c->cats[i]);
	for (int i = 0; i < c->nbars; i++) {
		free(c->bars[i].title);
		free(c->bars[i].label);
	}
	for (int i = 0; i < c->nmarks; i++)
		free(c->marks[i].title);
	for (int i = 0; i < c->nbands; i++) {
		free(c->bands[i].cls);
		free(c->bands[i].color);
		free(c->bands[i].title);
	}
	free(c->s);
	free(c->cats);
	free(c->bars);
	free(c->marks);
	free(c->bands);
	free(c->ax[0].label);
	free(c->ax[1].label);
	free(c->cls);
	free(c->title);
	free(c);
}

void chart_flags(struct chart *c, unsigned flags) { c->flags = flags; }

void chart_class(struct chart *c, const char *cls)
{
	free(c->cls);
	c->cls = dup_or_null(cls);
}

void chart_title(struct chart *c, const char *title)
{
	free(c->title);
	c->title = dup_or_null(title);
}

void chart_axis(struct chart *c, char axis, const char *label, enum chart_scale scale)
{
	struct axis *a = &c->ax[axis_index(axis)];
	free(a->label);
	a->label = dup_or_null(label);
	a->scale = scale;
}

void chart_range(struct chart *c, char axis, double lo, double hi)
{
	struct axis *a = &c->ax[axis_index(axis)];
	a->fixed = true;
	a->flo = lo;
	a->fhi = hi;
}

/* The value axis of a bar chart: x for HBARS, y otherwise. */
static void extend(struct chart *c, int a, double v)
{
	if (!isfinite(v) || (c->ax[a].scale != CHART_LINEAR && v <= 0))
		return;
	if (v < c->ax[a].dlo)
		c->ax[a].dlo = v;
	if (v > c->ax[a].dhi)
		c->ax[a].dhi = v;
}

void chart_share(struct chart *const *cs, int n, char axis)
{
	int a = axis_index(axis);
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < n; i++) {
		const struct axis *x = &cs[i]->ax[a];
		double l = x->fixed ? x->flo : x->dlo, h = x->fixed ? x->fhi : x->dhi;
		lo = l < lo ? l : lo;
		hi = h > hi ? h : hi;
	}
	for (int i = 0; i < n; i++) {
		cs[i]->ax[a].fixed = false;
		cs[i]->ax[a].dlo = lo;
		cs[i]->ax[a].dhi = hi;
	}
}

int chart_series(struct chart *c, const char *name, const char *color)
{
	c->s = xrealloc(c->s, (size_t)(c->ns + 1) * sizeof(*c->s));
	struct series *s = &c->s[c->ns];
	memset(s, 0, sizeof(*s));
	s->name = dup_or_null(name);
	s->color = xstrdup(color ? color : palette[c->ns % ARRAY_SIZE(palette)]);
	return c->ns++;
}

void chart_series_class(struct chart *c, int s, const char *cls)
{
	free(c->s[s].cls);
	c->s[s].cls = dup_or_null(cls);
}

void chart_point(struct chart *c, int s, double x, double y, double lo, double hi, const char *title)
{
	struct series *sr = &c->s[s];
	if (!(sr->n & (sr->n - 1)) || !sr->n)
		sr->p = xrealloc(sr->p, (size_t)(sr->n ? 2 * sr->n : 1) * sizeof(*sr->p));
	sr->p[sr->n++] = (struct point){ x, y, lo, hi, dup_or_null(title) };
	if (!isfinite(x) || (c->ax[0].scale != CHART_LINEAR && x <= 0))
		return;    /* not drawn: it does not stretch the axes either */
	extend(c, 0, x);
	extend(c, 1, y);
	extend(c, 1, lo);
	extend(c, 1, hi);
}

int chart_category(struct chart *c, const char *name)
{
	c->cats = xrealloc(c->cats, (size_t)(c->ncats + 1) * sizeof(*c->cats));
	c->cats[c->ncats] = xstrdup(name ? name : "");
	return c->ncats++;
}

void chart_bar_base(struct chart *c, double base)
{
	c->base = base;
	c->base_set = true;
}

int chart_bar(struct chart *c, int s, int cat, double v, double lo, double hi, const char *title,
	      const char *label)
{
	c->bars = xrealloc(c->bars, (size_t)(c->nbars + 1) * sizeof(*c->bars));
	c->bars[c->nbars] = (struct bar){ s, cat, v, lo, hi, dup_or_null(title), dup_or_null(label) };
	int a = value_axis(c);
	extend(c, a, v);
	extend(c, a, lo);
	extend(c, a, hi);
	return c->nbars++;
}

void chart_mark(struct chart *c, enum chart_mark m, double x, double y, int bar, const char *title)
{
	c->marks = xrealloc(c->marks, (size_t)(c->nmarks + 1) * sizeof(*c->marks));
	c->marks[c->nmarks++] = (struct mark){ m, x, y, bar, dup_or_null(title) };
	if (c->kind == CHART_LINES) {
		extend(c, 0, x);
		extend(c, 1, y);
	}
}

void chart_band(struct chart *c, char axis, double lo, double hi, const char *cls, const char *color,
		const char *title)
{
	c->bands = xrealloc(c->bands, (size_t)(c->nbands + 1) * sizeof(*c->bands));
	c->bands[c->nbands++] = (struct band){ axis_index(axis), lo, hi, xstrdup(cls ? cls : "band"),
					       xstrdup(color ? color : "#fd8"), dup_or_null(title) };
}
