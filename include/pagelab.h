/* pagelab.h - libpagelab, the simulator as a library.
 *
 * One simulated machine per handle: choose a machine profile, set machine
 * parameters and policy tunables, add workloads (the same words as on the
 * `pagelab run` command line), run it, then read the counters (with their
 * /proc/vmstat names), the per-workload times and the event log (kernel
 * messages and workload exits, in simulated-time order).
 *
 *	pagelab_sim *s = pagelab_new("vmm-2008");
 *	pagelab_set(s, "ram", "256M");
 *	pagelab_set_policy(s, "splitlru");
 *	pagelab_set(s, "swappiness", "100");
 *	const char *w[] = { "usemem", "-m", "300" };
 *	pagelab_add_workload(s, 3, w);
 *	if (pagelab_run(s) != 0) fprintf(stderr, "%s\n", pagelab_error(s));
 *	uint64_t out; pagelab_counter(s, "pswpout", &out);
 *	pagelab_free(s);
 *
 * Stability: functions are only added, never changed, within one
 * PAGELAB_API_VERSION; pagelab_api_version() tells a program which
 * version the library it loaded implements.  Errors never exit: a call
 * that fails returns -1 (or NULL) and pagelab_error() says why in one
 * line.  A condition the simulation cannot continue from (its disk full,
 * host memory exhausted) makes pagelab_run() return -1; that handle can
 * then only be freed.  (A bug in pagelab itself still aborts.)  Handles are independent; one handle must not be used by two
 * threads at once.
 */
#ifndef PAGELAB_H
#define PAGELAB_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAGELAB_API_VERSION 1

#ifndef PAGELAB_EXPORT
#define PAGELAB_EXPORT __attribute__((visibility("default")))
#endif

typedef struct pagelab_sim pagelab_sim;

/* The API version the library implements, and its build's version string
 * ("git describe" of its tree). */
PAGELAB_EXPORT int pagelab_api_version(void);
PAGELAB_EXPORT const char *pagelab_version_string(void);

/* A machine of profile NAME (see `pagelab machines`); NULL for an unknown
 * name (pagelab_error(NULL) then says so). */
PAGELAB_EXPORT pagelab_sim *pagelab_new(const char *machine);
/* Frees S.  Freeing the last live handle also frees what the workloads
 * keep for a next run (qsbench's recorded sorts, up to 256 MB). */
PAGELAB_EXPORT void pagelab_free(pagelab_sim *s);

/* The last error of S (or of the last pagelab_new when S is NULL). */
PAGELAB_EXPORT const char *pagelab_error(const pagelab_sim *s);

/* Before pagelab_run().  pagelab_set takes a machine parameter ("ram",
 * "swap", "cpus", "disk.bandwidth", "vm.dirty_ratio"...) or a tunable of
 * the chosen policy, as `--set NAME=VALUE`; set the policy first for its
 * tunables.  "memcg" ("256M") runs the workloads in one memory cgroup of
 * that limit, as `pagelab run --memcg` (without a "ram", the machine gets
 * at least LIMIT * 5/4 + 64M), and then "memcg.v1" ("1") makes it v1;
 * "disk" ("ssd") is a disk model, as --disk; "vmstat" ("0.5") samples
 * vmstat every 0.5 s of simulated time for pagelab_report(), as --vmstat;
 * "make-inputs" ("1") makes each file the workloads read and none
 * creates before the run, as --make-inputs; "start.K" ("2") starts
 * workload K (from 0) 2 s into the run, its times counted from there;
 * "residency" ("K") with "vmstat" samples workload K's resident set,
 * "resident_kb" in each vmstat sample of pagelab_report()'s JSON.  pagelab_set_policy(s, NAME) picks a policy from `pagelab
 * policies` (default clock).  pagelab_add_workload takes a workload's
 * words, e.g. {"usemem", "-m", "300"}; several run together. */
PAGELAB_EXPORT int pagelab_set(pagelab_sim *s, const char *name, const char *value);
PAGELAB_EXPORT int pagelab_set_policy(pagelab_sim *s, const char *policy);
/* A policy as a struct pagelab_policy in memory (pagelab_policy.h)
 * rather than a plugin's path: for hooks made at run time (the Python
 * package's policies through ctypes, docs/python.md).  It is held to a
 * plugin's rules and named "memory:NAME" in their errors; it is
 * registered once per address, takes one of the 8 plugin places of the
 * process, and must stay valid for the life of the process. */
struct pagelab_policy;
PAGELAB_EXPORT int pagelab_set_policy_struct(pagelab_sim *s, const struct pagelab_policy *pol);
PAGELAB_EXPORT int pagelab_set_seed(pagelab_sim *s, uint64_t seed);
PAGELAB_EXPORT int pagelab_set_check(pagelab_sim *s, int on);
PAGELAB_EXPORT int pagelab_set_max_time(pagelab_sim *s, double seconds);
PAGELAB_EXPORT int pagelab_add_workload(pagelab_sim *s, int argc, const char *const *argv);
/* One memory cgroup of a tree, as `pagelab run --cgroup SPEC`:
 * "PATH[:max=SIZE,high=SIZE,low=SIZE,min=SIZE,swap.max=SIZE,
 * swap.high=SIZE,zswap.max=SIZE,swappiness=N,oom.group=1]" (parents not
 * added are implied, without limits; not with "memcg";
 * pagelab_set(s, "memory_recursiveprot", "1") is the cgroup2 mount
 * option for the whole tree).  Add it before the workloads placed in it: a workload's
 * last word "@PATH" runs it there.  pagelab_report()'s JSON then has
 * "cgroups", each cgroup's memory.current, peak, events and stat
 * (docs/cgroups.md).  0, or -1 on a bad spec (see pagelab_error). */
PAGELAB_EXPORT int pagelab_add_cgroup(pagelab_sim *s, const char *spec);

/* Run to the end.  0: every workload finished (or was OOM-killed, which
 * the event log shows); 1: --check found a broken invariant; 3: stopped at
 * the max time; -1: could not start (see pagelab_error). */
PAGELAB_EXPORT int pagelab_run(pagelab_sim *s);

/* After pagelab_run().  Counters by /proc/vmstat name; 0 when known, -1
 * for a name the simulator does not count.  pagelab_counter_name(i) walks
 * every name (NULL past the last). */
PAGELAB_EXPORT int pagelab_counter(const pagelab_sim *s, const char *name, uint64_t *value);
PAGELAB_EXPORT const char *pagelab_counter_name(int i);

/* The workloads' time(1) figures, in the order they were added. */
struct pagelab_times {
	double user, sys, elapsed;     /* seconds */
	uint64_t major_faults, minor_faults;
	int killed;                    /* by the OOM killer */
};
PAGELAB_EXPORT int pagelab_nr_workloads(const pagelab_sim *s);
PAGELAB_EXPORT int pagelab_workload_times(const pagelab_sim *s, int i, struct pagelab_times *t);

/* The event log, in simulated-time order: entry I's time in seconds, its
 * kind, and its text (the kernel message, e.g. "Out of memory: Killed
 * process ...", or the command of the workload that finished); -1 past
 * the last entry.  Any output pointer may be NULL. */
enum { PAGELAB_EVENT_KERNEL = 0, PAGELAB_EVENT_EXIT = 1 };
PAGELAB_EXPORT int pagelab_event(const pagelab_sim *s, int i, double *t, int *kind, const char **text);

/* The whole report, as `pagelab run` prints it (json = 0) or --json. */
PAGELAB_EXPORT int pagelab_report(const pagelab_sim *s, FILE *out, int json);

/* The cache-only replay (no handle, no machine: docs/trace-format.md):
 * TRACE (any format the readers know) through a cache of FRAMES frames
 * under POLICY, a cache policy's name (lru, clock, arc, ...), or, when
 * POLICY is NULL, the struct POL (pagelab_policy.h, as
 * pagelab_set_policy_struct takes it).  The misses are those of `pagelab
 * run --machine ideal --ram FRAMESp` on the same trace.  0, or -1 with
 * one line in err. */
struct pagelab_cache_result {
	uint64_t refs, misses, major, evictions, writebacks, pages;
};
PAGELAB_EXPORT int pagelab_cache_replay(const char *trace, uint64_t frames, const char *policy,
					const struct pagelab_policy *pol, struct pagelab_cache_result *out, char *err,
					size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
