/* test_mutate.c - a deterministic, seeded fuzz test inside make check:
 * thousands of random and mutated inputs to the trace parser and to the
 * size / option / workload-argument parsers, each checked by the same
 * properties as the libFuzzer harnesses (tests/fuzz/targets.h).  No
 * crash, no wrong value, and clean one-line errors.  The seeds of the
 * workload and whole-simulation targets (tests/fuzz/seeds/) and mutations
 * of them go through the same properties. */
#include "test.h"
#include "fuzz/records_target.h"
#include "fuzz/targets.h"
#include "fuzz/mrc_target.h"
#include "fuzz/readers.h"
#include "fuzz/file_target.h"
#include "../src/lib/util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The seed files of a libFuzzer target (tests/fuzz/seeds/NAME/), sorted by
 * name so the test is the same everywhere. */
struct seeds { int n; char **name; uint8_t **data; size_t *len; };

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_seeds(const char *target, struct seeds *s)
{
	char dir[256];
	snprintf(dir, sizeof(dir), "tests/fuzz/seeds/%s", target);
	memset(s, 0, sizeof(*s));
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		s->name = xrealloc(s->name, ((size_t)s->n + 1) * sizeof(*s->name));
		s->name[s->n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(s->name, (size_t)s->n, sizeof(*s->name), cmp_str);
	s->data = xcalloc((size_t)s->n, sizeof(*s->data));
	s->len = xcalloc((size_t)s->n, sizeof(*s->len));
	for (int i = 0; i < s->n; i++) {
		char path[600];
		snprintf(path, sizeof(path), "%s/%s", dir, s->name[i]);
		FILE *f = fopen(path, "rb");
		CHECK(f != NULL);
		if (!f)
			continue;
		s->data[i] = xmalloc(4096);
		s->len[i] = fread(s->data[i], 1, 4096, f);
		fclose(f);
	}
}

static void free_seeds(struct seeds *s)
{
	for (int i = 0; i < s->n; i++) {
		free(s->name[i]);
		free(s->data[i]);
	}
	free(s->name);
	free(s->data);
	free(s->len);
}

/* Input i of a mutation pass over the seeds s, into buf: every fifth
 * random, the others a seed mutated. */
static size_t seeded_input(struct rng *r, const struct seeds *s, int i, uint8_t *buf, size_t cap)
{
	if (i % 5 == 0)
		return random_input(r, buf, cap);
	int k = (int)rng_below(r, (uint64_t)s->n);
	size_t len = MIN(s->len[k], cap);
	memcpy(buf, s->data[k], len);
	return mutate(r, buf, len, cap);
}

/* Every seed of the workload-argument target, then mutations of them. */
void test_mutated_workload_args(void);
void test_mutated_workload_args(void)
{
	struct seeds s;
	load_seeds("workload", &s);
	CHECK(s.n >= 13); /* one or more per workload but trace */
	struct rng r;
	rng_seed(&r, 0x3a9d);
	uint8_t buf[512];
	int bad = 0;
	for (int i = 0; i < s.n; i++)
		bad += !fuzz_workload_one(s.data[i], s.len[i]);
	for (int i = 0; s.n && i < 3000; i++) {
		int k = (int)rng_below(&r, (uint64_t)s.n);
		size_t len = MIN(s.len[k], sizeof(buf));
		memcpy(buf, s.data[k], len);
		if (len)
			len = 1 + mutate(&r, buf + 1, len - 1, sizeof(buf) - 1);
		if (i % 8 == 0 && len) /* the same arguments to another workload */
			buf[0] = (uint8_t)rng_next(&r);
		bad += !fuzz_workload_one(buf, len);
	}
	CHECK_EQ(bad, 0);
	free_seeds(&s);
}

/* Every seed of the whole-simulation target, then a few mutations of
 * each: a --check run each (about 2 s in all). */
void test_mutated_sims(void);
void test_mutated_sims(void)
{
	struct seeds s;
	load_seeds("sim", &s);
	CHECK(s.n >= 10);
	struct rng r;
	rng_seed(&r, 0x51e5);
	uint8_t buf[512];
	int bad = 0;
	fuzz_verbose = getenv("FUZZ_VERBOSE") != NULL;
	/* The seeds are sound runs: each finishes or stops at --max-time. */
	for (int i = 0; i < s.n; i++) {
		bad += !fuzz_sim_one(s.data[i], s.len[i]);
		if (fuzz_sim_status != 0 && fuzz_sim_status != 3) {
			fprintf(stderr, "sim seed %s: exit status %d\n", s.name[i], fuzz_sim_status);
			bad++;
		}
	}
	for (int i = 0; s.n && i < 3 * s.n; i++) {
		int k = (int)rng_below(&r, (uint64_t)s.n);
		size_t len = MIN(s.len[k], sizeof(buf));
		memcpy(buf, s.data[k], len);
		/* Two in three: another machine, policy and settings for the
		 * same workloads; else the workloads' text mutated. */
		if (i % 3 != 2) {
			for (size_t h = 0; h < 9 && h < len; h++)
				if (rng_below(&r, 2) == 0)
					buf[h] = (uint8_t)rng_next(&r);
		} else if (len > 9) {
			len = 9 + mutate(&r, buf + 9, len - 9, sizeof(buf) - 9);
		}
		bad += !fuzz_sim_one(buf, len);
	}
	CHECK_EQ(bad, 0);
	free_seeds(&s);
}

/* The trace readers (src/trace/): every seed of each reader's target
 * (tests/fuzz/seeds/FORMAT/), then mutations of them, through
 * tests/fuzz/readers.h's property. */
void test_mutated_readers(void);
void test_mutated_readers(void)
{
	static const enum trace_format fmts[] = { TRACE_FMT_TEXT, TRACE_FMT_LACKEY, TRACE_FMT_CSV, TRACE_FMT_TXT,
						   TRACE_FMT_ORACLE, TRACE_FMT_VSCSI, TRACE_FMT_BLOCK, TRACE_FMT_BIN };
	struct rng r;
	rng_seed(&r, 0x5eed);
	uint8_t buf[512];
	int bad = 0;
	for (size_t f = 0; f < ARRAY_SIZE(fmts); f++) {
		struct seeds s;
		load_seeds(trace_format_name(fmts[f]), &s);
		CHECK(s.n >= 1);
		for (int i = 0; i < s.n; i++)
			bad += !fuzz_reader_one(fmts[f], s.data[i], s.len[i]);
		for (int i = 0; s.n && i < 1000; i++) {
			size_t len = seeded_input(&r, &s, i, buf, sizeof(buf));
			bad += !fuzz_reader_one(fmts[f], buf, len);
		}
		free_seeds(&s);
	}
	CHECK_EQ(bad, 0);
}

/* The trace readers on real files and pipes, plain and compressed, whole
 * and cut short (tests/fuzz/file_target.h): every seed of its target,
 * then mutations of them (a few processes each, about 2 s). */
void test_mutated_files(void);
void test_mutated_files(void)
{
	struct seeds s;
	load_seeds("file", &s);
	CHECK(s.n >= 8);
	struct rng r;
	rng_seed(&r, 0xf11e);
	uint8_t buf[1024];
	int bad = 0;
	for (int i = 0; i < s.n; i++)
		bad += !fuzz_file_one(s.data[i], s.len[i]);
	for (int i = 0; s.n && i < 120; i++) {
		size_t len = seeded_input(&r, &s, i, buf, sizeof(buf));
		bad += !fuzz_file_one(buf, len);
	}
	CHECK_EQ(bad, 0);
	free_seeds(&s);
}

/* pagelab mrc (tests/fuzz/mrc_target.h): every seed of its target, then
 * mutations of them (sizes lists and small text traces; about 0.3 s). */
void test_mutated_mrc(void);
void test_mutated_mrc(void)
{
	struct seeds s;
	load_seeds("mrc", &s);
	CHECK(s.n >= 6);
	struct rng r;
	rng_seed(&r, 0x3c3c);
	uint8_t buf[512];
	int bad = 0;
	for (int i = 0; i < s.n; i++)
		bad += !fuzz_mrc_one(s.data[i], s.len[i]);
	for (int i = 0; s.n && i < 600; i++) {
		int k = (int)rng_below(&r, (uint64_t)s.n);
		size_t len = MIN(s.len[k], sizeof(buf));
		memcpy(buf, s.data[k], len);
		if (len)
			len = 1 + mutate(&r, buf + 1, len - 1, sizeof(buf) - 1);
		bad += !fuzz_mrc_one(buf, len);
	}
	CHECK_EQ(bad, 0);
	free_seeds(&s);
}

/* Every seed of a target (at least min_seeds), then n inputs of at most
 * cap bytes (4096) of a mutation pass over them (seeded_input) through
 * one(); the failures. */
static int seeds_pass(const char *target, bool (*one)(const uint8_t *, size_t), uint64_t seed, int n,
		      size_t cap, int min_seeds)
{
	struct seeds s;
	load_seeds(target, &s);
	CHECK(s.n >= min_seeds);
	struct rng r;
	rng_seed(&r, seed);
	uint8_t buf[4096];
	int bad = 0;
	for (int i = 0; i < s.n; i++)
		bad += !one(s.data[i], s.len[i]);
	for (int i = 0; s.n && i < n; i++)
		bad += !one(buf, seeded_input(&r, &s, i, buf, MIN(cap, sizeof(buf))));
	free_seeds(&s);
	return bad;
}

/* pagelab compare's cached kernel records (tests/fuzz/report_target.c):
 * its seeds, random inputs and mutations of them (about 0.1 s). */
void test_mutated_reports(void);
void test_mutated_reports(void)
{
	CHECK_EQ(seeds_pass("report", fuzz_report_one, 0x4e70, 2000, 512, 2), 0);
}

/* Results files (tests/fuzz/records_target.h): every seed, then mutations
 * of them through records_load, merge, compare and a resumed one-cell
 * sweep (about 1 s: a mutated record of the cell runs it). */
void test_mutated_records(void);
void test_mutated_records(void)
{
	CHECK_EQ(seeds_pass("records", fuzz_records_one, 0x7e5c, 300, 4096, 8), 0);
}
