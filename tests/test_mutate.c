/* test_mutate.c - a deterministic, seeded fuzz test inside make check:
 * thousands of random and mutated inputs to the trace parser and to the
 * size / option / workload-argument parsers, each checked by the same
 * properties as the libFuzzer harnesses (tests/fuzz/targets.h).  No
 * crash, no wrong value, and clean one-line errors. */
#include "test.h"
#include "fuzz/targets.h"
#include "fuzz/readers.h"
#include "../src/lib/util.h"

#include <string.h>

/* Valid inputs the mutations start from. */
static const char *const trace_seeds[] = {
	"1 r\n2 w\n3 r\n1 w\n",
	"# comment\n\n0x10 R\n  7\tW # trailing\r\n16 r",
	"18446744073709551615 r\n0xffffffffffffffff w\n0 r\n",
	"1 r\n2 r\n3 r\n4 r\n1 r\n2 r\n5 r\n1 r\n2 r\n3 r\n4 r\n5 r\n",
};
static const char *const parse_seeds[] = {
	"\0" "900M", "\0" "16777215T", "\0" "10p", "\0" "4096", "\0" "1kb",
	"\1" "0.5", "\1" "10ms", "\1" "18446744073709551615",
	"\2" "ram=64M", "\2" "disk.kind=ssd", "\2" "cost.fault=1us", "\2" "cpus=4",
	"\3" "-m 1000", "\3" "-n 2 -r 3 -R 64M", "\3" "-o -Z -j 4096 -s 0.5 1G", "\3" "-M -F -m1",
};
/* Bytes mutations like to insert: the parsers' own alphabet and edges. */
static const char alphabet[] = "0123456789xXaAfFgGkKmMpPtTbBrRwW #\n\r\t\0=.-+e,;sunm";

static size_t mutate(struct rng *r, uint8_t *buf, size_t len, size_t cap)
{
	int rounds = 1 + (int)rng_below(r, 4);
	for (int k = 0; k < rounds; k++) {
		size_t pos = len ? (size_t)rng_below(r, len + 1) : 0;
		switch (rng_below(r, 6)) {
		case 0: /* flip a bit */
			if (len && pos < len)
				buf[pos] ^= (uint8_t)(1u << rng_below(r, 8));
			break;
		case 1: /* insert a byte from the alphabet */
			if (len < cap) {
				memmove(buf + pos + 1, buf + pos, len - pos);
				buf[pos] = (uint8_t)alphabet[rng_below(r, sizeof(alphabet) - 1)];
				len++;
			}
			break;
		case 2: /* delete a byte */
			if (pos < len) {
				memmove(buf + pos, buf + pos + 1, len - pos - 1);
				len--;
			}
			break;
		case 3: /* replace with a random byte */
			if (pos < len)
				buf[pos] = (uint8_t)rng_next(r);
			break;
		case 4: /* duplicate a chunk */
			if (len && len < cap) {
				size_t n = 1 + (size_t)rng_below(r, MIN(len - (pos < len ? pos : len - 1), 16));
				size_t from = pos < len ? pos : len - 1;
				if (n > cap - len)
					n = cap - len;
				memmove(buf + from + n, buf + from, len - from);
				len += n;
			}
			break;
		case 5: /* a run of digits (overflow hunting) */
			for (int i = 0; i < 12 && len < cap; i++) {
				memmove(buf + pos + 1, buf + pos, len - pos);
				buf[pos] = (uint8_t)('0' + rng_below(r, 10));
				len++;
			}
			break;
		}
	}
	return len;
}

static size_t random_input(struct rng *r, uint8_t *buf, size_t cap)
{
	size_t len = (size_t)rng_below(r, cap < 64 ? cap : 64);
	for (size_t i = 0; i < len; i++)
		buf[i] = rng_below(r, 4) ? (uint8_t)alphabet[rng_below(r, sizeof(alphabet) - 1)]
					 : (uint8_t)rng_next(r);
	return len;
}

void test_mutated_traces(void);
void test_mutated_traces(void)
{
	struct rng r;
	rng_seed(&r, 0x7ace);
	uint8_t buf[512];
	int bad = 0;
	for (int i = 0; i < 6000; i++) {
		size_t len;
		if (i % 5 == 0) {
			len = random_input(&r, buf, sizeof(buf));
		} else {
			const char *s = trace_seeds[rng_below(&r, ARRAY_SIZE(trace_seeds))];
			len = strlen(s);
			memcpy(buf, s, len);
			len = mutate(&r, buf, len, sizeof(buf));
		}
		bad += !fuzz_trace_one(buf, len);
	}
	CHECK_EQ(bad, 0);
}

void test_mutated_options(void);
void test_mutated_options(void)
{
	struct rng r;
	rng_seed(&r, 0x512e);
	uint8_t buf[256];
	int bad = 0;
	for (int i = 0; i < 20000; i++) {
		size_t len;
		if (i % 4 == 0) {
			len = random_input(&r, buf + 1, sizeof(buf) - 1) + 1;
			buf[0] = (uint8_t)rng_below(&r, 4);
		} else {
			size_t k = (size_t)rng_below(&r, ARRAY_SIZE(parse_seeds));
			const char *s = parse_seeds[k];
			len = 1 + strlen(s + 1);
			memcpy(buf, s, len);
			len = 1 + mutate(&r, buf + 1, len - 1, sizeof(buf) - 1);
		}
		bad += !fuzz_parse_one(buf, len);
	}
	CHECK_EQ(bad, 0);
	/* Every size the grammar allows round-trips: N<unit> = N << shift,
	 * or is refused exactly when it overflows. */
	static const char units[] = "kmgtp";
	static const unsigned shifts[] = { 10, 20, 30, 40, 12 };
	int wrong = 0;
	for (int i = 0; i < 20000; i++) {
		uint64_t n = rng_next(&r) >> rng_below(&r, 64);
		size_t u = (size_t)rng_below(&r, 5);
		char s[48];
		snprintf(s, sizeof(s), "%llu%c", (unsigned long long)n, units[u]);
		uint64_t v;
		bool fits = n <= (UINT64_MAX >> shifts[u]);
		bool ok = parse_size(s, &v);
		wrong += ok != fits || (ok && v != n << shifts[u]);
	}
	CHECK_EQ(wrong, 0);
}

/* The trace readers (src/trace/), each from its own seeds, through
 * tests/fuzz/readers.h's property.  Binary seeds are built here. */
void test_mutated_readers(void);
void test_mutated_readers(void)
{
	static const struct { enum trace_format f; const char *s; } text_seeds[] = {
		{ TRACE_FMT_TEXT, "1 r pid=3 file\n0x10 W anon\n# c\n7 r\n" },
		{ TRACE_FMT_LACKEY, "==42== Lackey\nI  00400ffe,4\n L 00402000,8\n S 00402ff8,16\n--42-- w\n M 1ffefff000,4\n" },
		{ TRACE_FMT_CSV, "version,time,op,size,lbn\n1,5,2a,512,42\n1,6.5,28,512,0x2b\n" },
		{ TRACE_FMT_CSV, "@obj-id-col=2, delimiter=|, has-header=false\na|10\nb|\"16\"\n" },
		{ TRACE_FMT_TXT, "1\n\n2\r\nabc\n  1\n" },
		{ TRACE_FMT_BLOCK, "1281,hm,1,Read,6144,16384,6\n1282,hm,1,Write,0,4096,1\n" },
		{ TRACE_FMT_BLOCK, "@offset-col=1, size-col=2, op-col=3\n4095,2,w\n0,1,r\n" },
	};
	uint8_t oracle[72] = { 0 }, vscsi[96] = { 0 }, bin[64 + 24] = { 0 };
	for (int i = 0; i < 3; i++) {
		oracle[24 * i + 4] = (uint8_t)(i + 1);
		vscsi[32 * i + 12] = i ? 0x28 : 0x2a;
		vscsi[32 * i + 15] = 1;
		vscsi[32 * i + 16] = (uint8_t)(7 * i);
		bin[64 + 8 * i] = (uint8_t)(i % 2);
		bin[64 + 8 * i + 4] = (uint8_t)(i == 2);
	}
	memcpy(bin, "PGLTRACE\1\0\0\0\10\0\0\0\3\0\0\0\0\0\0\0\2", 25);
	struct { enum trace_format f; const uint8_t *b; size_t n; } seeds[ARRAY_SIZE(text_seeds) + 3];
	size_t ns = 0;
	for (size_t i = 0; i < ARRAY_SIZE(text_seeds); i++, ns++) {
		seeds[ns].f = text_seeds[i].f;
		seeds[ns].b = (const uint8_t *)text_seeds[i].s;
		seeds[ns].n = strlen(text_seeds[i].s);
	}
	seeds[ns].f = TRACE_FMT_ORACLE, seeds[ns].b = oracle, seeds[ns++].n = sizeof(oracle);
	seeds[ns].f = TRACE_FMT_VSCSI, seeds[ns].b = vscsi, seeds[ns++].n = sizeof(vscsi);
	seeds[ns].f = TRACE_FMT_BIN, seeds[ns].b = bin, seeds[ns++].n = sizeof(bin);
	/* The seeds themselves keep the property. */
	int bad = 0, good_seeds = 0;
	for (size_t i = 0; i < ns; i++)
		good_seeds += fuzz_reader_one(seeds[i].f, seeds[i].b, seeds[i].n);
	CHECK_EQ(good_seeds, ns);
	struct rng r;
	rng_seed(&r, 0x5eed);
	uint8_t buf[512];
	for (int i = 0; i < 8000; i++) {
		size_t k = (size_t)rng_below(&r, ns);
		size_t len;
		if (i % 5 == 0) {
			len = random_input(&r, buf, sizeof(buf));
		} else {
			len = seeds[k].n;
			memcpy(buf, seeds[k].b, len);
			len = mutate(&r, buf, len, sizeof(buf));
		}
		bad += !fuzz_reader_one(seeds[k].f, buf, len);
	}
	CHECK_EQ(bad, 0);
}
