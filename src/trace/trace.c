/* trace.c - the text trace reader; see trace.h. */
#include "trace.h"
#include "../lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Open-addressing map from sparse page numbers to dense indices. */
struct pagemap {
	uint64_t *key;
	uint32_t *val;
	uint64_t cap, used;
};

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static void pagemap_grow(struct pagemap *m)
{
	uint64_t ncap = m->cap ? m->cap * 2 : 1024;
	uint64_t *nk = xmalloc(ncap * sizeof(*nk));
	uint32_t *nv = xmalloc(ncap * sizeof(*nv));
	for (uint64_t i = 0; i < ncap; i++)
		nv[i] = UINT32_MAX;
	for (uint64_t i = 0; i < m->cap; i++) {
		if (m->val[i] == UINT32_MAX)
			continue;
		uint64_t h = hash64(m->key[i]) & (ncap - 1);
		while (nv[h] != UINT32_MAX)
			h = (h + 1) & (ncap - 1);
		nk[h] = m->key[i];
		nv[h] = m->val[i];
	}
	free(m->key);
	free(m->val);
	m->key = nk;
	m->val = nv;
	m->cap = ncap;
}

/* Dense index of key, assigning the next one if new. */
static bool pagemap_get(struct pagemap *m, uint64_t key, uint32_t *out)
{
	if ((m->used + 1) * 2 > m->cap)
		pagemap_grow(m);
	uint64_t h = hash64(key) & (m->cap - 1);
	while (m->val[h] != UINT32_MAX) {
		if (m->key[h] == key) {
			*out = m->val[h];
			return true;
		}
		h = (h + 1) & (m->cap - 1);
	}
	if (m->used >= UINT32_MAX - 1)
		return false;
	m->key[h] = key;
	m->val[h] = (uint32_t)m->used++;
	*out = m->val[h];
	return true;
}

static bool parse_page(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i = 0;
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; i < len; i++) {
			char c = s[i];
			unsigned d;
			if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
			else return false;
			if (x >> 60)
				return false;
			x = (x << 4) | d;
		}
		*v = x;
		return true;
	}
	if (len == 0)
		return false;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool trace_parse_text(FILE *in, const char *name, struct trace *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	struct pagemap m = { 0 };
	uint64_t cap = 0, lineno = 0;
	char *line = NULL;
	size_t linecap = 0;
	ssize_t len;
	bool ok = true;
	while ((len = getline(&line, &linecap, in)) >= 0) {
		lineno++;
		if ((size_t)len != strlen(line)) {
			snprintf(err, errlen, "%s:%llu: NUL byte in trace", name, (unsigned long long)lineno);
			ok = false;
			break;
		}
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char *p = line;
		while (is_space(*p))
			p++;
		if (!*p)
			continue;
		char *q = p;
		while (*q && !is_space(*q))
			q++;
		uint64_t pg;
		if (!parse_page(p, (size_t)(q - p), &pg)) {
			snprintf(err, errlen, "%s:%llu: bad page number", name, (unsigned long long)lineno);
			ok = false;
			break;
		}
		while (is_space(*q))
			q++;
		char rw = *q;
		if ((rw != 'r' && rw != 'w' && rw != 'R' && rw != 'W')) {
			snprintf(err, errlen, "%s:%llu: expected 'r' or 'w' after the page number", name, (unsigned long long)lineno);
			ok = false;
			break;
		}
		q++;
		while (is_space(*q))
			q++;
		if (*q) {
			snprintf(err, errlen, "%s:%llu: trailing text", name, (unsigned long long)lineno);
			ok = false;
			break;
		}
		if (t->n == cap) {
			cap = cap ? cap * 2 : 4096;
			t->page = xrealloc(t->page, cap * sizeof(*t->page));
			t->write = xrealloc(t->write, cap * sizeof(*t->write));
		}
		uint32_t idx;
		if (!pagemap_get(&m, pg, &idx)) {
			snprintf(err, errlen, "%s:%llu: too many distinct pages", name, (unsigned long long)lineno);
			ok = false;
			break;
		}
		t->page[t->n] = idx;
		t->write[t->n] = (rw == 'w' || rw == 'W');
		t->n++;
	}
	if (ok && ferror(in)) {
		snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
		ok = false;
	}
	free(line);
	t->npages = m.used;
	free(m.key);
	free(m.val);
	if (!ok) {
		trace_free(t);
		return false;
	}
	trace_compute_next_use(t);
	return true;
}

bool trace_load_text(const char *path, struct trace *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot open trace '%s': %s", path, strerror(errno));
		return false;
	}
	bool ok = trace_parse_text(f, path, t, err, errlen);
	fclose(f);
	return ok;
}

void trace_compute_next_use(struct trace *t)
{
	free(t->next_use);
	t->next_use = xmalloc((t->n ? t->n : 1) * sizeof(uint64_t));
	uint64_t *last = xmalloc((t->npages ? t->npages : 1) * sizeof(uint64_t));
	for (uint64_t i = 0; i < t->npages; i++)
		last[i] = UINT64_MAX;
	for (uint64_t i = t->n; i-- > 0;) {
		t->next_use[i] = last[t->page[i]];
		last[t->page[i]] = i;
	}
	free(last);
}

void trace_free(struct trace *t)
{
	free(t->page);
	free(t->write);
	free(t->next_use);
	memset(t, 0, sizeof(*t));
}
