/* distinct.c - see distinct.h. */
#include "distinct.h"
#include "pagemap.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>

#define BATCH 4096

/* One pass numbering (pid, page) pairs; false with err on a bad record. */
static bool count_pass(struct trace_reader *rd, const char *path, uint64_t *pages, uint64_t *refs, char *err,
		       size_t errlen)
{
	struct trace_ref *b = xmalloc(BATCH * sizeof(*b));
	struct pagemap m = { 0 };
	bool ok = true;
	long n;
	while (ok && (n = trace_next(rd, b, BATCH)) != 0) {
		if (n < 0) {
			snprintf(err, errlen, "%s", trace_reader_error(rd));
			ok = false;
		}
		for (long i = 0; ok && i < n; i++) {
			uint32_t idx;
			if (!pagemap_get(&m, b[i].page, b[i].pid, &idx)) {
				snprintf(err, errlen, "%s: more than %u distinct pages", path, PAGEMAP_MAX);
				ok = false;
			}
		}
		*refs += ok ? (uint64_t)n : 0;
	}
	*pages = m.used;
	pagemap_free(&m);
	free(b);
	return ok;
}

bool trace_distinct_pages(const char *path, const struct trace_opts *o, uint64_t *pages, char *err, size_t errlen)
{
	struct trace_reader *rd = trace_open(path, o, err, errlen);
	if (!rd)
		return false;
	uint64_t refs = 0;
	bool ok = trace_reader_counts(rd, &refs, pages) || count_pass(rd, path, pages, &refs, err, errlen);
	trace_close(rd);
	if (ok && !refs) {
		snprintf(err, errlen, "trace '%s' holds no references", path);
		ok = false;
	}
	return ok;
}
