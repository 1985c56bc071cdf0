/* calibrate.h - `pagelab kernel --calibrate FILE`: what the operations
 * pagelab's model charges for cost on this host, measured by user-space
 * microbenchmarks of the same operations (calibrate.c), printed with how
 * each was measured and written as a machine profile file a run names
 * with --machine FILE (calibrate_profile.c, src/machine/profile_file.h). */
#ifndef PAGELAB_CALIBRATE_H
#define PAGELAB_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define CAL_ROUNDS 11

/* One measured figure: ns per operation, over CAL_ROUNDS rounds. */
struct cal_fig {
	const char *name;     /* the operation */
	const char *param;    /* the profile parameter it sets, or NULL */
	const char *unit;     /* what one operation is ("page", "hop") */
	const char *method;   /* how it was measured, one sentence */
	uint64_t per_round;   /* operations timed in one round */
	int rounds;           /* rounds taken (0: not measured; why says) */
	double median, min, max;  /* ns per operation */
	double value;         /* what the parameter gets, ns */
	bool no_spread;       /* only the median is known (tlbprobe.c's) */
	char why[160];
};

enum cal_id { CAL_ZERO, CAL_COPY, CAL_FAULT, CAL_FREE, CAL_CHASE, CAL_LOCK, CAL_RMAP, CAL_SCAN,
	      CAL_PTE, CAL_LRU_LOCK, CAL_PUTBACK, CAL_PMD, CAL_LOOK, CAL_TLB_SEND, CAL_TLB_RECV,
	      /* the kernel-only paths (calib_paths.c; root) */
	      CAL_DROP, CAL_PAGEOUT_FILE, CAL_ZAP, CAL_UNMAP, CAL_REFWALK, CAL_PAGEOUT_ANON, CAL_DIO_4K,
	      CAL_DIO_1M, CAL_AIO_4K, CAL_AIO_1M, CAL_IO_PAGE, CAL_IO_SUBMIT, CAL_ADD_SWAP, CAL_SWAPIN,
	      CAL_SWAPIN_FAULTS, CAL_READ_SWAP,
	      /* the buffered write path and a cached read (calib_write.c) */
	      CAL_WRITE_NEW, CAL_WB_FSYNC, CAL_WRITE_CLEAN, CAL_WRITE_DIRTY, CAL_READ_CACHED, CAL_COPY_CPU,
	      CAL_WRITE_NEW_BIG, CAL_WRITE_CLEAN_BIG, CAL_WRITE_DIRTY_BIG, CAL_READ_CACHED_BIG,
	      CAL_SYSCALL, CAL_WRITE_PAGE, CAL_MARK_DIRTY, CAL_WRITE_BEGIN, CAL_WRITEPAGES, CAL_WRITE_ITER,
	      CAL_WRITE_DIRTIED, CAL_WRITE_EXTEND, CAL_DROP_WRITTEN, CAL_RELEASE_FOLIO, CAL_IO_COMPLETE, NR_CAL };

/* A round of calib_paths.c: pages of its file (and anonymous range),
 * 4 KiB and 1 MiB O_DIRECT reads. */
#define CALP_PAGES 8192u
#define CALP_DIO_SMALL 1024u
#define CALP_DIO_BIG 32u
/* asynchronous submissions (io_submit(2) of a batch): 32 batches of 32
 * 4 KiB reads, 8 of 4 1 MiB reads a round */
#define CALP_AIO_BATCH 32u
#define CALP_AIO_SMALL 1024u
#define CALP_AIO_BIG 32u

/* What calib_paths.c's child times each round (ns a page or request). */
enum calp_id { CALP_DROP, CALP_PAGEOUT_FILE, CALP_ZAP, CALP_PAGEOUT_ANON, CALP_DIO_4K, CALP_DIO_1M,
	       CALP_AIO_4K, CALP_AIO_1M, CALP_SWAPIN, CALP_SWAPIN_FAULTS, CALP_WRITE_NEW, CALP_WB_FSYNC,
	       CALP_WRITE_CLEAN, CALP_WRITE_DIRTY, CALP_READ_CACHED, CALP_COPY_CPU, CALP_WRITE_NEW_BIG,
	       CALP_WRITE_CLEAN_BIG, CALP_WRITE_DIRTY_BIG, CALP_READ_CACHED_BIG, CALP_DROP_WRITTEN, NR_CALP };
/* Pages a call of the write path's big passes (calib_write.c): 256 KiB,
 * beyond which the kernel's CPU time a page no longer falls (fileio -b 16
 * 1.39 us a page, -b 256 1.14, -b 1 4.1 on this host). */
#define CALP_BIG_CALL 64u

/* Run every microbenchmark into f[NR_CAL]: the user-space ones (a few
 * seconds, no root), then, with PATHS, the kernel paths (root; a few
 * seconds inside a cgroup and swapfile of their own, after waiting for
 * pagelab kernel's lock). */
void cal_measure(struct cal_fig *f, bool paths);
/* f[NR_CAL] as described, nothing measured yet. */
void cal_init(struct cal_fig *f);
/* cost.rmap (per PTE an rmap walk meets) is unmap_pte's when that was
 * measured (calib_derive.c), else the composed rmap's: the other figure
 * loses its parameter. */
void cal_pick_rmap(struct cal_fig *f);
/* The rounds' ns per operation (n of them, sorted in place) into f's
 * median, min, max and value. */
void cal_settle(struct cal_fig *f, double *ns, int n);
/* The kernel paths' rounds (calib_paths.c): how many were taken (0:
 * none, why says). */
int cal_paths_measure(double ns[NR_CALP][CAL_ROUNDS], char *why, size_t len);
/* Their figures, and the ones derived from them, into f (calib_derive.c):
 * f[CAL_DROP..CAL_IO_COMPLETE] from ROUNDS rounds of ns, or with 0
 * rounds each unmeasured with WHY. */
void cal_paths_figs(struct cal_fig *f, double ns[NR_CALP][CAL_ROUNDS], int rounds, const char *why);
/* calib_write.c: one round of the write path's figures (a new file of
 * CALP_PAGES pages in DIR, BUF a page at least) into ns[..][r], false if
 * a call failed; and their figures and derived costs into f, given each
 * round's io_submit figure (SUBMIT). */
bool calw_round(const char *dir, char *buf, double ns[NR_CALP][CAL_ROUNDS], int r);
void calw_figs(struct cal_fig *f, double ns[NR_CALP][CAL_ROUNDS], int rounds, const double *submit);
/* The figures, with how each was measured, as a table (80 columns). */
void cal_report(const struct cal_fig *f, FILE *out);
/* The profile file: `machine = modern`, then each cost.* parameter with a
 * comment line saying where its value comes from. */
void cal_write_profile(const struct cal_fig *f, FILE *out);
/* The whole of --calibrate FILE: measure, report on stdout, write FILE.
 * The exit status (2: FILE cannot be written). */
int cal_run(const char *path, bool paths);

#endif
