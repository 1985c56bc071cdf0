/* wakeups.h - what the mm core asks of the machine (struct mm's `wake`).
 * The kernel's wakeup_kswapd(), out_of_memory() and wb_wakeup() hand work
 * to other threads; in pagelab the machine's scheduler owns those
 * threads, so the mm core (and a design, through mm_wake_kswapd() and
 * mm_want_oom()) raises a flag and the machine clears it when it acts. */
#ifndef PAGELAB_WAKEUPS_H
#define PAGELAB_WAKEUPS_H

#include <stdbool.h>

struct mm_wakeups {
	bool kswapd;   /* wake kswapd (wakeup_kswapd) */
	bool oom;      /* a design asks kswapd to run the OOM killer */
	bool flusher;  /* above the background threshold: wake the flusher */
};

#endif
