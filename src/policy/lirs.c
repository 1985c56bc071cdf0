/* lirs.c - LIRS, Low Inter-reference Recency Set (Jiang & Zhang, "LIRS: An
 * Efficient Low Inter-reference Recency Set Replacement Policy to Improve
 * Buffer Cache Performance", SIGMETRICS 2002, section 3).  Pages whose last
 * two references were close (low inter-reference recency, IRR) are LIR and
 * stay resident; the others are HIR, and only Lhirs of them (1% of memory)
 * are resident, in the FIFO-like list Q, from whose front victims come.
 * The stack S holds pages in recency order: LIR pages, and HIR pages
 * (resident or not) referenced more recently than the oldest LIR page.
 * An HIR page referenced while it is in S has a smaller IRR than the LIR
 * page at S's bottom: it becomes LIR, and that bottom page becomes HIR
 * (moved to Q's end).  "Stack pruning" then removes the HIR pages from S's
 * bottom, so that the bottom is LIR again.  Until memory is full every page
 * becomes LIR, up to Llirs = memory - Lhirs.  The paper leaves the number
 * of non-resident entries in S open; as libCacheSim, S is kept within 2x
 * memory by forgetting the non-resident pages that became so first
 * (tunables hir and stack).
 *
 * libCacheSim's LIRS (after Cacheus's) differs in one case: a hit on a
 * resident HIR page that is not in S (only in Q) demotes S's bottom LIR page
 * into Q when the LIR set is full - evicting Q's oldest page on a hit, so
 * that memory is one page short until the next miss - where the paper only
 * moves the page to the top of S and the end of Q.  variant=1 does that
 * too, evicting from the access hook outside reclaim (its eviction is not
 * counted in pgsteal); its miss counts are libCacheSim's (when the hit page
 * is not Q's only page, which libCacheSim mishandles).  On the CloudPhysics
 * sample the two give the same miss counts at every size tested (490 to
 * 9795 frames: tests/cli.d/policies.sh); the hand-made case there shows
 * where they part. */
#include "policy.h"
#include "research.h"
#include "../lib/util.h"

#include <stdlib.h>

#define LIR 1

struct lirs {
	struct rp_base b;
	int s, q, nh;       /* S (slot 0); Q and the non-resident list (slot 1) */
	uint64_t c, lhirs, llirs, max_s;
	uint64_t nr_lir;
	bool lcs;
};

static const struct tunable lirs_tunables[] = {
	{ "hir", "Lhirs as a fraction of memory (paper: 1%)", 0.01, 0, 0.5,
	  "resident HIR pages: max(1, floor(hir * frames))" },
	{ "stack", "bound on S, in multiples of memory (libCacheSim: 2)", 2, 1, 16,
	  "non-resident pages are forgotten, oldest first, while S is longer" },
	{ "variant", "0 = the paper, 1 = libCacheSim's LIRS", 0, 0, 1,
	  "1 = a hit on an HIR page only in Q demotes S's bottom LIR page (libCacheSim)" },
	{ 0 },
};

static void lirs_hit(void *p, pfn_t pfn, uint32_t i);

static void *lirs_init(struct mm *mm, const double *tun)
{
	struct lirs *l = xcalloc(1, sizeof(*l));
	double t[3];
	for (int i = 0; i < 3; i++)
		t[i] = tun ? tun[i] : lirs_tunables[i].def;
	rp_init(&l->b, mm, "lirs");
	rp_hits_move(&l->b); /* a hit moves the page to the top of S (slot 0) */
	l->s = ghost_list_new(&l->b.g, 0);
	l->q = ghost_list_new(&l->b.g, 1);
	l->nh = ghost_list_new(&l->b.g, 1);
	l->c = mm->fr.nr;
	l->lhirs = (uint64_t)(t[0] * (double)l->c);
	if (l->lhirs < 1)
		l->lhirs = 1;
	l->llirs = l->c > l->lhirs ? l->c - l->lhirs : 0;
	l->max_s = (uint64_t)(t[1] * (double)l->c);
	l->lcs = t[2] != 0;
	rp_set_hit(&l->b, lirs_hit);
	return l;
}

static void lirs_destroy(void *p)
{
	struct lirs *l = p;
	rp_destroy(&l->b);
	free(l);
}

#define G (&l->b.g)
static inline bool is_lir(struct lirs *l, uint32_t i) { return ghost_e(G, i)->flags & LIR; }
static inline bool in_s(struct lirs *l, uint32_t i) { return ghost_on(G, i, 0) == l->s; }

/* A page leaves S (pruned or forgotten): a non-resident one is forgotten. */
static void leave_s(struct lirs *l, uint32_t i)
{
	if (ghost_e(G, i)->pfn == PFN_NONE)
		ghost_free(G, i);
	else
		ghost_unlink(G, i, 0);
}

/* Stack pruning: HIR pages off S's bottom until a LIR page is there. */
static void prune(struct lirs *l)
{
	for (;;) {
		uint32_t t = ghost_tail(G, l->s);
		if (t == GH_NONE || t == ghost_head(G, l->s) || is_lir(l, t))
			return;
		leave_s(l, t);
	}
}

/* S's bottom LIR page becomes HIR, resident, at the end of Q.  HIR pages
 * below it are pruned first: prune() leaves S's last entry in place, so
 * once every LIR page has gone (its process exited) an HIR page can stay
 * at the bottom under the LIR pages that come after - and demoting that
 * one would put a non-resident page in Q. */
static void demote_bottom(struct lirs *l)
{
	uint32_t y;
	while ((y = ghost_tail(G, l->s)) != GH_NONE && !is_lir(l, y))
		leave_s(l, y);
	if (y == GH_NONE)
		return;
	if (is_lir(l, y)) {
		ghost_e(G, y)->flags &= ~LIR;
		l->nr_lir--;
	}
	ghost_unlink(G, y, 0);
	ghost_add_head(G, l->q, y);
	prune(l);
}

/* Keep S within max_s entries, forgetting the oldest non-resident pages. */
static void limit_stack(struct lirs *l)
{
	while (ghost_count(G, l->s) > l->max_s && ghost_count(G, l->nh)) {
		ghost_free(G, ghost_tail(G, l->nh));
		rp_prefetch_tail(&l->b, l->nh);
	}
}

/* Evict Q's page z (its front, but see lirs_shrink): it stays in S as a
 * non-resident HIR page, if it is there.  One the core refused moves to
 * Q's end. */
static enum victim_outcome evict_q(struct lirs *l, struct scan_control *sc, uint32_t z)
{
	enum victim_outcome o = rp_evict(&l->b, sc, z);
	if (o == VICTIM_GONE && in_s(l, z)) {
		ghost_unlink(G, z, 1);
		ghost_add_head(G, l->nh, z);
	} else if (o == VICTIM_GONE || o == VICTIM_CULLED) {
		ghost_free(G, z);
	} else {
		ghost_move_head(G, l->q, z);
	}
	rp_prefetch_tail(&l->b, l->q);
	return o;
}

static bool evict_q_front(struct lirs *l, struct scan_control *sc)
{
	enum victim_outcome o = evict_q(l, sc, ghost_tail(G, l->q));
	return o == VICTIM_GONE || o == VICTIM_CULLED;
}

/* LIRS takes victims from Q only.  When swap is exhausted and every page
 * in Q has been refused in a row for want of a swap slot, the LIR set may
 * still hold pages the core can take (file pages): S's bottom LIR page is
 * demoted and offered, and the next, until one goes.  Without this the
 * pass went round Q and the allocation ended in an OOM kill with the page
 * cache full (tests/cli.d/regress.sh).  Swap does not gain room inside a
 * pass, so once the count is reached every later victim of the pass is a
 * demoted page. */
static void lirs_shrink(void *p, struct scan_control *sc)
{
	struct lirs *l = p;
	uint64_t budget = 2 * rp_resident(&l->b) + 2, noswap = 0;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && rp_resident(&l->b) && budget--) {
		if (!ghost_count(G, l->q))
			demote_bottom(l); /* only LIR pages resident */
		if (!ghost_count(G, l->q))
			continue;
		uint32_t z = ghost_tail(G, l->q);
		if (noswap >= ghost_count(G, l->q) && l->nr_lir) {
			demote_bottom(l);
			z = ghost_head(G, l->q);
		}
		if (evict_q(l, sc, z) == VICTIM_NOSWAP)
			noswap++;
	}
}

static void lirs_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct lirs *l = p;
	(void)why;
	bool known;
	uint32_t i = rp_add(&l->b, pfn, &known);
	struct gh_entry *e = ghost_e(G, i);
	if (known && in_s(l, i)) {
		/* A non-resident HIR page in S: its IRR beats the bottom LIR's. */
		ghost_unlink(G, i, 1); /* off the non-resident list */
		ghost_move_head(G, l->s, i);
		e->flags |= LIR;
		if (++l->nr_lir > l->llirs)
			demote_bottom(l);
	} else {
		ghost_unlink(G, i, 0);
		ghost_unlink(G, i, 1);
		e->flags = 0;
		ghost_add_head(G, l->s, i);
		if (l->nr_lir < l->llirs) {
			e->flags = LIR;
			l->nr_lir++;
		} else {
			ghost_add_head(G, l->q, i);
		}
	}
	limit_stack(l);
}

static void lirs_remove(void *p, pfn_t pfn)
{
	struct lirs *l = p;
	uint32_t i = rp_remove(&l->b, pfn);
	if (i == GH_NONE)
		return;
	if (is_lir(l, i))
		l->nr_lir--;
	ghost_free(G, i);
	prune(l);
}

/* libCacheSim: a hit on a page only in Q demotes S's bottom LIR page when
 * the LIR set is full, evicting Q's front first if Q is full - here and
 * now, outside reclaim. */
static void lcs_q_hit(struct lirs *l, uint32_t x)
{
	if (l->nr_lir < l->llirs)
		return;
	while (ghost_count(G, l->q) >= l->lhirs && ghost_tail(G, l->q) != x) {
		struct scan_control sc = { .nr_to_reclaim = 1, .priority = DEF_PRIORITY,
					   .who = RECLAIM_DIRECT, .may_swap = true, .may_writepage = true };
		if (!evict_q_front(l, &sc))
			break;
	}
	demote_bottom(l);
}

static void lirs_hit(void *p, pfn_t pfn, uint32_t x)
{
	struct lirs *l = p;
	(void)pfn;
	if (is_lir(l, x)) {
		ghost_move_head(G, l->s, x);
		prune(l);
	} else if (in_s(l, x)) {
		/* resident HIR in S: becomes LIR, S's bottom LIR becomes HIR */
		ghost_unlink(G, x, 1);
		ghost_move_head(G, l->s, x);
		ghost_e(G, x)->flags |= LIR;
		if (++l->nr_lir > l->llirs)
			demote_bottom(l);
	} else {
		/* resident HIR only in Q: stays HIR, to the top of S, end of Q */
		ghost_move_head(G, l->q, x);
		if (l->lcs)
			lcs_q_hit(l, x);
		ghost_add_head(G, l->s, x);
	}
	limit_stack(l);
}

static bool lirs_check(void *p, FILE *err)
{
	struct lirs *l = p;
	uint64_t lir = 0;
	for (uint32_t i = ghost_head(G, l->s); i != GH_NONE; i = ghost_toward_tail(G, i, 0))
		lir += is_lir(l, i);
	for (uint32_t i = ghost_head(G, l->q); i != GH_NONE; i = ghost_toward_tail(G, i, 1))
		if (ghost_e(G, i)->pfn == PFN_NONE || is_lir(l, i)) {
			fprintf(err, "check: lirs entry %u in Q is %s\n", i, is_lir(l, i) ? "LIR" : "not resident");
			return false;
		}
	if (lir != l->nr_lir || l->nr_lir + ghost_count(G, l->q) != rp_resident(&l->b)) {
		fprintf(err, "check: lirs %llu LIR pages in S, counted %llu; Q %llu; frame list %llu\n",
			(unsigned long long)lir, (unsigned long long)l->nr_lir,
			(unsigned long long)ghost_count(G, l->q),
			(unsigned long long)rp_resident(&l->b));
		return false;
	}
	return rp_check(&l->b, "lirs", err);
}

const struct policy_ops lirs_policy = {
	.name = "lirs",
	.summary = "LIRS: LIR set by inter-reference recency, stack S, HIR queue Q (SIGMETRICS 2002)",
	.tunables = lirs_tunables,
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = lirs_init,
	.destroy = lirs_destroy,
	.add = lirs_add,
	.remove = lirs_remove,
	.access = rp_access,
	.shrink = lirs_shrink,
	.check = lirs_check,
};
