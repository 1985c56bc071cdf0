/* opt.c - Belady's MIN (1966): evict the page whose next reference is
 * furthest in the future.  The lower bound every other policy is measured
 * against.  It needs the whole reference string, so it only runs when the
 * machine has an oracle (a trace replay is the only workload); the mm core
 * calls access() once per page touched, in trace order, and the i-th call
 * learns the i-th reference's next use.  Resident pages sit in a heap
 * keyed by next use (pageheap.h) and, on the machine, on one list for
 * --check; in a cache (the cache-only replay) on no list, as the research
 * policies' (cache_mode.h: unlisted): its link and unlink were two random
 * frames' links touched on every miss, which the heap does not need. */
#include "policy.h"
#include "textbook.h"
#include "pageheap.h"
#include "../lib/util.h"

#include <stdlib.h>

struct opt {
	struct mm *mm;
	int list;
	bool unlisted;    /* in a cache: frames on no list */
	/* A min-heap on (key_max - next use, frame, highest first): the page
	 * used furthest in the future on top, ties (pages never used again)
	 * to the higher frame number (deterministic). */
	struct pageheap h;
	uint64_t pos;     /* references seen so far */
};

/* A next use is a reference's position in the trace, or UINT64_MAX for
 * none: none is key 0, a position p key key_max - p, which is above 0
 * while p < key_max (2^47 references beside 100 K frames' numbers). */
static void set_next(struct opt *o, pfn_t pfn, uint64_t next)
{
	uint64_t max = o->h.key_max;
	if (next != UINT64_MAX && next >= max)
		die_usage("policy opt: reference %llu is past the %llu a heap entry holds beside %u frames",
			  (unsigned long long)next, (unsigned long long)max - 1, o->mm->fr.nr);
	ph_set(&o->h, pfn, next == UINT64_MAX ? 0 : max - next);
}

static void *opt_init(struct mm *mm, const double *tun)
{
	(void)tun;
	if (!mm->oracle.next)
		die_usage("policy opt needs the whole reference string: it runs only when the only workload is a trace replay");
	struct opt *o = xcalloc(1, sizeof(*o));
	o->mm = mm;
	o->list = lru_register(&mm->fr, "opt");
	if (mm->cache.only) {
		mm_cache_unlisted(mm);
		o->unlisted = true;
	}
	ph_init(&o->h, mm->fr.nr, true);
	return o;
}

static void opt_destroy(void *p)
{
	struct opt *o = p;
	ph_destroy(&o->h);
	free(o);
}

static void opt_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct opt *o = p;
	(void)why;
	/* access() follows at once with the real next use. */
	if (!o->unlisted)
		lru_add_head(&o->mm->fr, o->list, pfn);
	set_next(o, pfn, UINT64_MAX);
}

static void opt_remove(void *p, pfn_t pfn)
{
	struct opt *o = p;
	ph_remove(&o->h, pfn);
	if (!o->unlisted)
		lru_del(&o->mm->fr, pfn);
}

static void opt_access(void *p, pfn_t pfn, bool write)
{
	struct opt *o = p;
	(void)write;
	const struct mm *mm = o->mm;
	uint64_t i = o->pos - mm->oracle.base;
	if (i >= mm->oracle.len && mm->oracle.base + mm->oracle.len > o->pos)
		panic("opt: reference %llu is outside the oracle's window", (unsigned long long)o->pos);
	uint64_t next = i < mm->oracle.len ? mm->oracle.next[i] : UINT64_MAX;
	o->pos++;
	if (!ph_has(&o->h, pfn))
		return; /* culled or under writeback: not ours right now */
	set_next(o, pfn, next);
}

static void opt_shrink(void *p, struct scan_control *sc)
{
	struct opt *o = p;
	struct frames *fr = &o->mm->fr;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && ph_pass_goes_on(&o->h)) {
		pfn_t pfn = ph_min(&o->h);
		uint64_t key = ph_key(&o->h, pfn);
		ph_remove(&o->h, pfn);
		if (!o->unlisted)
			lru_del(fr, pfn);
		enum victim_outcome out = textbook_evict(o->mm, sc, pfn);
		if (out == VICTIM_REFUSED || out == VICTIM_NOSWAP) {
			if (!o->unlisted)
				lru_add_head(fr, o->list, pfn);
			ph_set_aside(&o->h, pfn, key, out == VICTIM_REFUSED); /* its next use kept */
		}
	}
	ph_put_back(&o->h);
}

static bool opt_check(void *p, FILE *err)
{
	struct opt *o = p;
	/* in a cache every resident page is anonymous and in the heap */
	uint64_t n = o->unlisted ? o->mm->stat.nr_anon : lru_count(&o->mm->fr, o->list);
	if (o->h.n != n) {
		fprintf(err, "check: opt heap holds %llu pages, its %s %llu\n", (unsigned long long)o->h.n,
			o->unlisted ? "cache" : "list", (unsigned long long)n);
		return false;
	}
	return ph_check(&o->h, "opt", err);
}

const struct policy_ops opt_policy = {
	.name = "opt",
	.summary = "Belady's MIN: evict the page used furthest in the future (trace replay only)",
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK | POLICY_NEEDS_ORACLE,
	.init = opt_init,
	.destroy = opt_destroy,
	.add = opt_add,
	.remove = opt_remove,
	.access = opt_access,
	.shrink = opt_shrink,
	.check = opt_check,
};
