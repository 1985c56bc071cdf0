/* args.h - small command-line helpers shared by the workloads: getopt-style
 * "-x VALUE" / "-xVALUE" arguments and error messages in the err buffer
 * create() hands back. */
#ifndef PAGELAB_WORKLOAD_ARGS_H
#define PAGELAB_WORKLOAD_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The value of option argv[*i] ("-m 10" or "-m10"); advances *i past a
 * separate value.  NULL when the value is missing. */
const char *wl_optval(int argc, char **argv, int *i);
/* Parse an unsigned integer in [lo, hi]. */
bool wl_u64_in(const char *s, uint64_t lo, uint64_t hi, uint64_t *v);

#endif
