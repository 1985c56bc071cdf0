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
	      CAL_PTE, CAL_LRU_LOCK, CAL_PUTBACK, CAL_PMD, CAL_LOOK, CAL_TLB_SEND, CAL_TLB_RECV, NR_CAL };

/* Run every microbenchmark (a few seconds, no root) into f[NR_CAL]. */
void cal_measure(struct cal_fig *f);
/* The figures, with how each was measured, as a table (80 columns). */
void cal_report(const struct cal_fig *f, FILE *out);
/* The profile file: `machine = modern`, then each cost.* parameter with a
 * comment line saying where its value comes from. */
void cal_write_profile(const struct cal_fig *f, FILE *out);
/* The whole of --calibrate FILE: measure, report on stdout, write FILE.
 * The exit status (2: FILE cannot be written). */
int cal_run(const char *path);

#endif
