/* sim.h - helpers to run small simulations from tests. */
#ifndef PAGELAB_TEST_SIM_H
#define PAGELAB_TEST_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "../src/machine/machine.h"

/* Replay `n` page references (writes if write != 0) on the ideal machine
 * with `frames` frames under `policy`, with --check on; return pgfault.
 * Its swap area is 16 MB, or twice the trace's distinct pages when that
 * is more: never half full (vm_swap_full()). */
uint64_t sim_trace_faults(const char *policy, const uint64_t *pages, uint64_t n, uint64_t frames, int write);

/* Misses of the cache-only replay (src/cachesim) of `n` ids under
 * `policy` with its defaults in `frames` frames, in one batch. */
uint64_t sim_cache_misses(const char *policy, uint64_t frames, const uint32_t *ids, size_t n);

/* The counters of one replay. */
struct sim_result {
	uint64_t pgfault, pgmajfault, pswpin, pswpout;
	uint64_t pgscan, pgsteal, allocstall;
	int check_failed;
};

/* Replay a reference string given as text, e.g. "1w 2w 3r 1r": each word a
 * page number followed by r or w.  Same machine as sim_trace_faults. */
void sim_trace_run(const char *policy, const char *refs, uint64_t frames, struct sim_result *r);
/* sim_trace_run(), and inspect(m, arg) sees the machine at the end (the
 * policy's state: m->mm.pol.priv) before it is freed. */
void sim_trace_inspect(const char *policy, const char *refs, uint64_t frames, struct sim_result *r,
		       void (*inspect)(struct machine *m, void *arg), void *arg);

/* Create a workload from a command line ("dd if=/f bs=16K"), split on
 * spaces; on bad input count a test failure and return NULL. */
void *wl_make(const char *line, int *ntasks);

/* Run one workload (argv) to its end on profile `machine` with `ram` bytes
 * of RAM and twice that of swap, seed 1, under `policy` with its tunables' defaults
 * but the NULL-terminated name, value pairs of `sets`; `vm_sets` are
 * machine parameters (profile_set).  The machine is static: machine_free()
 * it before the next call. */
struct machine *sim_run_workload(const char *machine, uint64_t ram, const char *policy,
				 const char *const *sets, const char *const *vm_sets, int argc, char **argv);
/* The same with seed `seed`, the policy's defaults, and --check on. */
struct machine *sim_run_checked(const char *machine, uint64_t ram, const char *policy, const char *const *vm_sets,
				uint64_t seed, int argc, char **argv);

/* A hand-built untimed mm of 64 frames and 64 swap slots under fifo,
 * costs `cost` (which must outlive it; zeroed by the caller or set), ctx
 * its task's context: an anonymous VMA (*vma) of n pages (at most 64)
 * written, then each page taken off fifo's list and reclaimed: swapped
 * out to slot 0..n-1 (pswpout n) and freed.  Returns the address space;
 * mm->cur is left NULL (what follows runs as a fault does, outside
 * reclaim).  mm_destroy() it. */
struct aspace *sim_swapped_out(struct mm *mm, const struct mm_costs *cost, struct mm_ctx *ctx, uint64_t n,
			       uint32_t *vma);

#endif
