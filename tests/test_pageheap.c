/* test_pageheap.c - the two-key frame heap of lfu, lruk and opt
 * (src/policy/pageheap.h) by hand: the order its keys give, frames set
 * aside by a shrink pass and put back with their keys, and the pass that
 * stops after PH_MAX_REFUSED frames refused for I/O.  Instant. */
#include "test.h"
#include "../src/policy/pageheap.h"

void test_pageheap_order(void)
{
	struct pageheap h;
	ph_init(&h, 8);
	/* (k1, k2): frame 3 (1,5), 5 (1,2), 1 (2,0), 6 (1,2): ties on both
	 * keys go to the lower frame. */
	ph_set(&h, 3, 1, 5);
	ph_set(&h, 5, 1, 2);
	ph_set(&h, 1, 2, 0);
	ph_set(&h, 6, 1, 2);
	CHECK_EQ(h.n, 4);
	CHECK_EQ(ph_min(&h), 5);
	ph_set(&h, 5, 3, 0); /* moved down, not inserted twice */
	CHECK_EQ(h.n, 4);
	pfn_t want[] = { 6, 3, 1, 5 };
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(ph_min(&h), want[i]);
		ph_remove(&h, ph_min(&h));
	}
	CHECK_EQ(ph_min(&h), PFN_NONE);
	CHECK(!ph_pass_goes_on(&h));
	ph_destroy(&h);
}

void test_pageheap_set_aside(void)
{
	struct pageheap h;
	ph_init(&h, 200);
	for (pfn_t pfn = 0; pfn < 200; pfn++)
		ph_set(&h, pfn, pfn, 0);
	/* Two refused for want of a slot, not for I/O: the pass goes on. */
	ph_set_aside(&h, ph_min(&h), false);
	ph_set_aside(&h, ph_min(&h), false);
	CHECK_EQ(h.n, 198);
	CHECK_EQ(ph_min(&h), 2);
	int taken = 0;
	while (ph_pass_goes_on(&h)) {
		ph_set_aside(&h, ph_min(&h), true);
		taken++;
	}
	CHECK_EQ(taken, PH_MAX_REFUSED);
	CHECK_EQ(h.n, 200 - 2 - PH_MAX_REFUSED);
	/* Back with their keys, and a new pass may take 64 again. */
	ph_put_back(&h);
	CHECK_EQ(h.n, 200);
	CHECK_EQ(ph_min(&h), 0);
	CHECK(ph_pass_goes_on(&h));
	CHECK_EQ(h.k1[65], 65);
	ph_destroy(&h);
}
