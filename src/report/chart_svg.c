/* chart_svg.c - chart_svg() of chart.h: one chart as an <svg>.  The axis
 * rules are those of a plotting program (gnuplot's autoscale to tick
 * marks): a linear axis rounded out to a 1-2-5 step giving four to eight
 * ticks, a log axis out to whole powers.  Labels use k and M so a tick
 * fits in a few characters. */
#include "chart_impl.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- axes: the range drawn and its ticks ---- */

#define MAX_TICKS 24
struct scale {
	enum chart_scale kind;
	double lo, hi;          /* drawn range */
	double tick[MAX_TICKS];
	int nticks;
	double p0, p1;          /* pixel positions of lo and hi */
};

static double nice_step(double range)
{
	double raw = range / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return mag * (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10);
}

static void fit_scale(const struct chart *c, int a, bool include_zero, struct scale *sc)
{
	const struct axis *x = &c->ax[a];
	sc->kind = x->scale;
	double lo = x->fixed ? x->flo : x->dlo, hi = x->fixed ? x->fhi : x->dhi;
	bool any = lo <= hi;
	sc->nticks = 0;
	if (x->scale == CHART_LINEAR) {
		if (!any)
			lo = 0, hi = 1;
		if (include_zero && !x->fixed) {
			lo = lo > 0 ? 0 : lo;
			hi = hi < 0 ? 0 : hi;
		}
		if (hi - lo <= 0)
			hi = lo + (lo ? fabs(lo) : 1);
		double step = nice_step(hi - lo);
		if (!x->fixed) {
			lo = floor(lo / step + 1e-9) * step;
			hi = ceil(hi / step - 1e-9) * step;
		}
		for (double t = ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9 && sc->nticks < MAX_TICKS;
		     t += step)
			sc->tick[sc->nticks++] = fabs(t) < step * 1e-9 ? 0 : t;
	} else {
		double b = x->scale == CHART_LOG2 ? 2 : 10;
		if (!any || lo <= 0)
			lo = 1, hi = any && hi > 1 ? hi : b;
		if (hi <= lo)
			hi = lo * b;   /* one value (or a fixed empty range): a power around it */
		double e0 = floor(log(lo) / log(b) + 1e-9), e1 = ceil(log(hi) / log(b) - 1e-9);
		if (e1 <= e0)
			e1 = e0 + 1;
		if (!x->fixed) {
			lo = pow(b, e0);
			hi = pow(b, e1);
		}
		int every = (int)ceil((e1 - e0 + 1) / 12);
		for (double e = e0; e <= e1 && sc->nticks < MAX_TICKS; e += every) {
			double t = pow(b, e);
			if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9))
				sc->tick[sc->nticks++] = t;
			/* One decade alone would have two ticks: add 2 and 5. */
			if (b == 10 && e1 - e0 == 1 && e < e1)
				for (int k = 2; k <= 5 && sc->nticks < MAX_TICKS; k += 3)
					sc->tick[sc->nticks++] = t * k;
		}
		if (sc->nticks < 2) {   /* a fixed range between two powers: its ends */
			sc->tick[0] = lo;
			sc->tick[1] = hi;
			sc->nticks = 2;
		}
	}
	sc->lo = lo;
	sc->hi = hi;
}

static double to_px(const struct scale *sc, double v)
{
	double f;
	if (sc->kind == CHART_LINEAR)
		f = (v - sc->lo) / (sc->hi - sc->lo);
	else
		f = v > 0 ? (log(v) - log(sc->lo)) / (log(sc->hi) - log(sc->lo)) : -1;
	f = f < 0 ? 0 : f > 1 ? 1 : f;   /* off the axis: at its edge */
	return sc->p0 + f * (sc->p1 - sc->p0);
}

static void tick_label(char *buf, size_t len, const struct scale *sc, double v)
{
	double a = fabs(v);
	if (sc->kind == CHART_LOG2 && v < 1 && v > 0)
		snprintf(buf, len, "1/%.4g", 1 / v);
	else if (a >= 1e9)
		snprintf(buf, len, "%.4gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.4gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%.4gk", v / 1e3);
	else
		snprintf(buf, len, "%.4g", v);
}

/* ---- drawing ---- */

static void title_el(FILE *out, const char *t)
{
	if (!t)
		return;
	fputs("<title>", out);
	html_escape(out, t);
	fputs("</title>", out);
}

static const char *const mark_names[] = { "OOM kill", "stopped at --max-time", "significant" };

static void draw_mark_shape(FILE *out, enum chart_mark m, double x, double y, const char *title)
{
	switch (m) {
	case CHART_MARK_OOM:
		fprintf(out, "<path class=\"mark-oom\" d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" "
			"stroke=\"#d00\" stroke-width=\"2.2\" fill=\"none\">", x - 4, y - 4, x + 4, y + 4, x - 4, y + 4,
			x + 4, y - 4);
		break;
	case CHART_MARK_MAXTIME:   /* a flag on a pole standing at (x, y) */
		fprintf(out, "<path class=\"mark-maxtime\" d=\"M%.1f %.1fV%.1fL%.1f %.1fL%.1f %.1fZ\" "
			"stroke=\"#c60\" stroke-width=\"1.5\" fill=\"#f90\">", x, y + 4, y - 8, x + 8, y - 5, x, y - 2);
		break;
	default:
		fprintf(out, "<text class=\"mark-sig\" x=\"%.1f\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\" "
			"text-anchor=\"middle\" fill=\"#000\">*", x, y + 4);
		title_el(out, title);
		fputs("</text>\n", out);
		return;
	}
	title_el(out, title);
	fputs("</path>\n", out);
}

struct layout {
	int ml, mr, mt, mb;     /* margins */
	int legend_rows;
	double cat_w;           /* the band of one category along the category axis */
};

static int legend_entries(const struct chart *c, bool used[CHART_NR_MARKS])
{
	int n = 0;
	for (int i = 0; i < c->ns; i++)
		n += c->s[i].name != NULL;
	for (int m = 0; m < CHART_NR_MARKS; m++)
		used[m] = false;
	for (int i = 0; i < c->nmarks; i++)
		used[c->marks[i].m] = true;
	for (int m = 0; m < CHART_NR_MARKS; m++)
		n += used[m];
	return n;
}

static double entry_width(const char *name) { return 26 + 6.2 * (double)strlen(name); }

/* Lay the legend out in rows below the plot; draw it if out is set. */
static int legend(const struct chart *c, const struct layout *l, FILE *out)
{
	bool used[CHART_NR_MARKS];
	if ((c->flags & (CHART_COMPACT | CHART_NO_LEGEND)) || !legend_entries(c, used))
		return 0;
	double x = l->ml, width = c->pw + l->ml;
	int row = 0;
	double y0 = l->mt + c->ph + 30 + (c->ax[0].label ? 14 : 0);
	if (out)
		fputs("<g class=\"legend\">\n", out);
	for (int i = 0; i < c->ns + CHART_NR_MARKS; i++) {
		const char *name = i < c->ns ? c->s[i].name : used[i - c->ns] ? mark_names[i - c->ns] : NULL;
		if (!name)
			continue;
		double w = entry_width(name);
		if (x + w > width && x > l->ml) {
			row++;
			x = l->ml;
		}
		double y = y0 + row * LEGEND_ROW;
		if (out) {
			fputs("<g class=\"legend-entry\">", out);
			if (i < c->ns && c->kind == CHART_LINES)
				fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
					"stroke-width=\"2\"/>", x, y - 4, x + 16, y - 4, c->s[i].color);
			else if (i < c->ns)
				fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"9\" fill=\"%s\"/>", x, y - 9,
					c->s[i].color);
			else
				draw_mark_shape(out, (enum chart_mark)(i - c->ns), x + 7, y - 4, NULL);
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#222\">", x + 20, y);
			html_escape(out, name);
			fputs("</text></g>\n", out);
		}
		x += w;
	}
	if (out)
		fputs("</g>\n", out);
	return row + 1;
}

static void layout(const struct chart *c, struct layout *l)
{
	bool compact = c->flags & CHART_COMPACT;
	l->ml = compact ? 8 : 46;
	if (!compact && c->kind == CHART_HBARS) {
		size_t w = 0;
		for (int i = 0; i < c->ncats; i++)
			w = strlen(c->cats[i]) > w ? strlen(c->cats[i]) : w;
		l->ml = 12 + (int)(6 * (w > 24 ? 24 : w));
	}
	if (!compact && c->ax[1].label)
		l->ml += 14;
	l->mr = compact ? 8 : 14;
	/* Labels past the ends of horizontal bars need room on the right. */
	for (int i = 0; !compact && c->kind == CHART_HBARS && i < c->nbars; i++)
		if (c->bars[i].label && 22 + 6 * (int)strlen(c->bars[i].label) > l->mr)
			l->mr = 22 + 6 * (int)strlen(c->bars[i].label);
	l->mt = compact ? 2 : c->title ? 22 : 10;
	l->mb = compact ? 12 : 18 + (c->ax[0].label ? 14 : 0);
	l->legend_rows = legend(c, l, NULL);
	if (l->legend_rows)
		l->mb += 6 + l->legend_rows * LEGEND_ROW;
	int ncat = c->ncats ? c->ncats : 1;
	l->cat_w = (c->kind == CHART_HBARS ? c->ph : c->pw) / (double)ncat;
}

static void grid(FILE *out, const struct chart *c, const struct scale *sc, int a, const struct layout *l,
		 double base)
{
	double x0 = l->ml, y0 = l->mt, x1 = l->ml + c->pw, y1 = l->mt + c->ph;
	for (int i = 0; i < sc->nticks; i++) {
		double p = to_px(sc, sc->tick[i]);
		bool at_base = isfinite(base) && fabs(sc->tick[i] - base) <= 1e-9 * (fabs(base) + 1);
		const char *col = at_base ? "#888" : "#ddd";
		char lab[32];
		tick_label(lab, sizeof(lab), sc, sc->tick[i]);
		if (a == 0) {
			fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
				p, y0, p, y1, col);
			fprintf(out, "<text class=\"ax\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555\" "
				"text-anchor=\"middle\">%s</text>\n", p, y1 + 10, lab);
		} else {
			fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
				x0, p, x1, p, col);
			fprintf(out, "<text class=\"ax\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555\" "
				"text-anchor=\"end\">%s</text>\n", x0 - 3, p + 3, lab);
		}
	}
}

static void draw_series(FILE *out, const struct chart *c, const struct series *s, const struct scale *sx,
			const struct scale *sy)
{
	int stride = s->n > MAX_POINTS ? (s->n + MAX_POINTS - 1) / MAX_POINTS : 1;
	bool open = false;
	for (int i = 0; i < s->n; i += stride) {
		const struct point *p = &s->p[i];
		if (!isfinite(p->x) || !isfinite(p->y) || (sx->kind != CHART_LINEAR && p->x <= 0) ||
		    (sy->kind != CHART_LINEAR && p->y <= 0)) {
			if (open)
				fputs("\"/>\n", out);
			open = false;
			continue;
		}
		if (!open)
			fprintf(out, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
				"stroke-linejoin=\"round\" points=\"", s->cls ? s->cls : "series", s->color);
		fprintf(out, "%s%.1f,%.1f", open ? " " : "", to_px(sx, p->x), to_px(sy, p->y));
		open = true;
	}
	if (open)
		fputs("\"/>\n", out);
	/* Dots show where the data are when they are few and far apart; on a
	 * dense line (a timeline sampled every 50 ms) they would blot it. */
	bool dots = s->n <= DOTS_UP_TO;
	if (dots && s->n > 1 && isfinite(s->p[0].x) && isfinite(s->p[s->n - 1].x))
		dots = fabs(to_px(sx, s->p[s->n - 1].x) - to_px(sx, s->p[0].x)) / (s->n - 1) >= 5;
	for (int i = 0; i < s->n; i += stride) {
		const struct point *p = &s->p[i];
		if (!isfinite(p->x) || (sx->kind != CHART_LINEAR && p->x <= 0))
			continue;
		double x = to_px(sx, p->x);
		if (isfinite(p->lo) && isfinite(p->hi)) {
			double a = to_px(sy, p->lo), b = to_px(sy, p->hi);
			fprintf(out, "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				"stroke-width=\"1.2\"/>\n", x, a, x, b, s->color);
		}
		if (dots && isfinite(p->y)) {
			fprintf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\">", x,
				to_px(sy, p->y), s->color);
			title_el(out, p->title);
			fputs("</circle>\n", out);
		}
	}
	(void)c;
}

/* Where bar i stands across its category band: the bars of a category
 * side by side, in series order, as many slots as it has bars. */
static void bar_slot(const struct chart *c, int i, const struct layout *l, double *a, double *b)
{
	const struct bar *br = &c->bars[i];
	int n = 0, k = 0;
	for (int j = 0; j < c->nbars; j++)
		if (c->bars[j].cat == br->cat) {
			k += j < i;
			n++;
		}
	double start = (c->kind == CHART_HBARS ? l->mt : l->ml) + br->cat * l->cat_w;
	double w = l->cat_w * 0.8 / n;
	*a = start + l->cat_w * 0.1 + k * w;
	*b = *a + w;
}

static void draw_bars(FILE *out, const struct chart *c, const struct scale *sv, const struct layout *l,
		      double base, double *ends)
{
	bool h = c->kind == CHART_HBARS;
	for (int i = 0; i < c->nbars; i++) {
		const struct bar *br = &c->bars[i];
		const struct series *s = &c->s[br->s];
		double a, b;
		bar_slot(c, i, l, &a, &b);
		double p0 = to_px(sv, base), p1 = to_px(sv, br->v);
		double lo = p0 < p1 ? p0 : p1, len = fabs(p1 - p0) + 1;
		if (!isfinite(br->v))
			len = 0;
		fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
			s->cls ? s->cls : "bar", h ? lo : a, h ? a : lo, h ? len : b - a, h ? b - a : len, s->color);
		title_el(out, br->title);
		fputs("</rect>\n", out);
		double end = p1;
		if (isfinite(br->lo) && isfinite(br->hi)) {
			double w0 = to_px(sv, br->lo), w1 = to_px(sv, br->hi), m = (a + b) / 2;
			fprintf(out, "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
				"stroke-width=\"1.5\"/>\n", h ? w0 : m, h ? m : w0, h ? w1 : m, h ? m : w1);
			end = h ? (w1 > end ? w1 : end) : (w1 < end ? w1 : end);
		}
		ends[i] = end;
		if (br->label) {
			double m = (a + b) / 2;
			fprintf(out, "<text class=\"lbl\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#222\" "
				"text-anchor=\"%s\">", h ? end + 4 : m, h ? m + 3 : end - 3, h ? "start" : "middle");
			html_escape(out, br->label);
			fputs("</text>\n", out);
		}
	}
}

static void category_labels(FILE *out, const struct chart *c, const struct layout *l)
{
	if (c->flags & CHART_COMPACT)
		return;
	for (int i = 0; i < c->ncats; i++) {
		double m = (c->kind == CHART_HBARS ? l->mt : l->ml) + (i + 0.5) * l->cat_w;
		char buf[64];
		size_t max = c->kind == CHART_HBARS ? 24 : (size_t)(l->cat_w / 6);
		max = max < 3 ? 3 : max > sizeof(buf) - 4 ? sizeof(buf) - 4 : max;
		snprintf(buf, sizeof(buf), "%s", c->cats[i]);
		if (strlen(buf) > max)
			strcpy(buf + max - 2, "..");
		if (c->kind == CHART_HBARS)
			fprintf(out, "<text class=\"cat\" x=\"%d\" y=\"%.1f\" font-size=\"11\" fill=\"#222\" "
				"text-anchor=\"end\">", l->ml - 4, m + 4);
		else
			fprintf(out, "<text class=\"cat\" x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#222\" "
				"text-anchor=\"middle\">", m, l->mt + c->ph + 12);
		html_escape(out, buf);
		title_el(out, c->cats[i]);
		fputs("</text>\n", out);
	}
}

void chart_svg(const struct chart *c, FILE *out)
{
	struct layout l;
	layout(c, &l);
	int w = l.ml + c->pw + l.mr, hgt = l.mt + c->ph + l.mb;
	bool bars = c->kind != CHART_LINES, compact = c->flags & CHART_COMPACT;
	int va = value_axis(c);
	struct scale sc[2];
	for (int a = 0; a < 2; a++) {
		fit_scale(c, a, bars && a == va ? c->ax[a].scale == CHART_LINEAR : a == 1 && c->ax[a].scale == CHART_LINEAR,
			  &sc[a]);
		sc[a].p0 = a == 0 ? l.ml : l.mt + c->ph;
		sc[a].p1 = a == 0 ? l.ml + c->pw : l.mt;
	}
	double base = bars ? (c->base_set ? c->base : c->ax[va].scale == CHART_LINEAR ? 0 : 1) : NAN;
	fprintf(out, "<svg class=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" role=\"img\">\n", c->cls ? c->cls : "chart", w, hgt, w,
		hgt);
	if (c->title) {
		title_el(out, c->title);
		fputc('\n', out);
	}
	if (!compact)
		fprintf(out, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fcfcfc\" "
			"stroke=\"#bbb\"/>\n", l.ml, l.mt, c->pw, c->ph);
	for (int i = 0; i < c->nbands; i++) {
		const struct band *b = &c->bands[i];
		const struct scale *s = &sc[b->axis];
		double p0 = to_px(s, b->lo), p1 = to_px(s, b->hi), lo = p0 < p1 ? p0 : p1, len = fabs(p1 - p0);
		fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
			"fill-opacity=\"0.45\">", b->cls, b->axis ? (double)l.ml : lo, b->axis ? lo : (double)l.mt,
			b->axis ? (double)c->pw : len, b->axis ? len : (double)c->ph, b->color);
		title_el(out, b->title);
		fputs("</rect>\n", out);
	}
	for (int a = 0; a < 2; a++)
		if (!bars || a == va)
			grid(out, c, &sc[a], a, &l, bars ? base : NAN);
	if (c->title && !compact) {
		fprintf(out, "<text class=\"lbl\" x=\"%d\" y=\"14\" font-size=\"12\" font-weight=\"bold\" fill=\"#222\">",
			l.ml);
		html_escape(out, c->title);
		fputs("</text>\n", out);
	}
	if (!compact && c->ax[0].label) {
		fprintf(out, "<text class=\"lbl\" x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#222\" "
			"text-anchor=\"middle\">", l.ml + c->pw / 2.0, l.mt + c->ph + 28);
		html_escape(out, c->ax[0].label);
		fputs("</text>\n", out);
	}
	if (!compact && c->ax[1].label) {
		double cy = l.mt + c->ph / 2.0;
		fprintf(out, "<text class=\"lbl\" x=\"12\" y=\"%.1f\" font-size=\"11\" fill=\"#222\" "
			"text-anchor=\"middle\" transform=\"rotate(-90 12 %.1f)\">", cy, cy);
		html_escape(out, c->ax[1].label);
		fputs("</text>\n", out);
	}
	double *ends = xcalloc((size_t)c->nbars + 1, sizeof(double));
	if (bars) {
		draw_bars(out, c, &sc[va], &l, base, ends);
		category_labels(out, c, &l);
	} else {
		for (int i = 0; i < c->ns; i++)
			draw_series(out, c, &c->s[i], &sc[0], &sc[1]);
	}
	for (int i = 0; i < c->nmarks; i++) {
		const struct mark *m = &c->marks[i];
		double x, y;
		if (bars) {
			if (m->bar < 0 || m->bar >= c->nbars)
				continue;
			double a, b;
			bar_slot(c, m->bar, &l, &a, &b);
			/* Past the bar's end and its label (about 6 px a character). */
			const char *lab = c->bars[m->bar].label;
			if (c->kind == CHART_HBARS)
				x = ends[m->bar] + 8 + (lab ? 6.0 * (double)strlen(lab) + 2 : 0), y = (a + b) / 2 - 1;
			else
				x = (a + b) / 2, y = ends[m->bar] - (lab ? 18 : 6);
		} else {
			x = to_px(&sc[0], m->x);
			if (isfinite(m->y)) {
				y = to_px(&sc[1], m->y);
			} else {
				fprintf(out, "<line class=\"mark-line\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
					"stroke=\"%s\" stroke-dasharray=\"3,3\"/>\n", x, l.mt, x, l.mt + c->ph,
					m->m == CHART_MARK_OOM ? "#d00" : "#c60");
				y = l.mt + 6;
			}
		}
		draw_mark_shape(out, m->m, x, y, m->title);
	}
	free(ends);
	legend(c, &l, out);
	fputs("</svg>\n", out);
}
