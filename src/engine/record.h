/* record.h - results files: one JSON object per line, one line per cell.
 *
 * A record carries what reproduces it (the `pagelab run` command line of
 * the cell and the pagelab version), what groups it (the design: policy and
 * its tunables; the configuration: machine and workloads; the seed; the
 * sweep's parameter values), and every figure: times per workload, and
 * every /proc/vmstat counter.  The derived reclaim figures (record_metric)
 * are computed from those when read, never stored, so every reader agrees
 * on them.  Lines are written whole, so a results file can be appended to
 * by a resumed sweep and joined with others (pagelab merge). */
#ifndef PAGELAB_RECORD_H
#define PAGELAB_RECORD_H

#include <stdbool.h>
#include <stdio.h>

#include "cell.h"
#include "json.h"

struct marks;
struct record_meta {
	int cell;                /* index in its sweep */
	const char *cmd;         /* the equivalent `pagelab run` command line */
	const char *design;      /* "splitlru", "mglru min_ttl_ms=1000" */
	const char *config;      /* machine options and workloads, without policy and seed */
	uint64_t seed;
	int nr_params;           /* the sweep's axes and their values in this cell */
	const char *const *param_names, *const *param_values;
	bool kernel;             /* run on the host kernel (kexec.h): written
				  * "executor": "kernel", with the kernel's
				  * own counters; a simulated run has no
				  * "executor" */
	/* --warmup, --window (cellmarks.h): the marks of the cell's
	 * cache-only replay, of refs references and misses in all, or NULL;
	 * marks_why: why they could not be taken, or NULL. */
	const struct marks *marks;
	uint64_t marks_refs, marks_misses;
	const char *marks_why;
};

/* One line, ending in '\n', into a new string. */
char *record_format(const struct record_meta *m, const struct run_result *rr);

/* {"cpus": N, "release": ..., ...}: the host settings a kernel run
 * records (its "host" object), each one known; `pagelab kernel --host`
 * prints this host's. */
struct nhost_settings;
void record_put_host(FILE *out, const struct nhost_settings *h);
/* A disk probe's rates as "KEY": {...} (diskprobe.c); false, nothing
 * written, when it was not probed. */
struct ndisk_rates;
bool record_put_probe(FILE *out, const char *key, const struct ndisk_rates *d);

struct record {
	struct json *j;
	char *line;              /* as read, without the newline */
	int cell;
	const char *cmd, *design, *config;
	uint64_t seed;
};

/* Parse one line; false with a message if it is no record. */
bool record_parse(const char *line, struct record *r, char *err, size_t errlen);
void record_free(struct record *r);

struct records {
	struct record *r;
	int n;
};

/* The longest line a results file may have (the trace readers' limit,
 * TRACE_LINE_MAX): a record is a few kilobytes, so a longer line is a
 * corrupt file or one that never ends (/dev/zero), refused before it
 * takes the host's memory. */
#define RECORD_LINE_MAX (1u << 20)

/* Read every record of path, appending to rs.  A last line without its
 * newline (a sweep killed while writing) is ignored, and *partial_at set to
 * its offset (else -1) so a resuming writer can cut it off.  A missing file
 * is no error when missing_ok.  Returns false with "FILE:LINE: ..." in err
 * (a line longer than RECORD_LINE_MAX, a record that does not parse) or
 * "cannot read FILE: REASON" (a read error is never taken for the end). */
bool records_load(const char *path, struct records *rs, bool missing_ok, long *partial_at,
		  char *err, size_t errlen);
void records_free(struct records *rs);
/* The record with this command line, or NULL (rs sorted by records_sort_cmd). */
void records_sort_cmd(struct records *rs);
const struct record *records_find_cmd(const struct records *rs, const char *cmd);

/* Drop every record whose command line an earlier one has (the same cell
 * run twice: a file given twice, shards that overlap), keeping the first
 * and the order of the others; returns how many were dropped. */
int records_dedupe(struct records *rs);
/* The records in cell order (then command line, then file order), as a
 * NULL-terminated array to free. */
const struct record **records_by_cell(const struct records *rs);
/* Into buf, a sentence when the records do not come from one sweep of one
 * pagelab (two "version"s, or a cell number with two command lines), else
 * "". */
void records_mixed(const struct records *rs, char *buf, size_t len);

/* A figure of a record by name: "elapsed_s", "user_s", "sys_s", every
 * counter by its /proc/vmstat name, every row of reclaim's work counted
 * (its total; src/mm/work.h), a workload's figures of merit
 * (record_figure()), and the derived ones of mmtests:
 * "kswapd_efficiency" (pgsteal_kswapd / pgscan_kswapd, %),
 * "direct_reclaim" (pgsteal_direct / all pgsteal, %), "scan_velocity"
 * (pgscan_kswapd + pgscan_direct per second), "swapin_mbs", "swapout_mbs",
 * "majflt_per_s"; memory.stat's sums "pgscan", "pgsteal" (anon + file)
 * and "workingset_refault" (anon + file); "elapsed_s.K" workload K's own
 * time (K from 0); "cgroup.PATH.FILE" a cgroup's (record_cgroup_metric()).
 * False when undefined (0 / 0, a run that did not run). */
bool record_metric(const struct record *r, const char *name, double *v);

/* record_figures.c: a workload's figure of merit (its "figures" in the
 * record: fio's read_iops, memtier's p99_ms...): "NAME.K" workload K's,
 * "NAME" the one workload's that has it; also through record_metric(). */
bool record_figure(const struct record *r, const char *name, double *v);
/* Whether a higher value of figure `name` is better (1: a throughput),
 * a lower one (-1: a time), or it is not said (0: not a workload's
 * figure), as the first record of rs that has it says. */
int record_metric_better(const struct records *rs, const char *name);
/* The workloads' figures of config's records (NULL: every record), in
 * workload then figure order: NAME when the runs have one workload,
 * NAME.K when several; a NULL-terminated array to free with
 * record_cgroup_columns_free(). */
char **record_figure_columns(const struct records *rs, const char *config);

/* The CSV figures, in column order. */
extern const char *const record_csv_metrics[];

/* record_cgroup.c: "cgroup.PATH.FILE", a --cgroup's figure (FILE as
 * pagelab run --json names it: memory.peak, memory.events.high, ...,
 * memory.pressure.some.total), also through record_metric(). */
bool record_cgroup_metric(const struct record *r, const char *name, double *v);
/* The FILEs a sweep's page draws per cgroup. */
extern const char *const record_cgroup_metrics[];
/* The FILEs compare RESULTS and sweep --csv take per cgroup. */
extern const char *const record_cgroup_figures[];
/* "cgroup.PATH.FILE" for each cgroup but the root (the paths of the first
 * record of config that has cgroups; config NULL: any record) and each of
 * record_cgroup_figures that a record of config has (and not 0 in every
 * one, when nonzero): a NULL-terminated array, to free with
 * record_cgroup_columns_free(). */
char **record_cgroup_columns(const struct records *rs, const char *config, bool nonzero);
void record_cgroup_columns_free(char **names);
/* The paths of the records' cgroups (the first record with any); how
 * many, at most max. */
int record_cgroup_paths(const struct records *rs, const char **paths, int max);

#endif
