/* test_page_counter.c - src/mm/page_counter.c against effective
 * protection worked by hand from 6.x mm/page_counter.c
 * effective_protection() (integer division truncates, as the kernel's
 * unsigned long arithmetic does).  Pages throughout. */
#include "test.h"
#include "../src/mm/page_counter.h"

void test_page_counter_overcommitted_low(void);
void test_page_counter_overcommitted_min_recursive(void);
void test_page_counter_recursiveprot_floating(void);
void test_page_counter_reclaim_below_top(void);
void test_page_counter_bad_tree(void);
void test_page_counter_scan_target(void);

enum { ROOT, A, A1, A2, A3, B, A1a, A1b, A4, NR1 };

/* Tree 1, three levels under the root cgroup, low overcommitted at two
 * levels:
 *
 *   root 1000
 *   +- A   600  low 300  min 100
 *   |  +- A1  300  low 200  min 100
 *   |  |  +- A1a 200 low 150
 *   |  |  +- A1b 100 low 100
 *   |  +- A2  200  low 150  min 100
 *   |  +- A3  100  low 100
 *   |  +- A4    0  low  50
 *   +- B   400
 */
static void tree1(struct pc_node *n)
{
	static const struct pc_node t[NR1] = {
		[ROOT] = { .parent = -1,  .usage = 1000 },
		[A]    = { .parent = ROOT, .usage = 600, .low = 300, .min = 100 },
		[A1]   = { .parent = A,    .usage = 300, .low = 200, .min = 100 },
		[A2]   = { .parent = A,    .usage = 200, .low = 150, .min = 100 },
		[A3]   = { .parent = A,    .usage = 100, .low = 100 },
		[B]    = { .parent = ROOT, .usage = 400 },
		[A1a]  = { .parent = A1,   .usage = 200, .low = 150 },
		[A1b]  = { .parent = A1,   .usage = 100, .low = 100 },
		[A4]   = { .parent = A,    .usage = 0,   .low = 50 },
	};
	for (int i = 0; i < NR1; i++) {
		n[i] = t[i];
		n[i].emin = n[i].elow = 777; /* stale values */
	}
}

static void tree1_calculate(struct pc_node *n, int root, bool recursiveprot)
{
	tree1(n);
	CHECK(pc_calculate_protection(n, NR1, root, recursiveprot));
}

void test_page_counter_overcommitted_low(void)
{
	struct pc_node n[NR1];

	tree1_calculate(n, ROOT, false);
	/* Level 1 (parent is the reclaim root): the declared values. */
	CHECK_EQ(n[A].elow, 300);
	CHECK_EQ(n[B].elow, 0);
	/* A's children claim min(300,200) + min(200,150) + min(100,100)
	 * + min(0,50) = 450 > A.elow 300: shares of 300 by claimed use. */
	CHECK_EQ(n[A].children_low_usage, 450);
	CHECK_EQ(n[A1].elow, 133);  /* 200 * 300 / 450 = 133.3 */
	CHECK_EQ(n[A2].elow, 100);  /* 150 * 300 / 450 */
	CHECK_EQ(n[A3].elow, 66);   /* 100 * 300 / 450 = 66.7 */
	CHECK_EQ(n[A4].elow, 0);    /* no usage: nothing to protect */
	/* A1's children: 150 + 100 = 250 > A1.elow 133. */
	CHECK_EQ(n[A1].children_low_usage, 250);
	CHECK_EQ(n[A1a].elow, 79);  /* 150 * 133 / 250 = 79.8 */
	CHECK_EQ(n[A1b].elow, 53);  /* 100 * 133 / 250 = 53.2 */
	/* min: A's children claim 100 + 100 + 0 = 200 > A.emin 100. */
	CHECK_EQ(n[A].emin, 100);
	CHECK_EQ(n[A1].emin, 50);   /* 100 * 100 / 200 */
	CHECK_EQ(n[A2].emin, 50);
	CHECK_EQ(n[A3].emin, 0);
	/* A1's children claim no min and recursiveprot is off. */
	CHECK_EQ(n[A1a].emin, 0);
	CHECK_EQ(n[A1b].emin, 0);
	/* The root's values are never read; set to 0. */
	CHECK_EQ(n[ROOT].elow, 0);
	/* Nobody's usage is within its elow. */
	for (int i = 0; i < NR1; i++)
		CHECK(!pc_below_low(n, ROOT, i) || i == A4);
	CHECK(pc_below_low(n, ROOT, A4)); /* 0 >= 0, as the kernel's >= */
	CHECK(!pc_below_min(n, ROOT, ROOT));
}

void test_page_counter_overcommitted_min_recursive(void)
{
	struct pc_node n[NR1];

	tree1_calculate(n, ROOT, true);
	/* Overcommitted levels return before the recursive share: A's
	 * children as without recursiveprot. */
	CHECK_EQ(n[A1].elow, 133);
	CHECK_EQ(n[A3].elow, 66);
	CHECK_EQ(n[A1a].elow, 79);
	CHECK_EQ(n[A1].emin, 50);
	CHECK_EQ(n[A3].emin, 0);
	/* Under A1 min is undercommitted (0 <= 50): A1's 50 floats down
	 * by usage, 50 * (usage - 0) / (300 - 0). */
	CHECK_EQ(n[A1a].emin, 33);  /* 50 * 200 / 300 = 33.3 */
	CHECK_EQ(n[A1b].emin, 16);  /* 50 * 100 / 300 = 16.7 */
}

enum { R2, P, P1, P2, P1a, P1b, NR2 };

/* Tree 2: low undercommitted, the floating remainder:
 *
 *   root 1000
 *   +- P  790  low 600
 *      +- P1  500  low 200
 *      |  +- P1a 400
 *      |  +- P1b 100
 *      +- P2  290
 */
void test_page_counter_recursiveprot_floating(void)
{
	struct pc_node n[NR2] = {
		[R2]  = { .parent = -1, .usage = 1000 },
		[P]   = { .parent = R2, .usage = 790, .low = 600 },
		[P1]  = { .parent = P,  .usage = 500, .low = 200 },
		[P2]  = { .parent = P,  .usage = 290 },
		[P1a] = { .parent = P1, .usage = 400 },
		[P1b] = { .parent = P1, .usage = 100 },
	};

	CHECK(pc_calculate_protection(n, NR2, R2, false));
	/* Within budget: each child its own claim, capped by usage. */
	CHECK_EQ(n[P].elow, 600);
	CHECK_EQ(n[P1].elow, 200);
	CHECK_EQ(n[P2].elow, 0);
	CHECK_EQ(n[P1a].elow, 0);
	CHECK_EQ(n[P1b].elow, 0);

	CHECK(pc_calculate_protection(n, NR2, R2, true));
	/* Unclaimed 600 - 200 = 400 shared by unprotected usage over
	 * P's unprotected usage 790 - 200 = 590. */
	CHECK_EQ(n[P1].elow, 403);  /* 200 + 400 * 300 / 590 = 200 + 203.4 */
	CHECK_EQ(n[P2].elow, 196);  /* 0 + 400 * 290 / 590 = 196.6 */
	/* P1's 403 all floats (its children claim 0): by usage / 500. */
	CHECK_EQ(n[P1a].elow, 322); /* 403 * 400 / 500 = 322.4 */
	CHECK_EQ(n[P1b].elow, 80);  /* 403 * 100 / 500 = 80.6 */
	CHECK(!pc_below_low(n, R2, P1a));
}

void test_page_counter_reclaim_below_top(void)
{
	struct pc_node n[NR1];

	/* Limit reclaim of A: A's children are the first level and get
	 * their declared values; B is outside and keeps what it had. */
	tree1_calculate(n, A, false);
	CHECK_EQ(n[A1].elow, 200);
	CHECK_EQ(n[A2].elow, 150);
	CHECK_EQ(n[A3].elow, 100);
	CHECK_EQ(n[A1].emin, 100);
	/* A1's children: 250 > 200. */
	CHECK_EQ(n[A1a].elow, 120); /* 150 * 200 / 250 */
	CHECK_EQ(n[A1b].elow, 80);  /* 100 * 200 / 250 */
	CHECK_EQ(n[B].elow, 777);
	CHECK_EQ(n[B].emin, 777);
	CHECK(pc_below_low(n, A, A3));   /* 100 >= 100 */
	CHECK(!pc_below_low(n, A, A2));  /* 150 < 200 */
	CHECK(!pc_below_low(n, A, A1b)); /* 80 < 100 */
	CHECK(!pc_below_low(n, A, A));   /* the target is never protected */
}

void test_page_counter_bad_tree(void)
{
	struct pc_node n[3] = {
		{ .parent = -1, .usage = 10 },
		{ .parent = 2, .usage = 5, .low = 5, .elow = 9 },
		{ .parent = 0, .usage = 5 },
	};

	CHECK(!pc_calculate_protection(n, 3, 0, false)); /* child before parent */
	CHECK_EQ(n[1].elow, 9);
	n[1].parent = 0;
	CHECK(!pc_calculate_protection(n, 3, 3, false)); /* no such root */
	CHECK(pc_calculate_protection(n, 3, 0, false));
	CHECK_EQ(n[1].elow, 5);
}

void test_page_counter_scan_target(void)
{
	/* A leaf of 5000 pages with elow 4000 under the reclaim root. */
	struct pc_node n[2] = {
		{ .parent = -1, .usage = 8000 },
		{ .parent = 0, .usage = 5000, .low = 4000, .min = 100 },
	};
	bool skipped = false;

	CHECK(pc_calculate_protection(n, 2, 0, false));
	/* 1000 - 1000 * 4000 / 5001 = 1000 - 799.8 -> 1000 - 799 = 201. */
	CHECK_EQ(pc_scan_target(n, 0, 1, 1000, false, &skipped), 201);
	CHECK(skipped);
	/* Breaking memory.low: emin 100: 1000 - 100000 / 5001 = 1000 - 19. */
	skipped = false;
	CHECK_EQ(pc_scan_target(n, 0, 1, 1000, true, &skipped), 981);
	CHECK(!skipped);
	/* All of it protected: 100 - 100 * 5000 / 5001 = 1, raised to 32. */
	n[1].elow = 5000;
	CHECK_EQ(pc_scan_target(n, 0, 1, 100, false, &skipped), 32);
	/* The target itself and the root cgroup are scanned whole, even
	 * below 32. */
	CHECK_EQ(pc_scan_target(n, 1, 1, 10, false, &skipped), 10);
	CHECK_EQ(pc_scan_target(n, 0, 0, 10, false, &skipped), 10);
}
