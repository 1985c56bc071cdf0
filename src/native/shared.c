/* shared.c - the run's shared results area (struct nshared, native.h):
 * one fresh MAP_SHARED|MAP_ANONYMOUS mapping a run, written by the runner
 * and the tasks inside the cgroup, read by pagelab kernel outside it.
 *
 * A fresh mapping reads as zeros (mm/shmem.c of Linux 6.18: a page is
 * cleared in shmem_get_folio_gfp() before it is first mapped), so nothing
 * needs zeroing.  It is written here all the same, to fault its pages in
 * from pagelab kernel: shmem_fault() -> shmem_get_folio_gfp() ->
 * shmem_alloc_and_add_folio() charges a new page with
 * mem_cgroup_charge(folio, fault_mm, gfp), to the cgroup of the process
 * that first touches it, and a page first touched by a task would be
 * charged to (and reclaimed in) the cgroup under test.  But the agents'
 * records (cgops: NCGOPS_MAX of 1120 bytes, 4.4 MiB of the 6.4 MiB) are
 * written only by a workload with a cgroup_done (the agents: memreclaim,
 * senpai, oomd; workload.h), so without one they are left untouched and
 * never become pages at all: a run without an agent faults in the header,
 * the marks (2 MiB) and the task results, not 6.4 MiB.  No huge pages
 * (shmem_enabled=within_size or always would give one): a 2 MiB page
 * faulted in for the marks would take in the records too. */
#define _GNU_SOURCE
#include "native.h"
#include "../lib/util.h"

#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

struct nshared *nshared_map(int ntasks, bool agents, size_t *size)
{
	size_t cg = offsetof(struct nshared, cgops), task = offsetof(struct nshared, task);
	*size = task + (size_t)ntasks * sizeof(struct ntask_result);
	char *sh = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die_usage("kernel: out of memory for the shared results");
	madvise(sh, *size, MADV_NOHUGEPAGE);
	if (agents) {
		memset(sh, 0, *size);
	} else {
		memset(sh, 0, cg);
		memset(sh + task, 0, *size - task);
	}
	return (struct nshared *)sh;
}
