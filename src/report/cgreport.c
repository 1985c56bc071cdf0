/* cgreport.c - `--cgroup`: every cgroup's files at the end of a run, as
 * cgroup v2 names them: memory.current, memory.peak, memory.max,
 * memory.swap.current, memory.events (low, high, max, oom, oom_kill:
 * hierarchical, as memcg_memory_event() counts them) and a small
 * memory.stat (anon, file, pgscan, pgsteal, workingset_refault_anon/file,
 * pgmajfault: each the cgroup's and its descendants', as v2's recursive
 * memory.stat; pgscan_proactive / pgsteal_proactive of memory.reclaim,
 * 6.15+, only in a run that wrote memory.reclaim); memory.swap.high and
 * memory.swap.events high only in a run that set a swap.high.  Sizes in bytes in --json and in sweep records, kB in
 * the text tables (two, to fit 80 columns). */
#include "report.h"
#include "../lib/json.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

void report_cgroups_collect(const struct machine *m, struct run_result *rr)
{
	const struct cgtree *t = m->mm.cgt;
	rr->nr_cg = t->n;
	rr->cg = xcalloc((size_t)t->n, sizeof(*rr->cg));
	/* children after parents: sum the subtrees from the last up */
	for (int c = t->n - 1; c >= 0; c--) {
		const struct cgroup *g = &t->cg[c];
		struct cg_result *r = &rr->cg[c];
		uint64_t own, anon, file;
		cg_own_pages(&m->mm, c, &own, &anon, &file);
		snprintf(r->path, sizeof(r->path), "%s", g->conf.path);
		r->max = g->conf.max == CG_UNLIMITED ? UINT64_MAX : g->conf.max * PAGE_SIZE;
		r->current = g->current * PAGE_SIZE;
		r->peak = g->peak * PAGE_SIZE;
		r->swap_current = g->swap_current * PAGE_SIZE;
		memcpy(r->events, g->events, sizeof(r->events));
		r->swap_high = g->conf.swap_high == CG_UNLIMITED ? UINT64_MAX : g->conf.swap_high * PAGE_SIZE;
		r->swap_events_high = g->swap_events_high;
		r->anon += anon * PAGE_SIZE;
		r->file += file * PAGE_SIZE;
		for (int s = 0; s < NR_CG_STATS; s++)
			r->stat[s] += g->stat[s];
		r->pgscan_proactive += g->pgscan_proactive;
		r->pgsteal_proactive += g->pgsteal_proactive;
		if (c) {
			struct cg_result *p = &rr->cg[g->conf.parent];
			p->anon += r->anon;
			p->file += r->file;
			p->pgscan_proactive += r->pgscan_proactive;
			p->pgsteal_proactive += r->pgsteal_proactive;
			for (int s = 0; s < NR_CG_STATS; s++)
				p->stat[s] += r->stat[s];
		}
	}
}

static const char *const event_names[NR_CG_EVENTS] = { "low", "high", "max", "oom", "oom_kill" };
static const char *const stat_names[NR_CG_STATS] = { "pgscan", "pgsteal", "workingset_refault_anon",
						     "workingset_refault_file", "pgmajfault" };

bool report_cgroup_file(const struct run_result *rr, const char *path, const char *file, double *v)
{
	const struct cg_result *r = NULL;
	for (int c = 0; c < rr->nr_cg; c++)
		if (!strcmp(rr->cg[c].path, path))
			r = &rr->cg[c];
	if (!r)
		return false;
	const struct { const char *name; uint64_t bytes; } sizes[] = {
		{ "memory.current", r->current }, { "memory.peak", r->peak }, { "memory.swap.current", r->swap_current },
		{ "memory.stat.anon", r->anon }, { "memory.stat.file", r->file },
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (!strcmp(file, sizes[i].name)) {
			*v = (double)sizes[i].bytes / (1 << 20);
			return true;
		}
	char name[64];
	for (int e = 0; e < NR_CG_EVENTS; e++)
		if (snprintf(name, sizeof(name), "memory.events.%s", event_names[e]) > 0 && !strcmp(file, name)) {
			*v = (double)r->events[e];
			return true;
		}
	for (int st = 0; st < NR_CG_STATS; st++)
		if (snprintf(name, sizeof(name), "memory.stat.%s", stat_names[st]) > 0 && !strcmp(file, name)) {
			*v = (double)r->stat[st];
			return true;
		}
	if (!strcmp(file, "memory.swap.events.high"))
		*v = (double)r->swap_events_high;
	else if (!strcmp(file, "memory.stat.pgsteal_proactive"))
		*v = (double)r->pgsteal_proactive;
	else if (!strcmp(file, "memory.stat.pgscan_proactive"))
		*v = (double)r->pgscan_proactive;
	else
		return false;
	return true;
}

/* Some cgroup of the run has a memory.swap.high: only then are
 * memory.swap.high and memory.swap.events reported, so runs without one
 * print what they always did. */
static bool any_swap_high(const struct run_result *rr)
{
	for (int c = 0; c < rr->nr_cg; c++)
		if (rr->cg[c].swap_high != UINT64_MAX)
			return true;
	return false;
}

/* The path in a 14-column field, or alone on its line when longer. */
static void put_path(const char *path, FILE *out)
{
	if (strlen(path) > 13)
		fprintf(out, "%s\n%-13s", path, "");
	else
		fprintf(out, "%-13s", path);
}

void report_cgroups_text(const struct run_result *rr, FILE *out)
{
	fprintf(out, "# cgroups: memory.current, peak, max, swap.current (kB); memory.events\n");
	fprintf(out, "%-13s %8s %8s %8s %8s %5s %5s %5s %5s %5s\n", "cgroup", "current", "peak", "max", "swap",
		"low", "high", "max", "oom", "kill");
	for (int c = 0; c < rr->nr_cg; c++) {
		const struct cg_result *r = &rr->cg[c];
		char max[24];
		if (r->max == UINT64_MAX)
			snprintf(max, sizeof(max), "max");
		else
			snprintf(max, sizeof(max), "%llu", (unsigned long long)(r->max / 1024));
		put_path(r->path, out);
		fprintf(out, " %8llu %8llu %8s %8llu", (unsigned long long)(r->current / 1024),
			(unsigned long long)(r->peak / 1024), max, (unsigned long long)(r->swap_current / 1024));
		for (int e = 0; e < NR_CG_EVENTS; e++)
			fprintf(out, " %5llu", (unsigned long long)r->events[e]);
		fputc('\n', out);
	}
	fprintf(out, "# cgroups: memory.stat (anon, file in kB; pages; refaults anon/file)\n");
	fprintf(out, "%-13s %8s %8s %8s %8s %8s %8s %8s\n", "cgroup", "anon", "file", "pgscan", "pgsteal", "ref_anon",
		"ref_file", "majflt");
	for (int c = 0; c < rr->nr_cg; c++) {
		const struct cg_result *r = &rr->cg[c];
		put_path(r->path, out);
		fprintf(out, " %8llu %8llu", (unsigned long long)(r->anon / 1024), (unsigned long long)(r->file / 1024));
		for (int s = 0; s < NR_CG_STATS; s++)
			fprintf(out, " %8llu", (unsigned long long)r->stat[s]);
		fputc('\n', out);
	}
	if (rr->nr_cg && rr->cg[0].pgscan_proactive + rr->cg[0].pgsteal_proactive) {
		fprintf(out, "# cgroups: memory.stat of memory.reclaim (pages)\n");
		fprintf(out, "%-13s %17s %17s\n", "cgroup", "pgscan_proactive", "pgsteal_proactive");
		for (int c = 0; c < rr->nr_cg; c++) {
			put_path(rr->cg[c].path, out);
			fprintf(out, " %17llu %17llu\n", (unsigned long long)rr->cg[c].pgscan_proactive,
				(unsigned long long)rr->cg[c].pgsteal_proactive);
		}
	}
	if (any_swap_high(rr)) {
		fprintf(out, "# cgroups: memory.swap.high (kB), memory.swap.events high\n");
		fprintf(out, "%-13s %10s %8s\n", "cgroup", "swap.high", "high");
		for (int c = 0; c < rr->nr_cg; c++) {
			char high[24];
			if (rr->cg[c].swap_high == UINT64_MAX)
				snprintf(high, sizeof(high), "max");
			else
				snprintf(high, sizeof(high), "%llu", (unsigned long long)(rr->cg[c].swap_high / 1024));
			put_path(rr->cg[c].path, out);
			fprintf(out, " %10s %8llu\n", high, (unsigned long long)rr->cg[c].swap_events_high);
		}
	}
	report_cgroups_pressure_text(rr, out);
}

/* [{"path": "/", "memory.current": ..., ...}, ...] */
void report_cgroups_json(const struct run_result *rr, FILE *out)
{
	fputc('[', out);
	for (int c = 0; c < rr->nr_cg; c++) {
		const struct cg_result *r = &rr->cg[c];
		fputs(c ? ", {\"path\": " : "{\"path\": ", out);
		json_str(out, r->path);
		if (r->max == UINT64_MAX)
			fputs(", \"memory.max\": \"max\"", out);
		else
			fprintf(out, ", \"memory.max\": %llu", (unsigned long long)r->max);
		fprintf(out, ", \"memory.current\": %llu, \"memory.peak\": %llu, \"memory.swap.current\": %llu",
			(unsigned long long)r->current, (unsigned long long)r->peak, (unsigned long long)r->swap_current);
		for (int e = 0; e < NR_CG_EVENTS; e++)
			fprintf(out, ", \"memory.events.%s\": %llu", event_names[e], (unsigned long long)r->events[e]);
		fprintf(out, ", \"memory.stat.anon\": %llu, \"memory.stat.file\": %llu", (unsigned long long)r->anon,
			(unsigned long long)r->file);
		for (int s = 0; s < NR_CG_STATS; s++)
			fprintf(out, ", \"memory.stat.%s\": %llu", stat_names[s], (unsigned long long)r->stat[s]);
		if (rr->cg[0].pgscan_proactive + rr->cg[0].pgsteal_proactive)
			fprintf(out, ", \"memory.stat.pgscan_proactive\": %llu, \"memory.stat.pgsteal_proactive\": %llu",
				(unsigned long long)r->pgscan_proactive, (unsigned long long)r->pgsteal_proactive);
		if (any_swap_high(rr) && r->swap_high == UINT64_MAX)
			fprintf(out, ", \"memory.swap.high\": \"max\", \"memory.swap.events.high\": %llu",
				(unsigned long long)r->swap_events_high);
		else if (any_swap_high(rr))
			fprintf(out, ", \"memory.swap.high\": %llu, \"memory.swap.events.high\": %llu",
				(unsigned long long)r->swap_high, (unsigned long long)r->swap_events_high);
		if (r->has_pressure) {
			fputs(", \"memory.pressure\": ", out);
			report_pressure_obj(r->pressure, out);
		}
		fputc('}', out);
	}
	fputc(']', out);
}
