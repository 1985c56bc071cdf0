/* readers.c - see readers.h. */
#include "readers.h"
#include "../../src/lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) do { fprintf(stderr, "fuzz: " __VA_ARGS__); fputc('\n', stderr); return false; } while (0)
#define MAX_REFS 65536
#define BATCH 1024

struct outcome {
	bool ok;
	uint64_t n, sum;
	char err[400];
	bool bad_ref;
	char why[200];
};

static void read_once(enum trace_format fmt, const char *spec, const uint8_t *data, size_t size, struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f) {
		o->ok = true;
		return;
	}
	struct trace_opts opts = { .format = fmt, .spec = spec };
	struct trace_reader *r = trace_open_file(f, "in", &opts, o->err, sizeof(o->err));
	if (r) {
		uint64_t npages = UINT64_MAX, nrefs;
		if (fmt == TRACE_FMT_BIN && !trace_reader_counts(r, &nrefs, &npages))
			snprintf(o->why, sizeof(o->why), "binary trace without counts");
		struct trace_ref b[BATCH];
		long n;
		o->ok = true;
		while (o->n < MAX_REFS && (n = trace_next(r, b, BATCH)) != 0) {
			if (n < 0) {
				snprintf(o->err, sizeof(o->err), "%s", trace_reader_error(r));
				o->ok = false;
				break;
			}
			for (long i = 0; i < n; i++) {
				if (b[i].write > 1 || b[i].kind > 2 || (fmt == TRACE_FMT_BIN && b[i].page >= npages)) {
					o->bad_ref = true;
					snprintf(o->why, sizeof(o->why), "reference %llu: page %llu write %u kind %u",
						 (unsigned long long)(o->n + (uint64_t)i), (unsigned long long)b[i].page,
						 b[i].write, b[i].kind);
				}
				o->sum = o->sum * 31 + b[i].page * 3 + b[i].write + b[i].pid * 7 + b[i].kind + b[i].time;
			}
			o->n += (uint64_t)n;
		}
		trace_close(r);
	}
	fclose(f);
}

/* A binary trace read densely (trace_next_dense) or in place with the
 * order of first references checked by the caller, as the cache-only
 * replay does (trace_view_dense; batches of its 4096): what each delivers
 * and its error. */
#define VIEW_BATCH 4096
static void bin_once(const uint8_t *data, size_t size, bool view, struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f) {
		o->ok = true;
		return;
	}
	struct trace_opts opts = { .format = TRACE_FMT_BIN };
	struct trace_reader *r = trace_open_file(f, "in", &opts, o->err, sizeof(o->err));
	uint64_t nrefs, npages;
	if (r && trace_reader_counts(r, &nrefs, &npages)) {
		static uint32_t pages[VIEW_BATCH];
		static uint8_t writes[VIEW_BATCH];
		uint64_t distinct = 0;
		long n = 0;
		o->ok = true;
		while (o->n < MAX_REFS) {
			const uint8_t *recs = NULL;
			n = view ? trace_view_dense(r, &recs, VIEW_BATCH, distinct) : trace_next_dense(r, pages, writes, VIEW_BATCH);
			for (long i = 0; i < n; i++) {
				uint32_t page, meta = 0;
				if (view) {
					memcpy(&page, recs + 8 * i, 4);
					memcpy(&meta, recs + 8 * i + 4, 4);
					if (page > distinct) {
						n = trace_view_misordered(r, (size_t)i, page, distinct);
						break;
					}
				} else {
					page = pages[i];
					meta = writes[i];
				}
				distinct += page == distinct;
				if (page >= npages)
					o->bad_ref = true;
				o->sum = o->sum * 31 + page * 3 + (meta & 1);
				o->n++;
			}
			if (n <= 0)
				break;
		}
		if (n < 0) {
			snprintf(o->err, sizeof(o->err), "%s", trace_reader_error(r));
			o->ok = false;
		}
	}
	if (r)
		trace_close(r);
	fclose(f);
}

/* The cache-only replay's reading of a binary trace gives the dense
 * reader's references, and fails where it fails with its message. */
static bool bin_view_same(const uint8_t *data, size_t size)
{
	struct outcome d, v;
	bin_once(data, size, false, &d);
	bin_once(data, size, true, &v);
	if (v.bad_ref)
		FAIL("bin: the view delivered a page beyond the header's count");
	if (d.ok != v.ok || strcmp(d.err, v.err))
		FAIL("bin: the view's verdict '%s' is not the dense reader's '%s'", v.err, d.err);
	/* Up to the error the view delivers what the dense reader does (the
	 * latter nothing of a batch that fails). */
	if (d.ok && (d.n != v.n || d.sum != v.sum))
		FAIL("bin: the view delivered other references than the dense reader");
	return true;
}

bool fuzz_reader_one(enum trace_format fmt, const uint8_t *data, size_t size)
{
	if (size == 0)
		return true; /* fmemopen refuses empty buffers */
	char *spec = NULL;
	if ((fmt == TRACE_FMT_CSV || fmt == TRACE_FMT_BLOCK) && data[0] == '@') {
		size_t k = 1;
		while (k < size && data[k] != '\n')
			k++;
		spec = xmalloc(k);
		memcpy(spec, data + 1, k - 1);
		spec[k - 1] = 0;
		if (strlen(spec) != k - 1)
			spec[0] = 0;
		data += MIN(k + 1, size);
		size -= MIN(k + 1, size);
		if (size == 0) {
			free(spec);
			return true;
		}
	}
	if (fmt == TRACE_FMT_BIN && !bin_view_same(data, size))
		return false;
	struct outcome a, b;
	read_once(fmt, spec, data, size, &a);
	read_once(fmt, spec, data, size, &b);
	free(spec);
	if (a.bad_ref || a.why[0])
		FAIL("%s: %s", trace_format_name(fmt), a.why);
	if (a.ok != b.ok || a.n != b.n || a.sum != b.sum || strcmp(a.err, b.err))
		FAIL("%s: two reads of one input differ", trace_format_name(fmt));
	if (a.ok)
		return true;
	if (strchr(a.err, '\n'))
		FAIL("%s: error spans lines: '%s'", trace_format_name(fmt), a.err);
	if (!strncmp(a.err, "in: ", 4) || !strncmp(a.err, "bad trace spec", 14))
		return true;
	unsigned long long rec;
	if (sscanf(a.err, "in:%llu: ", &rec) != 1)
		FAIL("%s: error '%s' names no record", trace_format_name(fmt), a.err);
	uint64_t lines = 1;
	for (size_t i = 0; i + 1 < size; i++)
		lines += data[i] == '\n';
	bool binary = fmt == TRACE_FMT_ORACLE || fmt == TRACE_FMT_VSCSI || fmt == TRACE_FMT_BIN;
	uint64_t most = binary ? size + 1 : lines;
	if (rec == 0 || rec > most)
		FAIL("%s: error '%s' names record %llu of at most %llu", trace_format_name(fmt), a.err, rec,
		     (unsigned long long)most);
	return true;
}
