/* record_figures.c - a workload's figures of merit in a record (record.h):
 * each workload object's "figures" (read_iops, p99_ms, ...: what the
 * workload's own output prints, src/workload/workload.h struct
 * wl_figures) and "better" ("higher" for a throughput, "lower" for a
 * time).  NAME.K is workload K's (from 0), as elapsed_s.K; a bare NAME
 * the one workload's of the run that has it. */
#include "record.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

/* Figure names have no dot: NAME.K splits at the last one. */
#define KEY_MAX 64

static const struct json *workloads_of(const struct record *r)
{
	const struct json *w = json_get(r->j, "workloads");
	return w && w->type == JSON_ARR ? w : NULL;
}

static bool has_figure(const struct json *wl, const char *key)
{
	double v;
	return json_get_num(json_get(wl, "figures"), key, &v);
}

/* The workload object whose figure `name` is, its name within it in key;
 * NULL when no workload (or, for a bare name, more than one) has it. */
static const struct json *figure_owner(const struct record *r, const char *name, char *key)
{
	const struct json *w = workloads_of(r);
	const char *dot = strrchr(name, '.');
	if (!w || strlen(name) >= KEY_MAX)
		return NULL;
	if (dot) {
		size_t nd = strlen(dot + 1);
		if (!nd || nd > 4 || strspn(dot + 1, "0123456789") != nd)
			return NULL;
		long k = strtol(dot + 1, NULL, 10);
		snprintf(key, KEY_MAX, "%.*s", (int)(dot - name), name);
		return k < w->n && has_figure(&w->items[k], key) ? &w->items[k] : NULL;
	}
	snprintf(key, KEY_MAX, "%s", name);
	const struct json *one = NULL;
	for (int i = 0; i < w->n; i++)
		if (has_figure(&w->items[i], key)) {
			if (one)
				return NULL;
			one = &w->items[i];
		}
	return one;
}

bool record_figure(const struct record *r, const char *name, double *v)
{
	char key[KEY_MAX];
	const struct json *wl = figure_owner(r, name, key);
	return wl && json_get_num(json_get(wl, "figures"), key, v);
}

int record_metric_better(const struct records *rs, const char *name)
{
	char key[KEY_MAX];
	for (int i = 0; i < rs->n; i++) {
		const struct json *wl = figure_owner(&rs->r[i], name, key);
		const char *b = wl ? json_get_str(json_get(wl, "better"), key) : NULL;
		if (b)
			return !strcmp(b, "higher") ? 1 : !strcmp(b, "lower") ? -1 : 0;
	}
	return 0;
}

static bool listed(char **names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return true;
	return false;
}

/* The figures of workload k of config's records, appended to names. */
static int add_workload(const struct records *rs, const char *config, int k, char ***names, int n)
{
	for (int i = 0; i < rs->n; i++) {
		const struct json *w = workloads_of(&rs->r[i]);
		if ((config && strcmp(rs->r[i].config, config)) || !w || k >= w->n)
			continue;
		const struct json *f = json_get(&w->items[k], "figures");
		for (int j = 0; f && f->type == JSON_OBJ && j < f->n; j++) {
			char name[KEY_MAX + 8];
			if (w->n == 1)
				snprintf(name, sizeof(name), "%s", f->keys[j]);
			else
				snprintf(name, sizeof(name), "%s.%d", f->keys[j], k);
			if (listed(*names, n, name))
				continue;
			*names = xrealloc(*names, (size_t)(n + 2) * sizeof(char *));
			(*names)[n++] = xstrdup(name);
			(*names)[n] = NULL;
		}
	}
	return n;
}

char **record_figure_columns(const struct records *rs, const char *config)
{
	char **names = xcalloc(1, sizeof(char *));
	int n = 0, nwl = 0;
	for (int i = 0; i < rs->n; i++) {
		const struct json *w = workloads_of(&rs->r[i]);
		if (w && (!config || !strcmp(rs->r[i].config, config)) && w->n > nwl)
			nwl = w->n;
	}
	for (int k = 0; k < nwl; k++)
		n = add_workload(rs, config, k, &names, n);
	return names;
}
