/* sieve.c - SIEVE (Zhang, Yang, Yue, Vigfusson, Rashmi: "SIEVE is Simpler
 * than LRU", NSDI 2024), Algorithm 1.  One FIFO queue, new pages at the
 * head, one "visited" bit per page set by a hit.  The hand starts at the
 * tail and moves toward the head: a visited page has its bit cleared and
 * stays where it is (unlike CLOCK, it is not moved to the head, so new and
 * old pages keep their order); the first unvisited page is evicted and the
 * hand rests at the next one.  Past the head it wraps to the tail.  New
 * pages start unvisited: the faulting reference is the insertion.
 * libCacheSim's Sieve is the same algorithm; its miss counts are pagelab's
 * (tests/test_research_policies.c).
 *
 * SIEVE keeps no history, so its state is its limit's (bench/limit/
 * sieve.c) by frame instead of by page: the queue's links and a state
 * byte per frame (resframes.h), and a hit is one byte stored. */
#include "resframes.h"
#include "../lib/util.h"

#include <stdlib.h>

/* A frame's state byte: not queued, queued, queued and visited. */
enum { OFF = 0, ON = 1, VISITED = 2 };

struct sieve {
	struct resframes r;
	uint8_t *st;        /* per frame: OFF, ON, VISITED (the replay's record) */
	pfn_t *next, *prev; /* per frame: towards the tail, towards the head */
	pfn_t head, tail;
	uint64_t n;
	pfn_t hand;         /* frame the next search starts at, PFN_NONE = tail */
};

static void sieve_hit(void *p, pfn_t pfn, uint32_t rec);

static void *sieve_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct sieve *s = xcalloc(1, sizeof(*s));
	pfn_t nr = mm->fr.nr;
	s->st = xcalloc(nr, 1);
	s->next = xmalloc((size_t)nr * sizeof(pfn_t));
	s->prev = xmalloc((size_t)nr * sizeof(pfn_t));
	s->head = s->tail = s->hand = PFN_NONE;
	rf_init(&s->r, mm, "sieve", (void *const *)&s->st, 1, sieve_hit);
	return s;
}

static void sieve_destroy(void *p)
{
	struct sieve *s = p;
	rf_destroy(&s->r);
	free(s->st);
	free(s->next);
	free(s->prev);
	free(s);
}

static void sieve_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct sieve *s = p;
	(void)why;
	rf_add(&s->r, pfn);
	s->st[pfn] = ON;
	s->prev[pfn] = PFN_NONE;
	s->next[pfn] = s->head;
	if (s->head != PFN_NONE)
		s->prev[s->head] = pfn;
	else
		s->tail = pfn;
	s->head = pfn;
	s->n++;
}

/* The frame leaves the queue: keep the hand on the queue. */
static void sieve_forget(struct sieve *s, pfn_t pfn)
{
	pfn_t pv = s->prev[pfn], nx = s->next[pfn];
	if (s->hand == pfn)
		s->hand = pv;
	if (pv != PFN_NONE)
		s->next[pv] = nx;
	else
		s->head = nx;
	if (nx != PFN_NONE)
		s->prev[nx] = pv;
	else
		s->tail = pv;
	s->st[pfn] = OFF;
	s->n--;
}

static void sieve_remove(void *p, pfn_t pfn)
{
	struct sieve *s = p;
	bool queued = s->st[pfn] != OFF;
	rf_leave(&s->r, pfn, queued);
	if (queued)
		sieve_forget(s, pfn);
}

/* In a cache (the replay's hit): every page it hits is queued. */
static void sieve_hit(void *p, pfn_t pfn, uint32_t rec)
{
	(void)rec;
	((struct sieve *)p)->st[pfn] = VISITED;
}

/* On the machine: not the faulting reference, and a page of the queue. */
static void sieve_access(void *p, pfn_t pfn, bool write)
{
	struct sieve *s = p;
	(void)write;
	if (!rf_fault_ref(&s->r, pfn) && s->st[pfn] != OFF)
		s->st[pfn] = VISITED;
}

static void sieve_shrink(void *p, struct scan_control *sc)
{
	struct sieve *s = p;
	/* Two sweeps find a victim if any page can go. */
	uint64_t budget = 2 * s->n + 1;
	pfn_t i = s->hand;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && s->n && budget--) {
		if (i == PFN_NONE)
			i = s->tail;
		pfn_t towards_head = s->prev[i];
		if (s->st[i] == VISITED) {
			rf_scanned(&s->r, sc, i);
			s->st[i] = ON;
			i = towards_head;
			continue;
		}
		enum victim_outcome o = rf_evict(&s->r, sc, i);
		if (o == VICTIM_GONE || o == VICTIM_CULLED) {
			s->hand = i;
			sieve_forget(s, i);
			i = s->hand;
		} else {
			i = towards_head; /* refused: the hand goes on, the budget bounds it */
		}
	}
	s->hand = i;
	/* The next search starts there: most often its victim.  Its state
	 * byte and its link towards the head are what that search reads
	 * first (the forget above wrote only its link towards the tail):
	 * fetched now, a miss ahead, as rp_prefetch_tail() fetches a
	 * queue's next tail. */
	i = i == PFN_NONE ? s->tail : i;
	if (i != PFN_NONE) {
		__builtin_prefetch(&s->st[i]);
		__builtin_prefetch(&s->prev[i]);
	}
	rf_prefetch_victim(&s->r, i);
}

static bool sieve_check(void *p, FILE *err)
{
	struct sieve *s = p;
	uint64_t n = 0;
	pfn_t above = PFN_NONE;
	for (pfn_t i = s->head; i != PFN_NONE; i = s->next[i]) {
		if (++n > s->n || s->prev[i] != above || s->st[i] == OFF || !rf_frame_ok(&s->r, i, "sieve", err)) {
			fprintf(err, "check: sieve queue broken at frame %u\n", i);
			return false;
		}
		above = i;
	}
	if (s->tail != above || n != s->n) {
		fprintf(err, "check: sieve queue holds %llu frames, counted %llu\n", (unsigned long long)n,
			(unsigned long long)s->n);
		return false;
	}
	return rf_check(&s->r, n, "sieve", err);
}

const struct policy_ops sieve_policy = {
	.name = "sieve",
	.summary = "SIEVE: FIFO queue, visited bit, a hand that does not move hits (NSDI 2024)",
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = sieve_init,
	.destroy = sieve_destroy,
	.add = sieve_add,
	.remove = sieve_remove,
	.access = sieve_access,
	.shrink = sieve_shrink,
	.check = sieve_check,
};
