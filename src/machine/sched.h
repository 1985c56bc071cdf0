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

/* pick_eevdf(): take the task to run next off the run queue (the eligible
 * one with the earliest virtual deadline); -1 if none is runnable. */
int sched_eevdf_pick(struct machine *m);
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

#endif
