/* test_mrc.c - miss-ratio curves (src/mrc/): stack distances on a string
 * worked out by hand and against an independent LRU list on a random
 * trace long enough to compact the tree many times; the exact curve
 * against the ideal machine's LRU; SHARDS equal to the exact curve at rate
 * 1 and with room for every page; the simulated curves the same for any
 * number of threads.  About 1 s. */
#include "test.h"
#include "sim.h"
#include "../src/mrc/stackdist.h"
#include "../src/mrc/shards.h"
#include "../src/mrc/mrc.h"
#include "../src/lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a b c a b b d a: distances 0 0 0 3 3 1 0 3 (0: first reference).  The
 * last a: b, b, d were referenced since the previous a (position 3), two
 * distinct pages, so a is third from the top of the stack. */
void test_mrc_stackdist_by_hand(void)
{
	const uint32_t ref[] = { 0, 1, 2, 0, 1, 1, 3, 0 };
	const uint64_t want[] = { 0, 0, 0, 3, 3, 1, 0, 3 };
	struct stackdist s = { 0 };
	for (size_t i = 0; i < ARRAY_SIZE(ref); i++)
		CHECK_EQ(stackdist_access(&s, ref[i]), want[i]);
	/* Removing b: the next b is a first reference, and a's distance
	 * no longer counts it (stack: a d c -> after b: b a d c). */
	stackdist_remove(&s, 1);
	CHECK_EQ(stackdist_access(&s, 1), 0);
	CHECK_EQ(stackdist_access(&s, 2), 4);  /* c under b a d */
	stackdist_free(&s);
	/* Misses of LRU with 1, 2, 3 frames: 7, 7, 4 (worked by hand in the
	 * comment of test_mrc_exact_equals_machine). */
	uint64_t hist[4] = { 0, 1, 0, 3 }, sizes[3] = { 1, 2, 3 };
	double m[3];
	mrc_misses_from_hist(hist, 4, 4, sizes, 3, m);
	CHECK_EQ(m[0], 7);
	CHECK_EQ(m[1], 7);
	CHECK_EQ(m[2], 4);
}

/* An independent stack: a move-to-front list, O(distinct) per reference. */
void test_mrc_stackdist_random(void)
{
	enum { PAGES = 3000, REFS = 200000 };
	uint32_t *list = xmalloc(PAGES * sizeof(*list));
	int n = 0;
	struct stackdist s = { 0 };
	struct rng r;
	rng_seed(&r, 7);
	int bad = 0;
	for (int i = 0; i < REFS; i++) {
		/* a skewed mix: a hot set, a warm set and a uniform tail */
		uint64_t x = rng_below(&r, 10);
		uint32_t p = (uint32_t)(x < 5 ? rng_below(&r, 50) : x < 8 ? rng_below(&r, 500) : rng_below(&r, PAGES));
		uint64_t want = 0;
		int at = -1;
		for (int k = 0; k < n; k++)
			if (list[k] == p) {
				at = k;
				break;
			}
		if (at >= 0) {
			want = (uint64_t)at + 1;
			memmove(list + 1, list, (size_t)at * sizeof(*list));
		} else {
			memmove(list + 1, list, (size_t)n * sizeof(*list));
			n++;
		}
		list[0] = p;
		if (i % 997 == 0 && n > 10) {
			/* drop the page at depth 10 from both */
			uint32_t q = list[9];
			memmove(list + 9, list + 10, (size_t)(n - 10) * sizeof(*list));
			n--;
			if (stackdist_access(&s, p) != want)
				bad++;
			stackdist_remove(&s, q);
			continue;
		}
		if (stackdist_access(&s, p) != want)
			bad++;
	}
	CHECK_EQ(bad, 0);
	CHECK(s.cap <= 4 * PAGES);  /* bounded by the pages, not the references */
	stackdist_free(&s);
	free(list);
}

void test_mrc_auto_sizes(void)
{
	uint64_t *s;
	int n = mrc_auto_sizes(48974, &s);
	/* from 16 (the power of two at or above 48974 / 4096): 16 24 32 48
	 * ... 32768, then 48974 itself (49152 would pass it) */
	CHECK_EQ(s[0], 16);
	CHECK_EQ(s[1], 24);
	CHECK_EQ(s[n - 2], 32768);
	CHECK_EQ(s[n - 1], 48974);
	for (int k = 1; k < n; k++)
		CHECK(s[k] > s[k - 1]);
	free(s);
	n = mrc_auto_sizes(1, &s);
	CHECK_EQ(n, 1);
	CHECK_EQ(s[0], 1);
	free(s);
	n = mrc_auto_sizes(5, &s);
	CHECK_EQ(n, 5);  /* 1 2 3 4, then 5 */
	CHECK_EQ(s[3], 4);
	free(s);
}

static char *write_trace(const uint64_t *pages, int n)
{
	char *path = xstrdup("/tmp/pagelab-test-mrc-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	for (int i = 0; i < n; i++)
		fprintf(f, "%llu %c\n", (unsigned long long)pages[i], i % 3 ? 'r' : 'w');
	fclose(f);
	return path;
}

static bool compute(const char *path, const char *const *pols, int np, const uint64_t *sizes, int ns, int jobs,
		    double rate, uint64_t smax, struct mrc_result *r)
{
	struct mrc_opts o = { .path = path, .policies = pols, .nr_policies = np, .sizes = sizes, .nr_sizes = ns,
			      .shards_rate = rate, .shards_size = smax, .seed = 1, .jobs = jobs };
	char err[300];
	bool ok = mrc_compute(&o, r, err, sizeof(err));
	if (!ok)
		fprintf(stderr, "mrc_compute: %s\n", err);
	return ok;
}

/* The exact curve against the ideal machine's LRU at every size of a
 * random string; "0 1 2 0 1 1 3 0" by hand: with 1 frame 7 misses (only
 * the second b hits), with 2 frames 7 (a b, c evicts a, a evicts b, b
 * evicts c, b hits, d evicts a, a evicts b), with 3 frames 4 (a b c, three
 * hits, d evicts c, a hits). */
void test_mrc_exact_equals_machine(void)
{
	const uint64_t hand[] = { 0, 1, 2, 0, 1, 1, 3, 0 };
	char *path = write_trace(hand, 8);
	const char *lru[] = { "lru" };
	uint64_t sizes[] = { 1, 2, 3, 4 };
	struct mrc_result r;
	if (compute(path, lru, 1, sizes, 4, 1, 0, 0, &r)) {
		CHECK_EQ(r.nrefs, 8);
		CHECK_EQ(r.npages, 4);
		CHECK_EQ(r.curves[0].misses[0], 7);
		CHECK_EQ(r.curves[0].misses[1], 7);
		CHECK_EQ(r.curves[0].misses[2], 4);
		CHECK_EQ(r.curves[0].misses[3], 4);
		mrc_result_free(&r);
	}
	unlink(path);
	free(path);

	enum { N = 3000 };
	uint64_t *pages = xmalloc(N * sizeof(*pages));
	struct rng g;
	rng_seed(&g, 3);
	for (int i = 0; i < N; i++)
		pages[i] = rng_below(&g, 4) ? rng_below(&g, 40) : rng_below(&g, 300);
	path = write_trace(pages, N);
	uint64_t sz[] = { 1, 5, 17, 40, 120, 300 };
	if (compute(path, lru, 1, sz, 6, 1, 0, 0, &r)) {
		for (int k = 0; k < 6; k++)
			CHECK_EQ(r.curves[0].misses[k], sim_trace_faults("lru", pages, N, sz[k], 0));
		mrc_result_free(&r);
	}
	unlink(path);
	free(path);
	free(pages);
}

/* SHARDS sampling everything is the exact curve: rate 1, and a fixed size
 * with room for every page (the threshold never drops).  Then a real
 * sample: ratios in [0, 1], never rising with the size. */
void test_mrc_shards_degenerate(void)
{
	enum { N = 20000 };
	uint64_t *pages = xmalloc(N * sizeof(*pages));
	struct rng g;
	rng_seed(&g, 11);
	for (int i = 0; i < N; i++)
		pages[i] = rng_below(&g, 3) ? rng_below(&g, 100) : rng_below(&g, 2000);
	char *path = write_trace(pages, N);
	const char *lru[] = { "lru" };
	uint64_t sz[] = { 1, 10, 50, 100, 400, 1000, 2000 };
	struct mrc_result r;
	if (compute(path, lru, 1, sz, 7, 1, 1.0, 5000, &r)) {
		CHECK_EQ(r.nr_curves, 3);
		for (int c = 1; c < 3; c++) {
			CHECK(r.curves[c].mae == 0);
			CHECK_EQ(r.curves[c].sampled, N);
			for (int k = 0; k < 7; k++)
				CHECK_EQ(r.curves[c].misses[k] + 0.5, r.curves[0].misses[k] + 0.5);
		}
		mrc_result_free(&r);
	}
	if (compute(path, lru, 1, sz, 7, 1, 0.2, 150, &r)) {
		for (int c = 1; c < 3; c++) {
			CHECK(r.curves[c].sampled < N);
			CHECK(r.curves[c].rate < 1);
			for (int k = 0; k < 7; k++) {
				CHECK(r.curves[c].ratio[k] >= 0 && r.curves[c].ratio[k] <= 1);
				CHECK(k == 0 || r.curves[c].ratio[k] <= r.curves[c].ratio[k - 1]);
			}
			CHECK(r.curves[c].mae > 0 && r.curves[c].mae < 0.1);
		}
		mrc_result_free(&r);
	}
	unlink(path);
	free(path);
	free(pages);
}

/* Simulated curves: one cell per size on the pool, the same counts for 1
 * and 3 threads, and each equal to a run of its own. */
void test_mrc_simulated_any_jobs(void)
{
	enum { N = 2000 };
	uint64_t *pages = xmalloc(N * sizeof(*pages));
	struct rng g;
	rng_seed(&g, 5);
	for (int i = 0; i < N; i++)
		pages[i] = rng_below(&g, 2) ? rng_below(&g, 30) : rng_below(&g, 200);
	char *path = write_trace(pages, N);
	const char *pols[] = { "fifo", "lru", "clock" };
	uint64_t sz[] = { 4, 16, 64, 150 };
	struct mrc_result a, b;
	if (compute(path, pols, 3, sz, 4, 1, 0, 0, &a)) {
		if (compute(path, pols, 3, sz, 4, 3, 0, 0, &b)) {
			CHECK_EQ(b.nr_curves, 3);
			for (int c = 0; c < 3; c++)
				for (int k = 0; k < 4; k++)
					CHECK_EQ(a.curves[c].misses[k], b.curves[c].misses[k]);
			mrc_result_free(&b);
		}
		CHECK(!strcmp(a.curves[0].name, "fifo") && a.curves[0].method == MRC_SIMULATED);
		CHECK(!strcmp(a.curves[1].name, "lru") && a.curves[1].method == MRC_EXACT);
		for (int k = 0; k < 4; k++) {
			CHECK_EQ(a.curves[0].misses[k], sim_trace_faults("fifo", pages, N, sz[k], 0));
			CHECK_EQ(a.curves[2].misses[k], sim_trace_faults("clock", pages, N, sz[k], 0));
		}
		mrc_result_free(&a);
	}
	unlink(path);
	free(path);
	free(pages);
}
