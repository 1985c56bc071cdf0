/* delay.h - start a workload late: every task of the wrapped workload first
 * sleeps delay_ns, then runs the workload's own op stream.  The threads'
 * benchmarks often start on a machine already filled ("4G anon mem + 512m
 * swap, then started the bench"), which needs one workload to start after
 * another has done its filling. */
#ifndef PAGELAB_DELAY_H
#define PAGELAB_DELAY_H

#include <stdint.h>
#include "../workload/workload.h"

/* Wrap (inner, w): returns the wrapper's state and fills *ops (which must
 * outlive the machine) with the wrapper's functions under the inner name.
 * The wrapper owns w from now on. */
void *delay_wrap(const struct workload_ops *inner, void *w, uint64_t delay_ns,
		 struct workload_ops *ops);

#endif
