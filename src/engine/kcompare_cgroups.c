/* kcompare_cgroups.c - compare --cgroup: each cgroup's figures side by
 * side, the kernel's (its record's "kernel" "cgroups", the host's files:
 * src/engine/kexec_tree.c) against pagelab's (its record's "cgroups",
 * src/report/cgreport.c), in rows named "PATH FIGURE" (/a peak, /b
 * events.high), only where both sides have the figure: cgroup v1 has no
 * memory.events (its failcnt is not v2's events max) and no pgscan or
 * pgsteal in memory.stat.  pagelab's memory.stat is hierarchical (v2's
 * recursive one): a v1 cgroup's total_NAME is taken where it has one. */
#include "kcompare.h"
#include "../lib/util.h"

#include <string.h>

static const struct {
	const char *shown, *file;
} figures[] = {
	{ "peak", "memory.peak" },
	{ "events.low", "memory.events.low" },
	{ "events.high", "memory.events.high" },
	{ "events.max", "memory.events.max" },
	{ "events.oom_kill", "memory.events.oom_kill" },
	{ "pgmajfault", "memory.stat.pgmajfault" },
	{ "pgscan", "memory.stat.pgscan" },
	{ "pgsteal", "memory.stat.pgsteal" },
	{ "refault_anon", "memory.stat.workingset_refault_anon" },
	{ "refault_file", "memory.stat.workingset_refault_file" },
};

bool kcmp_cgroup_get(const struct record *r, const char *row, double *v)
{
	const char *sp = strrchr(row, ' ');
	if (row[0] != '/' || !sp)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(figures); i++) {
		if (strcmp(sp + 1, figures[i].shown))
			continue;
		char key[200];
		/* v1's total_NAME where it has one: record_cgroup_metric(). */
		snprintf(key, sizeof(key), "cgroup.%.*s.%s", (int)(sp - row), row, figures[i].file);
		return record_cgroup_metric(r, key, v);
	}
	return false;
}

int kcmp_cgroup_rows(const struct record *kern, const struct record *sim, char (**rows)[64])
{
	const struct json *a = json_get(sim->j, "cgroups");
	int n = 0;
	*rows = NULL;
	for (int c = 0; a && a->type == JSON_ARR && c < a->n; c++) {
		const char *path = json_get_str(&a->items[c], "path");
		if (!path || !strcmp(path, "/") || strlen(path) > 40)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(figures); i++) {
			char row[64];
			double v;
			snprintf(row, sizeof(row), "%s %s", path, figures[i].shown);
			if (!kcmp_cgroup_get(kern, row, &v) || !kcmp_cgroup_get(sim, row, &v))
				continue;
			*rows = xrealloc(*rows, (size_t)(n + 1) * sizeof(**rows));
			memcpy((*rows)[n++], row, sizeof(row));
		}
	}
	return n;
}
