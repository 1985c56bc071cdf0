/* registry.c - every workload, in listing order. */
#include "workload.h"
#include "qsbench_record.h"
#include <string.h>

extern const struct workload_ops usemem_workload;
extern const struct workload_ops trace_workload;
extern const struct workload_ops fileio_workload;
extern const struct workload_ops qsbench_workload;
extern const struct workload_ops mtest01_workload;
extern const struct workload_ops memeater_workload;
extern const struct workload_ops workingset_workload;
extern const struct workload_ops dd_workload;
extern const struct workload_ops dbench_workload;
extern const struct workload_ops mmap001_workload;
extern const struct workload_ops bonnie_workload;
extern const struct workload_ops kbuild_workload;
extern const struct workload_ops innodb_workload;
extern const struct workload_ops fio_workload;
extern const struct workload_ops memtier_workload;
extern const struct workload_ops applaunch_workload;
extern const struct workload_ops memreclaim_workload;
extern const struct workload_ops senpai_workload;
extern const struct workload_ops oomd_workload;

const struct workload_ops *const workload_registry[] = {
	&usemem_workload,
	&trace_workload,
	&fileio_workload,
	&qsbench_workload,
	&mtest01_workload,
	&memeater_workload,
	&workingset_workload,
	&dd_workload,
	&dbench_workload,
	&mmap001_workload,
	&bonnie_workload,
	&kbuild_workload,
	&innodb_workload,
	&fio_workload,
	&memtier_workload,
	&applaunch_workload,
	&memreclaim_workload,
	&senpai_workload,
	&oomd_workload,
	NULL,
};

const struct workload_ops *workload_find(const char *name)
{
	for (int i = 0; workload_registry[i]; i++)
		if (!strcmp(workload_registry[i]->name, name))
			return workload_registry[i];
	return NULL;
}

void workloads_drop_caches(void)
{
	qs_recordings_drop_unused();
}
