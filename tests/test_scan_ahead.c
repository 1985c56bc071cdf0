/* test_scan_ahead.c - the scan look-ahead (src/mm/scan_ahead.h) on a list
 * of 10 frames moved by hand: where the cursor stands after each page
 * the scan takes, and that it never stands on a page off the list.
 * (What it is for - speed - is make bench's; that it changes no count is
 * tests/cli.d/fastpath.sh's and policies.sh's.)  Instant. */
#include "test.h"
#include "../src/mm/scan_ahead.h"

/* The scan takes the tail of list: off the list, then the cursor moves. */
static pfn_t take_tail(struct mm *mm, struct scan_ahead *sa, int list)
{
	pfn_t pfn = lru_tail(&mm->fr, list);
	lru_del(&mm->fr, pfn);
	scan_ahead_step(sa, mm, list, pfn);
	return pfn;
}

/* An mm of `frames` frames whose first `n` are on one list, tail 0 1 2
 * ... n-1 head; returns the list. */
static int list_of(struct mm *mm, pfn_t frames, pfn_t n)
{
	static struct mm_costs cost;
	struct mm_config cfg = { .ram_pages = frames, .no_watermarks = true, .untimed = true, .disk_blocks = 1 };
	mm_init(mm, &cfg, &cost);
	int list = lru_register(&mm->fr, "test");
	for (pfn_t pfn = 0; pfn < n; pfn++) {
		lru_del(&mm->fr, pfn);
		lru_add_head(&mm->fr, list, pfn);
	}
	return list;
}

void test_scan_ahead_cursor(void)
{
	struct mm mm;
	int list = list_of(&mm, 16, 10), other = lru_register(&mm.fr, "other");
	struct scan_ahead sa;
	scan_ahead_init(&sa);
	/* From the new tail 1, SCAN_AHEAD (4) pages on: 5. */
	CHECK_EQ(take_tail(&mm, &sa, list), 0);
	CHECK_EQ(sa.pfn, 5);
	CHECK_EQ(sa.dist, 4);
	CHECK_EQ(take_tail(&mm, &sa, list), 1);
	CHECK_EQ(sa.pfn, 6);
	/* The cursor's page leaves the list: start again from the tail (3). */
	scan_ahead_forget(&sa, 6);
	CHECK_EQ(sa.pfn, PFN_NONE);
	CHECK_EQ(take_tail(&mm, &sa, list), 2);
	CHECK_EQ(sa.pfn, 7);
	/* Moved to another list without a word: found out before use.  The
	 * list is now 4 5 6 8 9: from 4, four on is 9, the head. */
	lru_move_head(&mm.fr, other, 7);
	CHECK_EQ(take_tail(&mm, &sa, list), 3);
	CHECK_EQ(sa.pfn, 9);
	/* At the head it stays, nearer the tail by one. */
	CHECK_EQ(take_tail(&mm, &sa, list), 4);
	CHECK_EQ(sa.pfn, 9);
	CHECK_EQ(sa.dist, 3);
	/* The scan takes the cursor's page itself; then the list runs dry. */
	for (int i = 0; i < 3; i++)
		take_tail(&mm, &sa, list);
	CHECK_EQ(sa.pfn, 9);
	CHECK_EQ(take_tail(&mm, &sa, list), 9);
	CHECK_EQ(sa.pfn, PFN_NONE);
	for (pfn_t pfn = 0; pfn < 16; pfn++)
		CHECK(lru_on(&mm.fr, pfn) != list);
	mm_destroy(&mm);
}

/* Where both cursors stand after the scan takes the tail of list. */
static void take_and_check(struct mm *mm, struct scan_ahead *sa, int list, pfn_t taken, pfn_t near, pfn_t far,
			   int far_dist)
{
	CHECK_EQ(take_tail(mm, sa, list), taken);
	CHECK_EQ(sa->pfn, near);
	CHECK_EQ(sa->far, far);
	CHECK_EQ(sa->far_dist, far_dist);
}

/* The far cursor, SCAN_AHEAD_FAR (16) pages before the tail: it follows
 * the near one, starts again from it, and is forgotten with it. */
void test_scan_ahead_far_cursor(void)
{
	struct mm mm;
	int list = list_of(&mm, 24, 20);
	struct scan_ahead sa;
	scan_ahead_init(&sa);
	/* From the new tail 1: near 4 on (5), far 16 on (17). */
	take_and_check(&mm, &sa, list, 0, 5, 17, 16);
	take_and_check(&mm, &sa, list, 1, 6, 18, 16);
	/* The far cursor's page leaves: it starts again from the near one
	 * (7, the tail 3 + 4) and goes on to the head, 19 (16 on from 3). */
	scan_ahead_forget(&sa, 18);
	lru_del(&mm.fr, 18);
	CHECK_EQ(sa.far, PFN_NONE);
	take_and_check(&mm, &sa, list, 2, 7, 19, 15);
	/* At the head it stays, nearer the tail by one. */
	take_and_check(&mm, &sa, list, 3, 8, 19, 14);
	/* The near cursor forgotten: both start again, from the tail 5. */
	scan_ahead_forget(&sa, 8);
	take_and_check(&mm, &sa, list, 4, 9, 19, 13);
	CHECK_EQ(sa.dist, 4);
	mm_destroy(&mm);
}
