/* html_sweep.c - see html_sweep.h.  Cells are grouped by the values of
 * the sweep's axes without the seed: the x axis (the swept parameter) and
 * the series (every other axis that takes more than one value; usually
 * the policy alone).  Each group's seeds give one point. */
#include "html_sweep.h"
#include "stats.h"
#include "../report/chart.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_W 300
#define PLOT_H 130

/* The distinct values of one axis, in the order of the cells. */
struct axis_vals {
	const char *name;
	const char **v;
	int n;
};

static const char *param(const struct record *r, const char *name)
{
	const char *s = json_get_str(json_get(r->j, "params"), name);
	return s ? s : "";
}

static int val_index(struct axis_vals *a, const char *v, bool add)
{
	for (int i = 0; i < a->n; i++)
		if (!strcmp(a->v[i], v))
			return i;
	if (!add)
		return -1;
	a->v = xrealloc(a->v, (size_t)(a->n + 1) * sizeof(*a->v));
	a->v[a->n] = v;
	return a->n++;
}

/* What a cell says about being cut short. */
static void cell_stops(const struct record *r, bool *killed, bool *timed_out)
{
	bool t = false;
	json_get_bool(r->j, "timed_out", &t);
	*timed_out = t;
	*killed = false;
	const struct json *w = json_get(r->j, "workloads");
	for (int i = 0; w && w->type == JSON_ARR && i < w->n; i++) {
		bool k = false;
		*killed |= json_get_bool(&w->items[i], "killed", &k) && k;
	}
}

struct sweep_view {
	const struct records *rs;
	int xa;                   /* the axis along x, -1: none (bars per series) */
	bool numeric, sizes;      /* x values are numbers / sizes (shown in MB) */
	double *xnum;             /* [x value] */
	struct axis_vals *ax;     /* [axis] */
	int nr_axes;
	bool *in_series;          /* [axis]: part of the series' name */
	int *cell_series, *cell_x;/* [record] */
	char **series;            /* names */
	int nr_series;
};

static void view_build(struct sweep_view *sv, const struct records *rs, const char *const *names, int nr_axes)
{
	memset(sv, 0, sizeof(*sv));
	sv->rs = rs;
	sv->nr_axes = nr_axes;
	sv->ax = xcalloc((size_t)nr_axes + 1, sizeof(*sv->ax));
	sv->in_series = xcalloc((size_t)nr_axes + 1, sizeof(bool));
	for (int a = 0; a < nr_axes; a++) {
		sv->ax[a].name = names[a];
		for (int i = 0; i < rs->n; i++)
			val_index(&sv->ax[a], param(&rs->r[i], names[a]), true);
	}
	/* x: the first axis after the policy (axes[0]) that varies. */
	sv->xa = -1;
	for (int a = 1; a < nr_axes && sv->xa < 0; a++)
		if (sv->ax[a].n > 1)
			sv->xa = a;
	for (int a = 0; a < nr_axes; a++)
		sv->in_series[a] = a != sv->xa && sv->ax[a].n > 1;
	if (sv->xa >= 0) {
		struct axis_vals *x = &sv->ax[sv->xa];
		sv->xnum = xcalloc((size_t)x->n, sizeof(double));
		sv->sizes = !strcmp(x->name, "ram") || !strcmp(x->name, "swap") || !strcmp(x->name, "memcg");
		sv->numeric = true;
		for (int i = 0; i < x->n && sv->numeric; i++) {
			uint64_t b;
			if (sv->sizes && parse_size(x->v[i], &b))
				sv->xnum[i] = (double)b / (1 << 20);
			else
				sv->numeric = !sv->sizes && parse_double(x->v[i], &sv->xnum[i]);
		}
	}
	sv->cell_series = xcalloc((size_t)rs->n + 1, sizeof(int));
	sv->cell_x = xcalloc((size_t)rs->n + 1, sizeof(int));
	for (int i = 0; i < rs->n; i++) {
		char name[512] = "";
		for (int a = 0; a < nr_axes; a++)
			if (sv->in_series[a]) {
				size_t n = strlen(name);
				snprintf(name + n, sizeof(name) - n, "%s%s", n ? ", " : "", param(&rs->r[i], names[a]));
			}
		if (!name[0])
			snprintf(name, sizeof(name), "%s", param(&rs->r[i], names[0]));
		int s;
		for (s = 0; s < sv->nr_series && strcmp(sv->series[s], name); s++)
			;
		if (s == sv->nr_series) {
			sv->series = xrealloc(sv->series, (size_t)(s + 1) * sizeof(char *));
			sv->series[sv->nr_series++] = xstrdup(name);
		}
		sv->cell_series[i] = s;
		sv->cell_x[i] = sv->xa >= 0 ? val_index(&sv->ax[sv->xa], param(&rs->r[i], names[sv->xa]), false) : 0;
	}
}

static void view_free(struct sweep_view *sv)
{
	for (int a = 0; a < sv->nr_axes; a++)
		free(sv->ax[a].v);
	for (int s = 0; s < sv->nr_series; s++)
		free(sv->series[s]);
	free(sv->series);
	free(sv->ax);
	free(sv->in_series);
	free(sv->xnum);
	free(sv->cell_series);
	free(sv->cell_x);
}

/* One group of cells (a series at an x value) for one figure. */
struct group {
	struct summary s;
	double lo, hi;            /* 95% interval of the mean, NAN below 2 seeds */
	int nr_cells, killed, timed_out;
};

static void group_figure(const struct sweep_view *sv, int series, int x, const char *metric, struct group *g)
{
	const struct records *rs = sv->rs;
	double *v = xcalloc((size_t)rs->n + 1, sizeof(double));
	int n = 0;
	memset(g, 0, sizeof(*g));
	for (int i = 0; i < rs->n; i++) {
		if (sv->cell_series[i] != series || sv->cell_x[i] != x)
			continue;
		g->nr_cells++;
		bool k, t;
		cell_stops(&rs->r[i], &k, &t);
		g->killed += k;
		g->timed_out += t;
		if (record_metric(&rs->r[i], metric, &v[n]))
			n++;
	}
	g->s = summarize(v, n);
	g->lo = g->hi = NAN;
	if (n >= 2) {
		double h = t_quantile(0.975, n - 1) * g->s.sd / sqrt(n);
		g->lo = g->s.mean - h;
		g->hi = g->s.mean + h;
	}
	free(v);
}

static void group_title(char *buf, size_t len, const struct sweep_view *sv, int s, int x, const struct group *g)
{
	int k = snprintf(buf, len, "%s", sv->series[s]);
	if (sv->xa >= 0)
		k += snprintf(buf + k, len - (size_t)k, ", %s %s", sv->ax[sv->xa].name, sv->ax[sv->xa].v[x]);
	if (!g->s.n)
		snprintf(buf + k, len - (size_t)k, ": no figure");
	else if (isfinite(g->lo))
		snprintf(buf + k, len - (size_t)k, ": mean %.4g, 95%% interval %.4g to %.4g over %d seeds", g->s.mean,
			 g->lo, g->hi, g->s.n);
	else
		snprintf(buf + k, len - (size_t)k, ": %.4g (%d seed)", g->s.mean, g->s.n);
}

static void stop_marks(struct chart *c, const struct group *g, double x, double y, int bar, const char *what)
{
	char t[700];
	if (g->killed) {
		snprintf(t, sizeof(t), "%s: OOM kill in %d of %d cells", what, g->killed, g->nr_cells);
		chart_mark(c, CHART_MARK_OOM, x, y, bar, t);
	}
	if (g->timed_out) {
		snprintf(t, sizeof(t), "%s: stopped at --max-time in %d of %d cells", what, g->timed_out, g->nr_cells);
		chart_mark(c, CHART_MARK_MAXTIME, x, y, bar, t);
	}
}

static struct chart *figure(const struct sweep_view *sv, const char *metric, bool *any)
{
	bool lines = sv->xa >= 0 && sv->numeric;
	struct chart *c = chart_new(lines ? CHART_LINES : CHART_VBARS, PLOT_W, PLOT_H);
	chart_class(c, "plot");
	chart_title(c, metric);
	int nx = sv->xa >= 0 ? sv->ax[sv->xa].n : 1;
	char xl[160];
	if (sv->xa >= 0)
		snprintf(xl, sizeof(xl), "%s%s", sv->ax[sv->xa].name, sv->sizes ? " (MB)" : "");
	if (lines) {
		double lo = INFINITY, hi = 0;
		for (int i = 0; i < nx; i++) {
			lo = sv->xnum[i] < lo ? sv->xnum[i] : lo;
			hi = sv->xnum[i] > hi ? sv->xnum[i] : hi;
		}
		/* A factor sweep (256M:1G:x2) reads best on a log axis. */
		chart_axis(c, 'x', xl, lo > 0 && hi / lo >= 8 ? CHART_LOG2 : CHART_LINEAR);
	} else {
		chart_axis(c, 'x', sv->xa >= 0 ? xl : NULL, CHART_LINEAR);
		for (int i = 0; i < nx; i++)
			chart_category(c, sv->xa >= 0 ? sv->ax[sv->xa].v[i] : "");
	}
	*any = false;
	char t[700];
	for (int s = 0; s < sv->nr_series; s++) {
		int k = chart_series(c, sv->series[s], NULL);
		for (int x = 0; x < nx; x++) {
			struct group g;
			group_figure(sv, s, x, metric, &g);
			if (!g.nr_cells)
				continue;
			*any |= g.s.n > 0;
			group_title(t, sizeof(t), sv, s, x, &g);
			double y = g.s.n ? g.s.mean : NAN;
			if (lines) {
				chart_point(c, k, sv->xnum[x], y, g.lo, g.hi, t);
				stop_marks(c, &g, sv->xnum[x], y, -1, t);
			} else {
				int b = chart_bar(c, k, x, g.s.n ? y : 0, g.lo, g.hi, t, NULL);
				stop_marks(c, &g, 0, 0, b, t);
			}
		}
	}
	return c;
}

/* Some cell has metric, and not 0 (a cgroup's events low that never
 * happen would be a flat chart each). */
static bool any_nonzero(const struct records *rs, const char *metric)
{
	double v;
	for (int i = 0; i < rs->n; i++)
		if (record_metric(&rs->r[i], metric, &v) && v != 0)
			return true;
	return false;
}

/* --cgroup: each cgroup's figures (record_cgroup_metrics) that are not
 * all 0, under a heading per cgroup, on the x axis of the others. */
static void cgroup_figures(FILE *out, const struct sweep_view *sv, const struct records *rs)
{
	const char *paths[CG_MAX + 1];
	int np = record_cgroup_paths(rs, paths, CG_MAX + 1);
	for (int p = 0; p < np; p++) {
		struct chart *cs[16];
		int n = 0;
		for (int m = 0; record_cgroup_metrics[m] && n < 16; m++) {
			char name[160];
			bool any;
			snprintf(name, sizeof(name), "cgroup.%s.%s", paths[p], record_cgroup_metrics[m]);
			if (!any_nonzero(rs, name))
				continue;
			struct chart *c = figure(sv, name, &any);
			cs[n++] = c;
		}
		if (!n)
			continue;
		fputs("<h3>cgroup ", out);
		html_escape(out, paths[p]);
		fputs(strcmp(paths[p], "/") ? "</h3>\n" : " (the machine)</h3>\n", out);
		if (sv->xa >= 0 && sv->numeric)
			chart_share(cs, n, 'x');
		for (int k = 0; k < n; k++) {
			chart_svg(cs[k], out);
			chart_free(cs[k]);
		}
	}
}

void sweep_html(FILE *out, const struct records *rs, const char *const *axis_names, int nr_axes,
		const struct html_provenance *pv)
{
	html_page_begin(out, "pagelab sweep", NULL);
	html_provenance(out, pv);
	struct sweep_view sv;
	view_build(&sv, rs, axis_names, nr_axes);
	fprintf(out, "<p>%d cells: ", rs->n);
	for (int a = 0; a < nr_axes; a++) {
		fputs(a ? " &times; " : "", out);
		html_escape(out, sv.ax[a].name);
		fputs(" (", out);
		for (int i = 0; i < sv.ax[a].n; i++) {
			fputs(i ? ", " : "", out);
			html_escape(out, sv.ax[a].v[i]);
		}
		fputs(")", out);
	}
	fputs(", over seeds. Each point is the mean over the seeds of its cells with a 95% interval "
	      "(Student's t); a cross marks a group in which a workload was OOM-killed, a flag one stopped at "
	      "--max-time.</p>\n", out);
	if (!rs->n)
		fputs("<p class=\"na\">No results.</p>\n", out);
	html_records_params(out, rs);
	struct chart **cs = xcalloc(32, sizeof(*cs));
	int n = 0;
	for (int m = 0; rs->n && record_csv_metrics[m] && n < 32; m++) {
		bool any;
		struct chart *c = figure(&sv, record_csv_metrics[m], &any);
		if (any)
			cs[n++] = c;
		else
			chart_free(c);
	}
	if (n && sv.xa >= 0 && sv.numeric)
		chart_share(cs, n, 'x');
	for (int k = 0; k < n; k++) {
		chart_svg(cs[k], out);
		chart_free(cs[k]);
	}
	free(cs);
	cgroup_figures(out, &sv, rs);
	view_free(&sv);
	html_page_end(out);
}

void html_records_params(FILE *out, const struct records *rs)
{
	enum { MAX_CONFIGS = 16, MAX_PARAMS = 128 };
	const char *seen[MAX_CONFIGS];
	int nseen = 0;
	for (int i = 0; i < rs->n && nseen < MAX_CONFIGS; i++) {
		const struct record *r = &rs->r[i];
		const struct json *mp = json_get(r->j, "machine_params");
		if (!mp || mp->type != JSON_OBJ || !r->config)
			continue;
		bool dup = false;
		for (int k = 0; k < nseen && !dup; k++)
			dup = !strcmp(seen[k], r->config);
		if (dup)
			continue;
		seen[nseen++] = r->config;
		const char *names[MAX_PARAMS], *values[MAX_PARAMS];
		int n = 0;
		for (int k = 0; k < mp->n && n < MAX_PARAMS; k++)
			if (mp->items[k].type == JSON_STR) {
				names[n] = mp->keys[k];
				values[n++] = mp->items[k].str;
			}
		char summary[600];
		snprintf(summary, sizeof(summary), "every machine parameter: %s", r->config);
		html_params(out, summary, n, names, values);
	}
}
