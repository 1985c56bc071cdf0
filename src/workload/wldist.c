/* wldist.c - see wldist.h. */
#include "wldist.h"

#include <math.h>
#include <stdlib.h>

static uint64_t mix64(uint64_t x)
{
	/* splitmix64's finaliser: every input bit reaches every output bit. */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void wl_perm_init(struct wl_perm *p, uint64_t n, uint64_t key)
{
	unsigned bits = 2;
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	p->n = n;
	p->key = key;
	p->half = (bits + 1) / 2;
}

static uint64_t feistel(const struct wl_perm *p, uint64_t x)
{
	uint64_t mask = (1ULL << p->half) - 1;
	uint64_t l = x >> p->half, r = x & mask;
	for (uint64_t round = 0; round < 4; round++) {
		uint64_t t = l ^ (mix64(r ^ p->key ^ (round << 56)) & mask);
		l = r;
		r = t;
	}
	return l << p->half | r;
}

uint64_t wl_perm_at(const struct wl_perm *p, uint64_t i)
{
	/* The Feistel domain is under 4n: a few steps on average. */
	uint64_t x = feistel(p, i);
	while (x >= p->n)
		x = feistel(p, x);
	return x;
}

double wl_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

static double normal(struct rng *r)
{
	/* Marsaglia's polar method, one value of the pair. */
	double u, v, s;
	do {
		u = wl_unit(r) * 2 - 1;
		v = wl_unit(r) * 2 - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return u * sqrt(-2.0 * log(s) / s);
}

uint64_t wl_gauss_key(struct rng *r, double stddev, double median, uint64_t min, uint64_t max)
{
	if (min >= max)
		return min;
	double len = (double)(max - min);
	if (median == 0)
		median = len / 2.0 + (double)min + 0.5;
	if (stddev == 0)
		stddev = len / 6.0;
	double x;
	do
		x = median + stddev * normal(r);
	while (x < (double)min || x >= (double)max + 1);
	return (uint64_t)x;
}

/* H(x) = integral of t^-s: (x^(1-s) - 1) / (1-s), log x at s = 1. */
static double zh(double s, double x)
{
	double e = 1 - s;
	return fabs(e) < 1e-9 ? log(x) : expm1(e * log(x)) / e;
}

static double zhinv(double s, double y)
{
	double e = 1 - s;
	return fabs(e) < 1e-9 ? exp(y) : exp(log1p(e * y) / e);
}

void wl_zipf_init(struct wl_zipf *z, uint64_t n, double s)
{
	z->n = n;
	z->s = s;
	z->hx1 = zh(s, 1.5) - 1;
	z->hn = zh(s, (double)n + 0.5);
	z->c = 2 - zhinv(s, zh(s, 2.5) - pow(2, -s));
}

uint64_t wl_zipf_draw(const struct wl_zipf *z, struct rng *r)
{
	for (;;) {
		double u = z->hn + wl_unit(r) * (z->hx1 - z->hn);
		double x = zhinv(z->s, u);
		double kd = floor(x + 0.5);
		if (kd < 1)
			kd = 1;
		if (kd > (double)z->n)
			kd = (double)z->n;
		if (kd - x <= z->c || u >= zh(z->s, kd + 0.5) - pow(kd, -z->s))
			return (uint64_t)kd;
	}
}

uint64_t wl_percentile(const uint64_t *sorted, size_t n, double p)
{
	if (!n)
		return 0;
	double rank = ceil(p / 100.0 * (double)n);
	size_t i = rank < 1 ? 0 : (size_t)rank - 1;
	return sorted[i < n ? i : n - 1];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

void wl_sort_u64(uint64_t *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_u64);
}

void wl_samples_add(struct wl_samples *s, uint64_t x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = x;
}

void wl_samples_free(struct wl_samples *s)
{
	free(s->v);
	*s = (struct wl_samples){ 0 };
}

static unsigned hist_idx(uint64_t v)
{
	if (v < (2u << WL_HIST_BITS))
		return (unsigned)v;
	unsigned msb = 63 - (unsigned)__builtin_clzll(v);
	unsigned err = msb - WL_HIST_BITS;
	unsigned idx = ((err + 1) << WL_HIST_BITS) + (unsigned)((v >> err) & ((1u << WL_HIST_BITS) - 1));
	return idx < WL_HIST_N ? idx : WL_HIST_N - 1;
}

static uint64_t hist_val(unsigned idx)
{
	if (idx < (2u << WL_HIST_BITS))
		return idx;
	unsigned err = (idx >> WL_HIST_BITS) - 1;
	uint64_t base = 1ULL << (err + WL_HIST_BITS);
	uint64_t k = idx & ((1u << WL_HIST_BITS) - 1);
	return base + (k << err) + (1ULL << err) / 2;
}

void wl_hist_add(struct wl_hist *h, uint64_t v)
{
	if (!h->n || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->n++;
	h->sum += (double)v;
	h->sumsq += (double)v * (double)v;
	h->b[hist_idx(v)]++;
}

void wl_hist_merge(struct wl_hist *dst, const struct wl_hist *src)
{
	if (!src->n)
		return;
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	dst->max = MAX(dst->max, src->max);
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	for (unsigned i = 0; i < WL_HIST_N; i++)
		dst->b[i] += src->b[i];
}

uint64_t wl_hist_pct(const struct wl_hist *h, double p)
{
	if (!h->n)
		return 0;
	double rank = ceil(p / 100.0 * (double)h->n);
	uint64_t want = rank < 1 ? 1 : (uint64_t)rank, seen = 0;
	for (unsigned i = 0; i < WL_HIST_N; i++) {
		seen += h->b[i];
		if (seen >= want)
			return MIN(MAX(hist_val(i), h->min), h->max);
	}
	return h->max;
}

double wl_hist_avg(const struct wl_hist *h)
{
	return h->n ? h->sum / (double)h->n : 0;
}

double wl_hist_stdev(const struct wl_hist *h)
{
	if (h->n < 2)
		return 0;
	double m = wl_hist_avg(h), var = (h->sumsq - (double)h->n * m * m) / (double)(h->n - 1);
	return var > 0 ? sqrt(var) : 0;
}
