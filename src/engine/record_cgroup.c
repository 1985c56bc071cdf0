/* record_cgroup.c - a cgroup's figure of a record (record.h): NAME
 * "cgroup.PATH.FILE", FILE one of the keys pagelab run --json gives the
 * cgroup (src/report/cgreport.c: memory.peak, memory.events.high,
 * memory.stat.pgmajfault, ...) or memory.pressure.some|full.avg10|avg60|
 * avg300|total (--set psi=1), looked up in the record's "cgroups" (a
 * kernel record's: its "kernel" object's, whose FILEs are the host's). */
#include "record.h"

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
	return o && json_get_num(o, file, v);
}

/* The figures drawn per cgroup in a sweep's page (html_sweep.c). */
const char *const record_cgroup_metrics[] = {
	"memory.peak", "memory.events.high", "memory.events.max", "memory.events.low", "memory.events.oom_kill",
	"memory.stat.pgsteal", "memory.stat.pgmajfault", "memory.pressure.some.total",
	"memory.pressure.full.total", NULL,
};

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
