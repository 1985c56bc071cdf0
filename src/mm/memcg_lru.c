/* memcg_lru.c - MGLRU's memcg LRU: which cgroup's lruvec global reclaim
 * shrinks next, under a --cgroup tree with a POLICY_MEMCG_GEN_LRU policy
 * (mglru, memcg_lru=1).
 *
 * Follows mm/vmscan.c with Yu Zhao's December 2023 fixes (6.7, marked
 * for 6.6's stable branch): "mm/mglru: reclaim offlined memcgs harder"
 * and "try to stop at high watermarks", whose should_abort_scan()
 * pagelab's mglru has; and include/linux/mmzone.h's comment on
 * MEMCG_NR_GENS.  The 6.6 release itself returned TAIL / YOUNG for an
 * unsizable memcg before shrinking it, YOUNG only when the aging ran, and
 * stopped shrink_many() at sc->nr_reclaimed >= nr_to_reclaim alone.
 *
 * - Memcgs are in two generations, old (pgdat->memcg_lru.seq) and young
 *   (seq + 1), MEMCG_NR_GENS = 3 so a stale seq - 1 does not read as
 *   young; each generation is MEMCG_NR_BINS lists (bins), each with a
 *   head and a tail segment.  lru_gen_online_memcg(): a new memcg goes
 *   to the tail of a random bin of the old generation.
 * - lru_gen_rotate_memcg(): HEAD and TAIL move a memcg to the head / tail
 *   of a random bin of its own generation and set its segment; OLD moves
 *   it to the head of a random old bin, YOUNG to the tail of a random
 *   young bin, both resetting the segment.  When the old generation
 *   empties, seq goes up by one: the young generation becomes the old.
 * - lru_gen_shrink_node() -> shrink_many(): from a random bin of the old
 *   generation, each memcg in list order gets shrink_one(); what it
 *   returns rotates it once the walk has moved past it (so one put at
 *   the tail of the same bin is met again in this walk); the walk stops
 *   when should_abort_scan() says enough, else goes on with the next
 *   bins, once round.
 * - shrink_one(): below memory.min -> YOUNG, unreclaimed; below
 *   memory.low -> TAIL the first time (unreclaimed), the second time
 *   (already at the tail) reclaimed, with memory.events low; else
 *   try_to_shrink_lruvec(): it ended because the aging ran -> YOUNG;
 *   not, and the lruvec is sizable at this priority -> stay (0); too
 *   small -> TAIL, then YOUNG on the next visit.
 * - Limit reclaim (memory.max, memory.high, memory.reclaim) still walks
 *   the subtree with mem_cgroup_iter() (shrink_node_memcgs(),
 *   cgtree_lru.c), and lru_gen_shrink_lruvec() rotates a lruvec whose
 *   aging ran YOUNG (memcg_lru_rotate() from there).
 *
 * 6.18 has the same memcg LRU, with mem_cgroup_calculate_protection()
 * moved to lru_gen_age_node().  One scan_control goes from memcg to memcg
 * (sc->nr_progress), so the target is the pass's, not each lruvec's as
 * in the pre-order walk (memcg_lru=0).  Not modelled: lru_gen_offline_
 * memcg() / release (cgroups live as long as the run), the soft limit's
 * lru_gen_soft_reclaim() (cgroup v1 memory.soft_limit_in_bytes, which
 * pagelab has no key for: MEMCG_LRU_HEAD is never asked), races (the
 * restart when a walk crosses into another list; gen != lrugen->gen).
 * set_initial_priority() is the node's, from every lruvec's inactive
 * pages (the policy's node_priority()), as lru_gen_shrink_node() does
 * before shrink_many(); the pre-order walk leaves it to each lruvec. */
#include "internal.h"
#include "memcg_lru.h"
#include "page_counter.h"

#include <stdlib.h>
#include <string.h>

void memcg_lru_init(struct mm *mm)
{
	struct cgtree *t = mm->cgt;
	struct memcg_lru *l = xcalloc(1, sizeof(*l));
	/* a stream of its own: other draws of the run stay as they were */
	rng_seed(&l->rng, mm->seed ^ 0x6d656d63676c7275ULL);
	for (int c = 0; c < t->n; c++) {
		int gen = memcg_gen(l->seq), bin = (int)rng_below(&l->rng, MEMCG_NR_BINS);
		l->gen[c] = (uint8_t)gen;
		l->fifo[gen][bin][l->len[gen][bin]++] = (uint8_t)c;
		l->nr_memcgs[gen]++;
	}
	t->mlru = l;
}

void memcg_lru_free(struct mm *mm)
{
	free(mm->cgt->mlru);
	mm->cgt->mlru = NULL;
}

bool memcg_lru_global(const struct mm *mm)
{
	return mm->cgt && mm->cgt->mlru && mm->cgt->target == 0;
}

/* Where cg is in its generation's bins (bin, index); false: nowhere. */
static bool find(const struct memcg_lru *l, int cg, int *bin, int *idx)
{
	int gen = l->gen[cg];
	for (int b = 0; b < MEMCG_NR_BINS; b++)
		for (int i = 0; i < l->len[gen][b]; i++)
			if (l->fifo[gen][b][i] == cg) {
				*bin = b;
				*idx = i;
				return true;
			}
	return false;
}

static void list_del(struct memcg_lru *l, int gen, int bin, int idx)
{
	uint8_t *a = l->fifo[gen][bin];
	memmove(a + idx, a + idx + 1, (size_t)(l->len[gen][bin] - idx - 1));
	l->len[gen][bin]--;
}

void memcg_lru_rotate_bin(struct memcg_lru *l, int cg, int op, int bin)
{
	int old = l->gen[cg], new = old, seg = 0, b, i;
	if (op == MEMCG_LRU_HEAD || op == MEMCG_LRU_TAIL)
		seg = op;
	else if (op == MEMCG_LRU_OLD)
		new = memcg_gen(l->seq);
	else if (op == MEMCG_LRU_YOUNG)
		new = memcg_gen(l->seq + 1);
	if (!find(l, cg, &b, &i))
		panic("memcg LRU: cgroup %d in no bin", cg);
	list_del(l, old, b, i);
	uint8_t *a = l->fifo[new][bin];
	int n = l->len[new][bin]++;
	if (op == MEMCG_LRU_HEAD || op == MEMCG_LRU_OLD) {
		memmove(a + 1, a, (size_t)n);
		a[0] = (uint8_t)cg;
	} else {
		a[n] = (uint8_t)cg;
	}
	l->seg[cg] = (uint8_t)seg;
	l->gen[cg] = (uint8_t)new;
	l->nr_memcgs[old]--;
	l->nr_memcgs[new]++;
	/* the old generation is empty: the young one becomes the old */
	if (!l->nr_memcgs[old] && old == memcg_gen(l->seq))
		l->seq++;
}

void memcg_lru_rotate(struct memcg_lru *l, int cg, int op)
{
	memcg_lru_rotate_bin(l, cg, op, (int)rng_below(&l->rng, MEMCG_NR_BINS));
}

/* shrink_one(): cg's lruvec, and where the memcg LRU should put it
 * (*abort: should_abort_scan() after it, left as it was when the lruvec
 * was not shrunk, since nothing changed). */
static int shrink_one(struct mm *mm, struct scan_control *sc, int cg, bool *abort)
{
	struct cgtree *t = mm->cgt;
	struct memcg_lru *l = t->mlru;
	/* mem_cgroup_calculate_protection(NULL, memcg): memcg_prot_begin()
	 * computed t->pc from the root for this pass */
	if (pc_below_min(t->pc, 0, cg))
		return MEMCG_LRU_YOUNG;
	if (pc_below_low(t->pc, 0, cg)) {
		if (l->seg[cg] != MEMCG_LRU_TAIL)
			return MEMCG_LRU_TAIL;
		cgtree_event(t, cg, CGE_LOW);
	}
	struct scan_control sub;
	cgtree_lruvec_shrink(mm, sc, cg, sc->nr_reclaimed + sc->nr_writeback, &sub);
	*abort = sub.lru_gen_abort;
	if (sub.lru_gen_rotate)
		return MEMCG_LRU_YOUNG;
	if (sub.lru_gen_sizable)
		return 0;
	/* one retry if too small */
	return l->seg[cg] != MEMCG_LRU_TAIL ? MEMCG_LRU_TAIL : MEMCG_LRU_YOUNG;
}

/* The successor of cg in fifo[gen][bin] (-1: the end). */
static int next_in(const struct memcg_lru *l, int gen, int bin, int cg)
{
	for (int i = 0; i + 1 < l->len[gen][bin]; i++)
		if (l->fifo[gen][bin][i] == cg)
			return l->fifo[gen][bin][i + 1];
	return -1;
}

/* One hlist_nulls_for_each_entry_rcu() of shrink_many() over a bin:
 * true when should_abort_scan() ended it.  The rotation of a memcg waits
 * until the walk has read its successor, as the kernel's loop rotates
 * the previous entry at the top of the next. */
static bool walk_bin(struct mm *mm, struct scan_control *sc, int gen, int bin, bool *abort)
{
	struct memcg_lru *l = mm->cgt->mlru;
	int op = 0, prev = -1;
	int cur = l->len[gen][bin] ? l->fifo[gen][bin][0] : -1;
	while (cur >= 0) {
		if (op)
			memcg_lru_rotate(l, prev, op);
		op = shrink_one(mm, sc, cur, abort);
		prev = cur;
		if (*abort)
			break;
		cur = next_in(l, gen, bin, cur);
	}
	if (op)
		memcg_lru_rotate(l, prev, op);
	return *abort;
}

void memcg_lru_shrink_many(struct mm *mm, struct scan_control *sc)
{
	struct cgtree *t = mm->cgt;
	struct memcg_lru *l = t->mlru;
	bool abort = false;
	if (mm->pol.ops->node_priority)
		mm->pol.ops->node_priority(t->priv, t->n, sc);
	sc->lru_gen_node = true;
	int gen = memcg_gen(l->seq);
	int first = (int)rng_below(&l->rng, MEMCG_NR_BINS), bin = first;
	do {
		if (walk_bin(mm, sc, gen, bin, &abort))
			return;
		bin = (bin + 1) % MEMCG_NR_BINS;   /* get_memcg_bin(bin + 1) */
	} while (bin != first);
}

bool memcg_lru_check(const struct memcg_lru *l, int n, FILE *err)
{
	int seen[CG_MAX + 1] = { 0 }, count[MEMCG_NR_GENS] = { 0 };
	bool ok = true;
	for (int g = 0; g < MEMCG_NR_GENS; g++)
		for (int b = 0; b < MEMCG_NR_BINS; b++)
			for (int i = 0; i < l->len[g][b]; i++) {
				int c = l->fifo[g][b][i];
				count[g]++;
				if (c >= n || seen[c]++ || l->gen[c] != g) {
					fprintf(err, "check: memcg LRU: cgroup %d twice, unknown or in gen %d not %d\n",
						c, g, c < n ? l->gen[c] : -1);
					ok = false;
				}
			}
	for (int c = 0; c < n; c++)
		if (!seen[c]) {
			fprintf(err, "check: memcg LRU: cgroup %d in no bin\n", c);
			ok = false;
		}
	for (int g = 0; g < MEMCG_NR_GENS; g++)
		if (count[g] != l->nr_memcgs[g]) {
			fprintf(err, "check: memcg LRU: gen %d holds %d, nr_memcgs says %d\n", g, count[g],
				l->nr_memcgs[g]);
			ok = false;
		}
	return ok;
}
