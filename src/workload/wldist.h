/* wldist.h - the random draws and statistics the benchmark workloads share
 * (fio, memtier, applaunch): a permutation of [0, n) without a table (fio's
 * random map: every block once per pass), memtier_benchmark's Gaussian key
 * draw, a Zipf draw, and nearest-rank percentiles of latencies. */
#ifndef PAGELAB_WORKLOAD_WLDIST_H
#define PAGELAB_WORKLOAD_WLDIST_H

#include "../lib/util.h"

#include <stddef.h>
#include <stdint.h>

/* A bijection of [0, n) keyed by `key`: a 4-round Feistel network on the
 * next even power of two, cycle-walked back into range. */
struct wl_perm {
	uint64_t n, key;
	unsigned half;      /* bits of each Feistel half */
};
void wl_perm_init(struct wl_perm *p, uint64_t n, uint64_t key);
uint64_t wl_perm_at(const struct wl_perm *p, uint64_t i);

/* A uniform double in [0, 1). */
double wl_unit(struct rng *r);

/* memtier_benchmark's Gaussian key (obj_gen.cpp gaussian_distribution_
 * range): a normal draw of `stddev` around `median`, redrawn until it lies
 * in [min, max + 1), truncated.  stddev 0: (max - min) / 6; median 0: the
 * centre of the range. */
uint64_t wl_gauss_key(struct rng *r, double stddev, double median, uint64_t min, uint64_t max);

/* Zipf ranks 1..n with P(k) proportional to k^-s (s > 0), by rejection-
 * inversion (Hormann and Derflinger 1996): O(1) per draw, no table. */
struct wl_zipf {
	uint64_t n;
	double s, hx1, hn, c;
};
void wl_zipf_init(struct wl_zipf *z, uint64_t n, double s);
uint64_t wl_zipf_draw(const struct wl_zipf *z, struct rng *r);

/* The p-th percentile (0 < p <= 100) of v[0..n) sorted ascending, by
 * nearest rank: the smallest value with at least p% of the samples at or
 * below it.  0 for n == 0. */
uint64_t wl_percentile(const uint64_t *sorted, size_t n, double p);
/* Sort v[0..n) ascending. */
void wl_sort_u64(uint64_t *v, size_t n);

/* fio's latency histogram (stat.h's io_u_plat, FIO_IO_U_PLAT_BITS 6):
 * values below 128 exact, above them 64 buckets per power of two (an
 * error under 1/64), up to 2^42 ns; constant memory however many I/Os. */
#define WL_HIST_BITS 6
#define WL_HIST_GROUPS 37
#define WL_HIST_N (WL_HIST_GROUPS << WL_HIST_BITS)
struct wl_hist {
	uint64_t n, min, max;
	double sum, sumsq;
	uint64_t b[WL_HIST_N];
};
void wl_hist_add(struct wl_hist *h, uint64_t v);
void wl_hist_merge(struct wl_hist *dst, const struct wl_hist *src);
/* The p-th percentile by nearest rank, as its bucket's midpoint (fio's
 * plat_idx_to_val); exact below 128.  0 when empty. */
uint64_t wl_hist_pct(const struct wl_hist *h, double p);
double wl_hist_avg(const struct wl_hist *h);
double wl_hist_stdev(const struct wl_hist *h);

/* A growable array of samples (latencies in ns). */
struct wl_samples {
	uint64_t *v;
	size_t n, cap;
};
void wl_samples_add(struct wl_samples *s, uint64_t x);
void wl_samples_free(struct wl_samples *s);

#endif
