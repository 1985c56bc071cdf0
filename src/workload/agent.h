/* agent.h - what the user-space agents (senpai.c, oomd.c) share: a
 * loop that reads its cgroup's files every second (OP_CG_READ, then a
 * 1 s OP_SLEEP, as time.sleep(1) / sd_event's 1 s timer) and, when the
 * last read calls for it, one action (a reclaim or a kill), and the
 * CGROUP argument of its command line. */
#ifndef PAGELAB_WORKLOAD_AGENT_H
#define PAGELAB_WORKLOAD_AGENT_H

#include "workload.h"

enum agent_next { AGENT_READ, AGENT_SLEEP, AGENT_ACT, AGENT_DONE };

struct wl_agent {
	char cg[48];
	enum agent_next next;
	struct op act;          /* AGENT_ACT's op (its name is cg or the caller's) */
};

/* The positional CGROUP of `name`'s argv[i] (after its options): true and
 * taken, or false with err set when it is not one or one was given. */
bool agent_path(struct wl_agent *a, const char *name, const char *arg, char *err, size_t errlen);
/* After the loop over argv: false with err set when no CGROUP came. */
bool agent_has_path(const struct wl_agent *a, const char *name, const char *what, char *err, size_t errlen);
/* cgroup_target of an agent whose struct starts with its wl_agent: its
 * CGROUP, whose memory.pressure it reads. */
const char *agent_target(void *w, bool *reads_pressure);
/* next_op of the loop. */
bool agent_next_op(struct wl_agent *a, struct op *op);

#endif
