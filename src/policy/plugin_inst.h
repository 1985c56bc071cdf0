/* plugin_inst.h - what plugin.c (the adapter), plugin_abi.c (the
 * functions a plugin calls) and plugin_guard.c (the watchdog) share: one
 * running instance of a plugin and the rules it is held to.
 *
 * A plugin is not trusted: every page number and list id it passes to
 * a pagelab_* function, and every counter it hands back from shrink, is
 * checked against what the instance was given (docs/policies.md,
 * "What pagelab checks").  A broken rule ends the run with one line,
 * "pagelab: plugin PATH: CALL: what", and exit status 1 (in the library:
 * an error from pagelab_run()). */
#ifndef PAGELAB_PLUGIN_INST_H
#define PAGELAB_PLUGIN_INST_H

#include <stdatomic.h>
#include <stdint.h>
#include "../../include/pagelab_policy.h"
#include "../mm/mm.h"

/* Exit status of a run stopped because its plugin broke a rule or did
 * not return in time. */
#define EXIT_PLUGIN 1

struct plugin_inst {
	const struct pagelab_policy *pub;
	const char *path;
	struct mm *mm;
	void *state;
	/* owned[pfn]: the page was given to add() and has not left through
	 * remove() or a successful pagelab_evict(). */
	uint8_t *owned;
	pfn_t nr;
	/* Owned pages off the plugin's lists: 0 whenever a callback returns
	 * (a page mid-shrink may be off, but must be evicted or put back). */
	uint64_t loose;
	uint64_t nr_owned;
	uint32_t lists;           /* bit i: list id i is the plugin's */
	char *list_names[MAX_LRU_LISTS];
	/* The callback running ("add", "shrink"...), NULL between calls. */
	_Atomic(const char *) call;
	/* Inside shrink: the pass given to the plugin and the core's. */
	struct pagelab_scan *scan;
	struct scan_control *core_sc;
	/* For the watchdog (plugin_guard.c): bumped at every callback's
	 * entry and exit, odd while one runs. */
	atomic_uint_fast64_t seq;
	struct plugin_inst *next_live;
};

/* Print "pagelab: plugin PATH: CALL: <fmt>" and stop the run (exit 1). */
_Noreturn void plugin_die(const struct plugin_inst *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The instance whose callback runs on this thread (NULL outside one). */
extern _Thread_local struct plugin_inst *plugin_current;

/* The path of the plugin whose pagelab_policy_entry() runs on this
 * thread (NULL outside one). */
extern _Thread_local const char *plugin_loading;

/* Watch an instance's calls (from its init to its destroy). */
void plugin_guard_watch(struct plugin_inst *in);
void plugin_guard_unwatch(struct plugin_inst *in);

#endif
