/* opt.c - Belady's MIN (1966): evict the page whose next reference is
 * furthest in the future.  The lower bound every other policy is measured
 * against.  It needs the whole reference string, so it only runs when the
 * machine has an oracle (a trace replay is the only workload); the mm core
 * calls access() once per page touched, in trace order, and the i-th call
 * learns the i-th reference's next use.  Resident pages sit in a max-heap
 * keyed by next use (page->pol64; heap slot + 1 in page->pol32[0]) and on
 * one list for --check. */
#include "policy.h"
#include "textbook.h"
#include "../lib/util.h"

#include <stdlib.h>

struct opt {
	struct mm *mm;
	int list;
	pfn_t *heap;
	uint64_t n;
	uint64_t pos;     /* references seen so far */
};

static inline uint64_t key(struct opt *o, pfn_t pfn) { return o->mm->fr.pages[pfn].pol64; }

/* Max-heap order; ties broken by frame number so runs are deterministic. */
static inline bool above(struct opt *o, pfn_t a, pfn_t b)
{
	uint64_t ka = key(o, a), kb = key(o, b);
	return ka > kb || (ka == kb && a > b);
}

static void place(struct opt *o, uint64_t i, pfn_t pfn)
{
	o->heap[i] = pfn;
	o->mm->fr.pages[pfn].pol32[0] = (uint32_t)(i + 1);
}

static void sift_up(struct opt *o, uint64_t i)
{
	pfn_t x = o->heap[i];
	while (i > 0) {
		uint64_t parent = (i - 1) / 2;
		if (!above(o, x, o->heap[parent]))
			break;
		place(o, i, o->heap[parent]);
		i = parent;
	}
	place(o, i, x);
}

static void sift_down(struct opt *o, uint64_t i)
{
	pfn_t x = o->heap[i];
	for (;;) {
		uint64_t c = 2 * i + 1;
		if (c >= o->n)
			break;
		if (c + 1 < o->n && above(o, o->heap[c + 1], o->heap[c]))
			c++;
		if (!above(o, o->heap[c], x))
			break;
		place(o, i, o->heap[c]);
		i = c;
	}
	place(o, i, x);
}

static void heap_insert(struct opt *o, pfn_t pfn)
{
	place(o, o->n++, pfn);
	sift_up(o, o->n - 1);
}

static void heap_remove(struct opt *o, pfn_t pfn)
{
	uint32_t slot = o->mm->fr.pages[pfn].pol32[0];
	if (!slot)
		return;
	uint64_t i = slot - 1;
	o->mm->fr.pages[pfn].pol32[0] = 0;
	pfn_t last = o->heap[--o->n];
	if (i == o->n)
		return;
	place(o, i, last);
	sift_up(o, i);
	sift_down(o, o->mm->fr.pages[last].pol32[0] - 1);
}

static void *opt_init(struct mm *mm, const double *tun)
{
	(void)tun;
	if (!mm->oracle)
		die_usage("policy opt needs the whole reference string: it runs only when the only workload is a trace replay");
	struct opt *o = xcalloc(1, sizeof(*o));
	o->mm = mm;
	o->list = lru_register(&mm->fr, "opt");
	o->heap = xmalloc(mm->fr.nr * sizeof(pfn_t));
	return o;
}

static void opt_destroy(void *p)
{
	struct opt *o = p;
	free(o->heap);
	free(o);
}

static void opt_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct opt *o = p;
	(void)why;
	/* access() follows at once with the real next use. */
	o->mm->fr.pages[pfn].pol64 = UINT64_MAX;
	lru_add_head(&o->mm->fr, o->list, pfn);
	heap_insert(o, pfn);
}

static void opt_remove(void *p, pfn_t pfn)
{
	struct opt *o = p;
	heap_remove(o, pfn);
	lru_del(&o->mm->fr, pfn);
}

static void opt_access(void *p, pfn_t pfn, bool write)
{
	struct opt *o = p;
	(void)write;
	uint64_t next = o->pos < o->mm->oracle_len ? o->mm->oracle[o->pos] : UINT64_MAX;
	o->pos++;
	struct page *pg = &o->mm->fr.pages[pfn];
	if (!pg->pol32[0])
		return; /* culled or under writeback: not ours right now */
	pg->pol64 = next;
	sift_up(o, pg->pol32[0] - 1);
	sift_down(o, pg->pol32[0] - 1);
}

static void opt_shrink(void *p, struct scan_control *sc)
{
	struct opt *o = p;
	struct frames *fr = &o->mm->fr;
	pfn_t kept[64];
	int nkept = 0;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && o->n && nkept < 64) {
		pfn_t pfn = o->heap[0];
		heap_remove(o, pfn);
		lru_del(fr, pfn);
		enum victim_outcome out = textbook_evict(o->mm, sc, pfn);
		if (out == VICTIM_REFUSED || out == VICTIM_NOSWAP)
			kept[nkept++] = pfn;
		if (out == VICTIM_NOSWAP)
			break;
	}
	for (int i = 0; i < nkept; i++) {
		lru_add_head(fr, o->list, kept[i]);
		heap_insert(o, kept[i]);
	}
}

static bool opt_check(void *p, FILE *err)
{
	struct opt *o = p;
	if (o->n != lru_count(&o->mm->fr, o->list)) {
		fprintf(err, "check: opt heap holds %llu pages, its list %llu\n",
			(unsigned long long)o->n, (unsigned long long)lru_count(&o->mm->fr, o->list));
		return false;
	}
	for (uint64_t i = 1; i < o->n; i++)
		if (above(o, o->heap[i], o->heap[(i - 1) / 2])) {
			fprintf(err, "check: opt heap order broken at %llu\n", (unsigned long long)i);
			return false;
		}
	return true;
}

const struct policy_ops opt_policy = {
	.name = "opt",
	.summary = "Belady's MIN: evict the page used furthest in the future (trace replay only)",
	.flags = POLICY_ACCESS_HOOK | POLICY_NEEDS_ORACLE,
	.init = opt_init,
	.destroy = opt_destroy,
	.add = opt_add,
	.remove = opt_remove,
	.access = opt_access,
	.shrink = opt_shrink,
	.check = opt_check,
};
