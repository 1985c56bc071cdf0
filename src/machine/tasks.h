/* tasks.h - what machine.c (the CPUs, the run queue, the event loop),
 * tasks.c (a task's ops, its exit, the OOM killer) and kthreads.c (kswapd,
 * the aging and writeback threads) share. */
#ifndef PAGELAB_MACHINE_TASKS_H
#define PAGELAB_MACHINE_TASKS_H

#include "machine.h"

enum step_result { STEP_CONTINUE, STEP_BLOCKED, STEP_EXITED };

/* Run user task t for at most budget ns of its work (tasks.c). */
enum step_result task_run_user(struct machine *m, struct task *t, struct mm_ctx *ctx, uint64_t budget);
/* 2.6.36+ oom_badness(): kill the task with the most resident pages plus
 * swap entries; false when nothing can be killed (tasks.c). */
bool task_oom_kill(struct machine *m, uint64_t now);
/* SIGKILL to victim at now: it exits (its exit costs its own). */
void task_sigkill(struct machine *m, struct task *victim, uint64_t now);
/* An OP_CG_* op of t (cgops.c), its result handed to the workload's
 * cgroup_done; false when t blocked (memory.reclaim waiting for
 * writeback: the op goes on when t runs again). */
bool machine_cgroup_op(struct machine *m, struct task *t, struct mm_ctx *ctx);

/* Run kernel thread t (t->kkind != KT_NONE) for at most budget ns
 * (kthreads.c). */
enum step_result kthread_run(struct machine *m, struct task *t, struct mm_ctx *ctx, uint64_t budget);
/* Wake kswapd / the flusher if the mm wants them and they sleep
 * (kthreads.c). */
void kthreads_wake(struct machine *m, uint64_t now);

/* machine.c's, for tasks.c and kthreads.c: an event in the run's log, a task blocking
 * (until timeout_at, 0 = none), the tasks waiting for memory woken. */
void machine_log(struct machine *m, uint64_t t, enum log_kind kind, int wl, const char *text);
void machine_block(struct machine *m, struct task *t, enum wait_kind w, uint64_t timeout_at);
void machine_wake_memory_waiters(struct machine *m, uint64_t now);

#endif
