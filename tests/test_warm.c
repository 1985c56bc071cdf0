/* test_warm.c - pagelab kernel's warm-up region (src/native/warm.c):
 * whether THP's sysfs text lets MADV_HUGEPAGE have 2 MiB pages, and the
 * 2 MiB-aligned span inside the mapping. */
#include "test.h"
#include "../src/native/native.h"

void test_warm_thp_usable(void);
void test_warm_span(void);

void test_warm_thp_usable(void)
{
	CHECK(nwarm_thp_usable("always [madvise] never\n"));
	CHECK(nwarm_thp_usable("[always] madvise never\n"));
	/* "never" is in every variant; only the bracketed mode counts. */
	CHECK(!nwarm_thp_usable("always madvise [never]\n"));
	CHECK(!nwarm_thp_usable(""));
}

void test_warm_span(void)
{
	uint64_t mib = 1 << 20, start, len;
	/* 256M at an unaligned base: the start rounds up, the length stays. */
	nwarm_span(0x7f0000001000ULL, 256 * mib, &start, &len);
	CHECK_EQ(start, 0x7f0000200000ULL);
	CHECK_EQ(len, 256 * mib);
	CHECK(start + len <= 0x7f0000001000ULL + nwarm_map_bytes(256 * mib));
	/* An aligned base stays; 3 MiB rounds up to two blocks. */
	nwarm_span(0x40000000ULL, 3 * mib, &start, &len);
	CHECK_EQ(start, 0x40000000ULL);
	CHECK_EQ(len, 4 * mib);
	CHECK_EQ(nwarm_map_bytes(3 * mib), 6 * mib);
}
