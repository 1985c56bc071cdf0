/* test_memcglru.c - MGLRU's memcg LRU (src/mm/memcg_lru.c, 6.6
 * mm/vmscan.c lru_gen_rotate_memcg(), lru_gen_online_memcg(),
 * shrink_many(), shrink_one()), on hand-built trees with a scripted
 * policy: each lruvec's shrink() says what try_to_shrink_lruvec() and
 * lruvec_is_sizable() would have, and the cases are worked by hand from
 * the kernel's code.  The bins the kernel draws at random come from a
 * seed the test picks so the draws are the ones the case needs. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/mm/memcg_lru.h"
#include "../src/policy/mglru/mglru.h"

#include <string.h>

void test_memcg_lru_rotate_ops(void);
void test_memcg_lru_online_tail(void);
void test_memcg_lru_shrink_many_order(void);
void test_memcg_lru_abort_and_seq(void);
void test_memcg_lru_low_and_min(void);
void test_memcg_lru_limit_reclaim_young(void);
void test_memcg_lru_node_priority(void);

/* The bin fifo[gen][bin] as a string of ids ("0 2 1"). */
static const char *bin_str(const struct memcg_lru *l, int gen, int bin)
{
	static char s[64];
	size_t n = 0;
	s[0] = 0;
	for (int i = 0; i < l->len[gen][bin]; i++)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%s%d", i ? " " : "", l->fifo[gen][bin][i]);
	return s;
}

/* ids in fifo[gen][bin], head first */
static void put(struct memcg_lru *l, int gen, int bin, const int *ids, int n)
{
	for (int i = 0; i < n; i++) {
		l->fifo[gen][bin][l->len[gen][bin]++] = (uint8_t)ids[i];
		l->gen[ids[i]] = (uint8_t)gen;
		l->nr_memcgs[gen]++;
	}
}

/* lru_gen_rotate_memcg() by hand: HEAD/TAIL stay in the generation and
 * set the segment, OLD goes to the head of an old bin, YOUNG to the tail
 * of a young one, both resetting it; the old generation emptied makes
 * seq go up, and the young generation is then the old one. */
void test_memcg_lru_rotate_ops(void)
{
	struct memcg_lru l;
	memset(&l, 0, sizeof(l));
	put(&l, 0, 0, (const int[]){ 0, 1, 2 }, 3);
	memcg_lru_rotate_bin(&l, 1, MEMCG_LRU_TAIL, 0);
	CHECK(!strcmp(bin_str(&l, 0, 0), "0 2 1"));
	CHECK_EQ(l.seg[1], MEMCG_LRU_TAIL);
	memcg_lru_rotate_bin(&l, 2, MEMCG_LRU_HEAD, 3);
	CHECK(!strcmp(bin_str(&l, 0, 0), "0 1"));
	CHECK(!strcmp(bin_str(&l, 0, 3), "2"));
	CHECK_EQ(l.seg[2], MEMCG_LRU_HEAD);
	CHECK_EQ(l.gen[2], 0);
	memcg_lru_rotate_bin(&l, 0, MEMCG_LRU_YOUNG, 5);
	memcg_lru_rotate_bin(&l, 1, MEMCG_LRU_YOUNG, 5);
	CHECK(!strcmp(bin_str(&l, 1, 5), "0 1"));
	CHECK_EQ(l.seg[1], 0);
	CHECK_EQ(l.nr_memcgs[0], 1);
	CHECK_EQ(l.nr_memcgs[1], 2);
	CHECK_EQ(l.seq, 0);
	memcg_lru_rotate_bin(&l, 2, MEMCG_LRU_YOUNG, 0);   /* the last old one */
	CHECK_EQ(l.seq, 1);
	CHECK_EQ(l.nr_memcgs[0], 0);
	CHECK(!strcmp(bin_str(&l, 1, 0), "2"));
	/* now gen 1 is old: OLD puts 0 at the head of an old bin, YOUNG
	 * sends 1 to gen 2 */
	memcg_lru_rotate_bin(&l, 0, MEMCG_LRU_OLD, 0);
	CHECK(!strcmp(bin_str(&l, 1, 0), "0 2"));
	CHECK(!strcmp(bin_str(&l, 1, 5), "1"));
	memcg_lru_rotate_bin(&l, 1, MEMCG_LRU_YOUNG, 2);
	CHECK_EQ(l.gen[1], 2);
	CHECK_EQ(l.seq, 1);
	CHECK(memcg_lru_check(&l, 3, stderr));
	/* the young generation wraps: seq 2 makes gen 0 young again */
	memcg_lru_rotate_bin(&l, 0, MEMCG_LRU_YOUNG, 1);
	memcg_lru_rotate_bin(&l, 2, MEMCG_LRU_YOUNG, 1);
	CHECK_EQ(l.seq, 2);
	CHECK(!strcmp(bin_str(&l, 2, 1), "0 2"));
	memcg_lru_rotate_bin(&l, 1, MEMCG_LRU_YOUNG, 4);
	CHECK_EQ(l.gen[1], 0);
	CHECK(memcg_lru_check(&l, 3, stderr));
	/* --check finds a count that disagrees with the bins */
	l.nr_memcgs[0]++;
	FILE *devnull = fopen("/dev/null", "w");
	CHECK(!memcg_lru_check(&l, 3, devnull));
	fclose(devnull);
}

/* A small tree to shrink: root (0), /a (1), /b (2), each with pages
 * charged (an empty memcg is below its min: 0 >= 0). */
static struct cgtree tree;
static struct mm mm;
static int inst[CG_MAX + 1];

/* The scripted policy: call k of the pass is recorded; what the lruvec
 * of cgroup c returns is script[c] (reclaimed, rotate, sizable, abort). */
struct verdict { uint64_t reclaimed; bool rotate, sizable, abort; };
static struct verdict script[CG_MAX + 1];
static int calls[16], nr_calls;
static uint64_t progress[16];

static void fake_shrink(void *p, struct scan_control *sc)
{
	int c = (int)((int *)p - inst);
	const struct verdict *v = &script[c];
	if (nr_calls < 16) {
		progress[nr_calls] = sc->nr_progress;
		calls[nr_calls++] = c;
	}
	sc->nr_reclaimed += v->reclaimed;
	sc->lru_gen_rotate = v->rotate;
	sc->lru_gen_sizable = v->sizable;
	sc->lru_gen_abort = v->abort;
}

static const struct policy_ops fake = { .name = "scripted", .shrink = fake_shrink };

static struct memcg_lru lru;

/* A seed whose first draws below MEMCG_NR_BINS are want[0..n-1]: the kernel's get_random_u32_below() picks, fixed for the case. */
static void seed_draws(struct memcg_lru *l, const int *want, int n)
{
	for (uint64_t s = 1; s < 1000000; s++) {
		struct rng r;
		rng_seed(&r, s);
		int i = 0;
		while (i < n && (int)rng_below(&r, MEMCG_NR_BINS) == want[i])
			i++;
		if (i == n) {
			rng_seed(&l->rng, s);
			return;
		}
	}
	panic("no seed for the draws");
}

static void setup(int n)
{
	memset(&tree, 0, sizeof(tree));
	memset(&mm, 0, sizeof(mm));
	memset(&lru, 0, sizeof(lru));
	memset(script, 0, sizeof(script));
	nr_calls = 0;
	tree.n = n;
	tree.per_cg = true;
	tree.shrinking = -1;
	for (int c = 0; c < n; c++) {
		tree.priv[c] = &inst[c];
		tree.order[c] = c;
		tree.pc[c] = (struct pc_node){ .parent = c ? 0 : -1, .usage = 100 };
		tree.cg[c].current = 100;
	}
	tree.mlru = &lru;
	mm.cgt = &tree;
	mm.pol.ops = &fake;
}

/* shrink_many() over one bin [0 1 2], worked by hand.  The root is too
 * small (not sizable, its aging did not run): TAIL, rotated once the walk
 * has read its successor - into bin 0 again (the draw), so at its tail
 * the walk meets it once more, and this time (seg TAIL) it goes YOUNG.
 * /a's aging ran: YOUNG.  /b is sizable: it stays.  One scan_control
 * goes from memcg to memcg: each lruvec is told what the ones before it
 * reclaimed (nr_progress 0, 0, 10, 30). */
void test_memcg_lru_shrink_many_order(void)
{
	setup(3);
	put(&lru, 0, 0, (const int[]){ 0, 1, 2 }, 3);
	/* draws: the first bin (0), then the bins of three rotations */
	seed_draws(&lru, (const int[]){ 0, 0, 6, 6 }, 4);
	script[1] = (struct verdict){ .reclaimed = 10, .rotate = true };
	script[2] = (struct verdict){ .reclaimed = 20, .sizable = true };
	struct scan_control sc = { .nr_to_reclaim = 100, .who = RECLAIM_KSWAPD };
	memcg_lru_shrink_many(&mm, &sc);
	CHECK_EQ(nr_calls, 4);
	CHECK(calls[0] == 0 && calls[1] == 1 && calls[2] == 2 && calls[3] == 0);
	CHECK(progress[0] == 0 && progress[1] == 0 && progress[2] == 10 && progress[3] == 30);
	CHECK_EQ(sc.nr_reclaimed, 30);
	CHECK(!strcmp(bin_str(&lru, 0, 0), "2"));
	CHECK(!strcmp(bin_str(&lru, 1, 6), "1 0"));
	CHECK_EQ(lru.seg[0], 0);
	CHECK_EQ(lru.seq, 0);
	CHECK_EQ(tree.cg[1].stat[CGS_PGSCAN] + tree.cg[2].stat[CGS_PGSCAN], 0);
	CHECK(memcg_lru_check(&lru, 3, stderr));
}

/* should_abort_scan() ends the walk after /a: /a is still rotated (its
 * aging ran: young), /b waits for the next pass.  That pass starts in the
 * old generation, /b alone; /b's aging runs, so the old generation
 * empties and seq goes up: the young one is now the old. */
void test_memcg_lru_abort_and_seq(void)
{
	setup(3);
	put(&lru, 0, 4, (const int[]){ 1, 2 }, 2);
	put(&lru, 1, 0, (const int[]){ 0 }, 1);
	seed_draws(&lru, (const int[]){ 4, 3, 2, 3 }, 4);
	script[1] = (struct verdict){ .reclaimed = 40, .rotate = true, .abort = true };
	script[2] = (struct verdict){ .reclaimed = 5, .rotate = true };
	struct scan_control sc = { .nr_to_reclaim = 32, .who = RECLAIM_DIRECT };
	memcg_lru_shrink_many(&mm, &sc);
	CHECK_EQ(nr_calls, 1);
	CHECK_EQ(calls[0], 1);
	CHECK(!strcmp(bin_str(&lru, 0, 4), "2"));
	CHECK(!strcmp(bin_str(&lru, 1, 3), "1"));
	CHECK_EQ(lru.seq, 0);
	struct scan_control sc2 = { .nr_to_reclaim = 32, .who = RECLAIM_DIRECT };
	memcg_lru_shrink_many(&mm, &sc2);   /* first bin 2: empty; then 3, 4 */
	CHECK_EQ(nr_calls, 2);
	CHECK_EQ(calls[1], 2);
	CHECK_EQ(lru.seq, 1);
	CHECK_EQ(lru.nr_memcgs[0], 0);
	CHECK_EQ(lru.nr_memcgs[1], 3);
	CHECK(memcg_lru_check(&lru, 3, stderr));
}

/* memory.low and memory.min in shrink_one(): /a below its low is passed
 * over the first time (TAIL, no memory.events low); rotated into the same
 * bin it is met again in the same walk, now at the tail, and reclaimed,
 * counting one low event.  /b below its min is never shrunk: YOUNG.  No
 * memcg_low_skipped is left for do_try_to_free_pages() to retry. */
void test_memcg_lru_low_and_min(void)
{
	setup(3);
	tree.cg[1].conf.low = 100;   /* usage 100: below low */
	tree.cg[2].conf.min = 100;   /* below min */
	/* the pre-order walk's verdicts: both skipped, memcg_low_skipped */
	tree.mlru = NULL;
	memcg_prot_begin(&mm);
	CHECK(tree.prot_skip[1] && tree.prot_skip[2] && tree.low_skipped);
	memcg_prot_end(&mm);
	tree.low_skipped = false;
	/* the memcg LRU's: none, shrink_one() judges */
	tree.mlru = &lru;
	memcg_prot_begin(&mm);
	CHECK(!tree.prot_skip[1] && !tree.prot_skip[2] && !tree.low_skipped);
	put(&lru, 0, 0, (const int[]){ 1, 2, 0 }, 3);
	seed_draws(&lru, (const int[]){ 0, 0, 7 }, 3);
	for (int c = 0; c < 3; c++)
		script[c] = (struct verdict){ .reclaimed = 1, .sizable = true };
	struct scan_control sc = { .nr_to_reclaim = 100, .who = RECLAIM_KSWAPD };
	memcg_lru_shrink_many(&mm, &sc);
	/* walk: 1 (TAIL, into bin 0: "2 0 1"), 2 (below min: YOUNG, bin
	 * 7), 0 (sizable: stays), 1 again (reclaimed; sizable: stays) */
	CHECK_EQ(nr_calls, 2);
	CHECK(calls[0] == 0 && calls[1] == 1);
	CHECK_EQ(tree.cg[1].events[CGE_LOW], 1);
	CHECK_EQ(tree.cg[2].events[CGE_LOW], 0);
	CHECK(!strcmp(bin_str(&lru, 0, 0), "0 1"));
	CHECK(!strcmp(bin_str(&lru, 1, 7), "2"));
	CHECK_EQ(lru.seg[1], MEMCG_LRU_TAIL);
	CHECK(!tree.low_skipped);
	memcg_prot_end(&mm);
}

/* Limit reclaim still walks the subtree in pre-order (cgtree_lru.c,
 * shrink_node_memcgs()), and lru_gen_shrink_lruvec() rotates a lruvec
 * whose aging ran YOUNG: /a/x's does, /a's does not. */
void test_memcg_lru_limit_reclaim_young(void)
{
	setup(3);
	tree.cg[2].conf.parent = 1;   /* /a/x under /a */
	tree.pc[2].parent = 1;
	tree.target = 1;
	put(&lru, 0, 0, (const int[]){ 0, 1, 2 }, 3);
	seed_draws(&lru, (const int[]){ 5 }, 1);
	script[1] = (struct verdict){ .reclaimed = 3, .sizable = true };
	script[2] = (struct verdict){ .reclaimed = 4, .rotate = true };
	struct scan_control sc = { .nr_to_reclaim = 32, .who = RECLAIM_DIRECT, .cgroup = true };
	cgtree_lru_shrink(&mm, &sc);
	CHECK_EQ(nr_calls, 2);
	CHECK(calls[0] == 1 && calls[1] == 2);
	CHECK(progress[0] == 0 && progress[1] == 0);   /* each lruvec its own count */
	CHECK_EQ(sc.nr_reclaimed, 7);
	CHECK(!strcmp(bin_str(&lru, 0, 0), "0 1"));
	CHECK(!strcmp(bin_str(&lru, 1, 5), "2"));
}

/* lru_gen_online_memcg(): the root and each cgroup in id order, each at
 * the tail of a random bin of the old generation (the run's seed draws
 * the bins: here seed 7's). */
void test_memcg_lru_online_tail(void)
{
	setup(6);
	mm.seed = 7;
	tree.mlru = NULL;
	memcg_lru_init(&mm);
	struct memcg_lru *l = tree.mlru;
	struct rng r;
	rng_seed(&r, 7 ^ 0x6d656d63676c7275ULL);
	int where[6], seen[MEMCG_NR_BINS] = { 0 };
	for (int c = 0; c < 6; c++) {
		where[c] = (int)rng_below(&r, MEMCG_NR_BINS);
		CHECK_EQ(l->fifo[0][where[c]][seen[where[c]]++], c);   /* in id order: tails */
		CHECK_EQ(l->gen[c], 0);
	}
	CHECK_EQ(l->nr_memcgs[0], 6);
	CHECK_EQ(l->seq, 0);
	CHECK(memcg_lru_check(l, 6, stderr));
	memcg_lru_free(&mm);
	CHECK(tree.mlru == NULL);
}

/* lru_gen_shrink_node()'s set_initial_priority() for the node, before
 * the memcg LRU's walk (mg_node_priority()): the inactive generations
 * (all but max_seq and max_seq - 1) of every memcg's lruvec, file only
 * when the root's may not swap.  Two lruvecs with 1500 and 2596 inactive
 * file pages: 4096, so for 64 pages priority fls(4096) - 1 - fls(63) =
 * 12 - 6 = 6, where the first alone would give 10 - 6 = 4; anon counts
 * once the root may swap (8192: 7). */
void test_memcg_lru_node_priority(void)
{
	static struct mm m;
	static struct mglru a, b;
	memset(&m, 0, sizeof(m));
	struct mglru *g[2] = { &a, &b };
	for (int i = 0; i < 2; i++) {
		memset(g[i], 0, sizeof(*g[i]));
		g[i]->mm = &m;
		g[i]->max_nr_gens = 4;
		g[i]->min_lru_batch = 64;
		g[i]->swappiness = 60;
		g[i]->max_seq = 3;
		g[i]->nr_pages[2][MG_FILE] = 999;   /* seq 2: active, not counted */
		g[i]->nr_pages[0][MG_ANON] = 2048;
	}
	a.nr_pages[0][MG_FILE] = 1000;
	a.nr_pages[1][MG_FILE] = 500;
	b.nr_pages[0][MG_FILE] = 2000;
	b.nr_pages[1][MG_FILE] = 596;
	struct scan_control sc = { .nr_to_reclaim = 64, .priority = DEF_PRIORITY, .may_swap = true };
	mg_node_priority((void *const *)g, 2, &sc);   /* no swap space: file only */
	CHECK_EQ(sc.priority, 6);
	m.swap.nr_slots = 1000;
	sc.priority = DEF_PRIORITY;
	mg_node_priority((void *const *)g, 2, &sc);
	CHECK_EQ(sc.priority, 7);
	/* not at DEF_PRIORITY, or under MIN_LRU_BATCH: left as it is */
	sc.priority = 9;
	mg_node_priority((void *const *)g, 2, &sc);
	CHECK_EQ(sc.priority, 9);
	sc.priority = DEF_PRIORITY;
	sc.nr_to_reclaim = 32;
	mg_node_priority((void *const *)g, 2, &sc);
	CHECK_EQ(sc.priority, DEF_PRIORITY);
}
