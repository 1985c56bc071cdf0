/* sim.h - helpers to run small simulations from tests. */
#ifndef PAGELAB_TEST_SIM_H
#define PAGELAB_TEST_SIM_H

#include <stdint.h>
#include "../src/machine/machine.h"

/* Replay `n` page references (writes if write != 0) on the ideal machine
 * with `frames` frames under `policy`, with --check on; return pgfault. */
uint64_t sim_trace_faults(const char *policy, const uint64_t *pages, uint64_t n, uint64_t frames, int write);

#endif
