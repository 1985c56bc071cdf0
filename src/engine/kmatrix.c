/* kmatrix.c - compare --matrix's strict count and rank test (kmatrix.h). */
#include "kmatrix.h"
#include "stats.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum km_class km_classify(double k, double s, double tol, double floor)
{
	if (isnan(k) || isnan(s))
		return KM_NONE;
	if (floor > 0 && k < floor && s < floor)
		return KM_SMALL;
	if (k <= 0)
		return s == k ? KM_WITHIN : KM_MISS;
	return fabs(s / k - 1) <= tol / 100 + 1e-12 ? KM_WITHIN : KM_MISS;
}

enum km_class km_row_class(const struct kmatrix *m, int c, int p, int k)
{
	const struct kcmp_row *r = &m->c[c].x->row[p * m->nrows + k];
	if (!r->kfound || !r->sfound || r->verdict == KCMP_NOT_COUNTED)
		return KM_NONE;
	return km_classify(r->med, r->sim, m->tol, m->floor);
}

bool kmatrix_wide(const struct kcmp *x, double ratio, double floor)
{
	static const char *const headline[] = { "pgmajfault", "pswpout", "pgsteal_anon", "pgsteal_file" };
	for (int k = 0; k < x->nrows; k++) {
		const struct kcmp_row *r = &x->row[k];
		for (size_t h = 0; h < ARRAY_SIZE(headline); h++)
			if (r->kfound && !strcmp(r->name, headline[h]) && r->kmax >= floor &&
			    (r->kmin <= 0 || r->kmax / r->kmin > ratio))
				return true;
	}
	return false;
}

static void tally(struct km_tally *t, enum km_class k)
{
	t->within += k == KM_WITHIN;
	t->miss += k == KM_MISS;
	t->small += k == KM_SMALL;
}

/* Spearman's rho of row k (or a time: k -1 elapsed, -2 system) of
 * design p over the cases where both sides have it. */
static double row_rho(const struct kmatrix *m, int p, int k, int *n)
{
	double *a = xcalloc((size_t)m->ncase + 1, sizeof(double)), *b = xcalloc((size_t)m->ncase + 1, sizeof(double));
	*n = 0;
	for (int c = 0; c < m->ncase; c++) {
		const struct kmatrix_case *kc = &m->c[c];
		if (k == -1 || k == -2) {
			a[*n] = k == -1 ? kc->kel : kc->ksys;
			b[(*n)++] = k == -1 ? kc->sel[p] : kc->ssys[p];
			continue;
		}
		const struct kcmp_row *r = &kc->x->row[p * m->nrows + k];
		if (!r->kfound || !r->sfound || r->verdict == KCMP_NOT_COUNTED)
			continue;
		a[*n] = r->med;
		b[(*n)++] = r->sim;
	}
	double rho = spearman_rho(a, b, *n);
	free(a);
	free(b);
	return rho;
}

void kmatrix_build(struct kmatrix *m, const struct kmatrix_case *c, int ncase, double tol, double floor)
{
	memset(m, 0, sizeof(*m));
	m->c = c;
	m->ncase = ncase;
	m->npol = ncase ? c[0].x->npol : 0;
	if (m->npol > 32)
		m->npol = 32;
	m->nrows = ncase ? c[0].x->nrows : 0;
	m->pol = ncase ? c[0].x->pol : NULL;
	m->tol = tol;
	m->floor = floor;
	size_t pr = (size_t)m->npol * (size_t)m->nrows + 1;
	m->pages = xcalloc((size_t)m->npol + 1, sizeof(*m->pages));
	m->elapsed = xcalloc((size_t)m->npol + 1, sizeof(*m->elapsed));
	m->sys = xcalloc((size_t)m->npol + 1, sizeof(*m->sys));
	m->by_row = xcalloc(pr, sizeof(*m->by_row));
	m->rho = xcalloc(pr, sizeof(double));
	m->rho_n = xcalloc(pr, sizeof(int));
	for (int p = 0; p < m->npol; p++) {
		for (int i = 0; i < ncase; i++) {
			tally(&m->elapsed[p], km_classify(c[i].kel, c[i].sel[p], tol, 0));
			tally(&m->sys[p], km_classify(c[i].ksys, c[i].ssys[p], tol, 0));
			for (int k = 0; k < m->nrows; k++) {
				enum km_class cl = km_row_class(m, i, p, k);
				tally(&m->pages[p], cl);
				tally(&m->by_row[p * m->nrows + k], cl);
			}
		}
		for (int k = 0; k < m->nrows; k++)
			m->rho[p * m->nrows + k] = row_rho(m, p, k, &m->rho_n[p * m->nrows + k]);
		int n;
		m->rho_el[p] = row_rho(m, p, -1, &n);
		m->rho_sys[p] = row_rho(m, p, -2, &n);
	}
}

void kmatrix_free(struct kmatrix *m)
{
	free(m->pages);
	free(m->elapsed);
	free(m->sys);
	free(m->by_row);
	free(m->rho);
	free(m->rho_n);
}

/* "12/30" or "-" when no cell was compared. */
static const char *share(char *buf, size_t len, const struct km_tally *t)
{
	if (t->within + t->miss)
		snprintf(buf, len, "%d/%d", t->within, t->within + t->miss);
	else
		snprintf(buf, len, "-");
	return buf;
}

static double pct(const struct km_tally *t)
{
	return t->within + t->miss ? 100.0 * t->within / (t->within + t->miss) : NAN;
}

/* " 0.83" in width columns, "-" for NAN. */
static void print_num(FILE *out, int width, int digits, double v)
{
	if (isnan(v))
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, " %*.*f", width, digits, v);
}

/* The headline: per design, the strict share of page cells, its small
 * cells, and the times' shares. */
static void print_headline(const struct kmatrix *m, FILE *out)
{
	char a[32], b[32], c[32];
	fprintf(out, "STRICT: cells whose simulated median is within +-%g%% of the kernel's\n", m->tol);
	fprintf(out, "median (both under %g: apart, not passes)\n\n", m->floor);
	fprintf(out, "%-12s %11s %7s %9s %10s %10s\n", "design", "page cells", "strict", "both<floor",
		"elapsed", "system");
	for (int p = 0; p < m->npol; p++) {
		const struct km_tally *t = &m->pages[p];
		fprintf(out, "%-12s %11s %6.1f%% %9d %10s %10s\n", m->pol[p], share(a, sizeof(a), t), pct(t),
			t->small, share(b, sizeof(b), &m->elapsed[p]), share(c, sizeof(c), &m->sys[p]));
	}
	fprintf(out, "\nRANK (beside it): Spearman's rho over the cases, kernel against pagelab\n\n");
	fprintf(out, "%-12s %10s %10s %10s\n", "design", "median rho", "elapsed", "system");
	for (int p = 0; p < m->npol; p++) {
		double *v = xcalloc((size_t)m->nrows + 1, sizeof(double));
		int n = 0;
		for (int k = 0; k < m->nrows; k++)
			if (!isnan(m->rho[p * m->nrows + k]))
				v[n++] = m->rho[p * m->nrows + k];
		double med = median_inplace(v, n);
		free(v);
		fprintf(out, "%-12s", m->pol[p]);
		print_num(out, 10, 2, med);
		print_num(out, 10, 2, m->rho_el[p]);
		print_num(out, 10, 2, m->rho_sys[p]);
		fputc('\n', out);
	}
}

/* Per counter: each design's strict count and rho (rows no case
 * compares left out). */
static void print_rows(const struct kmatrix *m, FILE *out)
{
	int np = m->npol > 3 ? 3 : m->npol;
	fprintf(out, "\n%-25s", "counter (within/compared)");
	for (int p = 0; p < np; p++)
		fprintf(out, " %10.10s %6s", m->pol[p], "rho");
	fputc('\n', out);
	for (int k = 0; k < m->nrows; k++) {
		int any = 0;
		for (int p = 0; p < np; p++) {
			const struct km_tally *t = &m->by_row[p * m->nrows + k];
			any += t->within + t->miss + t->small;
		}
		if (!any)
			continue;
		fprintf(out, "%-25s", m->c[0].x->row[k].name);
		for (int p = 0; p < np; p++) {
			char a[32];
			fprintf(out, " %10s", share(a, sizeof(a), &m->by_row[p * m->nrows + k]));
			print_num(out, 6, 2, m->rho[p * m->nrows + k]);
		}
		fputc('\n', out);
	}
}

/* Per case: its kernel runs and load, each design's strict count. */
static void print_cases(const struct kmatrix *m, FILE *out)
{
	int np = m->npol > 3 ? 3 : m->npol;
	fprintf(out, "\n%-32s %4s %5s", "case", "runs", "load");
	for (int p = 0; p < np; p++)
		fprintf(out, " %11.11s", m->pol[p]);
	fputc('\n', out);
	for (int i = 0; i < m->ncase; i++) {
		fprintf(out, "%-32.32s %4d", m->c[i].name, m->c[i].runs);
		print_num(out, 5, 1, m->c[i].load >= 0 ? m->c[i].load : NAN);
		for (int p = 0; p < np; p++) {
			struct km_tally t = { 0 };
			for (int k = 0; k < m->nrows; k++)
				tally(&t, km_row_class(m, i, p, k));
			char a[32];
			fprintf(out, " %11s", share(a, sizeof(a), &t));
		}
		fputc('\n', out);
	}
}

void kmatrix_print(const struct kmatrix *m, FILE *out)
{
	print_headline(m, out);
	print_rows(m, out);
	print_cases(m, out);
}
