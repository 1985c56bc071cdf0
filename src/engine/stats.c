/* stats.c - statistics for comparisons over seeds (stats.h).  The
 * incomplete beta function follows the continued fraction of Numerical
 * Recipes' betacf (modified Lentz), written here from the formula. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const sig_test_names[] = { "none", "welch", "mann-whitney" };

struct summary summarize(const double *x, int n)
{
	struct summary s = { .n = n };
	if (n < 1)
		return s;
	double sum = 0;
	bool same = true;
	for (int i = 0; i < n; i++) {
		sum += x[i];
		same &= x[i] == x[0];
	}
	s.mean = sum / n;
	/* Equal values (every seed gave the same figure) have no spread:
	 * say so exactly, not with the rounding noise of the sum, which
	 * would turn an exact difference into a sampled one. */
	if (same)
		s.mean = x[0];
	if (n < 2 || same)
		return s;
	double ss = 0;
	for (int i = 0; i < n; i++)
		ss += (x[i] - s.mean) * (x[i] - s.mean);
	s.sd = sqrt(ss / (n - 1));
	return s;
}

/* The continued fraction of the regularized incomplete beta I_x(a, b). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m;
		double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double inc_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * beta_cf(a, b, x) / a;
	return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

double t_two_sided_p(double t, double df)
{
	if (isnan(t) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	return inc_beta(df / 2, 0.5, df / (df + t * t));
}

double t_quantile(double p, double df)
{
	/* bisection on the CDF: P(T <= t) = 1 - p2/2 for t > 0 */
	if (p == 0.5)
		return 0;
	double target = p > 0.5 ? 2 * (1 - p) : 2 * p; /* two-sided tail */
	double lo = 0, hi = 1;
	while (t_two_sided_p(hi, df) > target && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (t_two_sided_p(mid, df) > target)
			lo = mid;
		else
			hi = mid;
	}
	double t = (lo + hi) / 2;
	return p > 0.5 ? t : -t;
}

double welch_p(const double *a, int na, const double *b, int nb)
{
	struct summary x = summarize(a, na), y = summarize(b, nb);
	if (na < 2 || nb < 2)
		return NAN;
	double va = x.sd * x.sd / na, vb = y.sd * y.sd / nb;
	if (va + vb == 0)
		return x.mean == y.mean ? 1 : 0;  /* no spread: any difference is real */
	double t = (x.mean - y.mean) / sqrt(va + vb);
	double df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
	return t_two_sided_p(t, df);
}

int cmp_double_asc(const void *p, const void *q)
{
	double x = *(const double *)p, y = *(const double *)q;
	return x < y ? -1 : x > y;
}

void midranks(const double *v, int n, double *rank)
{
	for (int i = 0; i < n; i++) {
		/* the mean of the positions of equal values (1-based) */
		int lo = 0, hi = 0;
		for (int k = 0; k < n; k++) {
			lo += v[k] < v[i];
			hi += v[k] <= v[i];
		}
		rank[i] = (lo + 1 + hi) / 2.0;
	}
}

double median_inplace(double *v, int n)
{
	if (n < 1)
		return NAN;
	qsort(v, (size_t)n, sizeof(double), cmp_double_asc);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double spearman_rho(const double *a, const double *b, int n)
{
	if (n < 3)
		return NAN;
	double *ra = calloc((size_t)n * 2, sizeof(double));
	if (!ra)
		return NAN;
	double *rb = ra + n, sa = 0, sb = 0, sab = 0, ma = (n + 1) / 2.0;
	midranks(a, n, ra);
	midranks(b, n, rb);
	/* Pearson's r of the ranks (ties keep their midranks); both rank
	 * means are (n + 1) / 2. */
	for (int i = 0; i < n; i++) {
		sab += (ra[i] - ma) * (rb[i] - ma);
		sa += (ra[i] - ma) * (ra[i] - ma);
		sb += (rb[i] - ma) * (rb[i] - ma);
	}
	free(ra);
	return sa > 0 && sb > 0 ? sab / sqrt(sa * sb) : NAN;
}

double mann_whitney_p(const double *a, int na, const double *b, int nb)
{
	int n = na + nb;
	if (na < 1 || nb < 1 || n > 20)
		return NAN;
	double v[20], rank[20];
	memcpy(v, a, (size_t)na * sizeof(double));
	memcpy(v + na, b, (size_t)nb * sizeof(double));
	midranks(v, n, rank);
	double mid = na * (n + 1) / 2.0, obs = 0;
	for (int i = 0; i < na; i++)
		obs += rank[i];
	double dev = fabs(obs - mid) - 1e-9;
	/* every subset of na ranks out of n */
	long total = 0, extreme = 0;
	for (unsigned m = 0; m < (1u << n); m++) {
		if (__builtin_popcount(m) != na)
			continue;
		double s = 0;
		for (int i = 0; i < n; i++)
			if (m & (1u << i))
				s += rank[i];
		total++;
		extreme += fabs(s - mid) >= dev;
	}
	return (double)extreme / (double)total;
}

enum sig_test significance(const double *a, int na, const double *b, int nb, double *p)
{
	*p = NAN;
	if (na < 2 || nb < 2)
		return TEST_NONE;
	if (na >= 5 && nb >= 5) {
		*p = welch_p(a, na, b, nb);
		return TEST_WELCH;
	}
	*p = mann_whitney_p(a, na, b, nb);
	return TEST_MANN_WHITNEY;
}
