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
/* getopt_long's shapes: is argv[*i] option `name` ("--name=V", "--name V",
 * or, with a short letter, "-cV" / "-c V")?  If so *val is its value
 * (NULL when missing; *i advanced past a separate value) and true is
 * returned.  A flag (has_arg false) takes no value: "--name" alone, or
 * "--name=V" with V handed back for the caller to judge. */
bool wl_longopt(int argc, char **argv, int *i, const char *name, char letter, bool has_arg,
		const char **val);

/* create()'s result: a heap copy of the parsed struct; its destroy()
 * when it owns nothing else; nr_tasks() of a one-task workload. */
void *wl_keep(const void *w, size_t size);
void wl_free(void *w);
int wl_one_task(void *w);

#endif
