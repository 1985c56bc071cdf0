/* oracle.h - OPT's oracle window: the next use of each reference, which
 * only a trace replay knows (the whole reference string ahead).
 *
 * next[i] is the position of the next reference to the page of reference
 * base + i (NEXT_USE_NEVER: none), for len references.  The full machine
 * holds the whole trace's (base 0, mm_set_oracle()); the cache-only replay
 * a window it slides (cachesim_set_next_use()).  Its one reader is the
 * policy that needs it (POLICY_NEEDS_ORACLE, opt.c); the core only keeps
 * it for the run.
 */
#ifndef PAGELAB_MM_ORACLE_H
#define PAGELAB_MM_ORACLE_H

#include <stdint.h>

struct mm_oracle {
	const uint64_t *next;  /* NULL: no oracle (not a trace replay) */
	uint64_t base, len;
};

#endif
