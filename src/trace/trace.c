/* trace.c - loading a whole trace through a reader; see trace.h. */
#include "trace.h"
#include "pagemap.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define LOAD_BATCH 4096

static bool load(struct trace_reader *rd, const char *name, struct trace *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	struct pagemap m = { 0 };
	struct trace_ref *b = xmalloc(LOAD_BATCH * sizeof(*b));
	uint64_t cap = 0;
	bool ok = true;
	long n;
	while (ok && (n = trace_next(rd, b, LOAD_BATCH)) != 0) {
		if (n < 0) {
			snprintf(err, errlen, "%s", trace_reader_error(rd));
			ok = false;
			break;
		}
		if (t->n + (uint64_t)n > cap) {
			cap = MAX(cap * 2, 4096);
			t->page = xrealloc(t->page, cap * sizeof(*t->page));
			t->write = xrealloc(t->write, cap * sizeof(*t->write));
		}
		for (long i = 0; i < n; i++) {
			uint32_t idx;
			if (!pagemap_get(&m, b[i].page, b[i].pid, &idx)) {
				snprintf(err, errlen, "%s: more than %u distinct pages", name, PAGEMAP_MAX);
				ok = false;
				break;
			}
			t->page[t->n] = idx;
			t->write[t->n] = b[i].write;
			t->n++;
		}
	}
	free(b);
	t->npages = m.used;
	pagemap_free(&m);
	if (!ok) {
		trace_free(t);
		return false;
	}
	trace_compute_next_use(t);
	return true;
}

bool trace_load(const char *path, const struct trace_opts *o, struct trace *t, char *err, size_t errlen)
{
	struct trace_reader *rd = trace_open(path, o, err, errlen);
	if (!rd)
		return false;
	bool ok = load(rd, path, t, err, errlen);
	trace_close(rd);
	return ok;
}

bool trace_parse_text(FILE *in, const char *name, struct trace *t, char *err, size_t errlen)
{
	struct trace_opts o = { .format = TRACE_FMT_TEXT };
	struct trace_reader *rd = trace_open_file(in, name, &o, err, errlen);
	if (!rd)
		return false;
	bool ok = load(rd, name, t, err, errlen);
	trace_close(rd);
	return ok;
}

bool trace_load_text(const char *path, struct trace *t, char *err, size_t errlen)
{
	struct trace_opts o = { .format = TRACE_FMT_TEXT };
	return trace_load(path, &o, t, err, errlen);
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
