/* test_recursiveprot.c - `--set memory_recursiveprot=1` reaching the
 * cgroup tree's reclaim passes (memcg_prot_begin(), src/mm/memcg_hooks.c),
 * worked by hand from 6.x mm/page_counter.c effective_protection()'s
 * recursive branch: a child's own claim min(usage, low), plus the
 * parent's unclaimed effective protection shared in proportion to its
 * unprotected usage, (parent_elow - siblings_protected) * (usage -
 * protected) / (parent_usage - siblings_protected), truncated.  Sizes in
 * pages; kswapd's or direct reclaim's target, the root. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/engine/cgspec.h"

#include <stdlib.h>
#include <string.h>

void test_recursiveprot_three_levels(void);
void test_recursiveprot_off_by_default(void);

/*   root
 *   +- /p    low 600
 *      +- /p/x        (its own pages and /p/x/z's)
 *      |  +- /p/x/z
 *      +- /p/y                                      */
enum { P = 1, X, Z, Y };

static struct mm *tree(bool recursiveprot, const uint64_t *current)
{
	struct cg_tree_conf conf = { 0 };
	char err[256];
	struct mm *mm = calloc(1, sizeof(*mm));

	CHECK(cgspec_add(&conf, "/p:low=2400K", err, sizeof(err))); /* 600 pages */
	CHECK(cgspec_add(&conf, "/p/x/z", err, sizeof(err)));        /* /p/x implied: 2 */
	CHECK(cgspec_add(&conf, "/p/y", err, sizeof(err)));
	CHECK_EQ(conf.n, 4);
	conf.recursiveprot = recursiveprot;
	mm_cgtree_init(mm, &conf);
	for (int c = P; c <= Y; c++)
		mm->cgt->cg[c].current = current[c];
	memcg_prot_begin(mm);
	return mm;
}

static void done(struct mm *mm)
{
	memcg_prot_end(mm);
	mm_cgtree_free(mm);
	free(mm);
}

void test_recursiveprot_three_levels(void)
{
	/* /p 700 = /p/x 400 (100 own + /p/x/z 300) + /p/y 300 */
	static const uint64_t cur[] = { [P] = 700, [X] = 400, [Z] = 300, [Y] = 300 };
	struct mm *mm = tree(true, cur);
	const struct cgtree *t = mm->cgt;

	CHECK_EQ(t->pc[P].elow, 600);        /* the root's child: its declared low */
	CHECK_EQ(t->pc[X].elow, 342);        /* 0 + 600 * 400 / 700 = 342.86 */
	CHECK_EQ(t->pc[Y].elow, 257);        /* 0 + 600 * 300 / 700 = 257.14 */
	CHECK_EQ(t->pc[Z].elow, 256);        /* 0 + 342 * 300 / 400 = 256.5 */
	for (int c = P; c <= Y; c++)         /* each above its elow */
		CHECK(!t->prot_skip[c]);
	CHECK(!t->low_skipped);
	done(mm);

	/* /p exactly at its low, 600 = 350 (50 own + 300) + 250: every
	 * descendant's share reaches its usage, all skipped. */
	static const uint64_t at[] = { [P] = 600, [X] = 350, [Z] = 300, [Y] = 250 };
	mm = tree(true, at);
	t = mm->cgt;
	CHECK_EQ(t->pc[X].elow, 350);        /* 600 * 350 / 600 */
	CHECK_EQ(t->pc[Y].elow, 250);        /* 600 * 250 / 600 */
	CHECK_EQ(t->pc[Z].elow, 300);        /* 350 * 300 / 350 */
	for (int c = P; c <= Y; c++)
		CHECK(t->prot_skip[c]);
	CHECK(t->low_skipped);
	done(mm);
}

void test_recursiveprot_off_by_default(void)
{
	static const uint64_t at[] = { [P] = 600, [X] = 350, [Z] = 300, [Y] = 250 };
	struct mm *mm = tree(false, at);
	const struct cgtree *t = mm->cgt;

	/* No claim below /p: only /p is protected (and skipped). */
	CHECK_EQ(t->pc[P].elow, 600);
	CHECK_EQ(t->pc[X].elow, 0);
	CHECK_EQ(t->pc[Y].elow, 0);
	CHECK_EQ(t->pc[Z].elow, 0);
	CHECK(t->prot_skip[P]);
	CHECK(!t->prot_skip[X] && !t->prot_skip[Y] && !t->prot_skip[Z]);
	done(mm);
}
