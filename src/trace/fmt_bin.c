/* fmt_bin.c - pagelab's binary trace format, reader and writer; see
 * bintrace.h for the layout. */
#include "format.h"
#include "bintrace.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct bin {
	uint64_t nrefs, npages, seen;
	uint64_t next_new;   /* the page a first reference must name next */
	uint64_t view_seen;  /* records before the last bin_view()'s */
	uint32_t flags;
};

static bool bin_open(struct trace_reader *r, char *err, size_t errlen)
{
	uint8_t h[BINTRACE_HEADER];
	long got = input_read(r->in, h, sizeof(h));
	const char *name = input_name(r->in);
	if (got < 0) {
		snprintf(err, errlen, "%s: %s", name, input_error(r->in));
		return false;
	}
	if (got < BINTRACE_HEADER || memcmp(h, "PGLTRACE", 8)) {
		snprintf(err, errlen, "%s: not a pagelab binary trace (no PGLTRACE header)", name);
		return false;
	}
	if (get_le32(h + 8) != BINTRACE_VERSION || get_le32(h + 12) != BINTRACE_RECORD) {
		snprintf(err, errlen, "%s: binary trace version %u with %u-byte records (this pagelab reads version %d, %d bytes)",
			 name, get_le32(h + 8), get_le32(h + 12), BINTRACE_VERSION, BINTRACE_RECORD);
		return false;
	}
	struct bin *b = xcalloc(1, sizeof(*b));
	r->st = b;
	b->nrefs = get_le64(h + 16);
	b->npages = get_le64(h + 24);
	b->flags = get_le32(h + 32);
	if (b->npages > b->nrefs || b->npages > UINT32_MAX - 1) {
		snprintf(err, errlen, "%s: header: %llu distinct pages in %llu references", name,
			 (unsigned long long)b->npages, (unsigned long long)b->nrefs);
		return false;
	}
	return true;
}

/* Records decoded from one view of the input: 8 KiB, in the host's L1. */
#define BIN_VIEW 1024
/* How far ahead of the record it decodes the cache-only path fetches the
 * input's bytes.  A plain file is decoded in its own pages (input_view),
 * which are scattered in host memory: the host's prefetcher stops at each
 * 4 KiB page's end, and without this fetch the decoder waited on every
 * page, 4% more CPU time than the read() and copy it replaces; with it,
 * 10% less (LRU and CLOCK on make bench's Zipf trace, 10 pairs each;
 * 1-16 KiB ahead measured alike). */
#define BIN_PREFETCH 4096

/* One record of the cache-only path's chunk: its page and write flag out,
 * its tests or-ed into *bad and its meta word's low byte into the largest
 * seen, *low (tested once a chunk).  No test of page >= npages here: a
 * page at or past npages that is not past *nn is *nn itself, which takes
 * *nn past npages for the test after the chunk (it never falls back), so
 * that one test finds it.  Inline: the chunk's state stays in registers. */
static inline void bin_check(const uint8_t *p, uint32_t *pg, uint8_t *wr, uint64_t *nn, uint32_t *bad, uint32_t *low)
{
	uint32_t page = get_le32(p), m = get_le32(p + 4);
	*low = MAX(*low, m & 0xff);
	*bad |= (uint32_t)(page > *nn);
	*nn = page == *nn ? *nn + 1 : *nn;
	*pg = page;
	*wr = (uint8_t)(m & 1);
}

/* The tests of one record but the order of first references: its page
 * below the header's count, its flags good (bits 3-7 of meta clear, a
 * kind other than 3).  A bad record is reader_fail()ed at `record`. */
static bool bin_record_bad(struct trace_reader *r, uint64_t record, uint32_t page, uint32_t m, uint64_t npages)
{
	if (page < npages && !(m & 0xf8) && ((m >> 1) & 3) != 3)
		return false;
	r->record = record;
	if (page >= npages)
		reader_fail(r, "page %u beyond the header's %llu pages", page, (unsigned long long)npages);
	else
		reader_fail(r, "bad flags 0x%02x", m & 0xff);
	return true;
}

/* Pages are numbered in order of first reference: the replay maps memory
 * as they come, so a hostile page number cannot make it map more than it
 * has seen.  Record `record` names `page` when `distinct` have been. */
static long bin_fail_misordered(struct trace_reader *r, uint64_t record, uint32_t page, uint64_t distinct)
{
	r->record = record;
	return reader_fail(r, "page %u before page %llu (pages are numbered in order of first reference)", page,
			   (unsigned long long)distinct);
}

/* The header's counts against the file, after a call that read n records
 * (n == 0: the file's end) and `distinct` pages so far: reader_fail() and
 * true on a mismatch. */
static bool bin_counts_bad(struct trace_reader *r, size_t n, uint64_t distinct)
{
	struct bin *b = r->st;
	if (b->seen > b->nrefs) {
		r->record = b->seen;
		reader_fail(r, "more references than the header's %llu", (unsigned long long)b->nrefs);
	} else if (n == 0 && b->seen < b->nrefs) {
		r->record = b->seen + 1;
		reader_fail(r, "the header says %llu references, the file ends after %llu", (unsigned long long)b->nrefs,
			    (unsigned long long)b->seen);
	} else if (n == 0 && distinct != b->npages) {
		r->record = b->seen;
		reader_fail(r, "the header says %llu distinct pages, the file references %llu",
			    (unsigned long long)b->npages, (unsigned long long)distinct);
	} else {
		return false;
	}
	return true;
}

/* Up to max records: each one's page and meta word (bintrace.h), or its
 * write flag alone when meta is NULL, checked. */
static long bin_decode(struct trace_reader *r, uint32_t *pages, uint32_t *meta, uint8_t *writes, size_t max)
{
	struct bin *b = r->st;
	size_t n = 0;
	while (n < max) {
		/* The records where the input holds them (a plain file's own
		 * pages), decoded in place: no copy (input_view). */
		size_t want = MIN(max - n, (size_t)BIN_VIEW), got;
		const uint8_t *buf = input_view(r->in, want * BINTRACE_RECORD, &got);
		if (input_error(r->in)[0]) {
			r->record = b->seen + 1;
			return reader_fail(r, "%s", input_error(r->in));
		}
		input_skip(r->in, got);
		size_t recs = got / BINTRACE_RECORD;
		/* Locals and one test of or-ed conditions: this loop runs once
		 * per reference of a cache-only replay. */
		uint64_t next_new = b->next_new;
		const uint64_t npages = b->npages;
		size_t slow = recs; /* records for the loop that stops at a bad one */
		if (!meta) {
			/* The cache-only replay's path: every record checked with
			 * the or of its tests kept for the whole chunk, and only a
			 * bad chunk gone through again one record at a time below
			 * for which record failed and why (a third of the
			 * instructions of the loop that stops at each record). */
			uint32_t bad = 0, low = 0;
			uint64_t nn = next_new;
			uint32_t *pg = pages + n;
			uint8_t *wr = writes + n;
			size_t i = 0;
			/* Eight records (a host line) a round, with one fetch. */
			for (; i + 8 <= recs; i += 8) {
				__builtin_prefetch(buf + i * BINTRACE_RECORD + BIN_PREFETCH);
#pragma GCC unroll 8
				for (size_t j = i; j < i + 8; j++)
					bin_check(buf + j * BINTRACE_RECORD, &pg[j], &wr[j], &nn, &bad, &low);
			}
			for (; i < recs; i++)
				bin_check(buf + i * BINTRACE_RECORD, &pg[i], &wr[i], &nn, &bad, &low);
			/* The low byte's good values are 0-5: bits 3-7 clear and a
			 * kind (bits 1-2) of 0-2. */
			bad |= (uint32_t)(low > 5);
			bad |= (uint32_t)(nn > npages);
			if (__builtin_expect(!bad, 1)) {
				next_new = nn;
				n += recs;
				slow = 0;
			}
		}
		for (size_t i = 0; i < slow; i++) {
			const uint8_t *p = buf + i * BINTRACE_RECORD;
			uint32_t page = get_le32(p), m = get_le32(p + 4);
			bool bad = (page >= npages) | ((m & 0xf8) != 0) | (((m >> 1) & 3) == 3) | (page > next_new);
			if (__builtin_expect(bad, 0)) {
				b->next_new = next_new;
				if (bin_record_bad(r, b->seen + i + 1, page, m, npages))
					return -1;
				return bin_fail_misordered(r, b->seen + i + 1, page, next_new);
			}
			next_new += page == next_new;
			pages[n] = page;
			if (meta)
				meta[n] = m;
			else
				writes[n] = (uint8_t)(m & 1);
			n++;
		}
		b->next_new = next_new;
		b->seen += recs;
		r->record = b->seen;
		if (got % BINTRACE_RECORD) {
			r->record = b->seen + 1;
			return reader_fail(r, "truncated record");
		}
		if (recs < want)
			break;
	}
	return bin_counts_bad(r, n, b->next_new) ? -1 : (long)n;
}

/* A record's page and meta word where the input holds it (bintrace.h's
 * little-endian layout; memcpy: a view need not be 4-byte aligned). */
static inline uint32_t rec_word(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
#else
	return get_le32(p);
#endif
}

/* Whether n records (n > 0) all have a page below npages and good flags:
 * bits 3-7 of meta clear and a kind (bits 1-2) other than 3. */
static bool view_good(const uint8_t *buf, size_t n, uint64_t npages)
{
	if (!npages)
		return false;
	size_t i = 0;
	uint32_t bad = 0;
#ifdef __SSE2__
	/* Two records a vector (x86-64's baseline SSE2, no -march): lanes 0
	 * and 2 pages, 1 and 3 meta words, each test or-ed over the view;
	 * the pages compared as signed words with their top bit flipped
	 * (SSE2 has no unsigned compare).  4 instructions a record against
	 * the scalar loop's 14 (gcc does not vectorize it at -O2). */
	const __m128i flip = _mm_set1_epi32((int)0x80000000u);
	const __m128i lim = _mm_set1_epi32((int)((uint32_t)(npages - 1) ^ 0x80000000u));
	__m128i over = _mm_setzero_si128(), bits = over, kind = over;
	for (; i + 8 <= n; i += 8) {
		/* A host line a round, with one fetch BIN_PREFETCH ahead. */
		__builtin_prefetch(buf + i * BINTRACE_RECORD + BIN_PREFETCH);
		for (int j = 0; j < 64; j += 16) {
			__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(buf + i * BINTRACE_RECORD + j));
			over = _mm_or_si128(over, _mm_cmpgt_epi32(_mm_xor_si128(a, flip), lim));
			bits = _mm_or_si128(bits, a);
			kind = _mm_or_si128(kind, _mm_and_si128(a, _mm_srli_epi32(a, 1)));
		}
	}
	const __m128i pagelanes = _mm_set_epi32(0, -1, 0, -1), metabits = _mm_set_epi32(0xf8, 0, 0xf8, 0),
		      kindbit = _mm_set_epi32(2, 0, 2, 0);
	__m128i all = _mm_or_si128(_mm_and_si128(over, pagelanes),
				   _mm_or_si128(_mm_and_si128(bits, metabits), _mm_and_si128(kind, kindbit)));
	bad = (uint32_t)(_mm_movemask_epi8(_mm_cmpeq_epi32(all, _mm_setzero_si128())) != 0xffff);
#endif
	uint32_t top = 0;
	for (; i < n; i++) {
		uint32_t page = rec_word(buf + i * BINTRACE_RECORD), m = rec_word(buf + i * BINTRACE_RECORD + 4);
		top = MAX(top, page);
		bad |= (m & 0xf8) | (m & (m >> 1) & 2);
	}
	return !bad && top < npages;
}

/* The cache-only replay's reader (trace_view_dense): up to max records
 * where the input holds them, checked as bin_decode() checks them but for
 * the order of first references, which the caller checks as it replays
 * them (a PTE never set is a first reference: trace_view_misordered()).
 * What that leaves per record - its page below the header's count, its
 * flags good - is a largest page and an or of flag bits over the whole
 * view, with no serial dependency from one record to the next (the test
 * against next_new was one) and nothing written: the replay reads the
 * records in place instead of decoded arrays (17 instructions a
 * reference before, callgrind).
 *
 * Every error is the one bin_decode() reports for the same file, at the
 * same record: the records before the first bad one are returned, and the
 * error is recorded (reader_fail) for the next call, so that a misordered
 * first reference among them, an earlier record, is reported instead.
 * bin_decode() reads views of BIN_VIEW records and on an input error
 * checks none of the view it was reading: so does this (whole views
 * only); and it tests the header's reference count once a call of max
 * records, as this does. */
static long bin_view(struct trace_reader *r, const uint8_t **recs, size_t max, uint64_t distinct)
{
	struct bin *b = r->st;
	b->next_new = distinct;
	b->view_seen = b->seen;
	size_t got;
	const uint8_t *buf = input_view(r->in, max * BINTRACE_RECORD, &got);
	bool in_err = input_error(r->in)[0] != 0;
	if (in_err)
		got -= got % (BIN_VIEW * BINTRACE_RECORD);
	input_skip(r->in, got);
	size_t n = got / BINTRACE_RECORD;
	const uint64_t npages = b->npages;
	*recs = buf;
	if (__builtin_expect(n && !view_good(buf, n, npages), 0)) {
		for (size_t i = 0; i < n; i++) {
			uint32_t page = rec_word(buf + i * BINTRACE_RECORD), m = rec_word(buf + i * BINTRACE_RECORD + 4);
			if (!bin_record_bad(r, b->seen + i + 1, page, m, npages))
				continue;
			b->seen += i;
			return i ? (long)i : -1;
		}
	}
	b->seen += n;
	r->record = b->seen;
	if (in_err) {
		r->record = b->seen + 1;
		reader_fail(r, "%s", input_error(r->in));
	} else if (got % BINTRACE_RECORD) {
		r->record = b->seen + 1;
		reader_fail(r, "truncated record");
	} else {
		bin_counts_bad(r, n, distinct);
	}
	return n ? (long)n : r->failed ? -1 : 0;
}

/* Record i of the last bin_view() is a first reference to `page` when
 * `distinct` pages have been referenced: bin_decode()'s message. */
static long bin_misordered(struct trace_reader *r, size_t i, uint32_t page, uint64_t distinct)
{
	struct bin *b = r->st;
	return bin_fail_misordered(r, b->view_seen + i + 1, page, distinct);
}

/* bin_decode() in chunks its stack buffers hold, as trace_refs. */
#define BIN_CHUNK 1024
static long bin_batch(struct trace_reader *r, struct trace_ref *out, size_t max)
{
	uint32_t pg[BIN_CHUNK], meta[BIN_CHUNK];
	size_t n = 0;
	while (n < max) {
		size_t want = MIN(max - n, BIN_CHUNK);
		long got = bin_decode(r, pg, meta, NULL, want);
		if (got < 0)
			return -1;
		for (long i = 0; i < got; i++)
			out[n + (size_t)i] = (struct trace_ref){ .page = pg[i], .pid = meta[i] >> 8,
								 .write = (uint8_t)(meta[i] & 1),
								 .kind = (uint8_t)((meta[i] >> 1) & 3) };
		n += (size_t)got;
		if ((size_t)got < want)
			break;
	}
	return (long)n;
}

/* Dense ids and write flags straight into the caller's arrays: the
 * cache-only replay's reader. */
static long bin_dense(struct trace_reader *r, uint32_t *pages, uint8_t *writes, size_t max)
{
	return bin_decode(r, pages, NULL, writes, max);
}

static bool bin_counts(const struct trace_reader *r, uint64_t *nrefs, uint64_t *npages)
{
	const struct bin *b = r->st;
	*nrefs = b->nrefs;
	*npages = b->npages;
	return true;
}


const struct format_ops fmt_bin = {
	.fmt = TRACE_FMT_BIN,
	.name = "bin",
	.open = bin_open,
	.batch = bin_batch,
	.dense = bin_dense,
	.view = bin_view,
	.misordered = bin_misordered,
	.counts = bin_counts,
	.close = reader_free_state,
};

struct bintrace_writer {
	struct atomic_file af; /* a regular file: the header is rewritten last */
	int write_errno;       /* the first write error, reported at the end */
	uint64_t nrefs;
	uint32_t flags;
};

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}
static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

struct bintrace_writer *bintrace_create(const char *path, char *err, size_t errlen)
{
	struct bintrace_writer *w = xcalloc(1, sizeof(*w));
	if (!output_open(&w->af, path, OUTPUT_REGULAR, err, errlen)) {
		free(w);
		return NULL;
	}
	static uint8_t zero[BINTRACE_HEADER];
	fwrite(zero, 1, sizeof(zero), w->af.f);
	return w;
}

bool bintrace_put(struct bintrace_writer *w, const struct trace_ref *ref, char *err, size_t errlen)
{
	if (ref->pid > BINTRACE_PID_MAX) {
		snprintf(err, errlen, "pid %u does not fit the binary format's 24 bits", ref->pid);
		return false;
	}
	uint8_t rec[BINTRACE_RECORD];
	put_le32(rec, (uint32_t)ref->page);
	put_le32(rec + 4, (uint32_t)(ref->write & 1) | (uint32_t)(ref->kind & 3) << 1 | ref->pid << 8);
	w->flags |= (ref->pid ? 1u : 0) | (ref->kind ? 2u : 0);
	w->nrefs++;
	/* After a failed write, no more: bintrace_finish() reports it. */
	if (!w->write_errno && fwrite(rec, 1, sizeof(rec), w->af.f) != sizeof(rec))
		w->write_errno = errno ? errno : EIO;
	return true;
}

bool bintrace_finish(struct bintrace_writer *w, uint64_t npages, char *err, size_t errlen)
{
	uint8_t h[BINTRACE_HEADER] = { 0 };
	memcpy(h, "PGLTRACE", 8);
	put_le32(h + 8, BINTRACE_VERSION);
	put_le32(h + 12, BINTRACE_RECORD);
	put_le64(h + 16, w->nrefs);
	put_le64(h + 24, npages);
	put_le32(h + 32, w->flags);
	errno = 0;
	if (w->write_errno || fseek(w->af.f, 0, SEEK_SET) != 0 || fwrite(h, 1, sizeof(h), w->af.f) != sizeof(h)) {
		snprintf(err, errlen, "cannot write %s: %s", w->af.path,
			 strerror(w->write_errno ? w->write_errno : errno ? errno : EIO));
		bintrace_abort(w);
		return false;
	}
	bool ok = atomic_commit(&w->af, err, errlen);
	free(w);
	return ok;
}

void bintrace_abort(struct bintrace_writer *w)
{
	atomic_abort(&w->af);
	free(w);
}
