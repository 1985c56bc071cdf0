/* event.c - see event.h. */
#include "event.h"
#include "../lib/util.h"

#include <stdlib.h>

void evq_init(struct evq *q) { q->h = NULL; q->n = q->cap = q->seq = 0; }
void evq_free(struct evq *q) { free(q->h); q->h = NULL; q->n = q->cap = 0; }

static inline bool before(const struct event *a, const struct event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void evq_push(struct evq *q, uint64_t t, enum ev_kind kind, uint32_t arg, uint64_t token)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 64;
		q->h = xrealloc(q->h, q->cap * sizeof(*q->h));
	}
	struct event e = { .t = t, .seq = q->seq++, .kind = kind, .arg = arg, .token = token };
	uint64_t i = q->n++;
	while (i > 0) {
		uint64_t parent = (i - 1) / 2;
		if (!before(&e, &q->h[parent]))
			break;
		q->h[i] = q->h[parent];
		i = parent;
	}
	q->h[i] = e;
}

bool evq_pop(struct evq *q, struct event *out)
{
	if (!q->n)
		return false;
	*out = q->h[0];
	struct event last = q->h[--q->n];
	uint64_t i = 0;
	for (;;) {
		uint64_t c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && before(&q->h[c + 1], &q->h[c]))
			c++;
		if (!before(&q->h[c], &last))
			break;
		q->h[i] = q->h[c];
		i = c;
	}
	if (q->n)
		q->h[i] = last;
	return true;
}
