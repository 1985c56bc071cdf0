/* test_benchwl.c - the pure logic the benchmark workloads (fio, memtier,
 * applaunch) share, src/workload/wldist.c: the keyed permutation, the
 * Gaussian and Zipf draws, percentiles and fio's latency histogram. */
#include "test.h"
#include "../src/workload/wldist.h"

#include <math.h>
#include <stdlib.h>

void test_benchwl_perm_bijection(void);
void test_benchwl_perm_bijection(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 5, 64, 1000, 4097 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s];
		unsigned char *seen = calloc(n, 1);
		struct wl_perm p;
		wl_perm_init(&p, n, 42 + s);
		uint64_t fixed = 0;
		for (uint64_t i = 0; i < n; i++) {
			uint64_t x = wl_perm_at(&p, i);
			CHECK(x < n);
			if (x < n)
				seen[x]++;
			fixed += x == i;
		}
		for (uint64_t i = 0; i < n; i++)
			CHECK_EQ(seen[i], 1);
		if (n >= 1000)
			CHECK(fixed < n / 50);  /* a shuffle, not the identity */
		free(seen);
	}
}

void test_benchwl_gauss_key(void);
void test_benchwl_gauss_key(void)
{
	/* memtier's defaults: centre of the range, stddev range / 6. */
	struct rng r;
	rng_seed(&r, 7);
	double sum = 0, sq = 0;
	int n = 20000, lo = 0;
	for (int i = 0; i < n; i++) {
		uint64_t k = wl_gauss_key(&r, 0, 0, 1, 6001);
		CHECK(k >= 1 && k <= 6001);
		sum += (double)k;
		sq += (double)k * (double)k;
		lo += k < 1000;
	}
	double mean = sum / n, sd = sqrt(sq / n - mean * mean);
	CHECK(fabs(mean - 3001.5) < 20);
	CHECK(fabs(sd - 1000) < 30);
	CHECK(lo > n / 100 && lo < n / 20);     /* beyond 2 sd: ~2.3% */
	CHECK_EQ(wl_gauss_key(&r, 0, 0, 9, 9), 9);
}

void test_benchwl_zipf(void);
void test_benchwl_zipf(void)
{
	/* P(k) = k^-s / H(n, s): with s = 1, n = 10, rank 1 has 1/H = 0.3414,
	 * rank 2 half of it, rank 10 a tenth. */
	struct wl_zipf z;
	struct rng r;
	wl_zipf_init(&z, 10, 1.0);
	rng_seed(&r, 3);
	int cnt[11] = { 0 }, n = 100000;
	for (int i = 0; i < n; i++) {
		uint64_t k = wl_zipf_draw(&z, &r);
		CHECK(k >= 1 && k <= 10);
		if (k >= 1 && k <= 10)
			cnt[k]++;
	}
	double h = 0;
	for (int k = 1; k <= 10; k++)
		h += 1.0 / k;
	for (int k = 1; k <= 10; k++)
		CHECK(fabs((double)cnt[k] / n - 1.0 / k / h) < 0.006);
	/* s = 2: rank 1 holds 1/zeta-ish of a large range. */
	wl_zipf_init(&z, 1000000, 2.0);
	int ones = 0;
	for (int i = 0; i < n; i++)
		ones += wl_zipf_draw(&z, &r) == 1;
	CHECK(fabs((double)ones / n - 0.607927) < 0.01);
}

void test_benchwl_percentile(void);
void test_benchwl_percentile(void)
{
	uint64_t v[] = { 5, 1, 4, 2, 3, 10, 9, 8, 7, 6 };
	wl_sort_u64(v, 10);
	CHECK_EQ(wl_percentile(v, 10, 50), 5);
	CHECK_EQ(wl_percentile(v, 10, 51), 6);
	CHECK_EQ(wl_percentile(v, 10, 99.9), 10);
	CHECK_EQ(wl_percentile(v, 10, 1), 1);
	CHECK_EQ(wl_percentile(v, 0, 50), 0);
}

void test_benchwl_hist(void);
void test_benchwl_hist(void)
{
	static struct wl_hist h;
	for (uint64_t v = 1; v <= 100; v++)
		wl_hist_add(&h, v);
	/* Below 128 exact, as the sorted list. */
	CHECK_EQ(wl_hist_pct(&h, 50), 50);
	CHECK_EQ(wl_hist_pct(&h, 99), 99);
	CHECK_EQ(wl_hist_pct(&h, 100), 100);
	CHECK(fabs(wl_hist_avg(&h) - 50.5) < 1e-9);
	/* 10000 ns: msb 13, 64 buckets of 128 ns from 8192: bucket 14 of
	 * group 8 spans 9984..10111, reported as its midpoint 10048. */
	static struct wl_hist g;
	wl_hist_add(&g, 10000);
	CHECK_EQ(wl_hist_pct(&g, 50), 10000);   /* clamped to min..max */
	wl_hist_add(&g, 10100);
	wl_hist_add(&g, 1000000);
	CHECK_EQ(wl_hist_pct(&g, 60), 10048);
	CHECK_EQ(wl_hist_pct(&g, 99), 1000000);
	wl_hist_merge(&h, &g);
	CHECK_EQ(h.n, 103);
	CHECK_EQ(h.min, 1);
	CHECK_EQ(h.max, 1000000);
}
