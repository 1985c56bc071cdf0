/* qsbench.h - what tests may look at inside a qsbench instance: the
 * recorded page sequence of the real quicksort and the verify result. */
#ifndef PAGELAB_WORKLOAD_QSBENCH_H
#define PAGELAB_WORKLOAD_QSBENCH_H

#include <stdbool.h>
#include <stdint.h>

#define QS_INTS_PER_PAGE 1024u  /* 4 KiB pages of 4-byte ints */

/* The fill pass of one process: a[0..n) from the seeded generator. */
void qsbench_fill(int32_t *a, uint64_t n, uint64_t seed);

/* One recorded visit: page, references, written? */
struct qs_visit {
	uint32_t page;
	uint32_t refs;
	bool write;
};
/* The i-th visit of the sort phase (i < qsbench_nr_visits). */
uint64_t qsbench_nr_visits(void *w);
struct qs_visit qsbench_visit(void *w, uint64_t i);
/* Pairs out of order found by the generator's own verify pass over the
 * array it sorted (0 when the sort really sorted). */
uint64_t qsbench_errors(void *w);
/* Elements per process. */
uint64_t qsbench_nr_elems(void *w);

#endif
