/* work.c - see work.h. */
#include "work.h"

const char *const reclaim_work_names[NR_RECLAIM_WORK] = {
#define X(id, name, kind) name,
	RECLAIM_WORK(X)
#undef X
};

static const unsigned char work_kind[NR_RECLAIM_WORK] = {
#define X(id, name, kind) kind,
	RECLAIM_WORK(X)
#undef X
};

const char *const work_who_names[NR_WORK_WHO] = { "kswapd", "direct", "memcg", "aging", "other" };

int reclaim_work_present(const struct reclaim_work *w, enum work_op i)
{
	return work_kind[i] == WK_CORE || (w->kept & WORK_BIT(i));
}

uint64_t reclaim_work_total(const struct reclaim_work *w, enum work_op i)
{
	uint64_t t = 0;
	for (int who = 0; who < NR_WORK_WHO; who++)
		t += w->n[who][i];
	return t;
}
