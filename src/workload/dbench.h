/* dbench.h - the operation counts of dbench's generated client trace, for
 * tests and docs: SMB requests of one client, and its data volume. */
#ifndef PAGELAB_WORKLOAD_DBENCH_H
#define PAGELAB_WORKLOAD_DBENCH_H

#include <stdint.h>

struct dbench_counts {
	uint64_t write, writebraw, readbraw, read, open, close, getatr, unlink, mv, mkdir, rmdir;
	uint64_t files;
	uint64_t write_bytes, read_bytes;
	uint64_t max_file_bytes;    /* sum of each file's largest size */
};

const struct dbench_counts *dbench_counts(void *w);

#endif
