/* test_sim_swap.c - tests/sim.c's trace machine is never short of swap:
 * its area, 16 MB (4096 slots) for a small trace, is twice the trace's
 * distinct pages for a larger one, so that swap is never half full
 * (vm_swap_full(): swap-ins would give their slots back) nor full (the
 * replay would be killed).  Hand-worked on fifo. */
#include "test.h"
#include "sim.h"
#include "../src/lib/util.h"

#include <stdio.h>
#include <stdlib.h>

void test_sim_swap_sized_to_trace(void);

/* 5000 pages written in order on 64 frames, then read in order: fifo
 * evicts every page but the last 64 as the writes go (4936 written to
 * swap), and the reads, which start with page 0, evict those 64 too
 * (dirty: 64 writes) before they come: 10000 faults, the 5000 reads all
 * from swap, each page written to swap once.  With 4096 slots the area
 * filled and the replay was killed at its 4161st write (pgfault 4160,
 * pswpout 4096), which no check saw. */
void test_sim_swap_sized_to_trace(void)
{
	enum { N = 5000 };
	char *refs = xmalloc(2 * N * 7 + 1), *w = refs;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < N; i++)
			w += sprintf(w, "%d%c ", i, pass ? 'r' : 'w');
	struct sim_result r;
	sim_trace_run("fifo", refs, 64, &r);
	free(refs);
	CHECK_EQ(r.pgfault, 2 * N);
	CHECK_EQ(r.pswpout, N);
	CHECK_EQ(r.pswpin, N);
	CHECK_EQ(r.pgmajfault, N);
	CHECK_EQ(r.check_failed, 0);
}
