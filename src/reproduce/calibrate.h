/* calibrate.h - `pagelab reproduce --calibrate`: fit the machine
 * parameters a thread does not state (the profile's `unknown` list: CPU
 * costs, disk speed, the kernel's own memory) to the figures the thread
 * published for its *baseline* design, then run every design with the
 * fitted values and give both the raw and the calibrated verdicts.
 *
 * The baseline is the experiment's first design of kind "thread" (the
 * kernel the others are compared with).  No other design's figures enter
 * the fit, so the calibrated verdicts are predictions, not fits. */
#ifndef PAGELAB_CALIBRATE_H
#define PAGELAB_CALIBRATE_H

#include <stdio.h>

#include "experiment.h"

#define CALIB_MAX_PARAMS 8

/* One published figure of the baseline the fit aims at. */
struct calib_figure {
	int metric;        /* index in e->metrics */
	double published;  /* as the thread gives it */
	double target;     /* published; x the quick scale for amounts (below) */
	double floor;      /* added to both sides: a comparison's floor, scaled */
	double raw, fitted;/* pagelab's figure, profile / fitted values (NAN: none) */
};

struct calib_result {
	const struct experiment *e;
	const char *baseline;             /* design label */
	int nr_params;
	struct param_factor fit[CALIB_MAX_PARAMS];  /* fitted factors */
	double profile_value[CALIB_MAX_PARAMS];     /* the profile's value, full size */
	char names[CALIB_MAX_PARAMS][32];
	int nr_figs;
	struct calib_figure *figs;
	int evals;                        /* runs of the baseline by the search */
	double err_raw, err_fit;          /* mean squared log error of the figures */
	struct exp_result *raw, *cal;     /* every design, profile / fitted values */
	const char *why;                  /* why nothing was fitted, or NULL */
};

/* Calibrate the experiments of the NULL-terminated list (those with id
 * o->only if set); NULL-terminated results in list order. */
struct calib_result **calibrate_run(const struct experiment *const *list, const struct reproduce_opts *o);
void calibrate_print_text(struct calib_result **cr, FILE *out);
void calibrate_print_json(struct calib_result **cr, FILE *out);
void calibrate_free(struct calib_result **cr);

#endif
