/* replay.c - a whole trace file through a cache (cachesim_replay): the
 * reader's batches renumbered densely as the full path's trace workload
 * numbers them ((pid, page) pairs in order of first reference; a binary
 * trace's ids as they are), handed to the reference loop in batches. */
#include "cachesim.h"
#include "marks.h"
#include "nextuse.h"
#include "../trace/pagemap.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <stdlib.h>

#define BATCH 4096
#define PROGRESS_EVERY (1ULL << 24)

/* The cache's misses so far, for the marks. */
static uint64_t misses_now(const struct cachesim *cs)
{
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	return st.misses;
}

bool cachesim_replay(struct cachesim *cs, const char *path, const struct trace_opts *o, bool progress,
		     struct cachesim_trace *tr, char *err, size_t errlen)
{
	return cachesim_replay_marked(cs, path, o, progress, NULL, tr, err, errlen);
}

bool cachesim_replay_marked(struct cachesim *cs, const char *path, const struct trace_opts *o, bool progress,
			    struct marks *mk, struct cachesim_trace *tr, char *err, size_t errlen)
{
	*tr = (struct cachesim_trace){ 0 };
	const struct mm *mm = cachesim_mm(cs);
	struct nextuse *nu = NULL;
	if (mm->pol.ops->flags & POLICY_NEEDS_ORACLE) {
		nu = nextuse_open(path, o, err, errlen);
		if (!nu)
			return false;
	}
	struct trace_reader *rd = nu ? NULL : trace_open(path, o, err, errlen);
	if (!nu && !rd)
		return false;
	uint64_t nrefs, npages;
	bool dense = rd && trace_reader_counts(rd, &nrefs, &npages);
	if (dense)
		cachesim_reserve(cs, npages);
	/* A binary trace's records are replayed where the reader holds them
	 * (trace_view_dense), the order of first references checked by the
	 * replay: on a little-endian host, whose words are the format's. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	bool view = dense && trace_view_ok(rd);
#else
	bool view = false;
#endif
	struct pagemap map = { 0 };
	struct trace_ref *batch = xmalloc(BATCH * sizeof(*batch));
	uint32_t *pages = xmalloc(BATCH * sizeof(*pages));
	uint8_t *writes = xmalloc(BATCH);
	bool ok = true;
	uint64_t next_progress = PROGRESS_EVERY;
	for (;;) {
		long n;
		/* a batch stops at the next mark, where the misses are read */
		size_t want = mk ? marks_room(mk, tr->refs, BATCH) : BATCH;
		if (nu) {
			n = nextuse_next(nu, pages, writes, want);
			if (n > 0) {
				cachesim_set_next_use(cs, nextuse_window(nu), tr->refs, (uint64_t)n);
				tr->host_bytes = MAX(tr->host_bytes, nextuse_host_bytes(nu));
			}
		} else if (view) {
			const uint8_t *recs;
			n = trace_view_dense(rd, &recs, want, cachesim_pages(cs));
			/* Replayed here, where a misordered first reference
			 * among them becomes the reader's error. */
			if (n > 0 && (tr->interrupted = output_interrupted()))
				break;
			if (n > 0) {
				uint32_t page;
				size_t done = cachesim_recs_below(cs, recs, (size_t)n, npages, &page);
				if (done < (size_t)n)
					n = trace_view_misordered(rd, done, page, cachesim_pages(cs));
			}
			if (n == -1)
				snprintf(err, errlen, "%s", trace_reader_error(rd));
		} else {
			n = dense ? trace_next_dense(rd, pages, writes, want) : trace_next(rd, batch, want);
			for (long i = 0; i < n && !dense; i++) {
				if (!pagemap_get(&map, batch[i].page, batch[i].pid, &pages[i])) {
					snprintf(err, errlen, "%s: more than %u distinct pages", path, PAGEMAP_MAX);
					n = -2;
					break;
				}
				writes[i] = batch[i].write;
			}
			if (n == -1)
				snprintf(err, errlen, "%s", trace_reader_error(rd));
		}
		if (n < 0) {
			if (nu && n == -1)
				snprintf(err, errlen, "%s", nextuse_error(nu));
			ok = false;
			break;
		}
		if (n == 0)
			break;
		if (!view && (tr->interrupted = output_interrupted()))
			break;
		if (view) {
			/* replayed above */
		} else if (dense) /* the reader holds every id below the header's count */
			cachesim_refs_below(cs, pages, writes, (size_t)n, npages);
		else
			cachesim_refs(cs, pages, writes, (size_t)n);
		tr->refs += (uint64_t)n;
		if (mk)
			marks_at(mk, tr->refs, misses_now(cs));
		if (progress && tr->refs >= next_progress) {
			fprintf(stderr, "\rpagelab: %llu M references replayed", (unsigned long long)(tr->refs >> 20));
			next_progress += PROGRESS_EVERY;
		}
	}
	if (progress && next_progress > PROGRESS_EVERY)
		fputc('\n', stderr);
	if (ok && tr->refs == 0) {
		snprintf(err, errlen, "trace '%s' holds no references", path);
		ok = false;
	}
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	tr->pages = st.pages;
	if (mk)
		marks_end(mk, tr->refs, st.misses);
	size_t reader = rd ? trace_reader_host_bytes(rd) : 0;
	tr->host_bytes = MAX(tr->host_bytes, reader + pagemap_host_bytes(&map)) +
			 BATCH * (sizeof(*batch) + sizeof(*pages) + 1);
	pagemap_free(&map);
	free(batch);
	free(pages);
	free(writes);
	if (rd)
		trace_close(rd);
	nextuse_close(nu);
	return ok;
}
