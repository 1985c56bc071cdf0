/* inputs.h - the files a run's workloads open and none creates (dd
 * if=FILE, fileio's data file), made on the simulated disk before the run
 * as `pagelab run --make-inputs` makes them and as the host kernel's
 * executor makes them on the host (src/native/prepare.c walks the op
 * streams for both). */
#ifndef PAGELAB_INPUTS_H
#define PAGELAB_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "cell.h"

/* Make the inputs of cell c's workloads (ops[i], w[i]: created and
 * attached to m, not yet run) on m's disk, uncached; false with one line
 * in err when one cannot be made. */
bool cell_make_inputs(struct machine *m, const struct cell *c, const struct workload_ops *const *ops,
		      void *const *w, char *err, size_t errlen);

#endif
