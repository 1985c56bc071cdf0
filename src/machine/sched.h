/* sched.h - the order in which the machine's CPUs run runnable tasks, when
 * the profile asks for 6.6+'s EEVDF (--set sched_eevdf=1; sched.c says
 * what it follows).  Without it the run queue is round robin (machine.c).
 * The whole interface: machine.c calls these at its scheduling points. */
#ifndef PAGELAB_SCHED_H
#define PAGELAB_SCHED_H

#include <stdbool.h>
#include <stdint.h>

struct machine;
struct task;

bool sched_is_eevdf(const struct machine *m);

/* pick_eevdf(): take the task to run next off CPU c's run queue (the
 * eligible one with the earliest virtual deadline); -1 if none is
 * runnable.  With one queue for all CPUs, c does not matter. */
int sched_eevdf_pick(struct machine *m, int c);
/* A task starts a new slice on a CPU: its deadline is a slice away. */
void sched_eevdf_new_slice(struct machine *m, struct task *t);
/* update_curr(): a task ran `ns` of CPU. */
void sched_eevdf_ran(struct task *t, uint64_t ns);
/* dequeue for a sleep: update_entity_lag(), the lag kept while it sleeps. */
void sched_eevdf_sleep(struct machine *m, struct task *t);
/* enqueue on wakeup: place_entity() with the kept lag, then
 * check_preempt_wakeup_fair(): a CPU whose task is no longer eligible is
 * told to switch at the end of its current chunk (cpu->resched). */
void sched_eevdf_wake(struct machine *m, struct task *t);
/* A queued task moves to CPU `to`'s queue, keeping its lag. */
void sched_eevdf_migrate(struct machine *m, struct task *t, int to);

/* ---- a run queue per CPU (--set sched_percpu=1; sched_balance.c) ---- */
bool sched_is_percpu(const struct machine *m);
/* Is task t on CPU c's queue?  Always, with one queue. */
bool sched_on_queue(const struct machine *m, const struct task *t, int c);
/* Runnable tasks waiting in CPU c's queue (with one queue: all). */
int sched_queued(const struct machine *m, int c);
/* Drop the entries of tasks no longer runnable from the queue. */
void sched_rq_drop_dead(struct machine *m);
/* Take the queue's entry i out, the others keeping their order; its task. */
int sched_rq_take(struct machine *m, int i);
/* A CPU leaves idle at `now` (rq->avg_idle's sample). */
void sched_cpu_busy(struct machine *m, int c, uint64_t now);
/* Wake idle CPU c at `now` for a task just queued on it (and take the
 * sample above). */
void sched_cpu_wake(struct machine *m, int c, uint64_t now);
/* Before the first event: each task's previous CPU and each CPU's
 * balancing phase, drawn from the run's seed. */
void sched_percpu_init(struct machine *m);
/* select_task_rq_fair() on a wake-up: the CPU whose queue t joins
 * (wake_affine() toward the CPU of m->cur_task, the waker, if any). */
int sched_select_cpu(struct machine *m, const struct task *t);
/* CPU c at the start of a chunk: its periodic load balance when due,
 * and, with nothing to run, the new-idle balance (sched_balance_rq). */
void sched_balance(struct machine *m, int c, uint64_t now);

#endif
