/* sweep.h - running a sweep's cells: skip those a results file already
 * holds (resume), run this shard's share of the rest on the pool, append
 * each record to the file as soon as every earlier one is written (so the
 * file's order is the cells' order for any --jobs, and an interrupted
 * sweep loses only the cells in flight), and hand back the records of the
 * shard's cells in cell order. */
#ifndef PAGELAB_SWEEP_H
#define PAGELAB_SWEEP_H

#include <stdio.h>

#include "matrix.h"
#include "record.h"

struct sweep_opts {
	int jobs;
	const char *out;         /* results file (JSONL), or NULL */
	FILE *stream;            /* also write each new record here (stdout), or NULL */
	int shard, nshards;      /* run cells with index % nshards == shard - 1 */
	bool progress;
	const char *const *axis_names;  /* recorded as each record's params */
	int nr_axes;
	/* --warmup, --window (cellmarks.h): every cell's marks from the
	 * cache-only replay, added to its record; marks false: none */
	bool marks;
	uint64_t warmup, window;
	int *resumed;            /* if not NULL: set to how many cells the
				  * results file already held */
};

/* Cells run on their executor (kexec.h: the host kernel's one at a time,
 * checked before any runs).  Returns 0, or 1 with err set when the
 * results file cannot be written, 2 when it cannot be read as results or
 * the host kernel refuses a cell (no root; nothing more runs). */
int sweep_run(const struct matrix_cell *cells, int n, const struct sweep_opts *o, struct records *rs,
	      char *err, size_t errlen);

/* CSV of records: a header (cell, the axis names, seed, finished, the
 * figures of record_csv_metrics, then with --cgroup cgroup.PATH.FILE of
 * record_cgroup_columns(), whole numbers) and one row per record. */
void sweep_csv(FILE *out, const struct records *rs, const char *const *axis_names, int nr_axes);

#endif
