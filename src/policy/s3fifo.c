/* s3fifo.c - S3-FIFO (Yang, Zhang, Qiu, Yue, Vinayak: "FIFO queues are
 * all you need for cache eviction", SOSP 2023, Algorithm 1).  Three FIFO
 * queues: S, small (10% of memory), where new pages enter; M, main, for
 * pages that proved themselves; G, a ghost queue of identifiers evicted
 * from S (as many as M holds pages).  A hit only counts (freq, capped at
 * 3).  Evicting from S: the tail page, if it was hit at least twice, moves
 * to M, else it is evicted and remembered in G ("quick demotion": most
 * pages are used once).  Evicting from M: a tail page with freq > 0 is
 * reinserted at the head with freq - 1, else evicted.  A miss on a page in
 * G goes straight to M.  Eviction takes from S when S holds at least 10%
 * of memory, else from M.
 *
 * libCacheSim's S3FIFO (the paper's artifact) differs in three small ways,
 * all taken with variant=1: a page moved from S to M starts there with
 * freq 0 (the paper keeps its freq); a move that overfills M does not
 * evict from M at once (the next eviction does, as M is then over its
 * size); and S's share is compared rounded down (|S| >= floor(0.1 c), the
 * paper |S| >= 0.1 c).  With variant=1 the miss counts are libCacheSim's
 * (tests/cli.d/policies.sh).  On the CloudPhysics sample the paper's
 * version misses slightly more: +295, +251, +1, 0 and +96 misses (0.1-0.3%)
 * with 490, 1224, 2448, 4897 and 9795 frames.
 *
 * Layout: S and M and each page's freq are kept by frame, as SIEVE's
 * queue is (bench/limit/s3fifo.c keeps them by page id): two links, the
 * page's id and a state byte per frame; a hit stores one byte.  G is a
 * FIFO of identities (idfifo.h, shared with 2Q's A1out): on the machine
 * a list of the ghost table (research.h), where a resident page keeps
 * its entry (on no list) as its identity; in a cache (the cache-only
 * replay, dense ids) a ring of ids over the record map (idring.h), and a
 * resident page has no ghost entry.  A ghost entry per page was 64
 * bytes taken, linked and read at random by every miss, hit and step of
 * M's scan; the frame arrays of 100 K frames are 1.3 MB, G's ring 1 MB. */
#include "policy.h"
#include "idfifo.h"
#include "research.h"
#include "../lib/util.h"

#include <stdlib.h>

/* A frame's state byte: its queue (QS, QM; 0 none) above its freq. */
enum { QS = 1, QM = 2, QSHIFT = 2, FREQ = 3 };

struct s3link {
	pfn_t next, prev; /* towards the tail, towards the head */
	uint32_t id;      /* in a cache: the page's id (its PTE's, its record map slot's) */
};

struct s3q {
	pfn_t head, tail;
	uint64_t n;
};

struct s3fifo {
	struct rp_base b;   /* on the machine: G, each resident page's identity */
	struct idfifo g;    /* G */
	struct s3q q[3];    /* S and M (QS, QM) */
	uint8_t *st;        /* per frame: queue << QSHIFT | freq (the replay's record) */
	struct s3link *ln;  /* per frame */
	bool cache;         /* the cache-only replay's (dense ids: ln[].id) */
	uint64_t c, s_floor, g_cap;
	double small;
	unsigned threshold;
	bool lcs;
};

static const struct tunable s3fifo_tunables[] = {
	{ "small", "size of S as a fraction of memory (paper: 10%)", 0.1, 0.01, 0.9,
	  "S, where new pages enter, holds this fraction of memory" },
	{ "ghost", "size of G as a fraction of memory (paper: as many as M)", 0.9, 0, 4,
	  "G remembers floor(ghost * frames) pages evicted from S" },
	{ "threshold", "hits in S that move a page to M (paper: freq > 1)", 2, 1, 3,
	  "a page leaving S moves to M if it was hit at least this often" },
	{ "variant", "0 = the paper's Algorithm 1, 1 = libCacheSim's S3FIFO", 0, 0, 1,
	  "1 = freq reset on the move to M, M's overflow evicted lazily, floor(0.1 c)" },
	{ 0 },
};

static void s3fifo_hit(void *p, pfn_t pfn, uint32_t rec);

/* A cache's sizes its tables cannot index, refused with one line before
 * anything is built (cachesim_new): a frame is a record map value below
 * IR_TAG, and G's ring holds floor(ghost * frames) + 1 ids, at most
 * IDR_MOST (idring.h).  On the machine G is a ghost table list, which
 * grows as pages come. */
static bool s3fifo_frames_ok(uint64_t frames, bool cache, const double *tun, char *err, size_t errlen)
{
	double ghost = tun ? tun[1] : s3fifo_tunables[1].def;
	return !cache || idf_cache_fits("s3fifo", "G", "ghost", ghost, frames, err, errlen);
}

static void *s3fifo_init(struct mm *mm, const double *tun)
{
	struct s3fifo *f = xcalloc(1, sizeof(*f));
	double t[4];
	for (int i = 0; i < 4; i++)
		t[i] = tun ? tun[i] : s3fifo_tunables[i].def;
	f->c = mm->fr.nr;
	f->small = t[0];
	f->s_floor = (uint64_t)((double)f->c * t[0]);
	f->g_cap = (uint64_t)((double)f->c * t[1]);
	f->threshold = (unsigned)t[2];
	f->lcs = t[3] != 0;
	char err[200];
	if (mm->cache.only && !s3fifo_frames_ok(f->c, true, t, err, sizeof(err)))
		panic("%s (cachesim_new checks)", err);
	/* on the machine: G and the pending entry, a page gone before G's
	 * tail is dropped, and the resident pages' identities */
	rp_init_sized(&f->b, mm, "s3fifo", mm->cache.only ? 0 : f->g_cap + 2 + f->c);
	idf_init(&f->g, &f->b, f->g_cap);
	for (int k = QS; k <= QM; k++)
		f->q[k] = (struct s3q){ PFN_NONE, PFN_NONE, 0 };
	f->st = xcalloc(f->c, 1);
	f->ln = xmalloc((size_t)f->c * sizeof(*f->ln));
	rp_set_hit(&f->b, s3fifo_hit);
	if (mm->cache.only) {
		f->cache = true;
		/* the replay's record is the state byte, by frame */
		mm_cache_records(mm, (void *const *)&f->st, 1);
	}
	return f;
}

static void s3fifo_destroy(void *p)
{
	struct s3fifo *f = p;
	rp_destroy(&f->b);
	idf_destroy(&f->g);
	free(f->st);
	free(f->ln);
	free(f);
}

#define N(k) (f->q[k].n)
#define NG idf_count(&f->g)

/* pfn to the head of queue k with freq `freq`. */
static void q_push(struct s3fifo *f, int k, pfn_t pfn, unsigned freq)
{
	struct s3q *q = &f->q[k];
	f->st[pfn] = (uint8_t)(k << QSHIFT | freq);
	f->ln[pfn].next = q->head;
	f->ln[pfn].prev = PFN_NONE;
	if (q->head != PFN_NONE)
		f->ln[q->head].prev = pfn;
	else
		q->tail = pfn;
	q->head = pfn;
	q->n++;
}

/* pfn off its queue. */
static void q_del(struct s3fifo *f, pfn_t pfn)
{
	struct s3q *q = &f->q[f->st[pfn] >> QSHIFT];
	struct s3link l = f->ln[pfn];
	if (l.prev != PFN_NONE)
		f->ln[l.prev].next = l.next;
	else
		q->head = l.next;
	if (l.next != PFN_NONE)
		f->ln[l.next].prev = l.prev;
	else
		q->tail = l.prev;
	q->n--;
	f->st[pfn] = 0;
}

/* Reinsert at the head of queue k with freq `freq` (a page kept, or
 * moved from S to M). */
static void q_move(struct s3fifo *f, int k, pfn_t pfn, unsigned freq)
{
	q_del(f, pfn);
	q_push(f, k, pfn, freq);
}

static unsigned freq_of(const struct s3fifo *f, pfn_t pfn) { return f->st[pfn] & FREQ; }

/* How many pages from a queue's tail prefetch_tail() looks past. */
#define SURE_KEPT 4

/* In a cache: start fetching what evicting queue k's next victim a miss
 * or more from now will touch - its state byte, the links of the frame
 * toward the head (the unlink writes them, and it is the tail after),
 * its struct page and PTE (rp_prefetch_tail's, for frames).  The victim
 * is the tail, or past it: a page at M's tail with freq > 0 (at S's, at
 * least the threshold) will be kept, whatever hits come before (freq
 * only grows until the scan comes), so the scan's victim is further on
 * - a page the tail's prefetch alone never fetched (M's evictions,
 * perf).  always_inline: a function that only prefetches is "pure" to
 * gcc, and a call of it whose result is not used is dropped. */
__attribute__((always_inline)) static inline void prefetch_tail(const struct s3fifo *f, int k)
{
	pfn_t t = f->q[k].tail;
	if (!f->cache || t == PFN_NONE)
		return;
	unsigned kept = k == QM ? 1 : f->threshold;
	for (int n = 0; n < SURE_KEPT && freq_of(f, t) >= kept && f->ln[t].prev != PFN_NONE; n++)
		t = f->ln[t].prev;
	__builtin_prefetch(&f->st[t]);
	__builtin_prefetch(&f->ln[f->ln[t].prev]); /* PFN_NONE: only a prefetch's address */
	mm_prefetch_page(f->b.mm, t);
	__builtin_prefetch(&f->b.mm->cache.ptes[f->ln[t].id]);
	__builtin_prefetch(&f->b.mm->cache.recmap[f->ln[t].id]); /* the eviction writes it */
}

/* The page of frame pfn is evicted: its identity to G's head (to_g), or
 * forgotten.  VICTIM_GONE / VICTIM_CULLED: it left its queue; otherwise
 * (the machine's core refused it) it stays. */
static enum victim_outcome leave(struct s3fifo *f, struct scan_control *sc, pfn_t pfn, bool to_g)
{
	enum victim_outcome o = idf_evict(&f->g, sc, pfn, f->ln[pfn].id, to_g);
	if (o == VICTIM_GONE || o == VICTIM_CULLED)
		q_del(f, pfn);
	return o;
}

/* M is over its share (90%): the paper's "M is full". */
static bool m_over(const struct s3fifo *f)
{
	if (f->lcs)
		return N(QM) > f->c - f->s_floor;
	return (double)N(QM) > (1.0 - f->small) * (double)f->c;
}

static void evict_m(struct s3fifo *f, struct scan_control *sc, uint64_t *budget)
{
	while (N(QM) && *budget) {
		(*budget)--;
		pfn_t t = f->q[QM].tail;
		unsigned freq = freq_of(f, t);
		if (freq > 0) {
			rp_scanned(&f->b, sc, t);
			q_move(f, QM, t, freq - 1);
			continue;
		}
		enum victim_outcome o = leave(f, sc, t, false);
		if (o == VICTIM_GONE || o == VICTIM_CULLED) {
			prefetch_tail(f, QM);
			return;
		}
		q_move(f, QM, t, freq); /* refused: the budget bounds the pass */
	}
}

static void evict_s(struct s3fifo *f, struct scan_control *sc, uint64_t *budget)
{
	while (N(QS) && *budget) {
		(*budget)--;
		pfn_t t = f->q[QS].tail;
		unsigned freq = freq_of(f, t);
		if (freq >= f->threshold) {
			rp_scanned(&f->b, sc, t);
			q_move(f, QM, t, f->lcs ? 0 : freq);
			if (!f->lcs && m_over(f))
				evict_m(f, sc, budget);
			continue;
		}
		enum victim_outcome o = leave(f, sc, t, true);
		if (o == VICTIM_GONE) {
			prefetch_tail(f, QS);
			return;
		}
		if (o == VICTIM_CULLED)
			return;
		q_move(f, QS, t, freq);
	}
}

static void s3fifo_shrink(void *p, struct scan_control *sc)
{
	struct s3fifo *f = p;
	uint64_t budget = 4 * (N(QS) + N(QM)) + 4;
	idf_incoming(&f->g); /* the page coming in leaves G first */
	while (sc->nr_reclaimed < sc->nr_to_reclaim && N(QS) + N(QM) && budget) {
		bool from_s = f->lcs ? !(m_over(f) || !N(QS))
				     : N(QS) && (double)N(QS) >= f->small * (double)f->c;
		if (from_s || !N(QM))
			evict_s(f, sc, &budget);
		else
			evict_m(f, sc, &budget);
	}
}

static void s3fifo_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct s3fifo *f = p;
	(void)why;
	bool to_m = idf_arrive(&f->g, pfn); /* G held it */
	f->ln[pfn].id = f->b.mm->cache.fault_id; /* a cache's page id */
	q_push(f, to_m ? QM : QS, pfn, 0);
}

static void s3fifo_remove(void *p, pfn_t pfn)
{
	struct s3fifo *f = p;
	if (f->st[pfn])
		q_del(f, pfn);
	idf_remove(&f->g, pfn, f->ln[pfn].id);
}

static void s3fifo_hit(void *p, pfn_t pfn, uint32_t rec)
{
	struct s3fifo *f = p;
	(void)rec;
	if (freq_of(f, pfn) < FREQ)
		f->st[pfn]++;
}

/* --check: queue k's links, states and count. */
static bool q_check(const struct s3fifo *f, int k, FILE *err)
{
	uint64_t n = 0;
	pfn_t above = PFN_NONE;
	for (pfn_t i = f->q[k].head; i != PFN_NONE; i = f->ln[i].next) {
		if (++n > N(k) || f->ln[i].prev != above || f->st[i] >> QSHIFT != k) {
			fprintf(err, "check: s3fifo queue %d broken at frame %u\n", k, i);
			return false;
		}
		above = i;
	}
	if (f->q[k].tail != above || n != N(k)) {
		fprintf(err, "check: s3fifo queue %d holds %llu frames, counted %llu\n", k, (unsigned long long)n,
			(unsigned long long)N(k));
		return false;
	}
	return true;
}

static bool s3fifo_check(void *p, FILE *err)
{
	struct s3fifo *f = p;
	if (!q_check(f, QS, err) || !q_check(f, QM, err))
		return false;
	if (N(QS) + N(QM) != rp_resident(&f->b) || NG > f->g_cap) {
		fprintf(err, "check: s3fifo S %llu M %llu G %llu (cap %llu), frame list %llu\n",
			(unsigned long long)N(QS), (unsigned long long)N(QM), (unsigned long long)NG,
			(unsigned long long)f->g_cap, (unsigned long long)rp_resident(&f->b));
		return false;
	}
	return rp_check(&f->b, "s3fifo", err);
}

const struct policy_ops s3fifo_policy = {
	.name = "s3fifo",
	.summary = "S3-FIFO: small FIFO, main FIFO with reinsertion, ghost FIFO (SOSP 2023)",
	.tunables = s3fifo_tunables,
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = s3fifo_init,
	.destroy = s3fifo_destroy,
	.add = s3fifo_add,
	.remove = s3fifo_remove,
	.access = rp_access,
	.shrink = s3fifo_shrink,
	.check = s3fifo_check,
	.frames_ok = s3fifo_frames_ok,
};
