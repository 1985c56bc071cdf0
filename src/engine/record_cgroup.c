/* record_cgroup.c - a cgroup's figure of a record (record.h): NAME
 * "cgroup.PATH.FILE", FILE one of the keys pagelab run --json gives the
 * cgroup (src/report/cgreport.c: memory.peak, memory.events.high,
 * memory.stat.pgmajfault, ...) or memory.pressure.some|full.avg10|avg60|
 * avg300|total (--set psi=1), looked up in the record's "cgroups" (a
 * kernel record's: its "kernel" object's, whose FILEs are the host's).
 * A cgroup v1 kernel record's memory.stat.NAME is the cgroup's own pages
 * and total_NAME its subtree's (memory.rst of cgroup-v1): the latter is
 * taken where it has one, since pagelab's (as v2's) is recursive. */
#include "record.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define PREFIX "cgroup."

/* A record's "cgroups": a simulated run's, or a kernel run's (under
 * "kernel", written by kexec_tree_json()). */
static const struct json *cgroups_of(const struct record *r)
{
	const struct json *a = json_get(r->j, "cgroups");
	return a ? a : json_get(json_get(r->j, "kernel"), "cgroups");
}

/* The object of cgroup path[0..len) in r's "cgroups", or NULL. */
static const struct json *cgroup_obj(const struct record *r, const char *path, size_t len)
{
	const struct json *a = cgroups_of(r);
	for (int i = 0; a && a->type == JSON_ARR && i < a->n; i++) {
		const char *p = json_get_str(&a->items[i], "path");
		if (p && strlen(p) == len && !strncmp(p, path, len))
			return &a->items[i];
	}
	return NULL;
}

bool record_cgroup_metric(const struct record *r, const char *name, double *v)
{
	size_t pl = strlen(PREFIX);
	const char *file = strncmp(name, PREFIX "/", pl + 1) ? NULL : strstr(name + pl, ".memory.");
	if (!file)
		return false;
	const struct json *o = cgroup_obj(r, name + pl, (size_t)(file - name - pl));
	file++;
	const char *pr = "memory.pressure.";
	if (o && !strncmp(file, pr, strlen(pr))) {
		const char *kind = file + strlen(pr), *dot = strchr(kind, '.');
		char k[8];
		if (!dot || dot - kind >= (int)sizeof(k))
			return false;
		snprintf(k, sizeof(k), "%.*s", (int)(dot - kind), kind);
		return json_get_num(json_get(json_get(o, "memory.pressure"), k), dot + 1, v);
	}
	const char *st = "memory.stat.";
	if (o && !strncmp(file, st, strlen(st))) {
		char total[160];
		snprintf(total, sizeof(total), "%stotal_%s", st, file + strlen(st));
		if (json_get_num(o, total, v))
			return true;
	}
	return o && json_get_num(o, file, v);
}

/* The figures drawn per cgroup in a sweep's page (html_sweep.c). */
const char *const record_cgroup_metrics[] = {
	"memory.peak", "memory.events.high", "memory.events.max", "memory.events.low", "memory.events.oom_kill",
	"memory.stat.pgsteal", "memory.stat.pgmajfault", "memory.pressure.some.total",
	"memory.pressure.full.total", NULL,
};

/* The figures per cgroup of compare RESULTS' default table and of sweep
 * --csv: those compare --cgroup has as rows (kcompare_cgroups.c), with
 * memory.reclaim's and the pressure totals. */
const char *const record_cgroup_figures[] = {
	"memory.peak", "memory.events.low", "memory.events.high", "memory.events.max", "memory.events.oom_kill",
	"memory.stat.pgscan", "memory.stat.pgsteal", "memory.stat.pgscan_proactive",
	"memory.stat.pgsteal_proactive", "memory.stat.pgmajfault", "memory.stat.workingset_refault_anon",
	"memory.stat.workingset_refault_file", "memory.pressure.some.total", "memory.pressure.full.total", NULL,
};

static bool in_config(const struct record *r, const char *config)
{
	return !config || !strcmp(r->config, config);
}

/* Whether a record of config has figure name (not 0, when nonzero). */
static bool any_has(const struct records *rs, const char *config, const char *name, bool nonzero)
{
	double v;
	for (int i = 0; i < rs->n; i++)
		if (in_config(&rs->r[i], config) && record_metric(&rs->r[i], name, &v) && (!nonzero || v != 0))
			return true;
	return false;
}

char **record_cgroup_columns(const struct records *rs, const char *config, bool nonzero)
{
	const struct json *a = NULL;
	for (int i = 0; i < rs->n && !a; i++)
		if (in_config(&rs->r[i], config))
			a = cgroups_of(&rs->r[i]);
	char **names = xcalloc(1, sizeof(char *));
	int n = 0;
	for (int c = 0; a && a->type == JSON_ARR && c < a->n; c++) {
		const char *path = json_get_str(&a->items[c], "path");
		/* The root is the machine: its figures are the run's own. */
		if (!path || !strcmp(path, "/") || strlen(path) > 100)
			continue;
		for (int f = 0; record_cgroup_figures[f]; f++) {
			char name[160];
			snprintf(name, sizeof(name), "cgroup.%s.%s", path, record_cgroup_figures[f]);
			if (!any_has(rs, config, name, nonzero))
				continue;
			names = xrealloc(names, (size_t)(n + 2) * sizeof(char *));
			names[n++] = xstrdup(name);
			names[n] = NULL;
		}
	}
	return names;
}

void record_cgroup_columns_free(char **names)
{
	for (int i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

/* The cgroups' paths of the first record that has any, in its order;
 * how many (at most max). */
int record_cgroup_paths(const struct records *rs, const char **paths, int max)
{
	for (int i = 0; i < rs->n; i++) {
		const struct json *a = cgroups_of(&rs->r[i]);
		if (!a || a->type != JSON_ARR || !a->n)
			continue;
		int n = 0;
		for (int k = 0; k < a->n && n < max; k++)
			if (json_get_str(&a->items[k], "path"))
				paths[n++] = json_get_str(&a->items[k], "path");
		return n;
	}
	return 0;
}
