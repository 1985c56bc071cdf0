/* experiment.h - the experiments of `pagelab reproduce`.
 *
 * An experiment is one mailing-list thread re-run on the simulator: the
 * thread's machine (a profile, scaled down in quick mode with every size
 * that matters, so ratios such as workload size / RAM are kept), the designs
 * it compared (pagelab policies under the thread's own labels), the runs
 * (pagelab workload command lines, run once per design and repeat on a
 * fresh machine), the figures the thread published (transcribed, with their
 * file and line), and comparisons between designs whose verdict says
 * whether pagelab agrees on the winner and, roughly, on the margin.
 *
 * Designs or workloads this build does not have are reported as such, with
 * verdict n/a: the experiments fill in as the parts land. */
#ifndef PAGELAB_EXPERIMENT_H
#define PAGELAB_EXPERIMENT_H

#include "../lib/json.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/cell.h"

enum design_kind {
	DESIGN_THREAD,    /* a kernel the thread measured */
	DESIGN_MODERN,    /* what today's kernel would have done */
	DESIGN_REFERENCE, /* a textbook policy, for scale */
};

/* In an experiment's definition: `EXP_ARRAY(runs)` sets .runs and .nr_runs
 * from a static array of the same name. */
#define EXP_ARRAY(name) .name = name, .nr_##name = sizeof(name) / sizeof(name[0])

struct exp_design {
	const char *label;   /* the thread's name for it: "2.6.26", "-mm" */
	const char *policy;  /* pagelab policy */
	const char *sets;    /* policy tunables "NAME=VALUE ..." or NULL */
	enum design_kind kind;
};

/* One setup, run once per design and repeat, each on a fresh machine.
 * Command lines and machine settings are templates: "{M:1000}" is 1000 MB
 * scaled (printed in MB), "{S:12G}" a size scaled (printed with a suffix),
 * "{B:536870912}" bytes scaled, "{N:40}" a count scaled (at least 1). */
struct exp_run {
	const char *key;           /* short name, used by metrics and JSON */
	const char *title;
	const char *machine_sets;  /* "ram={S:836M} swap=..." or NULL */
	const char *wl[EXP_MAX_WL];/* command lines, NULL after the last */
	int repeats, quick_repeats;
	double vmstat_s;           /* sample interval at full size (scaled in quick mode) */
	double max_time_s;         /* simulated time limit at full size */
	bool max_time_unscaled;    /* quick mode keeps max_time_s: the run's length
				    * is set by disk seeks, not by memory sizes */
	/* Index of a workload that starts only once the others have filled
	 * memory (the thread's "then started the bench"), or -1.  Its start
	 * time comes from a first run of the others alone: when they finish
	 * filling, plus one second to settle. */
	int delayed;
	const char *fill_wl;       /* the filler's command line for that first run */
	int residency_wl;          /* workload whose resident set is sampled, or -1 */
	int stop_with;             /* 1 + the workload whose end ends the run (others are background); 0: all */
};

/* How a metric is read from a run. */
enum metric_kind {
	MK_ELAPSED, MK_USER, MK_SYS, MK_CPU_PCT, MK_MAJFLT, MK_MINFLT, MK_SWAPS,
	MK_COUNTER,      /* a /proc/vmstat counter (name in arg) */
	MK_SWAP_PEAK_MB, /* most swap in use at any vmstat sample, MB */
	MK_KTHREAD_CPU,  /* CPU seconds of the reclaim kernel threads */
	MK_CUSTOM,       /* fn() */
};

struct exp_result;
struct run_result;

struct exp_metric {
	const char *key;
	const char *name;       /* as printed: "usemem elapsed (s)" */
	const char *run;        /* exp_run key */
	int wl;                 /* workload index in the run */
	enum metric_kind kind;
	const char *arg;        /* MK_COUNTER: counter name */
	bool higher_better;
	/* MK_CUSTOM: the figure of one run; false if it has none. */
	bool (*fn)(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr, double *v);
};

/* A figure the thread published.  value is NAN when the thread gives only
 * words (text then holds them). */
struct exp_published {
	const char *design;     /* design label */
	const char *metric;     /* metric key */
	double value;
	const char *text;       /* as the thread wrote it */
	const char *source;     /* "file:line" */
};

enum cmp_kind {
	CMP_RATIO,      /* published figures for both: same winner, ratio within tol */
	CMP_WORSE,      /* words: b is worse than a ("system noticeably slower") */
	CMP_NOT_WORSE,  /* words: b is not worse than a by more than tol */
	CMP_ZERO,       /* words: b's figure is zero ("the OOM killer was never invoked") */
	CMP_FIGURE,     /* b's figure within a factor (1+tol) of the one b's thread published */
	CMP_NONZERO,    /* words: b's figure is above zero ("without low it is reclaimed") */
};

struct exp_comparison {
	const char *metric;
	const char *a, *b;      /* design labels: b is compared with a */
	enum cmp_kind kind;
	double tol;             /* CMP_RATIO: simulated ratio within a factor (1+tol) of the published one */
	double tie;             /* ratios within (1 +- tie) are a tie */
	double floor;           /* figures below this (full-size units) count as this */
	const char *statement;  /* the thread's words, for CMP_WORSE/NOT_WORSE/ZERO */
	const char *source;
	const char *quick_note; /* printed under the verdict in quick mode: why
				 * quick mode's verdict cannot be --full's, or NULL */
};

struct experiment {
	int id;
	const char *slug;
	const char *title;
	const char *thread;      /* file under docs/threads/ */
	const char *who;         /* who posted the figures, when */
	const char *profile;     /* machine profile */
	const char *machine_sets;/* experiment-wide machine settings (templates) */
	double quick_scale;      /* sizes x this in quick mode */
	const struct exp_design *designs; int nr_designs;
	const struct exp_run *runs; int nr_runs;
	const struct exp_metric *metrics; int nr_metrics;
	const struct exp_published *published; int nr_published;
	const struct exp_comparison *cmps; int nr_cmps;
	/* The table in the thread's own shape, published next to simulated. */
	void (*print)(const struct exp_result *r, FILE *out);
	void *owned;             /* a parsed file's strings and arrays (exp_file.c) */
};

/* ---- results ---------------------------------------------------------- */

struct exp_result {
	const struct experiment *e;
	bool full;
	bool check;
	double scale;             /* 1 in --full mode */
	uint64_t max_time_ns;     /* --max-time: cap on every run's simulated time, or 0 */
	struct profile prof;      /* the machine, scaled */
	struct machine_opts cg;   /* the experiment's machine-set beyond the profile: its cgroup
				   * (memcg_pages, memcg_v1, cgroups), make_inputs, vmstat_ns */
	bool ram_set;             /* its machine-set gave ram= */
	int reps;                 /* repeats of each run in this mode (max) */
	struct run_result *rr;    /* [design][run][repeat] */
	bool *design_ok;          /* per design: policy and tunables exist */
	char **design_why;
	int nr_jobs, jobs_done;   /* runs to do / done before any SIGINT or SIGTERM */
	/* Host time (stderr only: never part of the output, which must not
	 * depend on the host): CPU seconds of its runs, and when its last run
	 * finished, in seconds since the pool started. */
	double host_cpu_s, host_done_s;
	bool emitted;             /* passed to reproduce_opts.on_done */
};

/* A machine parameter multiplied by factor (calibrate.h). */
struct param_factor {
	const char *name;         /* profile parameter: "cost.fault" */
	double factor;
};

struct reproduce_opts {
	bool full;
	int only;                 /* 0 = all */
	int jobs;
	bool progress;
	bool check;               /* verify the mm invariants in every run (slow) */
	/* Calibration (calibrate.h): run only the design with this label
	 * (NULL: every design), on the profile with these parameters
	 * multiplied (after quick mode's scaling). */
	const char *only_design;
	const struct param_factor *factors;
	int nr_factors;
	int max_repeats;          /* run at most this many repeats of each run (0: all) */
	double max_time_s;        /* --max-time: cap every run's simulated time (0: the file's) */
	/* Called in experiment order as soon as each experiment's runs have
	 * all finished (from a pool thread, under the pool's lock), and after
	 * an interrupt for those that finished; NULL: nothing is called. */
	void (*on_done)(const struct exp_result *r, void *arg);
	void *on_done_arg;
};

int nr_experiments(void);
/* The seed of repeat rep (0-based) of every run: the same for every design. */
uint64_t exp_seed(int rep);

/* Run the experiments of the NULL-terminated list (those with id o->only
 * if it is set); returns their results, NULL-terminated, in list order. */
struct exp_result **experiments_run(const struct experiment *const *list, const struct reproduce_opts *o);
void experiments_free(struct exp_result **res);
/* Runs in which --check found a broken invariant. */
int experiments_check_failures(struct exp_result **res);

/* Runs cut short: an OOM kill (a workload killed or the oom_kill counter)
 * or the simulated time limit (--max-time or the file's max-time). */
bool exp_run_oom_killed(const struct run_result *rr);
struct exp_cut { int oom, timed_out; };
struct exp_cut exp_cut_short(const struct exp_result *r);

/* Accessors for the printers. */
int exp_design_index(const struct experiment *e, const char *label);
int exp_run_index(const struct experiment *e, const char *key);
int exp_metric_index(const struct experiment *e, const char *key);
int exp_reps(const struct exp_result *r, int run);
const struct run_result *exp_rr(const struct exp_result *r, int design, int run, int rep);
/* Mean of a metric over the repeats of its run (false if none has it). */
bool exp_metric_value(const struct exp_result *r, int design, int metric, double *v);
/* The published figure of (design, metric), or NULL. */
const struct exp_published *exp_published_find(const struct experiment *e, const char *design, const char *metric);
/* Expand a template for this result's scale into buf. */
void exp_expand(const struct exp_result *r, const char *tmpl, char *buf, size_t len);

/* Verdicts. */
enum verdict { V_AGREE, V_DISAGREE, V_NA, V_NOISY };
struct cmp_outcome {
	enum verdict v;
	double pub_ratio, sim_ratio;  /* NAN when not applicable */
	double lo, hi;                /* 95% interval of sim_ratio over seeds */
	int nr_seeds;                 /* seeds both designs have the figure for */
	double sim_a, sim_b;
	char note[200];
};
void exp_compare(const struct exp_result *r, int c, struct cmp_outcome *out);
extern const char *const verdict_names[];

/* Text and JSON output. */
void exp_print_header(const struct exp_result *r, FILE *out);
/* counts[verdict] += 1 for each comparison printed. */
void exp_print_verdicts(const struct exp_result *r, FILE *out, int *counts);
void exp_print_text(struct exp_result **res, FILE *out);
void exp_print_json(struct exp_result **res, FILE *out);
/* The same, one experiment at a time (streamed as each finishes).
 * counts[EXP_COUNTS]: the verdicts (indexed by enum verdict), then the
 * experiments printed, the runs killed by OOM and those timed out. */
#define EXP_COUNTS 7
void exp_print_text_start(bool full, FILE *out);
void exp_print_experiment(const struct exp_result *r, FILE *out, int *counts);
void exp_print_text_end(const int *counts, FILE *out);
/* Where the built-in experiments' expected verdicts and the causes of
 * their disagreements are written down (after the summary). */
extern const char exp_expectations[];
void exp_print_expectations(FILE *out);
void exp_print_json_start(bool full, FILE *out);
void exp_print_json_experiment(const struct exp_result *r, FILE *out, int *counts);
void exp_print_json_end(const int *counts, FILE *out);
/* Helpers for the thread-shaped tables. */
void exp_print_unavailable(const struct exp_result *r, int design, int run, const char *indent, FILE *out);
/* Every repeat of (design, run)'s workload wl as time(1) lines: zsh's shape
 * or GNU time's; "not available" when it did not run.  SHAPE_ZSH_PROG is
 * zsh's line with the command cut to its program's name (a caller that
 * prints the whole command once: a long one would pass 80 columns on
 * every line). */
enum time_shape { SHAPE_ZSH, SHAPE_GNU, SHAPE_BASH, SHAPE_ZSH_PROG };
void exp_print_times(const struct exp_result *r, int design, int run, int wl, enum time_shape sh,
		     const char *indent, FILE *out);
/* Workload wl of run as it ran (its sizes filled in): the first repeat
 * that ran's command line, else the file's. */
const char *exp_wl_cmd(const struct exp_result *r, int run, int wl);
/* The workload's own output lines (dbench's Throughput, Bonnie's table...),
 * each prefixed with indent. */
void exp_print_output(const struct exp_result *r, int design, int run, int rep, int wl,
		      const char *indent, FILE *out);

/* Reading figures out of a workload's own output (exp_parse.c). */
bool exp_number_after(const char *text, const char *key, double *v);
bool exp_number_before(const char *text, const char *key, double *v);
/* The last n numbers of the last line that ends in at least n numbers
 * (a Bonnie result line). */
bool exp_last_numbers(const char *text, int n, double *out);
/* The wl-th workload's command line's value of "key=" or "key " (e.g. the
 * count of dd, the client count of dbench). */
bool exp_cmd_number(const char *cmd, const char *key, double *v);
/* "42 min 6 s" / "1 h 20 min" style for long times. */
void exp_fmt_minutes(char *buf, size_t len, double s);

#endif
