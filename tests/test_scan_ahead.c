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

void test_scan_ahead_cursor(void)
{
	struct mm mm;
	struct mm_costs cost = { 0 };
	struct mm_config cfg = { .ram_pages = 16, .no_watermarks = true, .untimed = true, .disk_blocks = 1 };
	mm_init(&mm, &cfg, &cost);
	int list = lru_register(&mm.fr, "test"), other = lru_register(&mm.fr, "other");
	for (pfn_t pfn = 0; pfn < 10; pfn++) {   /* tail 0 1 2 ... 9 head */
		lru_del(&mm.fr, pfn);
		lru_add_head(&mm.fr, list, pfn);
	}
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
