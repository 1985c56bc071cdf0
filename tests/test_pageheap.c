/* test_pageheap.c - the packed frame heap of lruk and opt
 * (src/policy/pageheap.h) by hand: the bits a frame takes, the exact
 * entries and their order, ties to the lower frame or (high_first) the
 * higher, frames set aside by a shrink pass and put back with their keys,
 * and the pass that stops after PH_MAX_REFUSED frames refused for I/O.
 * Instant. */
#include "test.h"
#include "../src/policy/pageheap.h"

void test_pageheap_frame_bits(void)
{
	static const pfn_t nr[] = { 1, 2, 8, 9, 200, 100000 };
	static const unsigned bits[] = { 1, 1, 3, 4, 8, 17 };
	for (int i = 0; i < 6; i++) {
		struct pageheap h;
		ph_init(&h, nr[i], false);
		CHECK_EQ(h.shift, bits[i]);
		CHECK_EQ(h.key_max, UINT64_MAX >> bits[i]);
		ph_destroy(&h);
	}
}

/* 8 frames, 3 bits: frame 3 key 5 (entry 5 << 3 | 3 = 43), 5 key 2 (21),
 * 1 key 7 (57), 6 key 2 (22): 22 goes up past 43, not past 21.  Key 9
 * for frame 5 (77) then goes down past 22 and 43. */
void test_pageheap_packed_order(void)
{
	struct pageheap h;
	ph_init(&h, 8, false);
	ph_set(&h, 3, 5);
	ph_set(&h, 5, 2);
	ph_set(&h, 1, 7);
	ph_set(&h, 6, 2);
	static const uint64_t before[] = { 21, 22, 57, 43 };
	for (int i = 0; i < 4; i++)
		CHECK_EQ(h.heap[i], before[i]);
	CHECK_EQ(ph_min(&h), 5); /* the tie at key 2: the lower frame */
	CHECK_EQ(ph_key(&h, 6), 2);
	ph_set(&h, 5, 9); /* moved down, not inserted twice */
	static const uint64_t after[] = { 22, 43, 57, 77 };
	for (int i = 0; i < 4; i++)
		CHECK_EQ(h.heap[i], after[i]);
	CHECK_EQ(h.slot[5], 4);
	CHECK(ph_check(&h, "test", stderr));
	static const pfn_t want[] = { 6, 3, 1, 5 };
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(ph_min(&h), want[i]);
		ph_remove(&h, ph_min(&h));
	}
	CHECK_EQ(ph_min(&h), PFN_NONE);
	CHECK(!ph_pass_goes_on(&h));
	ph_destroy(&h);
}

/* high_first (OPT's ties among pages never used again): the frame's bits
 * are complemented, frame 5 stored as 2 and 6 as 1, so at key 0 frame 7
 * comes first, then 6, then 5, and key 1 after them. */
void test_pageheap_ties_high_first(void)
{
	struct pageheap h;
	ph_init(&h, 8, true);
	ph_set(&h, 5, 0);
	ph_set(&h, 0, 1);
	ph_set(&h, 7, 0);
	ph_set(&h, 6, 0);
	CHECK_EQ(h.heap[0], 0); /* frame 7: key 0, bits 7 ^ 7 */
	CHECK_EQ(ph_key(&h, 0), 1);
	static const pfn_t want[] = { 7, 6, 5, 0 };
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(ph_min(&h), want[i]);
		ph_remove(&h, ph_min(&h));
	}
	ph_destroy(&h);
}

/* A heap out of order is found: frame 1's key made 0, under frame 0's 1
 * (its slot still right). */
void test_pageheap_check_finds_disorder(void)
{
	struct pageheap h;
	ph_init(&h, 2, false);
	ph_set(&h, 0, 1);
	ph_set(&h, 1, 3);
	h.heap[1] = 0 << 1 | 1;
	FILE *err = tmpfile();
	CHECK(!ph_check(&h, "test", err));
	fclose(err);
	ph_destroy(&h);
}

void test_pageheap_set_aside(void)
{
	struct pageheap h;
	ph_init(&h, 200, false);
	for (pfn_t pfn = 0; pfn < 200; pfn++)
		ph_set(&h, pfn, pfn);
	/* Two refused for want of a slot, not for I/O: the pass goes on. */
	ph_set_aside(&h, ph_min(&h), ph_key(&h, ph_min(&h)), false);
	ph_set_aside(&h, ph_min(&h), ph_key(&h, ph_min(&h)), false);
	CHECK_EQ(h.n, 198);
	CHECK_EQ(ph_min(&h), 2);
	CHECK(!ph_has(&h, 0));
	int taken = 0;
	while (ph_pass_goes_on(&h)) {
		ph_set_aside(&h, ph_min(&h), ph_key(&h, ph_min(&h)), true);
		taken++;
	}
	CHECK_EQ(taken, PH_MAX_REFUSED);
	CHECK_EQ(h.n, 200 - 2 - PH_MAX_REFUSED);
	/* Back with their keys, and a new pass may take 64 again. */
	ph_put_back(&h);
	CHECK_EQ(h.n, 200);
	CHECK_EQ(ph_min(&h), 0);
	CHECK(ph_pass_goes_on(&h));
	CHECK_EQ(ph_key(&h, 65), 65);
	CHECK(ph_check(&h, "test", stderr));
	ph_destroy(&h);
}
