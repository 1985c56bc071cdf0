/* schedinfo.c - what the host's scheduler did with one task of a native
 * run, read by the task itself as it ends (executor.c): its run-queue
 * wait, the CPU it ended on and how often it changed CPUs.
 *
 * Why: tasks that share a run queue progress together, a task alone on
 * a CPU runs ahead and exits first, freeing its memory before the
 * others have filled theirs; usemem -n 3 on this 2-CPU host does one or
 * the other from run to run (docs/fidelity.md, "Three children on two
 * CPUs").  The kernel's figures (6.18):
 *  - /proc/self/schedstat's second field, run_delay: time runnable but
 *    waiting on a run queue (proc_pid_schedstat(), fs/proc/base.c);
 *  - /proc/self/sched's se.nr_migrations (proc_sched_show_task(),
 *    kernel/sched/debug.c), counted by set_task_cpu();
 *  - sched_getcpu(): the CPU running the caller now.
 * A figure the host does not give reads as 0 (wait, migrations) or -1
 * (cpu). */
#define _GNU_SOURCE
#include "native.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

static uint64_t runqueue_wait_ns(void)
{
	FILE *f = fopen("/proc/self/schedstat", "re");
	unsigned long long run = 0, wait = 0;
	if (f) {
		if (fscanf(f, "%llu %llu", &run, &wait) != 2)
			wait = 0;
		fclose(f);
	}
	return wait;
}

uint64_t nsched_migrations(FILE *f)
{
	char line[256];
	unsigned long long n = 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.nr_migrations", 16) && (line[16] == ' ' || line[16] == ':')) {
			const char *colon = strchr(line, ':');
			if (!colon || sscanf(colon + 1, "%llu", &n) != 1)
				n = 0;
			break;
		}
	return n;
}

static uint64_t migrations(void)
{
	FILE *f = fopen("/proc/self/sched", "re");
	if (!f)
		return 0;
	uint64_t n = nsched_migrations(f);
	fclose(f);
	return n;
}

void nsched_read(struct ntask_result *r)
{
	r->wait_ns = runqueue_wait_ns();
	r->migrations = migrations();
	r->cpu = sched_getcpu();
}
