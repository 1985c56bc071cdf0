/* test_bin_dense.c - the binary trace's dense reader (trace_next_dense,
 * what the cache-only replay reads through): it checks a chunk of records
 * at once and goes back over a bad chunk one record at a time, so a bad
 * record deep in the file must still be named by its own number, with the
 * records before it delivered, for each way a record can be bad; from a
 * stream and from a plain file of several of the windows the input maps
 * (input_view); and the cache-only replay's in-place reading of the same
 * files (trace_view_dense) reports the same errors. */
#include "test.h"
#include "../src/cachesim/cachesim.h"
#include "../src/policy/policy.h"
#include "../src/trace/trace_reader.h"
#include "../src/lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NREC 3000   /* three of the reader's 1024-record chunks */

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A trace of nrec records: page i % npages (so pages 0 to npages - 1,
 * each first referenced in order), a write on every third record; room
 * for `extra` bytes more after it. */
static uint8_t *make_trace_of(uint32_t nrec, uint32_t npages, size_t extra, size_t *len)
{
	*len = 64 + 8 * (size_t)nrec;
	uint8_t *b = xcalloc(1, *len + extra);
	memcpy(b, "PGLTRACE", 8);
	put32(b + 8, 1);
	put32(b + 12, 8);
	put32(b + 16, nrec);
	put32(b + 24, npages);
	for (uint32_t i = 0; i < nrec; i++) {
		put32(b + 64 + 8 * (size_t)i, i % npages);
		put32(b + 64 + 8 * (size_t)i + 4, i % 3 == 0);
	}
	return b;
}

static uint8_t *make_trace(size_t *len) { return make_trace_of(NREC, 1000, 0, len); }

/* Read it all densely: the references delivered, -1 on an error (err). */
static long read_dense(const uint8_t *b, size_t len, uint32_t *pages, uint8_t *writes, char *err, size_t errlen)
{
	FILE *in = fmemopen((void *)b, len, "r");
	struct trace_opts o = { .format = TRACE_FMT_BIN };
	struct trace_reader *r = trace_open_file(in, "t", &o, err, errlen);
	long total = -1;
	if (r) {
		long n;
		total = 0;
		while ((n = trace_next_dense(r, pages + total, writes + total, 512)) > 0)
			total += n;
		if (n < 0) {
			snprintf(err, errlen, "%s", trace_reader_error(r));
			total = -1 - total; /* how far it got, for the caller */
		}
		trace_close(r);
	}
	fclose(in);
	return total;
}

void test_bin_dense_errors_by_record(void);
void test_bin_dense_errors_by_record(void)
{
	size_t len;
	uint8_t *b = make_trace(&len);
	uint32_t *pages = xcalloc(NREC, sizeof(*pages));
	uint8_t *writes = xcalloc(NREC, 1);
	char err[300];
	CHECK_EQ(read_dense(b, len, pages, writes, err, sizeof(err)), NREC);
	CHECK_EQ(pages[2999], 999);
	CHECK_EQ(writes[2997], 1);
	CHECK_EQ(writes[2998], 0);
	/* Record 2501 (index 2500) made bad four ways; the reader delivers
	 * whole 512-record batches before the one holding it (2048). */
	struct { uint32_t page, meta; const char *msg; } bad[] = {
		{ 1000, 0, "t:2501: page 1000 beyond the header's 1000 pages" },
		{ 500, 6, "t:2501: bad flags 0x06" },
		{ 500, 8, "t:2501: bad flags 0x08" },
		{ 500, 0x107, "t:2501: bad flags 0x07" },
	};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		put32(b + 64 + 8 * 2500, bad[k].page);
		put32(b + 64 + 8 * 2500 + 4, bad[k].meta);
		CHECK_EQ(read_dense(b, len, pages, writes, err, sizeof(err)), -1 - 2048);
		CHECK(!strcmp(err, bad[k].msg));
		if (strcmp(err, bad[k].msg))
			fprintf(stderr, "got \"%s\"\n", err);
	}
	/* A pid in the meta word's upper bits is no error. */
	put32(b + 64 + 8 * 2500, 500);
	put32(b + 64 + 8 * 2500 + 4, 0x12345605);
	CHECK_EQ(read_dense(b, len, pages, writes, err, sizeof(err)), NREC);
	CHECK_EQ(writes[2500], 1);
	/* A page named before its turn: record 11 names page 11 before 10. */
	put32(b + 64 + 8 * 10, 11);
	CHECK_EQ(read_dense(b, len, pages, writes, err, sizeof(err)), -1);
	CHECK(!strcmp(err, "t:11: page 11 before page 10 (pages are numbered in order of first reference)"));
	free(b);
	free(pages);
	free(writes);
}

/* The trace in a file, read by path: the reader decodes the file's own
 * pages (input_view).  Returns as read_dense(). */
static long read_file(const uint8_t *b, size_t len, uint32_t *pages, uint8_t *writes, char *path, char *err,
		      size_t errlen)
{
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
	if (!f || fwrite(b, 1, len, f) != len || fclose(f) != 0)
		panic("cannot write %s", path);
	struct trace_opts o = { .format = TRACE_FMT_AUTO };
	struct trace_reader *r = trace_open(path, &o, err, errlen);
	long total = -1, n;
	if (r) {
		total = 0;
		while ((n = trace_next_dense(r, pages + total, writes + total, 4096)) > 0)
			total += n;
		if (n < 0) {
			snprintf(err, errlen, "%s", trace_reader_error(r));
			total = -1 - total;
		}
		trace_close(r);
	}
	unlink(path);
	return total;
}

/* 1.2 M records, 9.6 MB: three of the input's 4 MiB windows. */
#define BIG_NREC (1200u * 1024)

void test_bin_dense_mapped_file(void);
void test_bin_dense_mapped_file(void)
{
	size_t len;
	uint8_t *b = make_trace_of(BIG_NREC, 5000, 3, &len);
	uint32_t *pages = xcalloc(BIG_NREC, sizeof(*pages));
	uint8_t *writes = xcalloc(BIG_NREC, 1);
	char path[] = "/tmp/pagelab-test-XXXXXX", err[300], want[300];
	CHECK_EQ(read_file(b, len, pages, writes, path, err, sizeof(err)), BIG_NREC);
	int bad = 0;
	for (uint32_t i = 0; i < BIG_NREC; i++)
		bad += pages[i] != i % 5000 || writes[i] != (i % 3 == 0);
	CHECK_EQ(bad, 0);

	/* A bad record in the third window: named by its number, the
	 * batches before its own delivered. */
	uint32_t at = 1100 * 1024 + 5;
	put32(b + 64 + 8 * (size_t)at + 4, 8);
	char path2[] = "/tmp/pagelab-test-XXXXXX";
	CHECK_EQ(read_file(b, len, pages, writes, path2, err, sizeof(err)), -1 - (long)(at / 4096 * 4096));
	snprintf(want, sizeof(want), "%s:%u: bad flags 0x08", path2, at + 1);
	CHECK(!strcmp(err, want));
	if (strcmp(err, want))
		fprintf(stderr, "got \"%s\"\n", err);

	/* Three bytes past the last record: a truncated record. */
	put32(b + 64 + 8 * (size_t)at + 4, 0);
	char path3[] = "/tmp/pagelab-test-XXXXXX";
	read_file(b, len + 3, pages, writes, path3, err, sizeof(err));
	snprintf(want, sizeof(want), "%s:%u: truncated record", path3, BIG_NREC + 1);
	CHECK(!strcmp(err, want));
	if (strcmp(err, want))
		fprintf(stderr, "got \"%s\"\n", err);
	free(b);
	free(pages);
	free(writes);
}

/* The cache-only replay of a binary trace reads its records in place
 * (trace_view_dense) and checks the order of first references itself, as
 * it replays them (cachesim.c): every bad file must still give the error
 * trace_next_dense() gives, at the same record - a misordered first
 * reference before and after another bad record in the same batch, the
 * header's counts, a truncated record, a record beyond the header's
 * pages - and a good one the same count of references. */
static void write_to(char *path, const uint8_t *b, size_t len)
{
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
	if (!f || fwrite(b, 1, len, f) != len || fclose(f) != 0)
		panic("cannot write %s", path);
}

/* The reader's own verdict on the file (batches of the replay's 4096):
 * its error, or "" and the references in *refs. */
static void dense_verdict(const char *path, char *err, size_t errlen, uint64_t *refs)
{
	static uint32_t pages[4096];
	static uint8_t writes[4096];
	struct trace_opts o = { .format = TRACE_FMT_AUTO };
	struct trace_reader *r = trace_open(path, &o, err, errlen);
	*refs = 0;
	if (!r)
		return;
	long n;
	while ((n = trace_next_dense(r, pages, writes, 4096)) > 0)
		*refs += (uint64_t)n;
	snprintf(err, errlen, "%s", n < 0 ? trace_reader_error(r) : "");
	trace_close(r);
}

static void same_verdict(const uint8_t *b, size_t len, const char *what)
{
	char path[] = "/tmp/pagelab-test-XXXXXX", want[300], got[300] = "";
	write_to(path, b, len);
	uint64_t refs;
	dense_verdict(path, want, sizeof(want), &refs);
	struct cachesim *cs = cachesim_new(policy_find("lru"), NULL, 16);
	struct trace_opts o = { .format = TRACE_FMT_AUTO };
	struct cachesim_trace tr;
	bool ok = cachesim_replay(cs, path, &o, false, &tr, got, sizeof(got));
	if (ok)
		got[0] = 0;
	CHECK(!strcmp(got, want));
	if (strcmp(got, want))
		fprintf(stderr, "%s: replay \"%s\", reader \"%s\"\n", what, got, want);
	if (ok && !want[0])
		CHECK_EQ(tr.refs, refs);
	cachesim_free(cs);
	unlink(path);
}

#define VNREC 10000u
#define VNPAGES 2000u

void test_bin_dense_view_errors_as_the_reader(void);
void test_bin_dense_view_errors_as_the_reader(void)
{
	size_t len;
	uint8_t *b = make_trace_of(VNREC, VNPAGES, 16, &len);
	same_verdict(b, len, "good");
	/* A first reference out of turn (record 1501 names page 1501 while
	 * 1500 are known), alone and with a bad record after it in the
	 * same batch of 4096 and in the same 1024-record view. */
	uint8_t *c = xmalloc(len + 16);
	memcpy(c, b, len);
	put32(c + 64 + 8 * 1500, 1501);
	same_verdict(c, len, "misordered");
	put32(c + 64 + 8 * 1510 + 4, 8);
	same_verdict(c, len, "misordered, then bad flags");
	put32(c + 64 + 8 * 1510 + 4, 0);
	put32(c + 64 + 8 * 1501, VNPAGES);
	same_verdict(c, len, "misordered, then beyond");
	/* The bad record first, the misordered one after it. */
	memcpy(c, b, len);
	put32(c + 64 + 8 * 1500 + 4, 6);
	put32(c + 64 + 8 * 1505, 1700);
	same_verdict(c, len, "bad flags, then misordered");
	/* Each kind of bad record alone. */
	const uint32_t metas[] = { 6, 7, 8, 0x80, 0xff };
	for (size_t k = 0; k < sizeof(metas) / sizeof(metas[0]); k++) {
		memcpy(c, b, len);
		put32(c + 64 + 8 * 7777 + 4, metas[k]);
		same_verdict(c, len, "bad flags");
	}
	memcpy(c, b, len);
	put32(c + 64 + 8 * 9999, 0xffffffffu);
	same_verdict(c, len, "beyond, last record");
	/* The header's counts, a misordered reference among the records
	 * past the count; truncated records. */
	memcpy(c, b, len);
	put32(c + 16, VNREC - 100);
	same_verdict(c, len, "more references than the header's");
	/* (every page is known by record 2000: a page past them, which
	 * the header must allow) */
	put32(c + 24, VNPAGES + 2);
	put32(c + 64 + 8 * 9000, VNPAGES + 1);
	same_verdict(c, len, "more references, misordered first");
	put32(c + 24, VNPAGES);
	memcpy(c, b, len);
	put32(c + 16, VNREC + 1);
	same_verdict(c, len, "fewer references than the header's");
	put32(c + 16, VNREC);
	put32(c + 24, VNPAGES + 1);
	same_verdict(c, len, "fewer pages than the header's");
	put32(c + 24, VNPAGES);
	same_verdict(c, len - 3, "truncated record");
	put32(c + 24, VNPAGES + 2);
	put32(c + 64 + 8 * 8500, VNPAGES + 1);
	same_verdict(c, len - 3, "truncated, misordered first");
	free(c);
	free(b);
}
