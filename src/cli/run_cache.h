/* run_cache.h - the cache-only path of `pagelab run` (run_cache.c). */
#ifndef PAGELAB_CLI_RUN_CACHE_H
#define PAGELAB_CLI_RUN_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "../policy/policy.h"

struct run_cache_args {
	const char *machine;               /* the profile's name, for the header */
	const struct policy_ops *policy;
	const double *tun;
	uint64_t frames, seed;
	bool progress;
	bool json;                         /* --json: the report as JSON */
	const char *warmup;                /* --warmup as given, or NULL */
	uint64_t window;                   /* --window, or 0 */
	int argc;                          /* the trace workload's arguments, */
	char **argv;                       /* argv[0] = "trace" */
};

/* Replay the trace and print the report; exits 2 on bad input. */
int run_cache(const struct run_cache_args *a);

#endif
