/* test_parse.c - parse_size and the other number parsers (src/lib/util.c)
 * and the text trace parser (src/trace/trace.c). */
#include "test.h"
#include "../src/lib/util.h"
#include "../src/trace/trace.h"

#include <stdio.h>
#include <string.h>

static int size_is(const char *s, uint64_t want)
{
	uint64_t v = 12345;
	if (!parse_size(s, &v)) {
		fprintf(stderr, "parse_size(\"%s\") failed\n", s);
		return 0;
	}
	if (v != want)
		fprintf(stderr, "parse_size(\"%s\") = %llu, expected %llu\n", s,
			(unsigned long long)v, (unsigned long long)want);
	return v == want;
}

static int size_bad(const char *s)
{
	uint64_t v = 12345;
	bool ok = parse_size(s, &v);
	if (ok)
		fprintf(stderr, "parse_size(\"%s\") accepted: %llu\n", s, (unsigned long long)v);
	return !ok && v == 12345; /* and *bytes untouched */
}

void test_parse_size(void);
void test_parse_size(void)
{
	CHECK(size_is("0", 0));
	CHECK(size_is("4096", 4096));
	CHECK(size_is("1K", 1024));
	CHECK(size_is("1k", 1024));
	CHECK(size_is("1KB", 1024));
	CHECK(size_is("1kb", 1024));
	CHECK(size_is("900M", 900ULL << 20));
	CHECK(size_is("3G", 3ULL << 30));
	CHECK(size_is("2t", 2ULL << 40));
	CHECK(size_is("10p", 10 * 4096));
	CHECK(size_is("10P", 10 * 4096));          /* P is pages, not petabytes */
	CHECK(size_is("007M", 7ULL << 20));
	CHECK(size_is("18446744073709551615", UINT64_MAX));
	CHECK(size_is("16777215T", 16777215ULL << 40));
	CHECK(size_is("4503599627370495p", 4503599627370495ULL << 12));
	/* Overflow. */
	CHECK(size_bad("18446744073709551616"));
	CHECK(size_bad("16777216T"));              /* 2^24 * 2^40 = 2^64 */
	CHECK(size_bad("17179869184G"));           /* 2^34 * 2^30 */
	CHECK(size_bad("4503599627370496p"));      /* 2^52 pages */
	CHECK(size_bad("99999999999999999999999T"));
	/* Garbage. */
	CHECK(size_bad(""));
	CHECK(size_bad("K"));
	CHECK(size_bad("p"));
	CHECK(size_bad("-1"));
	CHECK(size_bad("+1"));
	CHECK(size_bad("1.5G"));
	CHECK(size_bad(" 1M"));
	CHECK(size_bad("1M "));
	CHECK(size_bad("1 M"));
	CHECK(size_bad("1KiB"));
	CHECK(size_bad("1MBB"));
	CHECK(size_bad("1pb"));
	CHECK(size_bad("1X"));
	CHECK(size_bad("0x10"));
	CHECK(size_bad("1e6"));
	CHECK(size_bad("12Q"));
	CHECK(size_bad("1b"));                     /* a bare B suffix is not a unit */
	CHECK(!parse_size(NULL, &(uint64_t){ 0 }));
	/* 31 digits is the longest number accepted, leading zeros included. */
	CHECK(size_is("0000000000000000000000000000001", 1));
	CHECK(size_bad("00000000000000000000000000000001"));
}

void test_parse_numbers(void);
void test_parse_numbers(void)
{
	uint64_t v = 0;
	double d = 0;
	CHECK(parse_u64("0", &v) && v == 0);
	CHECK(parse_u64("18446744073709551615", &v) && v == UINT64_MAX);
	CHECK(!parse_u64("18446744073709551616", &v));
	CHECK(!parse_u64("", &v));
	CHECK(!parse_u64("-1", &v));
	CHECK(!parse_u64("1k", &v));
	CHECK(!parse_u64(NULL, &v));
	CHECK(parse_double("0.5", &d) && d == 0.5);
	CHECK(!parse_double("nan", &d));
	CHECK(!parse_double("inf", &d));
	CHECK(!parse_double("1e999", &d));
	CHECK(!parse_double("1x", &d));
	CHECK(!parse_double("", &d));
	CHECK(parse_duration_ns("1", &v) && v == 1000000000ULL);
	CHECK(parse_duration_ns("0.5", &v) && v == 500000000ULL);
	CHECK(parse_duration_ns("10ms", &v) && v == 10000000ULL);
	CHECK(parse_duration_ns("100us", &v) && v == 100000ULL);
	CHECK(parse_duration_ns("250ns", &v) && v == 250);
	CHECK(parse_duration_ns("5s", &v) && v == 5000000000ULL);
	CHECK(!parse_duration_ns("-1", &v));
	CHECK(!parse_duration_ns(" -0", &v));     /* found by make fuzz */
	CHECK(!parse_duration_ns(" 1", &v));
	CHECK(!parse_duration_ns("+1", &v));
	CHECK(parse_duration_ns(".5", &v) && v == 500000000ULL);
	CHECK(!parse_double(" 1", &d));
	CHECK(!parse_duration_ns("1h", &v));
	CHECK(!parse_duration_ns("ms", &v));
	CHECK(!parse_duration_ns("1e30", &v));
	CHECK(!parse_duration_ns("nan", &v));
	/* Picoseconds (cost.ref): a fraction of a nanosecond, or "ps". */
	CHECK(parse_duration_ps("0.56ns", &v) && v == 560);
	CHECK(parse_duration_ps("560ps", &v) && v == 560);
	CHECK(parse_duration_ps("1ns", &v) && v == 1000);
	CHECK(parse_duration_ps("2us", &v) && v == 2000000ULL);
	CHECK(parse_duration_ps("1", &v) && v == 1000000000000ULL);
	CHECK(!parse_duration_ps("-1ps", &v));
	CHECK(!parse_duration_ps("1fs", &v));
	CHECK(!parse_duration_ps("1e30", &v));
	CHECK(!parse_duration_ns("560ps", &v)); /* only where ps are held */
}

/* Parse text as a trace named "t.trace". */
static bool parse(const char *text, size_t len, struct trace *t, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, len, "r");
	if (!f) {
		snprintf(err, errlen, "fmemopen failed");
		return false;
	}
	err[0] = 0;
	bool ok = trace_parse_text(f, "t.trace", t, err, errlen);
	fclose(f);
	return ok;
}

/* The error a malformed trace gives, or "" if it parses. */
static const char *trace_error(const char *text)
{
	static char err[256];
	struct trace t;
	if (parse(text, strlen(text), &t, err, sizeof(err))) {
		trace_free(&t);
		return "";
	}
	return err;
}

#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b); if (strcmp(_a, _b)) { \
	fprintf(stderr, "%s:%d: got \"%s\", expected \"%s\"\n", __FILE__, __LINE__, _a, _b); \
	test_failures++; } } while (0)

void test_trace_parser(void);
void test_trace_parser(void)
{
	static const char good[] =
		"# a comment line\n"
		"\n"
		"1 r\n"
		"0x10 W\n"
		"  \t 2\tw   # a trailing comment\n"
		"1 R\r\n"
		"16 r";                 /* last line without a newline */
	struct trace t;
	char err[256];
	CHECK(parse(good, strlen(good), &t, err, sizeof(err)));
	CHECK_EQ(t.n, 5);
	CHECK_EQ(t.npages, 3);          /* pages 1, 0x10 = 16, 2 */
	static const uint32_t page[] = { 0, 1, 2, 0, 1 };
	static const uint8_t wr[] = { 0, 1, 1, 0, 0 };
	static const uint64_t next[] = { 3, 4, UINT64_MAX, UINT64_MAX, UINT64_MAX };
	for (int i = 0; i < 5 && (uint64_t)i < t.n; i++) {
		CHECK_EQ(t.page[i], page[i]);
		CHECK_EQ(t.write[i], wr[i]);
		CHECK_EQ(t.next_use[i], next[i]);
	}
	trace_free(&t);

	/* An empty trace parses (the trace workload refuses it). */
	CHECK(parse("# nothing\n\n", 11, &t, err, sizeof(err)));
	CHECK_EQ(t.n, 0);
	trace_free(&t);

	/* Large page numbers are renumbered densely. */
	CHECK_STR(trace_error("18446744073709551615 r\n0xffffffffffffffff w\n"), "");

	/* Errors name the file and the line. */
	CHECK_STR(trace_error("1 r\nfoo r\n"), "t.trace:2: bad page number");
	CHECK_STR(trace_error("\n\n# c\n1\n"), "t.trace:4: expected 'r' or 'w' after the page number");
	CHECK_STR(trace_error("1 rw\n"), "t.trace:1: trailing text");
	CHECK_STR(trace_error("1 r x\n"), "t.trace:1: trailing text");
	CHECK_STR(trace_error("1 x\n"), "t.trace:1: expected 'r' or 'w' after the page number");
	CHECK_STR(trace_error("r 1\n"), "t.trace:1: bad page number");
	CHECK_STR(trace_error("-1 r\n"), "t.trace:1: bad page number");
	CHECK_STR(trace_error("0x r\n"), "t.trace:1: bad page number");
	CHECK_STR(trace_error("0x1g r\n"), "t.trace:1: bad page number");
	CHECK_STR(trace_error("1,2 r\n"), "t.trace:1: bad page number");
	CHECK_STR(trace_error("18446744073709551616 r\n"), "t.trace:1: bad page number");
	CHECK_STR(trace_error("0x10000000000000000 r\n"), "t.trace:1: bad page number");
	CHECK_STR(trace_error("1 r\n2 w\n3 r\n4 read\n"), "t.trace:4: trailing text");
	static const char nul[] = "1 r\n2\0 r\n";
	CHECK(!parse(nul, sizeof(nul) - 1, &t, err, sizeof(err)));
	CHECK_STR(err, "t.trace:2: NUL byte in trace");

	/* A missing file. */
	CHECK(!trace_load_text("/nonexistent/pagelab.trace", &t, err, sizeof(err)));
	CHECK(strstr(err, "/nonexistent/pagelab.trace") != NULL);
}
