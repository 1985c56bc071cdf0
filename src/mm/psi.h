/* psi.h - pressure stall information (/proc/pressure/memory, io, cpu) as
 * 6.x kernel/sched/psi.c accounts it: per-CPU task counts and state
 * masks of a group, the time each CPU spends in each state (record_times),
 * folded every ~2 s into the cumulative totals and the avg10/avg60/avg300
 * running averages (collect_percpu_times, update_averages, calc_avgs).
 * A group is a struct: the machine has one (psi_system) and a cgroup tree
 * can have one per cgroup, linked by parent, as the kernel's are. */
#ifndef PAGELAB_MM_PSI_H
#define PAGELAB_MM_PSI_H

#include <stdbool.h>
#include <stdint.h>

/* Task counts (include/linux/psi_types.h). */
enum psi_task_count { NR_IOWAIT, NR_MEMSTALL, NR_RUNNING, NR_MEMSTALL_RUNNING, NR_PSI_TASK_COUNTS };
#define TSK_IOWAIT (1u << NR_IOWAIT)
#define TSK_MEMSTALL (1u << NR_MEMSTALL)
#define TSK_RUNNING (1u << NR_RUNNING)
#define TSK_MEMSTALL_RUNNING (1u << NR_MEMSTALL_RUNNING)
#define TSK_ONCPU (1u << NR_PSI_TASK_COUNTS) /* a flag, no count */

/* Resource states (CONFIG_IRQ_TIME_ACCOUNTING's PSI_IRQ_FULL left out). */
enum psi_states {
	PSI_IO_SOME, PSI_IO_FULL, PSI_MEM_SOME, PSI_MEM_FULL, PSI_CPU_SOME, PSI_CPU_FULL,
	PSI_NONIDLE, NR_PSI_STATES
};
#define PSI_ONCPU (1u << NR_PSI_STATES)
enum psi_res { PSI_IO, PSI_MEM, PSI_CPU };

/* The kernel's fixed point (include/linux/sched/loadavg.h) and the
 * averages' decay per 2 s period. */
#define PSI_FSHIFT 11
#define PSI_FIXED_1 (1ul << PSI_FSHIFT)
#define EXP_10s 1677
#define EXP_60s 1981
#define EXP_300s 2034

/* What the kernel keeps in task_struct: psi_flags, in_memstall, the CPU
 * whose counts hold it (task_cpu()). */
struct psi_task {
	unsigned flags;
	bool in_memstall;
	int cpu;
};

struct psi_group_cpu {
	unsigned tasks[NR_PSI_TASK_COUNTS];
	uint32_t state_mask;
	uint64_t state_start;
	uint32_t times[NR_PSI_STATES];      /* u32 like the kernel's: deltas wrap safely */
	uint32_t times_prev[NR_PSI_STATES]; /* the PSI_AVGS aggregator's */
	const struct psi_task *curr;        /* the task with TSK_ONCPU here (cpu_curr) */
	uint64_t clock;                     /* latest time used on this CPU (see psi.c) */
};

struct psi_group {
	struct psi_group *parent;
	int nr_cpus;
	struct psi_group_cpu *pcpu;
	uint64_t tick_ns;                   /* a jiffy */
	uint64_t period_ns;                 /* psi_period: PSI_FREQ = 2 * HZ + 1 jiffies */
	uint64_t total[NR_PSI_STATES - 1];  /* ns */
	uint64_t avg_total[NR_PSI_STATES - 1];
	unsigned long avg[NR_PSI_STATES - 1][3];
	uint64_t avg_last_update, avg_next_update;
	bool work_pending;                  /* psi_avgs_work is queued ... */
	uint64_t work_at;                   /* ... to run then */
};

/* group_init() at time now on a machine of nr_cpus CPUs and HZ hz;
 * parent NULL for the machine's own group. */
void psi_group_init(struct psi_group *g, struct psi_group *parent, int nr_cpus, unsigned hz, uint64_t now);
void psi_group_free(struct psi_group *g);

/* psi_task_change(): clear and set TSK_* bits of task t (on CPU t->cpu)
 * in its group g and every ancestor, at time now.  While t has TSK_ONCPU
 * its CPU keeps a pointer to it (cpu_curr): t must not move meanwhile. */
void psi_task_change(struct psi_group *g, struct psi_task *t, unsigned clear, unsigned set, uint64_t now);

/* psi_memstall_enter() / psi_memstall_leave() for a task (nesting:
 * entering while in a stall, or leaving while not, does nothing). */
void psi_memstall_enter(struct psi_group *g, struct psi_task *t, uint64_t now);
void psi_memstall_leave(struct psi_group *g, struct psi_task *t, uint64_t now);

/* Run the averaging worker as due up to time now (the kernel's delayed
 * work: armed by a task change, re-armed while anything is non-idle). */
void psi_advance(struct psi_group *g, uint64_t now);

/* psi_show() for one resource at time now: line 0 "some", line 1
 * "full"; averages in PSI_FIXED_1 percent, total in us. */
struct psi_line {
	unsigned long avg[3];
	uint64_t total_us;
};
void psi_show(struct psi_group *g, enum psi_res res, uint64_t now, struct psi_line out[2]);
/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=0" (no newline). */
int psi_format_line(char *buf, int len, const char *name, const struct psi_line *l);

/* The averages' fixed-point steps, for the tests. */
unsigned long psi_calc_load(unsigned long load, unsigned long exp, unsigned long active);
unsigned long psi_calc_load_n(unsigned long load, unsigned long exp, unsigned long active, unsigned n);

#endif
