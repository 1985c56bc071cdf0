/* marks.c - warm-up and windows over a replay (marks.h). */
#include "marks.h"
#include "../lib/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool warmup_parse(const char *s, struct warmup_arg *w)
{
	*w = (struct warmup_arg){ 0 };
	char *end;
	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		return false;
	if (strchr(s, '.') || strchr(s, 'e') || strchr(s, 'E')) {
		double f = strtod(s, &end);
		if (*end || errno || !(f > 0 && f < 1))
			return false;
		w->frac = f;
		return true;
	}
	unsigned long long n = strtoull(s, &end, 10);
	if (*end || errno)
		return false;
	w->refs = n;
	return true;
}

static uint64_t next_mark(const struct marks *m, uint64_t refs)
{
	if (refs < m->warmup)
		return m->warmup;
	if (!m->window)
		return UINT64_MAX;
	return refs + (m->window - (refs - m->warmup) % m->window);
}

size_t marks_room(const struct marks *m, uint64_t refs, size_t max)
{
	uint64_t left = next_mark(m, refs) - refs;
	return left < max ? (size_t)left : max;
}

static void push_window(struct marks *m, uint64_t refs, uint64_t misses)
{
	uint64_t done_refs = m->warmup, done_misses = m->warm_misses;
	for (size_t k = 0; k < m->nwin; k++) {
		done_refs += m->win_refs[k];
		done_misses += m->win_misses[k];
	}
	if (refs == done_refs)
		return;
	if (m->nwin == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->win_refs = xrealloc(m->win_refs, m->cap * sizeof(*m->win_refs));
		m->win_misses = xrealloc(m->win_misses, m->cap * sizeof(*m->win_misses));
	}
	m->win_refs[m->nwin] = refs - done_refs;
	m->win_misses[m->nwin++] = misses - done_misses;
}

void marks_at(struct marks *m, uint64_t refs, uint64_t misses)
{
	if (refs == m->warmup && m->warmup)
		m->warm_misses = misses;
	else if (m->window && refs > m->warmup && (refs - m->warmup) % m->window == 0)
		push_window(m, refs, misses);
}

void marks_end(struct marks *m, uint64_t refs, uint64_t misses)
{
	if (m->window && refs > m->warmup)
		push_window(m, refs, misses);
}

void marks_free(struct marks *m)
{
	free(m->win_refs);
	free(m->win_misses);
	m->win_refs = m->win_misses = NULL;
	m->nwin = m->cap = 0;
}

static void json_list(FILE *out, const uint64_t *v, size_t n)
{
	fputc('[', out);
	for (size_t k = 0; k < n; k++)
		fprintf(out, "%s%llu", k ? ", " : "", (unsigned long long)v[k]);
	fputc(']', out);
}

void marks_json(FILE *out, const struct marks *m, uint64_t refs, uint64_t misses, const char *sep)
{
	fprintf(out, "%s\"warmup\": %llu%s\"warmup_misses\": %llu", sep, (unsigned long long)m->warmup, sep,
		(unsigned long long)m->warm_misses);
	fprintf(out, "%s\"counted_references\": %llu%s\"counted_misses\": %llu", sep,
		(unsigned long long)(refs - m->warmup), sep, (unsigned long long)(misses - m->warm_misses));
	if (!m->window)
		return;
	fprintf(out, "%s\"window\": %llu%s\"window_refs\": ", sep, (unsigned long long)m->window, sep);
	json_list(out, m->win_refs, m->nwin);
	fprintf(out, "%s\"window_misses\": ", sep);
	json_list(out, m->win_misses, m->nwin);
}

bool trace_count_refs(const char *path, const struct trace_opts *o, uint64_t *n, char *err, size_t errlen)
{
	struct trace_reader *rd = trace_open(path, o, err, errlen);
	if (!rd)
		return false;
	uint64_t pages;
	bool ok = true;
	if (!trace_reader_counts(rd, n, &pages)) {
		struct trace_ref *batch = xmalloc(4096 * sizeof(*batch));
		long got;
		*n = 0;
		while ((got = trace_next(rd, batch, 4096)) > 0)
			*n += (uint64_t)got;
		if (got < 0) {
			snprintf(err, errlen, "%s", trace_reader_error(rd));
			ok = false;
		}
		free(batch);
	}
	trace_close(rd);
	return ok;
}

bool warmup_resolve(const struct warmup_arg *w, const char *path, const struct trace_opts *o, uint64_t *out,
		    char *err, size_t errlen)
{
	*out = w->refs;
	if (!w->frac)
		return true;
	if (!strcmp(path, "-")) {
		snprintf(err, errlen, "--warmup %g: a fraction of the trace needs a file, not stdin", w->frac);
		return false;
	}
	uint64_t n;
	if (!trace_count_refs(path, o, &n, err, errlen))
		return false;
	*out = (uint64_t)floor(w->frac * (double)n);
	return true;
}
