/* thrash.c - the swap token (mm/thrash.c, 2.6.20-2.6.26; Rik van Riel
 * 2004 after Song Jiang's "token-ordered LRU", improved by Ashwin
 * Chaugule in 2006; removed in 3.5).
 *
 * Why: when several processes thrash, each one's pages are evicted while it
 * waits for its own swap-ins, so nobody makes progress.  The token picks one
 * process whose pages reclaim treats as referenced while it is in the middle
 * of a page fault, so that it can build its working set and finish.
 *
 * A process contends for the token on every swap-in that misses the swap
 * cache (do_swap_page -> grab_swap_token).  global_faults counts those
 * misses; a process whose interval since its last miss is shorter than its
 * previous interval (it is faulting faster) gains priority, otherwise it
 * loses one; it takes the token when its priority exceeds the holder's, and
 * the new holder (or a holder faulting again) gets +2.  The token is dropped
 * when the holder exits, and reclaim drops it at priority 0 ("the swap
 * token gets in the way of swapout").
 * Simplified: a process is "in the middle of a page fault"
 * (rwsem_is_locked(&mm->mmap_sem)) while its task is blocked inside a fault
 * (waiting for the page's I/O or for reclaim); the token is contended after
 * the swap-in's page is allocated rather than just before. */
#include "internal.h"

void grab_swap_token(struct mm *mm, struct aspace *as)
{
	mm->global_faults++;
	uint32_t interval = mm->global_faults - as->faultstamp;
	if (!mm->swap_token_mm) {
		/* First come, first served. */
		as->token_priority += 2;
		mm->swap_token_mm = as->id + 1;
	} else if (mm->swap_token_mm != as->id + 1) {
		if (interval < as->last_interval)
			as->token_priority++;
		else if (as->token_priority > 0)
			as->token_priority--;
		/* Does it deserve the token? */
		struct aspace *holder = mm->as[mm->swap_token_mm - 1];
		if (as->token_priority > holder->token_priority) {
			as->token_priority += 2;
			mm->swap_token_mm = as->id + 1;
		}
	} else {
		/* The holder came in again. */
		as->token_priority += 2;
	}
	as->faultstamp = mm->global_faults;
	as->last_interval = interval;
}

void put_swap_token(struct mm *mm, const struct aspace *as)
{
	if (mm->swap_token_mm == as->id + 1)
		mm->swap_token_mm = 0;
}

bool swap_token_referenced(const struct mm *mm, const struct aspace *as)
{
	/* mm != current->mm && has_swap_token(mm) && rwsem_is_locked(&mm->mmap_sem) */
	return mm->swap_token_mm == as->id + 1 && as->in_fault && (!mm->cur || mm->cur->task != as->task);
}
