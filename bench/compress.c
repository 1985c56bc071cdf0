/* compress.c - what each data kind's pages (src/lib/pagefill.c) compress
 * to, and how long compressing and decompressing them takes on this host:
 * the measurement behind src/mm/compress_table.c and the cost model's
 * zram rows (docs/zram.md, docs/cost.md).
 *
 *   compress [-n PAGES] [-s SEED] [-o TABLE.c]
 *
 * For each kind and algorithm: N pages (page indices 0..N-1 of seed SEED)
 * compressed one at a time as zram does, a page a call: lz4 (LZ4_compress
 * _default, the kernel's lz4 at acceleration 1), lzo (lzo1x_1_compress:
 * liblzo2 has no lzo-rle, the kernel's 5.1+ default, which differs from
 * lzo1x only in coding runs of zeros) and zstd at level 1.  Prints the
 * compressed-size quantiles per kind and algorithm and the host's time
 * per input byte (the fastest of 5 passes); -o writes them as the C table the simulator draws from.
 * A library whose -dev package is missing is left out, said in one line. */
#include "../src/lib/pagefill.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HAVE_LZ4
#include <lz4.h>
#endif
#ifdef HAVE_LZO
#include <lzo/lzo1x.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#define NQ 17        /* quantiles at 0, 1/16, ..., 1 */
#define NALGO 3
#define BOUND (PAGEFILL_SIZE * 2)

static const char *const algo_names[NALGO] = { "lz4", "lzo-rle", "zstd" };

/* Compress src into dst (BOUND bytes), the size; 0 = not built in. */
static size_t comp(int a, const unsigned char *src, unsigned char *dst)
{
	switch (a) {
#ifdef HAVE_LZ4
	case 0:
		return (size_t)LZ4_compress_default((const char *)src, (char *)dst, PAGEFILL_SIZE, BOUND);
#endif
#ifdef HAVE_LZO
	case 1: {
		static unsigned char wrk[LZO1X_1_MEM_COMPRESS];
		lzo_uint len = BOUND;
		lzo1x_1_compress(src, PAGEFILL_SIZE, dst, &len, wrk);
		return len;
	}
#endif
#ifdef HAVE_ZSTD
	case 2: {
		/* one context reused, as the kernel's per-CPU streams are */
		static ZSTD_CCtx *cctx;
		if (!cctx)
			cctx = ZSTD_createCCtx();
		return ZSTD_compressCCtx(cctx, dst, BOUND, src, PAGEFILL_SIZE, 1);
	}
#endif
	default:
		return 0;
	}
}

static void decomp(int a, const unsigned char *src, size_t len, unsigned char *dst)
{
	(void)src, (void)len, (void)dst;
	switch (a) {
#ifdef HAVE_LZ4
	case 0:
		LZ4_decompress_safe((const char *)src, (char *)dst, (int)len, PAGEFILL_SIZE);
		break;
#endif
#ifdef HAVE_LZO
	case 1: {
		lzo_uint out = PAGEFILL_SIZE;
		lzo1x_decompress_safe(src, len, dst, &out, NULL);
		break;
	}
#endif
#ifdef HAVE_ZSTD
	case 2: {
		static ZSTD_DCtx *dctx;
		if (!dctx)
			dctx = ZSTD_createDCtx();
		ZSTD_decompressDCtx(dctx, dst, PAGEFILL_SIZE, src, len);
		break;
	}
#endif
	default:
		break;
	}
}

static bool built_in(int a)
{
	unsigned char src[PAGEFILL_SIZE] = { 0 }, dst[BOUND];
	return comp(a, src, dst) > 0;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

struct result {
	unsigned q[NQ];
	double comp_ps, decomp_ps;   /* per input / output byte */
	unsigned same;               /* pages page_same_filled() */
};

#define REPS 5  /* timed passes: the fastest counts (a shared host's
		* other work only ever adds time) */

/* Kind k with algorithm a over pages 0..n-1: every page made first, then
 * all compressed in one timed loop and all decompressed in another (no
 * clock read per page), REPS times, then checked. */
static void measure(enum data_kind k, int a, uint64_t seed, size_t n, struct result *r)
{
	size_t *sz = malloc(n * sizeof(*sz));
	unsigned char *src = malloc(n * PAGEFILL_SIZE), *dst = malloc(n * BOUND);
	unsigned char *back = malloc(n * PAGEFILL_SIZE);
	r->same = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		pagefill(k, seed, i, src + i * PAGEFILL_SIZE);
		r->same += page_same_filled(src + i * PAGEFILL_SIZE, &v);
	}
	/* touched before the clock runs: no first-touch faults timed */
	memset(dst, 0, n * BOUND);
	memset(back, 0, n * PAGEFILL_SIZE);
	double tc = 1e300, td = 1e300;
	for (int rep = 0; rep < REPS; rep++) {
		double t0 = now_ns();
		for (size_t i = 0; i < n; i++)
			sz[i] = comp(a, src + i * PAGEFILL_SIZE, dst + i * BOUND);
		double t1 = now_ns();
		for (size_t i = 0; i < n; i++)
			decomp(a, dst + i * BOUND, sz[i], back + i * PAGEFILL_SIZE);
		double t2 = now_ns();
		tc = t1 - t0 < tc ? t1 - t0 : tc;
		td = t2 - t1 < td ? t2 - t1 : td;
	}
	if (memcmp(src, back, n * PAGEFILL_SIZE)) {
		fprintf(stderr, "compress: %s of %s pages does not round-trip\n",
			algo_names[a], data_kind_name(k));
		exit(1);
	}
	qsort(sz, n, sizeof(*sz), cmp_size);
	for (int j = 0; j < NQ; j++)
		r->q[j] = (unsigned)sz[(n - 1) * (size_t)j / (NQ - 1)];
	r->comp_ps = tc * 1000.0 / ((double)n * PAGEFILL_SIZE);
	r->decomp_ps = td * 1000.0 / ((double)n * PAGEFILL_SIZE);
	free(sz), free(src), free(dst), free(back);
}

static void versions(char *buf, size_t len)
{
	int o = snprintf(buf, len, "host libraries:");
#ifdef HAVE_LZ4
	o += snprintf(buf + o, len - (size_t)o, " lz4 %s", LZ4_versionString());
#endif
#ifdef HAVE_LZO
	o += snprintf(buf + o, len - (size_t)o, " lzo %s", lzo_version_string());
#endif
#ifdef HAVE_ZSTD
	o += snprintf(buf + o, len - (size_t)o, " zstd %s", ZSTD_versionString());
#endif
	(void)o;
}

static void write_table(FILE *f, struct result r[DK_NR][NALGO], const bool have[NALGO],
			size_t n, uint64_t seed)
{
	char v[200], date[32];
	time_t t = time(NULL);
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&t));
	versions(v, sizeof(v));
	fprintf(f, "/* compress_table.c - GENERATED by `make compcal` (build/bench/compress\n"
		" * -n %zu -s %llu -o src/mm/compress_table.c) on %s;\n * %s.\n"
		" * What pages of each data kind (src/lib/pagefill.c) compress to, as\n"
		" * quantiles, and the host's time per byte (docs/zram.md).  Do not edit. */\n"
		"#include \"compress_table.h\"\n\n", n, (unsigned long long)seed, date, v);
	fprintf(f, "const struct compress_row compress_table[DK_NR][ZALGO_NR] = {\n");
	for (int k = 0; k < DK_NR; k++) {
		fprintf(f, "\t[%d] = { /* %s */\n", k, data_kind_name((enum data_kind)k));
		for (int a = 0; a < NALGO; a++) {
			fprintf(f, "\t\t{ %d, %u, { ", have[a], r[k][a].same);
			for (int j = 0; j < NQ; j++)
				fprintf(f, "%u%s", have[a] ? r[k][a].q[j] : 0, j + 1 < NQ ? ", " : "");
			fprintf(f, " },\n\t\t  %u, %u }, /* %s */\n",
				have[a] ? (unsigned)(r[k][a].comp_ps + 0.5) : 0,
				have[a] ? (unsigned)(r[k][a].decomp_ps + 0.5) : 0, algo_names[a]);
		}
		fprintf(f, "\t},\n");
	}
	fprintf(f, "};\n\nconst unsigned compress_table_pages = %zu;\n", n);
}

int main(int argc, char **argv)
{
	size_t n = 4000;
	uint64_t seed = 1;
	const char *out = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else {
			fprintf(stderr, "usage: compress [-n PAGES] [-s SEED] [-o TABLE.c]\n");
			return 2;
		}
	}
	if (n < 2) {
		fprintf(stderr, "compress: -n wants at least 2 pages\n");
		return 2;
	}
	bool have[NALGO];
	static const char *const pkg[NALGO] = { "liblz4-dev", "liblzo2-dev", "libzstd-dev" };
	for (int a = 0; a < NALGO; a++)
		if (!(have[a] = built_in(a)))
			printf("compress: %s left out (not built in: install %s)\n", algo_names[a], pkg[a]);
	static struct result r[DK_NR][NALGO];
	printf("%-7s %-8s %5s %5s %5s %5s %5s %7s %7s\n", "kind", "algo", "min", "p25", "p50",
	       "p75", "max", "comp", "decomp");
	for (int k = 0; k < DK_NR; k++)
		for (int a = 0; a < NALGO; a++) {
			if (!have[a])
				continue;
			measure((enum data_kind)k, a, seed, n, &r[k][a]);
			printf("%-7s %-8s %5u %5u %5u %5u %5u %5.0fps %5.0fps\n",
			       data_kind_name((enum data_kind)k), algo_names[a], r[k][a].q[0],
			       r[k][a].q[4], r[k][a].q[8], r[k][a].q[12], r[k][a].q[16],
			       r[k][a].comp_ps, r[k][a].decomp_ps);
		}
	if (out) {
		FILE *f = fopen(out, "w");
		if (!f) {
			perror(out);
			return 2;
		}
		write_table(f, r, have, n, seed);
		fclose(f);
	}
	return 0;
}
