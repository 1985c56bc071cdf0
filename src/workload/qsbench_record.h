/* qsbench_record.h - the recorded reference stream of qsbench's quicksort
 * (qsbench_record.c), shared by every instance of the process that sorts
 * the same data. */
#ifndef PAGELAB_WORKLOAD_QSBENCH_RECORD_H
#define PAGELAB_WORKLOAD_QSBENCH_RECORD_H

#include "qsbench.h"

#include <stdint.h>

/* One visit of a partition pointer to a page (qsbench.c's header). */
struct qs_rec {
	uint32_t page;      /* bit 31: written */
	uint32_t refs;
};
#define QS_WRITE (1u << 31)

struct qs_recording {
	const struct qs_rec *rec;
	uint64_t nrec;
	uint64_t errors;    /* pairs out of order after the sort (0) */
};

/* The recording of sorting qsbench_fill(nelems, seed)'s data: made now,
 * or the one another instance made (waiting while it is being made).
 * Thread-safe; give it back with qs_recording_put. */
const struct qs_recording *qs_recording_get(uint64_t nelems, uint64_t seed);
void qs_recording_put(const struct qs_recording *r);
/* Up to 256 MB of recordings nobody uses are kept for the next instance
 * (reproduce runs one design over every seed, then the next); this frees
 * them all now.  Recordings in use are left alone. */
void qs_recordings_drop_unused(void);
/* The bytes of recordings kept that nobody uses. */
uint64_t qs_recordings_unused_bytes(void);

#endif
