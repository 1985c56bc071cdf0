/* compare_run.h - what pagelab compare runs and keeps: this same binary
 * exec'd as `pagelab kernel` or `pagelab run` with its output in
 * temporary files, and the caches of their reports (a first line naming
 * the command that made the report, then the report). */
#ifndef PAGELAB_COMPARE_RUN_H
#define PAGELAB_COMPARE_RUN_H

#include "compare_table.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* A NULL-terminated argument vector of copied strings. */
struct argv_buf {
	char **v;
	int n;
};
void argv_push(struct argv_buf *a, const char *s);
void argv_free(struct argv_buf *a);

/* Start this binary with args, stdout and stderr into temporary files;
 * wait_self() reaps it and rewinds them, returning its exit status (128 +
 * the signal if killed); run_self() is the two. */
pid_t spawn_self(char **args, FILE **out, FILE **err);
int wait_self(pid_t pid, FILE *out, FILE *err);
int run_self(char **args, FILE **out, FILE **err);
/* The first line of f (a run's stderr), for a one-line error. */
void first_line(FILE *f, char *buf, size_t len);

/* FNV-1a of a cache key, for a file name. */
uint64_t fnv1a64(const char *s);
/* The report at path if its first line names key ("# cache: KEY"):
 * cache_load() parses its counters; cache_times() its CPU times. */
bool cache_load(const char *path, const char *key, struct counters *c, bool with_cgroup);
bool cache_times(const char *path, const char *key, double *user, double *sys);
/* Keep a run's report (out, rewound after) at path under key. */
void cache_store(const char *path, const char *key, FILE *out);

/* One `pagelab kernel` run of compare's: the cgroup, the workload's
 * words, and `tag` for its messages ("" or "--fit-cpu: "). */
struct kernel_cmd {
	const char *memcg, *swap, *seed, *timeout, *tag;
	char *const *wl;
	int nwl;
};
/* Run r (0-based) of `of`: the report kept at CACHE/NAME.(r+1) if it is
 * this command's (*cached set), else the run's own, kept there when cache
 * is not NULL; rewound, for the caller to read and close.  A refusal
 * (exit 2) is compare's one-line error, any other failure exits 1. */
FILE *kernel_report(const struct kernel_cmd *k, const char *cache, const char *name, uint64_t r, uint64_t of,
		    bool progress, bool *cached);

/* The whole run's CPU times from a report's time line (GNU time's
 * "9.63user 4.92system 0:08.10elapsed ...", which pagelab run and pagelab
 * kernel both print), each in 0..1e9 s; false if it has none.  Reads f
 * from where it is. */
bool report_cpu_times(FILE *f, double *user, double *sys);

/* Whether a pagelab kernel report says its run was warmed first (its
 * "pagelab: memcg ..." line ends in "; warmed"); f is rewound after. */
bool report_warmed(FILE *f);

#endif
