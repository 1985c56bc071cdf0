/* result.h - one finished run, whatever ran it: the figures a sweep
 * record, a verdict, a table and the text, JSON and HTML reports of
 * `pagelab run` are drawn from (the machine that ran is gone by then).
 * The runner (src/engine/runspec.h) fills it; run_result_free() frees
 * it. */
#ifndef PAGELAB_RESULT_H
#define PAGELAB_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../machine/machine.h"

/* Figures of one workload as time(1) would report them. */
struct time_figures {
	double user, sys, elapsed;
	unsigned cpu_pct;
	uint64_t majflt, minflt, swaps;
	bool killed;
};

#define EXP_MAX_WL 4

/* Each task of a workload, as time(1) would show it alone (--json). */
struct task_times {
	double user_s, sys_s, elapsed_s;
	uint64_t majflt, minflt, swaps;
};

struct wl_result {
	char *cmd;
	struct time_figures tf;   /* times from the workload's own start */
	char *output;             /* the program's own output lines */
	struct wl_figures figs;   /* its figures of merit (workload.h), if any */
	bool done;                /* it finished (not killed, not cut short) */
	uint64_t start_ns, end_ns;
	/* For the run's reports: */
	struct time_figures times; /* from the machine's start, as time(1) in the report */
	bool exited;              /* no task left (finished or killed) */
	int signal;               /* what killed it (SIGKILL, SIGBUS), if killed */
	char *exit_text;          /* what its exit prints before time(1)'s lines */
	struct task_times *tasks;
	int ntasks;
};

/* A kernel message or a workload's exit, in time order. */
enum run_event_kind { RUN_EV_KERNEL, RUN_EV_EXIT };
struct run_event {
	uint64_t t;
	enum run_event_kind kind;
	int wl;                   /* RUN_EV_EXIT: the workload */
	char *text;               /* RUN_EV_KERNEL: the message */
};

struct run_kthread {
	int pid;
	char comm[16];
	uint64_t cpu_ns;
};

struct run_zone {
	const char *name;
	uint64_t managed, wmark_min, wmark_low, wmark_high;
};

/* The /proc/vmstat gauges at the end of the run. */
struct run_gauges {
	uint64_t nr_free, nr_anon, nr_mlock, nr_writeback, nr_file, nr_dirty;
	uint64_t inactive_anon, active_anon, inactive_file, active_file;
};

/* One memory.stat / memory.events line of the run's cgroup (memstat.c). */
struct memstat {
	const char *name;
	uint64_t value;
};
#define MAX_MEMSTAT 40

/* --cgroup: one cgroup at the end of a run; bytes, and memory.stat's
 * counts its subtree's (cgreport.c). */
struct cg_result {
	char path[CG_PATH_MAX];
	uint64_t max;             /* UINT64_MAX: none */
	uint64_t current, peak, swap_current;
	uint64_t events[NR_CG_EVENTS];
	uint64_t swap_high;       /* memory.swap.high in bytes; UINT64_MAX: none */
	uint64_t swap_events_high; /* memory.swap.events high */
	uint64_t anon, file;
	uint64_t stat[NR_CG_STATS];
	uint64_t pgscan_proactive, pgsteal_proactive;   /* memory.reclaim's (6.15+) */
	bool has_pressure;        /* --set psi=1: memory.pressure ([0] some, [1] full) */
	struct psi_line pressure[2];
};

struct run_result {
	bool available;           /* design and workloads exist in this build */
	char *why;                /* if not: why (one line) */
	bool finished;            /* every workload finished */
	bool timed_out;
	bool check_failed;        /* --check found a broken invariant */
	int nr_wl;
	struct wl_result wl[EXP_MAX_WL];
	uint64_t ev[NR_VM_EVENTS];
	struct reclaim_work work; /* reclaim's work, counted (src/mm/work.h) */
	double kthread_cpu_s;     /* kswapd and the design's aging thread */
	char *kmsgs;              /* kernel messages, one per line */
	struct vmstat_sample *samples;
	uint64_t nr_samples;
	uint64_t *resident_kb;    /* per sample: residency of residency_wl */
	uint64_t swap_peak_kb;
	uint64_t sim_ns;
	uint64_t vmstat_ns;
	struct profile prof;      /* the machine it ran on, every option applied */
	/* The host kernel's own figures (src/engine/kexec.h), NULL for the
	 * simulator; freed by kernel_free, set by the executor that filled
	 * it (this layer knows nothing of the kernel's result). */
	struct kernel_result *kernel;
	void (*kernel_free)(struct kernel_result *);

	/* What the run's own reports need besides (report.c, html_run.c): */
	bool refused;             /* not available: the spec cannot run as given */
	struct wl_result *wl_more; /* workloads past the EXP_MAX_WL-th: run_wl() */
	/* samples[k] is sample nr_spilled + k; the first nr_spilled are in
	 * sample_spill (a long run's, as the machine kept them). */
	uint64_t nr_spilled;
	FILE *sample_spill;
	/* The timelines' own series (--html with a longer --vmstat), or none. */
	struct vmstat_sample *timeline;
	uint64_t nr_timeline, timeline_ns;
	bool vmstat_active;       /* --vmstat -a */
	bool vmstat_hidden;       /* sampled for --html only: the text and JSON leave them out */
	uint64_t ram_pages;
	int nr_zones;
	struct run_zone zones[MAX_ZONES];
	uint64_t max_time_ns;
	int interrupted;          /* stopped by this signal, or 0 */
	bool all_exited;          /* no user task left */
	struct run_event *log;
	uint64_t nr_log;
	struct run_kthread *kthreads;
	int nr_kthreads;
	struct run_gauges gauges;
	struct memstat memcg[MAX_MEMSTAT];  /* with a cgroup: its files */
	int nr_memcg;
	/* --set psi=1: /proc/pressure/memory at the end ([0] some, [1]
	 * full; averages in 1/2048ths of a percent, totals in us). */
	bool has_pressure;
	struct psi_line pressure[2];
	struct cg_result *cg;     /* --cgroup: each cgroup's files, the root first (cgreport.c) */
	int nr_cg;
	struct memstat zram[MAX_MEMSTAT];   /* --swap zram: mm_stat, io_stat */
	int nr_zram;
	struct memstat zram_full[MAX_MEMSTAT]; /* ... at its fullest: a record's (zramstat.c) */
	int nr_zram_full;
	struct memstat zswap[MAX_MEMSTAT];  /* --set zswap: its counters */
	int nr_zswap;
	struct memstat swapcl[16];          /* --set swap.cluster=1: its lists */
	int nr_swapcl;
};

void run_result_free(struct run_result *rr);

/* Workload k of a result (any k < nr_wl). */
struct wl_result *run_wl(struct run_result *rr, int k);
const struct wl_result *run_wl_c(const struct run_result *rr, int k);

/* Every vmstat sample of a result in time order: run_samples_rewind()
 * then run_sample_next() until false.  run_timeline_rewind() reads the
 * samples timelines are drawn from (the timeline series if there is one,
 * else the vmstat samples), their number and interval. */
struct run_sample_iter { const struct run_result *rr; uint64_t i; bool timeline; };
void run_samples_rewind(const struct run_result *rr, struct run_sample_iter *it);
void run_timeline_rewind(const struct run_result *rr, struct run_sample_iter *it, uint64_t *n,
			 uint64_t *interval_ns);
bool run_sample_next(struct run_sample_iter *it, struct vmstat_sample *s);

#endif
