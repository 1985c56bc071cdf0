/* event.h - the nanosecond event clock: a min-heap of timed events, ties
 * broken by insertion order so every run is deterministic. */
#ifndef PAGELAB_EVENT_H
#define PAGELAB_EVENT_H

#include <stdbool.h>
#include <stdint.h>

enum ev_kind { EV_CPU, EV_DISK_DONE, EV_DISK_DISPATCH, EV_WAKE, EV_VMSTAT, EV_TIMELINE };

struct event {
	uint64_t t;
	uint64_t seq;
	enum ev_kind kind;
	uint32_t arg;
	uint64_t token;   /* e.g. a task's wait generation, to drop stale timers */
};

struct evq {
	struct event *h;
	uint64_t n, cap, seq;
};

void evq_init(struct evq *q);
void evq_free(struct evq *q);
void evq_push(struct evq *q, uint64_t t, enum ev_kind kind, uint32_t arg, uint64_t token);
bool evq_pop(struct evq *q, struct event *out);
static inline bool evq_empty(const struct evq *q) { return q->n == 0; }

#endif
