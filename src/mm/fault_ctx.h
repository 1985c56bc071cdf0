/* fault_ctx.h - the fault in progress, as the mm core tells a policy.
 *
 * From handle_fault() (aspace.c, and the cache-only fault of cacheonly.h)
 * until it returns, struct mm's `fault` names the page coming in; owner 0
 * means no fault is being served.  Its reader is a policy with a history
 * of evicted pages (ARC's REPLACE, research.c's ghost lists): while shrink()
 * picks a victim for this fault it must know whether the page coming in
 * is one it remembers.  The core writes it, policies only read it.
 */
#ifndef PAGELAB_MM_FAULT_CTX_H
#define PAGELAB_MM_FAULT_CTX_H

#include <stdbool.h>
#include <stdint.h>

struct mm_fault {
	uint32_t owner;   /* page->owner the new page will have; 0: no fault */
	bool file;        /* ... whether it is a page-cache page */
	uint64_t index;   /* ... and its page->index */
};

#endif
