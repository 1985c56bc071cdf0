/* gentrace.c - write a synthetic reference trace for make bench:
 *     gentrace [--zipf ALPHA] [--seq] [--out text|bin|oracle] NPAGES NREFS SEED
 * By default every reference picks a page uniformly from [0, NPAGES);
 * --zipf ALPHA picks the page of rank k (1..NPAGES) with probability
 * proportional to 1 / k^ALPHA (ranks are scattered over the page numbers
 * by a seeded permutation, so hot pages are not neighbours); --seq sweeps
 * 0, 1, ..., NPAGES-1 over and over.  One reference in four is a write.
 * Deterministic for a given seed (splitmix64).
 *
 * Outputs: text is pagelab's "PAGE r|w" lines (docs/trace-format.md);
 * bin is pagelab's binary format (src/trace/bintrace.h: dense page ids in
 * order of first reference, the counts in the header), written through a
 * seekable stdout; oracle is libCacheSim's oracleGeneral (24-byte records
 * u32 time, u64 id, u32 size, i64 next access), so that libCacheSim's
 * cachesim replays the very same references.  Its next-access field is
 * filled by a backward pass (libCacheSim's Belady needs it), which holds
 * the trace in memory: 4 bytes per reference, here only. */
#include "../src/trace/bintrace.h"

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static uint64_t next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void die(const char *msg)
{
	fprintf(stderr, "gentrace: %s\n", msg);
	exit(2);
}

static void out(const void *buf, size_t n)
{
	if (fwrite(buf, 1, n, stdout) != n)
		die("write error on standard output");
}

enum kind { UNIFORM, ZIPF, SEQ };

struct gen {
	enum kind kind;
	uint64_t npages, seed, i;
	double *cdf;      /* zipf: cumulative probability of ranks 1..k */
	uint32_t *perm;   /* zipf: page number of rank k */
};

/* The next reference: page number and whether it writes. */
static uint64_t gen_next(struct gen *g, int *write)
{
	uint64_t r = next(&g->seed);
	*write = (r >> 62) == 0;
	if (g->kind == SEQ)
		return g->i++ % g->npages;
	if (g->kind == UNIFORM)
		return r % g->npages;
	/* Inverse CDF by binary search: the smallest rank whose cumulative
	 * probability exceeds u. */
	double u = (double)(r >> 11) * (1.0 / 9007199254740992.0);
	uint64_t lo = 0, hi = g->npages - 1;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (g->cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return g->perm[lo];
}

int main(int argc, char **argv)
{
	struct gen g = { .kind = UNIFORM };
	double alpha = 0;
	const char *fmt = "text";
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		if (!strcmp(argv[i], "--zipf") && i + 1 < argc) {
			g.kind = ZIPF;
			alpha = strtod(argv[++i], NULL);
			if (!(alpha > 0 && alpha < 10))
				die("--zipf ALPHA must be in (0, 10)");
		} else if (!strcmp(argv[i], "--seq")) {
			g.kind = SEQ;
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			fmt = argv[++i];
			if (strcmp(fmt, "text") && strcmp(fmt, "bin") && strcmp(fmt, "oracle"))
				die("--out is text, bin or oracle");
		} else {
			die("usage: gentrace [--zipf ALPHA] [--seq] [--out text|bin|oracle] NPAGES NREFS SEED");
		}
	}
	if (argc - i != 3)
		die("usage: gentrace [--zipf ALPHA] [--seq] [--out text|bin|oracle] NPAGES NREFS SEED");
	g.npages = strtoull(argv[i], NULL, 10);
	uint64_t nrefs = strtoull(argv[i + 1], NULL, 10);
	g.seed = strtoull(argv[i + 2], NULL, 10);
	if (!g.npages || g.npages > UINT32_MAX - 1)
		die("NPAGES must be in 1..4294967294");
	if (g.kind == ZIPF) {
		g.cdf = malloc(g.npages * sizeof(*g.cdf));
		g.perm = malloc(g.npages * sizeof(*g.perm));
		if (!g.cdf || !g.perm)
			die("out of memory");
		double sum = 0;
		for (uint64_t k = 0; k < g.npages; k++)
			g.cdf[k] = sum += pow((double)(k + 1), -alpha);
		for (uint64_t k = 0; k < g.npages; k++) {
			g.cdf[k] /= sum;
			g.perm[k] = (uint32_t)k;
		}
		g.cdf[g.npages - 1] = 2; /* every u < 1 lands */
		uint64_t ps = g.seed ^ 0x5deece66dULL;
		for (uint64_t k = g.npages - 1; k > 0; k--) { /* Fisher-Yates */
			uint64_t j = next(&ps) % (k + 1);
			uint32_t t = g.perm[k];
			g.perm[k] = g.perm[j];
			g.perm[j] = t;
		}
	}
	static char buf[1 << 16];
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	if (!strcmp(fmt, "text")) {
		printf("# gentrace %llu pages, %llu references, seed %llu\n", (unsigned long long)g.npages,
		       (unsigned long long)nrefs, (unsigned long long)g.seed);
		for (uint64_t r = 0; r < nrefs; r++) {
			int w;
			uint64_t page = gen_next(&g, &w);
			printf("%llu %c\n", (unsigned long long)page, w ? 'w' : 'r');
		}
	} else if (!strcmp(fmt, "bin")) {
		/* Dense ids in order of first reference; the header, which
		 * holds the distinct count, is rewritten at the end. */
		uint32_t *dense = malloc(g.npages * sizeof(*dense));
		if (!dense)
			die("out of memory");
		memset(dense, 0xff, g.npages * sizeof(*dense));
		uint8_t h[BINTRACE_HEADER] = "PGLTRACE";
		out(h, sizeof(h));
		uint64_t distinct = 0;
		for (uint64_t r = 0; r < nrefs; r++) {
			int w;
			uint64_t page = gen_next(&g, &w);
			if (dense[page] == UINT32_MAX)
				dense[page] = (uint32_t)distinct++;
			uint8_t rec[BINTRACE_RECORD];
			put_le(rec, dense[page], 4);
			put_le(rec + 4, (uint64_t)w, 4);
			out(rec, sizeof(rec));
		}
		put_le(h + 8, BINTRACE_VERSION, 4);
		put_le(h + 12, BINTRACE_RECORD, 4);
		put_le(h + 16, nrefs, 8);
		put_le(h + 24, distinct, 8);
		if (fflush(stdout) || fseek(stdout, 0, SEEK_SET))
			die("--out bin needs a seekable standard output (a file)");
		out(h, sizeof(h));
		free(dense);
	} else {
		/* oracleGeneral: the next-access field from a backward pass. */
		uint32_t *ids = malloc((nrefs ? nrefs : 1) * sizeof(*ids));
		int64_t *last = malloc(g.npages * sizeof(*last));
		int64_t *nxt = malloc((nrefs ? nrefs : 1) * sizeof(*nxt));
		if (!ids || !last || !nxt)
			die("out of memory");
		for (uint64_t r = 0; r < nrefs; r++) {
			int w;
			ids[r] = (uint32_t)gen_next(&g, &w);
		}
		for (uint64_t k = 0; k < g.npages; k++)
			last[k] = -1;
		for (uint64_t r = nrefs; r-- > 0;) {
			nxt[r] = last[ids[r]];
			last[ids[r]] = (int64_t)r + 1; /* libCacheSim counts vtime from 1 */
		}
		for (uint64_t r = 0; r < nrefs; r++) {
			uint8_t rec[24];
			put_le(rec, r + 1, 4);
			put_le(rec + 4, (uint64_t)ids[r] + 1, 8); /* id 0 is unused by some readers */
			put_le(rec + 12, 4096, 4);
			put_le(rec + 16, (uint64_t)nxt[r], 8);
			out(rec, sizeof(rec));
		}
		free(ids);
		free(last);
		free(nxt);
	}
	free(g.cdf);
	free(g.perm);
	return fflush(stdout) ? 1 : 0;
}
