/* fileops.c - file operations of tasks: the bridge from the op stream to
 * the page cache.  The page cache arrives with the policies issue; until
 * then a workload that uses files is refused here. */
#include "machine.h"
#include "../lib/util.h"

bool machine_file_op(struct machine *m, struct task *t, struct mm_ctx *ctx, uint64_t budget,
		     enum fault_status *st)
{
	(void)m; (void)ctx; (void)budget;
	*st = FAULT_DONE;
	die_usage("workload %s uses files, which this build does not simulate yet", t->comm);
}
