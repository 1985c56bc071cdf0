/* policy.h - the reclaim policy interface.
 *
 * A policy decides which pages to age, rotate, deactivate or evict; the mm
 * core (src/mm) owns the mechanics: unmapping, swap slots, writeback, freeing.
 * Adding a policy = one file with a `const struct policy_ops` and one line in
 * registry.c.
 *
 * Kernel-style policies learn about references as the kernel does: by
 * mm_page_referenced() (test-and-clear the accessed bits through rmap) while
 * scanning, and through mark_accessed() on the syscall path.  Textbook
 * policies that need every reference (exact LRU, OPT) set POLICY_ACCESS_HOOK
 * and get access() called for every page touched: the "idealized MMU".
 *
 * struct policy_ops, struct scan_control and the POLICY_* flags are in
 * src/mm/policy_ops.h (the core calls through them and includes nothing
 * from this layer); this header adds the tunables, the registry and the
 * plugin lookup.
 */
#ifndef PAGELAB_POLICY_H
#define PAGELAB_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../mm/policy_ops.h"

/* A tunable whose default, min and max are whole numbers (every kernel
 * sysctl and constant) takes whole decimal numbers only; one with a
 * fractional default, min or max (a paper's fraction of memory) takes
 * any decimal in range.  A policy's check_tunables() refuses values the
 * range allows but the design does not (aa_era: 17 or 23). */
struct tunable {
	const char *name;        /* --set name */
	const char *kernel_name; /* where it comes from, e.g. /proc/sys/vm/swappiness */
	double def;
	double min, max;
	const char *help;
};

/* Parse VALUE for tunable t: false with a one-line reason in err. */
bool tunable_parse(const struct tunable *t, const char *value, double *v, char *err, size_t errlen);

/* The policy a user named: a built-in name, or a plugin when NAME is a
 * path (has a '/', "./lifo.so"; loaded once per process); NULL with a
 * one-line reason in err when there is no such policy.  Every command
 * and the library resolve policy names through this one function, so a
 * plugin goes wherever a policy name does (run, sweep, mrc, compare,
 * reproduce's experiment files, pagelab_set_policy). */
const struct policy_ops *policy_lookup(const char *name, char *err, size_t errlen);
/* A built-in policy by name (what tests and built-in defaults use; a
 * name from a user goes through policy_lookup()). */
const struct policy_ops *policy_find(const char *name);
/* NULL-terminated array of all policies, in listing order. */
extern const struct policy_ops *const policy_registry[];
/* Index of a tunable by name, or -1. */
int policy_tunable_index(const struct policy_ops *ops, const char *name);
int policy_nr_tunables(const struct policy_ops *ops);
/* Whether ops's tables index `frames` frames (cache: the cache-only
 * replay) with tunables tun (NULL: the defaults): its frames_ok(), true
 * without one; false with a one-line reason in err. */
bool policy_frames_ok(const struct policy_ops *ops, uint64_t frames, bool cache, const double *tun, char *err,
		      size_t errlen);

#endif
