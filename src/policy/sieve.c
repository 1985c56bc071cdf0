/* sieve.c - SIEVE (Zhang, Yang, Yue, Vigfusson, Rashmi: "SIEVE is Simpler
 * than LRU", NSDI 2024), Algorithm 1.  One FIFO queue, new pages at the
 * head, one "visited" bit per page set by a hit.  The hand starts at the
 * tail and moves toward the head: a visited page has its bit cleared and
 * stays where it is (unlike CLOCK, it is not moved to the head, so new and
 * old pages keep their order); the first unvisited page is evicted and the
 * hand rests at the next one.  Past the head it wraps to the tail.  New
 * pages start unvisited: the faulting reference is the insertion.
 * libCacheSim's Sieve is the same algorithm; its miss counts are pagelab's
 * (tests/test_research_policies.c). */
#include "policy.h"
#include "research.h"
#include "../lib/util.h"

#include <stdlib.h>

#define VISITED 1

struct sieve {
	struct rp_base b;
	int q;
	uint32_t hand;      /* entry the next search starts at, GH_NONE = tail */
};

static void sieve_hit(void *p, pfn_t pfn, uint32_t i);

static void *sieve_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct sieve *s = xcalloc(1, sizeof(*s));
	rp_init(&s->b, mm, "sieve");
	s->q = ghost_list_new(&s->b.g, 0);
	s->hand = GH_NONE;
	rp_set_hit(&s->b, sieve_hit);
	return s;
}

static void sieve_destroy(void *p)
{
	struct sieve *s = p;
	rp_destroy(&s->b);
	free(s);
}

static void sieve_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct sieve *s = p;
	(void)why;
	bool known;
	uint32_t i = rp_add(&s->b, pfn, &known);
	ghost_e(&s->b.g, i)->flags = 0;
	ghost_add_head(&s->b.g, s->q, i);
}

/* The entry leaves the queue: keep the hand on the queue. */
static void sieve_forget(struct sieve *s, uint32_t i)
{
	if (s->hand == i)
		s->hand = ghost_toward_head(&s->b.g, i, 0);
	ghost_free(&s->b.g, i);
}

static void sieve_remove(void *p, pfn_t pfn)
{
	struct sieve *s = p;
	uint32_t i = rp_remove(&s->b, pfn);
	if (i != GH_NONE)
		sieve_forget(s, i);
}

static void sieve_hit(void *p, pfn_t pfn, uint32_t i)
{
	struct sieve *s = p;
	(void)pfn;
	ghost_e(&s->b.g, i)->flags = VISITED;
}

static void sieve_shrink(void *p, struct scan_control *sc)
{
	struct sieve *s = p;
	struct ghost *g = &s->b.g;
	/* Two sweeps find a victim if any page can go. */
	uint64_t budget = 2 * ghost_count(g, s->q) + 1;
	uint32_t i = s->hand;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && ghost_count(g, s->q) && budget--) {
		if (i == GH_NONE)
			i = ghost_tail(g, s->q);
		struct gh_entry *e = ghost_e(g, i);
		uint32_t next = ghost_toward_head(g, i, 0);
		if (e->flags & VISITED) {
			sc_scanned(sc, mm_page(s->b.mm, e->pfn), 1);
			e->flags = 0;
			i = next;
			continue;
		}
		enum victim_outcome o = rp_evict(&s->b, sc, i);
		if (o == VICTIM_GONE || o == VICTIM_CULLED) {
			s->hand = i;
			sieve_forget(s, i);
			i = s->hand;
		} else {
			i = next; /* refused: the hand goes on, the budget bounds it */
		}
	}
	s->hand = i;
	/* The next search starts there: most often its victim. */
	rp_prefetch_victim(&s->b, i == GH_NONE ? ghost_tail(g, s->q) : i);
}

static bool sieve_check(void *p, FILE *err)
{
	struct sieve *s = p;
	if (ghost_count(&s->b.g, s->q) != rp_resident(&s->b)) {
		fprintf(err, "check: sieve queue holds %llu pages, its frame list %llu\n",
			(unsigned long long)ghost_count(&s->b.g, s->q),
			(unsigned long long)rp_resident(&s->b));
		return false;
	}
	return rp_check(&s->b, "sieve", err);
}

const struct policy_ops sieve_policy = {
	.name = "sieve",
	.summary = "SIEVE: FIFO queue, visited bit, a hand that does not move hits (NSDI 2024)",
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = sieve_init,
	.destroy = sieve_destroy,
	.add = sieve_add,
	.remove = sieve_remove,
	.access = rp_access,
	.shrink = sieve_shrink,
	.check = sieve_check,
};
