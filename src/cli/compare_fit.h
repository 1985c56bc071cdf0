/* compare_fit.h - pagelab compare --fit-cpu LIMIT: the simulated CPU
 * fitted to this host's on the workload run without pressure. */
#ifndef PAGELAB_COMPARE_FIT_H
#define PAGELAB_COMPARE_FIT_H

#include "compare_run.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fit_cpu_req {
	const char *limit;            /* the cgroup limit of the fit's runs */
	const char *swap, *seed, *timeout, *machine, *disk, *policy;
	uint64_t repeat, cpus, ram;   /* kernel runs; the simulated machine */
	const struct argv_buf *sets;  /* compare's --set options so far */
	char **kwl;                   /* the workload's words, kernel side */
	const char *const *swl;       /* ... simulator side (--make-inputs first if needed) */
	int nwl, nswl;
	const char *kernel_cache, *sim_cache;  /* or NULL */
	bool progress;
};

/* Run the workload in a cgroup of q->limit on both sides (the kernel
 * q->repeat times, cached as KERNEL_CACHE/fit.N; the simulator once under
 * q->policy with the profile's costs) and append to `fitted` the --set
 * values that scale cost.ref by the ratio of the two user times and every
 * other cost but cost.syscall by the ratio of the system times (a cost
 * q->sets names is left as given).  `note` gets what was fitted, for the
 * table's header.  A run too short to fit (under 1 s of user time on the
 * kernel, under 0.1 s of user or 0.05 s of system time in pagelab, under
 * 0.05 s of system time on the kernel) is a one-line error, exit 2. */
void compare_fit_cpu(const struct fit_cpu_req *q, struct argv_buf *fitted, char *note, size_t len);

#endif
