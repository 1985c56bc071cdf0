/* kcompare.h - `pagelab compare -- WORKLOAD`: this host's kernel against
 * the simulator, as one sweep of two executors (kexec.h) and a comparison
 * of its records.
 *
 * The kernel side is a cell run --repeat times on the host kernel; the
 * simulator side the same workloads under each policy over --seeds seeds,
 * on a machine sized like the kernel run (the host's CPUs, the cgroup
 * limit as --memcg, the same swap size).  Both make the files a workload
 * only reads first, uncached, the same way (src/native/prepare.c).  Each
 * side's records may go to a records file (--kernel-cache DIR, --sim-cache
 * DIR), whose resume is the cache: a run already in the file is not run
 * again.
 *
 * The statistics rule (docs/fidelity.md, "The verdict"): a counter agrees
 * when pagelab's median over the seeds is within +-T% of the kernel's
 * median over the runs (or both are under --floor); beside it, and never
 * merged into it, whether the runs and the seeds differ by more than their
 * spread: the records comparison's test (stats.h significance(): exact
 * Mann-Whitney U below 5 values a side, Welch's t-test from 5). */
#ifndef PAGELAB_KCOMPARE_H
#define PAGELAB_KCOMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "record.h"
#include "stats.h"
#include "../machine/profile.h"

/* What compare -- WORKLOAD runs. */
struct kcompare {
	const char *memcg, *swap, *machine, *disk;   /* as the user wrote them */
	const char *policies;        /* comma-separated */
	uint64_t repeat, seeds, seed0, cpus, ram, timeout_ns;
	char **sets;                 /* NAME=VALUE: the user's, then the host's */
	int nsets;
	char *wl[EXP_MAX_WL];        /* workload command lines */
	int nr_wl;
	const char *kernel_cache, *sim_cache;   /* directories, or NULL */
	const char *cgroups[CG_MAX]; /* --cgroup SPEC: a tree on both sides */
	int nr_cgroups;
	int jobs;
	bool progress;
	int disk_set[2];             /* kcompare_disk_sets()'s in sets[], index + 1 */
};

/* The kernel side's runs already in k->kernel_cache's records (appended
 * to rs, none run); returns how many runs the side has, or -1 with a line
 * in err when its cells or the file cannot be read. */
int kcompare_cached_kernel(const struct kcompare *k, struct records *rs, char *err, size_t errlen);

/* Add k->sets the host's kind of run, unless a --set names it already:
 * memcg.v1=1 (a v1 memory controller), sched_eevdf=1 (6.6 or later),
 * vm.swap_rotational=1 (a rotational swapfile device; never for --swap
 * zram:), vm.ra_pages (its
 * read_ahead_kb / 4 when not 128), cost.tlb_ipi and cost.tlb_ipi_recv
 * (measured with two or more simulated CPUs; kept in the kernel cache's
 * tlb_cost, so that a rerun simulates the same machine).  And k->cpus,
 * when 0, the host's CPUs.  The host is the one the kernel side's cached
 * runs (kcompare_cached_kernel) ran on, as their records' "host" says,
 * and this one for a setting they do not record (a note on stderr) or for
 * runs still to be made (kcompare_rechost.c).  false with a line in err:
 * the runs disagree on a setting the simulation takes. */
bool kcompare_host_sets(struct kcompare *k, char *err, size_t errlen);
/* The disk the kernel side's runs kern met, their records' "disk_probe"
 * (src/native/diskprobe.c): the median of their rates as
 * disk.write_bandwidth and disk.bandwidth, in place of this call's last
 * (a case widened to more runs), unless the user set one or a --disk.
 * Runs without a probe (older records) add nothing: the machine's disk. */
void kcompare_disk_sets(struct kcompare *k, const struct records *kern);
/* Append a NAME=VALUE; whether one starts with prefix ("vm.ra_pages="). */
void kcompare_add_set(struct kcompare *k, const char *set);
bool kcompare_has_set(const struct kcompare *k, const char *prefix);
/* The --set the kernel's cgroup takes too ("swappiness=N"), or NULL. */
const char *kcompare_kernel_set(const struct kcompare *k);
void kcompare_free(struct kcompare *k);
/* The workloads joined by " + ", to free. */
char *kcompare_workloads(const struct kcompare *k);

/* Run one side in a cgroup of `memcg` into rs (appended, in cell order):
 * the kernel's k->repeat runs (kernel), or the simulator's runs of
 * `policies` over `nseeds` seeds on a machine of `ram` bytes.  *resumed:
 * how many were read from the side's records file.  Returns 0, or 1 with
 * one line in err (a records file not written, a kernel run that failed)
 * or 2 (bad input, a kernel that refuses: no root). */
int kcompare_side(const struct kcompare *k, bool kernel, const char *policies, const char *memcg,
		  uint64_t ram, uint64_t nseeds, struct records *rs, int *resumed, char *err, size_t errlen);
/* The simulator's side checked as kcompare_side() would build it, none
 * run: false with one line in err on bad input. */
bool kcompare_check_sim(const struct kcompare *k, char *err, size_t errlen);

/* --fit-cpu LIMIT: run the workload in a cgroup of LIMIT, where it meets no
 * pressure, on both sides (the kernel --repeat times, the first policy
 * once with the profile's costs), and add k->sets the costs scaled by the
 * ratio of the user times (cost.ref) and of the system times (the others
 * but cost.syscall); a cost the user set is kept.  note: what was fitted,
 * for the header.  Too short a run to fit on is a one-line error, exit 2. */
/* What the fit found (for --fit-profile): the ratios, the median times
 * they come from, and where in k->sets the fitted costs begin (those
 * before are the user's and the host's). */
struct kfit {
	const char *limit;
	double ru, rs;          /* kernel / pagelab: user, system time */
	double kum, ksm, su, ss;  /* the median times, s */
	int first_fitted;       /* index in k->sets */
};
void kcompare_fit(struct kcompare *k, const char *limit, char *note, size_t len, struct kfit *fit);
/* Add k->sets the fitted costs of fit (ratios set) on the profile: the
 * pure part of kcompare_fit, which sets fit->first_fitted. */
void kcompare_fit_apply(struct kcompare *k, const struct profile *prof, struct kfit *fit);
/* Is NAME a cost the fit scales by the user-time ratio (cost.ref)? */
bool kcompare_fit_user(const char *name);
/* The fitted machine as a profile file (kcompare_fit_profile.c): every
 * cost.* parameter of k->machine with k->sets applied, each under a line
 * saying whether it was fitted (and from what), set, or the preset's.
 * false with a line in err: k->machine is a profile file (the written
 * file names a preset), or a set cost does not parse. */
bool kcompare_fit_profile(const struct kcompare *k, const struct kfit *fit, FILE *out, char *err, size_t len);
/* Whether kcompare_fit_profile() can write k's (before the runs). */
bool kcompare_fit_profile_can(const struct kcompare *k, char *err, size_t len);

/* What the runs were, for the headers. */
struct kcmp_setup {
	const char *memcg, *swap, *machine;
	const char *sets;   /* the simulator's --set options, "" when none */
	uint64_t repeat, cached, cpus, seeds, seed0;
	uint64_t warmed;    /* kernel runs whose host pages were warmed first */
	double tol, floor;  /* percent; pages under which both sides agree */
	const char *fit;    /* --fit-cpu's note, "" or NULL when none */
};

enum kcmp_verdict { KCMP_YES, KCMP_NO, KCMP_MISSING, KCMP_NOT_COUNTED };

struct kcmp_row {
	const char *name;
	bool kfound, sfound;
	double med, kmin, kmax;  /* the kernel's, over the runs */
	double sim;              /* pagelab's median over the seeds */
	double p;                /* two-sided p of "the runs and the seeds are
				  * one distribution"; NAN if untested */
	enum sig_test test;
	enum kcmp_verdict verdict;
};

struct kcmp {
	int npol;
	const char *const *pol;
	int nrows;
	struct kcmp_row *row;    /* [p * nrows + k] */
	int *agree, *compared;   /* per policy */
	char (*cgrow)[64];       /* --cgroup: "PATH FIGURE" rows (kcompare_cgroups.c) */
	int ncgrow;
	char own[256];           /* counters taken from the cgroup's memory.stat */
	char traced[256];        /* ... from its tracepoints (src/native/tracer.c) */
};

/* The line under a table that says what p is, in two halves (the text
 * breaks between them); false when the setup's runs or seeds are fewer
 * than two, so that there is no p column. */
bool kcmp_p_note(const struct kcmp_setup *s, char *head, size_t headlen, const char **tail);

/* kern: setup->repeat kernel records; sim: npol * setup->seeds,
 * policy-major. */
void kcmp_build(struct kcmp *x, const struct record *const *kern, const struct record *const *sim, int npol,
		const char *const *pol, const struct kcmp_setup *setup);
void kcmp_free(struct kcmp *x);
/* kcompare_cgroups.c: the rows "PATH FIGURE" (/a peak, /b events.high)
 * of the simulator's cgroups that both records have; how many. */
int kcmp_cgroup_rows(const struct record *kern, const struct record *sim, char (**rows)[64]);
/* Row "PATH FIGURE" of a record (either side's). */
bool kcmp_cgroup_get(const struct record *r, const char *row, double *v);
/* head, list and tail as one text on stdout, folded at 79 columns after a
 * comma or a space. */
void kcmp_print_wrapped(const char *head, const char *list, const char *tail);
/* cmd: the workload's words. */
void kcmp_print(const struct kcmp *x, const struct kcmp_setup *s, const char *cmd);

#endif
