/* test_mutate.c - a deterministic, seeded fuzz test inside make check:
 * thousands of random and mutated inputs to the trace parser and to the
 * size / option / workload-argument parsers, each checked by the same
 * properties as the libFuzzer harnesses (tests/fuzz/targets.h).  No
 * crash, no wrong value, and clean one-line errors. */
#include "test.h"
#include "fuzz/targets.h"
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
