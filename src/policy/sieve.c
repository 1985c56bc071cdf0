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
 * byte per frame (resframes.h), and a hit is one byte stored.  A frame's
 * two links share one 8-byte slot, so the unlink of a victim and of its
 * neighbours reads one host line each, not two. */
#include "resframes.h"
#include "../lib/util.h"

#include <stdlib.h>

/* A frame's state byte: not queued, queued, queued and visited. */
enum { OFF = 0, ON = 1, VISITED = 2 };

/* A frame's links: towards the tail, towards the head. */
struct sieve_link {
	pfn_t next, prev;
};

struct sieve {
	struct resframes r;
	uint8_t *st;        /* per frame: OFF, ON, VISITED (the replay's record) */
	struct sieve_link *l; /* per frame */
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
	s->l = xmalloc((size_t)nr * sizeof(*s->l));
	s->head = s->tail = s->hand = PFN_NONE;
	rf_init(&s->r, mm, "sieve", (void *const *)&s->st, 1, sieve_hit);
	return s;
}

static void sieve_destroy(void *p)
{
	struct sieve *s = p;
	rf_destroy(&s->r);
	free(s->st);
	free(s->l);
	free(s);
}

static void sieve_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct sieve *s = p;
	(void)why;
	rf_add(&s->r, pfn);
	s->st[pfn] = ON;
	s->l[pfn] = (struct sieve_link){ .next = s->head, .prev = PFN_NONE };
	if (s->head != PFN_NONE)
		s->l[s->head].prev = pfn;
	else
		s->tail = pfn;
	s->head = pfn;
	s->n++;
}

/* The frame leaves the queue: keep the hand on the queue. */
static void sieve_forget(struct sieve *s, pfn_t pfn)
{
	pfn_t pv = s->l[pfn].prev, nx = s->l[pfn].next;
	if (s->hand == pfn)
		s->hand = pv;
	if (pv != PFN_NONE)
		s->l[pv].next = nx;
	else
		s->head = nx;
	if (nx != PFN_NONE)
		s->l[nx].prev = pv;
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

/* What the next searches read, fetched ahead: the next starts at the
 * hand, i, most often its victim - its state byte and links, and in a
 * cache its struct page and PTE (rf_prefetch_victim).  A miss ahead is
 * not enough in a cache, where misses come a host memory latency apart
 * or less (about 5 references of 20 ns in make bench's replay), so the
 * frame after it, j towards the head, has the same fetched now, two
 * misses ahead, with its id (its PTE is fetched next time, from it);
 * and the frame below i, whose link unlinking i writes.  i's links
 * were fetched a miss ago, when i was j, so reading them here is no
 * wait.  (At the tail's end the frame below is PFN_NONE: an address
 * past the array that only a prefetch sees.) */
__attribute__((always_inline)) static inline void sieve_prefetch(const struct sieve *s, pfn_t i)
{
	if (i == PFN_NONE)
		return;
	__builtin_prefetch(&s->st[i]);
	__builtin_prefetch(&s->l[i]);
	rf_prefetch_victim(&s->r, i);
	if (!s->r.ids)
		return;
	const struct sieve_link k = s->l[i];
	pfn_t j = k.prev == PFN_NONE ? s->tail : k.prev;
	__builtin_prefetch((const void *)((uintptr_t)s->l + (uintptr_t)k.next * sizeof(*s->l)));
	__builtin_prefetch(&s->st[j]);
	__builtin_prefetch(&s->l[j]);
	rf_prefetch_next(&s->r, j);
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
		pfn_t towards_head = s->l[i].prev;
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
	sieve_prefetch(s, i == PFN_NONE ? s->tail : i);
}

static bool sieve_check(void *p, FILE *err)
{
	struct sieve *s = p;
	uint64_t n = 0;
	pfn_t above = PFN_NONE;
	for (pfn_t i = s->head; i != PFN_NONE; i = s->l[i].next) {
		if (++n > s->n || s->l[i].prev != above || s->st[i] == OFF || !rf_frame_ok(&s->r, i, "sieve", err)) {
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
