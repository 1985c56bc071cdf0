/* shrinker.c - do_shrink_slab(), after 6.18 mm/shrinker.c: a shrinker
 * with freeable objects scans (freeable >> priority) * 4 / seeks of them
 * (DEFAULT_SEEKS) plus what earlier calls deferred (>> priority), at
 * most twice freeable, in batches of SHRINK_BATCH (batch 0 in the
 * shrinker: the default) while at least a batch, or all that is
 * freeable, is left; scan_objects() returning SHRINK_STOP ends it.  What
 * was not scanned is deferred to the next call, at most twice freeable. */
#include "shrinker.h"

void do_shrink_slab(uint64_t freeable, int priority, uint64_t *nr_deferred, shrink_scan_fn scan, void *arg)
{
	if (!freeable)
		return;
	uint64_t nr = *nr_deferred, scanned = 0;
	*nr_deferred = 0;
	uint64_t delta = (freeable >> priority) * 4 / DEFAULT_SEEKS;
	uint64_t total = (nr >> priority) + delta;
	if (total > 2 * freeable)
		total = 2 * freeable;
	while (total && (total >= SHRINK_BATCH || total >= freeable)) {
		uint64_t n = total < SHRINK_BATCH ? total : SHRINK_BATCH;
		if (!scan(arg, n))
			break;  /* SHRINK_STOP */
		total -= n;
		scanned += n;
	}
	uint64_t next = nr + delta > scanned ? nr + delta - scanned : 0;
	*nr_deferred = next < 2 * freeable ? next : 2 * freeable;
}
