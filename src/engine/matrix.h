/* matrix.h - a sweep's run matrix: designs (policies, with policy tunables
 * from --set) x machines (profile, RAM, swap, CPUs, disk, machine
 * parameters from --set) x seeds, over one workload command line.
 *
 * Each axis is a list of values; an item of a list may be a range with a
 * step, "A:B:+S" (A, A+S, ... up to B) or a factor, "A:B:xF" (A, A*F, ...
 * up to B).  Cells are numbered in a fixed order: policy outermost, then
 * the axes in the order given, the seed innermost; cell i is the same cell
 * in every run of the same sweep, which is what resuming and sharding
 * rely on. */
#ifndef PAGELAB_MATRIX_H
#define PAGELAB_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cell.h"

/* How an axis' values are read. */
enum axis_values { AXV_WORD, AXV_SIZE, AXV_NUMBER, AXV_ANY /* --set: number, size or word */ };

struct axis {
	char *name;        /* "policy", "machine", "ram", "swap", "cpus", "disk", or a --set name */
	bool is_set;       /* a --set NAME: machine parameter or policy tunable */
	char **values;
	int n;
};

/* Expand "256M:1G:x2,3G" into values (sizes printed as a user would type
 * them: 256M 512M 1G 3G; sizes may also be shares of a trace's distinct
 * pages, "10%", "1%:64%:x2").  False with a message on bad input. */
bool axis_expand(const char *list, enum axis_values kind, struct axis *ax, char *err, size_t errlen);
void axis_free(struct axis *ax);

/* "1G", "512M", "4K" or bytes. */
void size_name(char *buf, size_t len, uint64_t bytes);

struct matrix {
	struct axis *axes;      /* axes[0] is "policy", axes[1] "machine" */
	int nr_axes;
	uint64_t *seeds;
	int nr_seeds;
	char *wl[EXP_MAX_WL];   /* workload command lines */
	int nr_wl;
	uint64_t max_time_ns;   /* 0: pagelab run's default */
	bool check;
	bool make_inputs;       /* run --make-inputs: the files a workload only reads */
	/* The trace's distinct pages, which a --ram of N% is a share of
	 * (lib/share.h; the caller counts them); 0: no such --ram. */
	uint64_t trace_pages;
	/* --cgroup SPEC (repeatable): the same tree in every cell, not an
	 * axis (a spec's commas are its keys'); the caller's strings. */
	const char *cgroups[CG_MAX];
	int nr_cgroups;
};

struct matrix_cell {
	int index;
	char *cmd;              /* the equivalent pagelab run command line */
	char *design, *config;
	uint64_t seed;
	const char **param_values; /* one per axis */
	struct cell c;
	double *tun;
};

/* Every cell of the matrix, checked (machines that exist, parameters and
 * tunables in range): false with a message on bad input, which makes
 * sweep exit 2 before anything runs. */
/* Append an axis named name (a --set NAME when is_set) with the values of
 * list; false with a message on bad input or a name given twice. */
bool matrix_add_axis(struct matrix *mx, const char *name, bool is_set, const char *list, enum axis_values kind,
		     char *err, size_t errlen);

bool matrix_cells(const struct matrix *mx, struct matrix_cell **cells, int *n, char *err, size_t errlen);
void matrix_cells_free(struct matrix_cell *cells, int n);
void matrix_free(struct matrix *mx);

#endif
