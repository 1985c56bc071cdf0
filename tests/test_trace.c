/* test_trace.c - the trace readers (src/trace/) on small inputs worked out
 * by hand: every format's references (pages, writes, pids, spans across
 * page boundaries), its errors with FILE:RECORD, compressed input, the
 * line limit, the binary format's round trip, and the streaming replay
 * against an independent LRU on a trace whose data memory has to grow. */
#include "test.h"
#include "sim.h"
#include "../src/trace/trace_reader.h"
#include "../src/trace/bintrace.h"
#include "../src/lib/util.h"
#include "fuzz/compress.h"
#include "trace_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b); if (strcmp(_a, _b)) { \
	fprintf(stderr, "%s:%d: got \"%s\", expected \"%s\"\n", __FILE__, __LINE__, _a, _b); \
	test_failures++; } } while (0)

#define MAXREFS 64

/* Read data as format f (options o, may be NULL) named "t": the count of
 * references, or -1 with the error in err. */
static long read_refs(const void *data, size_t len, enum trace_format f, const struct trace_opts *o,
		      struct trace_ref *out, char *err, size_t errlen)
{
	struct trace_opts opts = { .format = f };
	if (o)
		opts = *o, opts.format = f;
	FILE *in = len ? fmemopen((void *)data, len, "r") : fopen("/dev/null", "r");
	if (!in)
		return -2;
	long total = trace_read_all(in, &opts, out, MAXREFS, err, errlen);
	fclose(in);
	return total;
}

static const char *read_error(const char *text, enum trace_format f)
{
	static char err[400];
	struct trace_ref refs[MAXREFS];
	if (read_refs(text, strlen(text), f, NULL, refs, err, sizeof(err)) >= 0)
		return "";
	return err;
}

void test_trace_text_extended(void);
void test_trace_text_extended(void)
{
	static const char s[] = "0x10 r pid=7 file\n16 W anon # c\n16 r\n";
	struct trace_ref r[MAXREFS];
	char err[400];
	CHECK_EQ(read_refs(s, strlen(s), TRACE_FMT_TEXT, NULL, r, err, sizeof(err)), 3);
	CHECK_EQ(r[0].page, 16);
	CHECK_EQ(r[0].pid, 7);
	CHECK_EQ(r[0].kind, TRACE_KIND_FILE);
	CHECK_EQ(r[0].write, 0);
	CHECK_EQ(r[1].page, 16);
	CHECK_EQ(r[1].pid, 0);
	CHECK_EQ(r[1].kind, TRACE_KIND_ANON);
	CHECK_EQ(r[1].write, 1);
	CHECK_EQ(r[2].kind, TRACE_KIND_ANY);
	CHECK_STR(read_error("1 r\n2 r pid=0\n", TRACE_FMT_TEXT), "t:2: bad pid (1 to 4294967295)");
	CHECK_STR(read_error("1 r pid=4294967296\n", TRACE_FMT_TEXT), "t:1: bad pid (1 to 4294967295)");
	CHECK_STR(read_error("1 r pid=3 pid=4\n", TRACE_FMT_TEXT), "t:1: trailing text");
	CHECK_STR(read_error("1 r anon file\n", TRACE_FMT_TEXT), "t:1: trailing text");
	CHECK_STR(read_error("1 rpid=3\n", TRACE_FMT_TEXT), "t:1: trailing text");
	CHECK_STR(read_error("1 r\n\n3 w anon pid=9 # ok\n", TRACE_FMT_TEXT), "");
}

void test_trace_lackey(void);
void test_trace_lackey(void)
{
	static const char s[] =
		"==42== Lackey, an example Valgrind tool\n"
		"I  00400ffe,4\n"        /* 0x400ffe..0x401001: pages 0x400, 0x401 */
		" L 00402000,8\n"        /* page 0x402 */
		" S 00402ff8,16\n"       /* 0x402ff8..0x403007: pages 0x402, 0x403, written */
		"--42-- a warning\n"
		" M 1ffefff000,4\n"      /* page 0x1ffefff: read, then written */
		"==42== \n";
	struct trace_ref r[MAXREFS];
	char err[400];
	CHECK_EQ(read_refs(s, strlen(s), TRACE_FMT_LACKEY, NULL, r, err, sizeof(err)), 7);
	static const uint64_t page[7] = { 0x400, 0x401, 0x402, 0x402, 0x403, 0x1ffefff, 0x1ffefff };
	static const uint8_t wr[7] = { 0, 0, 0, 1, 1, 0, 1 };
	for (int i = 0; i < 7; i++) {
		CHECK_EQ(r[i].page, page[i]);
		CHECK_EQ(r[i].write, wr[i]);
		CHECK_EQ(r[i].pid, 42);
	}
	struct trace_opts o = { .no_instructions = true };
	CHECK_EQ(read_refs(s, strlen(s), TRACE_FMT_LACKEY, &o, r, err, sizeof(err)), 5);
	CHECK_EQ(r[0].page, 0x402);
	CHECK_STR(read_error("I  0400,4\n X 0040,4\n", TRACE_FMT_LACKEY),
		  "t:2: not a lackey record (expected 'I  ADDR,SIZE' or ' L|S|M ADDR,SIZE')");
	CHECK_STR(read_error(" L zz,4\n", TRACE_FMT_LACKEY), "t:1: bad address");
	CHECK_STR(read_error(" L 10,0\n", TRACE_FMT_LACKEY), "t:1: bad size");
	CHECK_STR(read_error(" L 10,4x\n", TRACE_FMT_LACKEY), "t:1: bad size");
	CHECK_STR(read_error(" L ffffffffffffffff,2\n", TRACE_FMT_LACKEY),
		  "t:1: access runs past the end of the address space");
}

void test_trace_csv(void);
void test_trace_csv(void)
{
	/* libCacheSim's sample header: columns found by name. */
	static const char s[] = "version,time,op,size,lbn\n1,5,2a,512,42\n1,6.5,28,512,0x2b\n";
	struct trace_ref r[MAXREFS];
	char err[400];
	CHECK_EQ(read_refs(s, strlen(s), TRACE_FMT_CSV, NULL, r, err, sizeof(err)), 2);
	CHECK_EQ(r[0].page, 42);
	CHECK_EQ(r[0].write, 1);
	CHECK_EQ(r[0].time, 5);
	CHECK_EQ(r[1].page, 43);
	CHECK_EQ(r[1].write, 0);
	CHECK_EQ(r[1].time, 6);
	/* A spec, no header, another delimiter; a quoted field. */
	static const char s2[] = "a|10\nb|\"16\"\n";
	struct trace_opts o = { .spec = "obj-id-col=2, delimiter=|, has-header=false" };
	CHECK_EQ(read_refs(s2, strlen(s2), TRACE_FMT_CSV, &o, r, err, sizeof(err)), 2);
	CHECK_EQ(r[0].page, 10);
	CHECK_EQ(r[1].page, 16);
	/* String ids are hashed: equal strings, equal pages. */
	static const char s3[] = "key,op\nfoo,get\nbar,set\nfoo,GET\n";
	CHECK_EQ(read_refs(s3, strlen(s3), TRACE_FMT_CSV, NULL, r, err, sizeof(err)), 3);
	CHECK(r[0].page == r[2].page && r[0].page != r[1].page);
	CHECK_EQ(r[1].write, 1);
	CHECK_STR(read_error("key,op\nfoo,delete\n", TRACE_FMT_CSV),
		  "t:2: unknown op 'delete' (reads: r, read, get, SCSI 28; writes: w, write, set, put, SCSI 2a)");
	CHECK_STR(read_error("time,lbn\n1,2\n3\n", TRACE_FMT_CSV), "t:3: no column 2 (object id): the row has 1");
	CHECK_STR(read_error("time,lbn\nx,2\n", TRACE_FMT_CSV), "t:2: bad time 'x'");
	CHECK_STR(read_error("a,b\n1,2\n", TRACE_FMT_CSV), "t: which column holds the object id? (--spec obj-id-col=N)");
	o.spec = "obj-id-col=0";
	CHECK_EQ(read_refs(s, strlen(s), TRACE_FMT_CSV, &o, r, err, sizeof(err)), -1);
	CHECK_STR(err, "bad trace spec: obj-id-col must be a column from 1 to 64");
	o.spec = "colour=blue";
	CHECK_EQ(read_refs(s, strlen(s), TRACE_FMT_CSV, &o, r, err, sizeof(err)), -1);
	CHECK(strstr(err, "unknown key 'colour'") != NULL);
}

void test_trace_txt(void);
void test_trace_txt(void)
{
	static const char s[] = "1\n\n2\r\nabc\n  1\n";
	struct trace_ref r[MAXREFS];
	char err[400];
	CHECK_EQ(read_refs(s, strlen(s), TRACE_FMT_TXT, NULL, r, err, sizeof(err)), 4);
	CHECK_EQ(r[0].page, 1);
	CHECK_EQ(r[1].page, 2);
	CHECK(r[2].page != 1 && r[2].page != 2);
	CHECK_EQ(r[3].page, 1);
	CHECK_STR(read_error("1\n99999999999999999999\n", TRACE_FMT_TXT), "t:2: object id overflows 64 bits");
	CHECK_STR(read_error("1\n2\0\n", TRACE_FMT_TXT), "");
}

static void le32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i); }
static void le64(uint8_t *p, uint64_t v) { le32(p, (uint32_t)v); le32(p + 4, (uint32_t)(v >> 32)); }
static void le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

void test_trace_oracle_general(void);
void test_trace_oracle_general(void)
{
	uint8_t b[24 * 3];
	memset(b, 0, sizeof(b));
	le32(b, 7);
	le64(b + 4, 0x123456789aULL);
	le32(b + 12, 512);
	le64(b + 16, (uint64_t)-1);
	le32(b + 24, 8);
	le64(b + 28, 5);
	struct trace_ref r[MAXREFS];
	char err[400];
	CHECK_EQ(read_refs(b, 48, TRACE_FMT_ORACLE, NULL, r, err, sizeof(err)), 2);
	CHECK_EQ(r[0].page, 0x123456789aULL);
	CHECK_EQ(r[0].time, 7);
	CHECK_EQ(r[1].page, 5);
	CHECK_EQ(r[1].write, 0);
	CHECK_EQ(read_refs(b, 53, TRACE_FMT_ORACLE, NULL, r, err, sizeof(err)), -1);
	CHECK_STR(err, "t:3: truncated record (5 of 24 bytes)");
}

void test_trace_vscsi(void);
void test_trace_vscsi(void)
{
	/* Version 1: u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver, u64 lbn, u64 ts. */
	uint8_t v1[64] = { 0 };
	for (int i = 0; i < 2; i++) {
		uint8_t *p = v1 + 32 * i;
		le32(p + 4, 512);
		le16(p + 12, i ? 0x28 : 0x2a);
		le16(p + 14, 0x100);
		le64(p + 16, 1000 + (uint64_t)i);
		le64(p + 24, 99);
	}
	struct trace_ref r[MAXREFS];
	char err[400];
	CHECK_EQ(read_refs(v1, sizeof(v1), TRACE_FMT_VSCSI, NULL, r, err, sizeof(err)), 2);
	CHECK_EQ(r[0].page, 1000);
	CHECK_EQ(r[0].write, 1);
	CHECK_EQ(r[1].page, 1001);
	CHECK_EQ(r[1].write, 0);
	CHECK_EQ(r[1].time, 99);
	/* Version 2: u16 cmd, u16 ver, u32 sn, u32 len, u32 nSG, u64 lbn, u64 ts, u64 rt. */
	uint8_t v2[80] = { 0 };
	for (int i = 0; i < 2; i++) {
		uint8_t *p = v2 + 40 * i;
		le16(p, 0x8a);
		le16(p + 2, 0x200);
		le64(p + 16, 77);
	}
	CHECK_EQ(read_refs(v2, sizeof(v2), TRACE_FMT_VSCSI, NULL, r, err, sizeof(err)), 2);
	CHECK_EQ(r[0].page, 77);
	CHECK_EQ(r[0].write, 1);
	/* A third record of the other version is garbage, not a request. */
	uint8_t v3[96];
	memcpy(v3, v1, 64);
	memset(v3 + 64, 0, 32);
	CHECK_EQ(read_refs(v3, sizeof(v3), TRACE_FMT_VSCSI, NULL, r, err, sizeof(err)), -1);
	CHECK_STR(err, "t:3: record of another vscsi version than the trace's (1)");
	CHECK_EQ(read_refs(v1, 40, TRACE_FMT_VSCSI, NULL, r, err, sizeof(err)), -1);
	CHECK_STR(err, "t:2: truncated record (8 of 32 bytes)");
	CHECK_EQ(read_refs("hello, world, this is not a vscsi trace at all", 46, TRACE_FMT_VSCSI, NULL, r, err,
			   sizeof(err)), -1);
	CHECK_STR(err, "t:1: not a vscsi trace (no version 1 or 2 record)");
}

void test_trace_block(void);
void test_trace_block(void)
{
	/* MSR Cambridge rows: a 16 KiB read at 6144 covers pages 1..5; a
	 * 4 KiB write at 0 page 0; a size-0 request nothing. */
	static const char s[] = "128166372003061629,hm,1,Read,6144,16384,61393\n"
				"128166372003061630,hm,1,Write,0,4096,1\n"
				"128166372003061631,hm,1,Write,8192,0,1\n";
	struct trace_ref r[MAXREFS];
	char err[400];
	CHECK_EQ(read_refs(s, strlen(s), TRACE_FMT_BLOCK, NULL, r, err, sizeof(err)), 6);
	for (int i = 0; i < 5; i++) {
		CHECK_EQ(r[i].page, 1 + (uint64_t)i);
		CHECK_EQ(r[i].write, 0);
	}
	CHECK_EQ(r[5].page, 0);
	CHECK_EQ(r[5].write, 1);
	static const char h[] = "offset,size,op\n4095,2,w\n";
	CHECK_EQ(read_refs(h, strlen(h), TRACE_FMT_BLOCK, NULL, r, err, sizeof(err)), 2);
	CHECK_EQ(r[0].page, 0);
	CHECK_EQ(r[1].page, 1);
	CHECK_EQ(r[1].write, 1);
	CHECK_STR(read_error("128166372003061629,hm,1,Read,x,4096,1\n", TRACE_FMT_BLOCK), "t:1: bad offset 'x'");
	CHECK_STR(read_error("1,hm,1,Read,18446744073709551615,2,1\n", TRACE_FMT_BLOCK),
		  "t:1: request runs past 2^64 bytes");
}

/* A test that needs a decompressor this build lacks says so, and is
 * skipped (test_codecs.c checks the refusal instead). */
static bool have(enum input_codec c, const char *test)
{
	if (compress_have(c))
		return true;
	printf("%s: skipped, this pagelab was built without %s\n", test, c == CODEC_GZIP ? "zlib" : "zstd");
	return false;
}

void test_trace_zstd(void);
void test_trace_zstd(void)
{
	static const char s[] = "1 r\n2 w\n3 r\n2 r\n";
	struct trace_ref r[MAXREFS];
	char err[400];
	uint8_t *z;
	size_t zn;
	if (!have(CODEC_ZSTD, __func__) || !compress_buf(CODEC_ZSTD, (const uint8_t *)s, strlen(s), &z, &zn))
		return;
	CHECK_EQ(read_refs(z, zn, TRACE_FMT_AUTO, NULL, r, err, sizeof(err)), 4);
	CHECK_EQ(r[1].page, 2);
	CHECK_EQ(r[1].write, 1);
	free(z);
}

void test_trace_gzip(void);
void test_trace_gzip(void)
{
	static const char s[] = "1 r\n2 w\n3 r\n2 r\n";
	struct trace_ref r[MAXREFS];
	char err[400];
	uint8_t *z;
	size_t zn;
	if (!have(CODEC_GZIP, __func__) || !compress_buf(CODEC_GZIP, (const uint8_t *)s, strlen(s), &z, &zn))
		return;
	/* Two members back to back (cat a.gz b.gz). */
	uint8_t *g = xmalloc(2 * zn);
	memcpy(g, z, zn);
	memcpy(g + zn, z, zn);
	CHECK_EQ(read_refs(g, 2 * zn, TRACE_FMT_TEXT, NULL, r, err, sizeof(err)), 8);
	CHECK_EQ(r[7].page, 2);
	/* Corrupt gzip: an error, not a short trace. */
	g[zn / 2] ^= 0xff;
	CHECK_EQ(read_refs(g, 2 * zn, TRACE_FMT_TEXT, NULL, r, err, sizeof(err)), -1);
	CHECK(strstr(err, "corrupt gzip data") != NULL);
	free(g);
	free(z);
}

void test_trace_long_lines(void);
void test_trace_long_lines(void)
{
	struct trace_ref r[MAXREFS];
	char err[400];
	/* A line of exactly TRACE_LINE_MAX bytes is read, one more is not. */
	size_t big = 1u << 20;
	char *t = xmalloc(big + 64);
	strcpy(t, "1 r\n#");
	memset(t + 5, 'x', big - 1);
	strcpy(t + 4 + big, "\n2 r\n");
	CHECK_EQ(read_refs(t, strlen(t), TRACE_FMT_TEXT, NULL, r, err, sizeof(err)), 2);
	strcpy(t + 4 + big, "x\n2 r\n");
	CHECK_EQ(read_refs(t, strlen(t), TRACE_FMT_TEXT, NULL, r, err, sizeof(err)), -1);
	CHECK_STR(err, "t:2: line longer than 1048576 bytes");
	free(t);
}

void test_trace_detect(void);
void test_trace_detect(void)
{
	static const struct { const char *text; enum trace_format f; } c[] = {
		{ "# c\n1 r\n", TRACE_FMT_TEXT }, { "\n17\n18\n", TRACE_FMT_TXT },
		{ "==1== Lackey\n", TRACE_FMT_LACKEY }, { "I  0400,4\n", TRACE_FMT_LACKEY },
		{ " L 0400,4\n", TRACE_FMT_LACKEY }, { "time,id\n1,2\n", TRACE_FMT_CSV },
		{ "PGLTRACE", TRACE_FMT_BIN },
	};
	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		FILE *in = fmemopen((void *)c[i].text, strlen(c[i].text), "r");
		char err[400];
		struct trace_opts o = { .format = TRACE_FMT_AUTO };
		struct trace_reader *r = trace_open_file(in, "noext", &o, err, sizeof(err));
		if (c[i].f == TRACE_FMT_BIN) {
			CHECK(r == NULL);
			CHECK_STR(err, "noext: not a pagelab binary trace (no PGLTRACE header)");
		} else {
			CHECK(r != NULL);
			if (r)
				CHECK_EQ(trace_reader_format(r), c[i].f);
		}
		trace_close(r);
		fclose(in);
	}
	char err[400];
	FILE *in = fmemopen((void *)"what is this?", 13, "r");
	CHECK(trace_open_file(in, "x", NULL, err, sizeof(err)) == NULL);
	CHECK_STR(err, "x: cannot tell the trace format (give --format: " TRACE_FORMAT_NAMES ")");
	fclose(in);
	enum trace_format f;
	CHECK(trace_format_parse("oracleGeneral", &f) && f == TRACE_FMT_ORACLE);
	CHECK(!trace_format_parse("nope", &f));
}

void test_trace_binary_round_trip(void);
void test_trace_binary_round_trip(void)
{
	char path[] = "/tmp/pagelab-bin-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	char err[400];
	struct bintrace_writer *w = bintrace_create(path, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	struct trace_ref in[4] = {
		{ .page = 0, .write = 1, .pid = 5, .kind = TRACE_KIND_ANON },
		{ .page = 1 }, { .page = 0 }, { .page = 2, .kind = TRACE_KIND_FILE, .pid = 0xffffff },
	};
	for (int i = 0; i < 4; i++)
		CHECK(bintrace_put(w, &in[i], err, sizeof(err)));
	struct trace_ref big = { .pid = 0x1000000 };
	CHECK(!bintrace_put(w, &big, err, sizeof(err)));
	CHECK_STR(err, "pid 16777216 does not fit the binary format's 24 bits");
	CHECK(bintrace_finish(w, 3, err, sizeof(err)));
	FILE *f = fopen(path, "rb");
	uint8_t b[64 + 32 + 8];
	size_t n = fread(b, 1, sizeof(b), f);
	fclose(f);
	CHECK_EQ(n, 64 + 32);
	struct trace_ref r[MAXREFS];
	CHECK_EQ(read_refs(b, n, TRACE_FMT_AUTO, NULL, r, err, sizeof(err)), 4);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(r[i].page, in[i].page);
		CHECK_EQ(r[i].write, in[i].write);
		CHECK_EQ(r[i].pid, in[i].pid);
		CHECK_EQ(r[i].kind, in[i].kind);
	}
	/* A page beyond the header's count, a record short, one too many. */
	b[64 + 24] = 3;
	CHECK_EQ(read_refs(b, n, TRACE_FMT_BIN, NULL, r, err, sizeof(err)), -1);
	CHECK_STR(err, "t:4: page 3 beyond the header's 3 pages");
	b[64 + 24] = 2;
	CHECK_EQ(read_refs(b, n - 8, TRACE_FMT_BIN, NULL, r, err, sizeof(err)), -1);
	CHECK_STR(err, "t:4: the header says 4 references, the file ends after 3");
	/* A header of references and no records: the missing one is named
	 * (libFuzzer found "t:0:"). */
	CHECK_EQ(read_refs(b, 64, TRACE_FMT_BIN, NULL, r, err, sizeof(err)), -1);
	CHECK_STR(err, "t:1: the header says 4 references, the file ends after 0");
	/* Page 2 referenced before page 1. */
	b[64 + 8] = 2;
	CHECK_EQ(read_refs(b, n, TRACE_FMT_BIN, NULL, r, err, sizeof(err)), -1);
	CHECK_STR(err, "t:2: page 2 before page 1 (pages are numbered in order of first reference)");
	b[64 + 8] = 1;
	/* A header that claims more distinct pages than the records name. */
	b[24] = 4;
	b[64 + 24] = 0;
	CHECK_EQ(read_refs(b, n, TRACE_FMT_BIN, NULL, r, err, sizeof(err)), -1);
	CHECK_STR(err, "t:4: the header says 4 distinct pages, the file references 2");
	b[24] = 3;
	b[64 + 24] = 2;
	memcpy(b + n, b + 64, 8);
	CHECK_EQ(read_refs(b, n + 8, TRACE_FMT_BIN, NULL, r, err, sizeof(err)), -1);
	CHECK_STR(err, "t:5: more references than the header's 4");
	unlink(path);
}

/* An independent LRU: faults of refs[] with `frames` frames. */
static uint64_t lru_faults(const uint64_t *refs, size_t n, size_t frames)
{
	uint64_t *stack = xcalloc(frames, sizeof(*stack));
	size_t used = 0;
	uint64_t faults = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < used && stack[k] != refs[i])
			k++;
		if (k == used) {
			faults++;
			if (used < frames)
				used++;
			k = used - 1;
		}
		memmove(stack + 1, stack, k * sizeof(*stack));
		stack[0] = refs[i];
	}
	free(stack);
	return faults;
}

void test_trace_streaming_replay_grows(void);
void test_trace_streaming_replay_grows(void)
{
	/* About 3400 distinct pages (sim.c's swap holds 4096): the data
	 * memory grows through regions of 1024, 1024 and 2048 pages while the
	 * replay streams.  Sparse page numbers, a working set of 400 pages
	 * that wanders, 300 frames. */
	enum { N = 6000, FRAMES = 300 };
	uint64_t *refs = xmalloc(N * sizeof(*refs));
	struct rng g;
	rng_seed(&g, 12);
	for (size_t i = 0; i < N; i++) {
		uint64_t base = i / 2;
		refs[i] = (base + rng_below(&g, 400)) * 7919 + 1000000;
	}
	uint64_t want = lru_faults(refs, N, FRAMES);
	CHECK_EQ(sim_trace_faults("lru", refs, N, FRAMES, 0), want);
	free(refs);
}
