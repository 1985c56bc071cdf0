/* report.h - what a run prints: time(1) lines in zsh's and GNU time's
 * shapes, vmstat lines with vmstat's own columns, kernel messages, the
 * counters with /proc/vmstat names; or all of it as one JSON object. */
#ifndef PAGELAB_REPORT_H
#define PAGELAB_REPORT_H

#include <stdio.h>
#include <stddef.h>
#include "../machine/machine.h"
#include "result.h"

struct run_info {
	const char *machine;
	const char *policy;
	uint64_t seed;
	/* The command line that asked for the run (argv[0] = "pagelab"), for
	 * the JSON's provenance; argc 0 when there is none (the library). */
	int argc;
	char *const *argv;
};


void workload_times(const struct machine *m, int wl, struct time_figures *tf);
/* "usemem -m 1000  0.10s user 10.27s system 62% cpu 16.567 total" */
void format_zsh_time(char *buf, size_t len, const char *cmd, const struct time_figures *tf);
/* "0.10user 10.27system 0:16.56elapsed 62%CPU (0major+256000minor)pagefaults 0swaps" */
void format_gnu_time(char *buf, size_t len, const struct time_figures *tf);
void format_vmstat_line(char *buf, size_t len, const struct vmstat_sample *s);
extern const char vmstat_header[];
/* vmstat -a: inact/active in place of buff/cache. */
void format_vmstat_line_mode(char *buf, size_t len, const struct vmstat_sample *s, bool active);
extern const char vmstat_header_active[];

/* --memcg: the cgroup's memory.stat / memory.events (memstat.c). */
size_t report_zram_stats(const struct machine *m, struct memstat *st, bool fullest);  /* zramstat.c */
void report_zram_text(const struct run_result *rr, FILE *out);
void report_zram_json(const struct run_result *rr, FILE *out);
size_t report_zswap_stats(const struct machine *m, struct memstat *st);  /* zswapstat.c */
void report_zswap_text(const struct run_result *rr, FILE *out);
void report_zswap_json(const struct run_result *rr, FILE *out);
size_t report_swapcl_stats(const struct machine *m, struct memstat *st);  /* zswapstat.c */
size_t report_memcg_stats(const struct machine *m, struct memstat *st);   /* at most MAX_MEMSTAT */
void report_memcg_stat(const struct run_result *rr, FILE *out);
/* A list of memstat lines: "# TITLE" then NAME VALUE lines; or OPEN (the
 * key and its brace) then "NAME": VALUE pairs and the closing brace. */
void report_memstat_text(const char *title, const struct memstat *st, int n, FILE *out);
void report_memstat_json(const char *open, const struct memstat *st, int n, FILE *out);
void report_memcg_json(const struct run_result *rr, FILE *out);
/* --set psi=1: /proc/pressure/memory (pressure.c). */
void report_pressure_text(const struct run_result *rr, FILE *out);
void report_pressure_json(const struct run_result *rr, FILE *out);
void report_pressure_obj(const struct psi_line l[2], FILE *out);
/* --cgroup with psi=1: each cgroup's memory.pressure, text. */
void report_cgroups_pressure_text(const struct run_result *rr, FILE *out);

/* --cgroup: each cgroup's files into rr->cg, in text tables, as a JSON
 * array (cgreport.c). */
void report_cgroups_collect(const struct machine *m, struct run_result *rr);
/* One figure of cgroup path's files as collected: FILE memory.current,
 * .peak, .swap.current, memory.stat.anon/.file (MB), memory.events.NAME,
 * memory.stat.NAME (counts); false when no such cgroup or file. */
bool report_cgroup_file(const struct run_result *rr, const char *path, const char *file, double *v);
void report_cgroups_text(const struct run_result *rr, FILE *out);
void report_cgroups_json(const struct run_result *rr, FILE *out);

/* The "# /proc/vmstat" section's lines: gauges, then every event counter,
 * of a result or of an mm (the cache-only replay's). */
void report_gauges(const struct mm *mm, struct run_gauges *g);
void report_vmstat_lines(const struct run_gauges *g, const uint64_t *ev, FILE *out);
void report_vmstat(const struct mm *mm, FILE *out);
void report_counters_json(const struct run_gauges *g, const uint64_t *ev, FILE *out);
void report_vmstat_json(const struct mm *mm, FILE *out);
/* Reclaim's work, counted (src/mm/work.h; work_report.c): a table by
 * reclaimer, a JSON object, an HTML table. */
void report_work_text(const struct reclaim_work *w, FILE *out);
void report_work_json(const struct reclaim_work *w, FILE *out);
void report_work_html(const struct reclaim_work *w, FILE *out);

/* The run's reports, drawn from its result alone. */
void report_text(const struct run_result *rr, const struct run_info *ri, FILE *out);
void report_json(const struct run_result *rr, const struct run_info *ri, FILE *out);
/* The "tasks" array of a workload in --json (run's and pagelab kernel's,
 * this one writer): each of its n tasks as time(1) would show it alone,
 * since a workload's totals hide which of its tasks waited (qsbench's four
 * sorts end apart).  Written as `, "tasks": [...]`. */
void report_json_tasks(const struct task_times *t, int n, FILE *out);
/* A workload's figures of merit (figures_report.c), when it has any:
 * `, "figures": {"read_iops": 1234.5, ...}, "better": {"read_iops":
 * "higher", ...}` (a time is "lower"); nothing without. */
void report_figures_json(const struct wl_figures *fs, FILE *out);

#endif
