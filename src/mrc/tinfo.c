/* tinfo.c - the analyses of `pagelab trace info` (tinfo.h). */
#include "tinfo.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tinfo_init(struct tinfo *t, uint64_t window)
{
	memset(t, 0, sizeof(*t));
	t->window = window ? window : 1;
}

static void grow_pages(struct tinfo *t, uint32_t page)
{
	uint64_t n = t->cap ? t->cap : 1024;
	while (n <= page)
		n *= 2;
	t->freq = xrealloc(t->freq, n * sizeof(*t->freq));
	t->last_win = xrealloc(t->last_win, n * sizeof(*t->last_win));
	memset(t->freq + t->cap, 0, (n - t->cap) * sizeof(*t->freq));
	memset(t->last_win + t->cap, 0, (n - t->cap) * sizeof(*t->last_win));
	t->cap = n;
}

static int log2_floor(uint64_t d)
{
	int k = 0;
	while (d >>= 1)
		k++;
	return k;
}

void tinfo_add(struct tinfo *t, uint32_t page, bool write, uint8_t kind)
{
	if (page >= t->cap)
		grow_pages(t, page);
	uint64_t win = t->nrefs / t->window;
	if (win >= t->nws) {
		if (win >= t->ws_cap) {
			t->ws_cap = t->ws_cap ? 2 * t->ws_cap : 64;
			t->ws = xrealloc(t->ws, t->ws_cap * sizeof(*t->ws));
		}
		t->ws[t->nws++] = 0;
	}
	/* last_win holds the window + 1 (0: never seen), wrapping after 2^32
	 * windows, when a page could be missed once: far beyond any trace */
	if (t->last_win[page] != (uint32_t)(win + 1)) {
		t->last_win[page] = (uint32_t)(win + 1);
		t->ws[win]++;
	}
	if (!t->freq[page]++)
		t->npages++;
	if (t->freq[page] == 0)   /* 2^32 references: keep the largest count */
		t->freq[page] = UINT32_MAX;
	uint64_t d = stackdist_access(&t->sd, page);
	if (d)
		t->reuse[log2_floor(d)]++;
	else
		t->first++;
	t->nrefs++;
	t->writes += write;
	t->kinds[kind < 3 ? kind : 0]++;
}

static int by_count_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* alpha and R^2 of the least-squares line through (ln r, ln f(r)). */
static void fit_zipf(struct tinfo *t, const uint32_t *f, uint64_t n)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
	for (uint64_t r = 1; r <= n; r++) {
		double x = log((double)r), y = log((double)f[r - 1]);
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		syy += y * y;
	}
	double dn = (double)n, vx = dn * sxx - sx * sx, vy = dn * syy - sy * sy, cxy = dn * sxy - sx * sy;
	if (n < 2 || vx <= 0)
		return;
	t->fitted = true;
	t->alpha = -cxy / vx;
	/* one frequency only: a flat line fits exactly */
	t->r2 = vy > 0 ? cxy * cxy / (vx * vy) : 1;
}

void tinfo_finish(struct tinfo *t)
{
	uint32_t *f = xmalloc((t->npages ? t->npages : 1) * sizeof(*f));
	uint64_t n = 0;
	for (uint64_t p = 0; p < t->cap; p++)
		if (t->freq[p])
			f[n++] = t->freq[p];
	qsort(f, n, sizeof(*f), by_count_desc);
	t->top = n ? f[0] : 0;
	fit_zipf(t, f, n);
	free(f);
}

size_t tinfo_host_bytes(const struct tinfo *t)
{
	return stackdist_host_bytes(&t->sd) + t->cap * (sizeof(*t->freq) + sizeof(*t->last_win)) +
	       t->ws_cap * sizeof(*t->ws);
}

void tinfo_free(struct tinfo *t)
{
	stackdist_free(&t->sd);
	free(t->freq);
	free(t->last_win);
	free(t->ws);
	memset(t, 0, sizeof(*t));
}
