/* gentrace.c - write a uniformly random reference trace in pagelab's text
 * format (docs/trace-format.md) for make bench:
 *     gentrace NPAGES NREFS SEED
 * Every reference picks a page uniformly from [0, NPAGES); one in four is
 * a write.  Deterministic for a given seed (splitmix64). */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: gentrace NPAGES NREFS SEED\n");
		return 2;
	}
	uint64_t npages = strtoull(argv[1], NULL, 10), nrefs = strtoull(argv[2], NULL, 10);
	uint64_t seed = strtoull(argv[3], NULL, 10);
	if (!npages) {
		fprintf(stderr, "gentrace: NPAGES must be positive\n");
		return 2;
	}
	static char buf[1 << 16];
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	printf("# gentrace %llu pages, %llu references, seed %llu\n", (unsigned long long)npages,
	       (unsigned long long)nrefs, (unsigned long long)seed);
	for (uint64_t i = 0; i < nrefs; i++) {
		uint64_t r = next(&seed);
		printf("%llu %c\n", (unsigned long long)(r % npages), (r >> 62) == 0 ? 'w' : 'r');
	}
	return fflush(stdout) ? 1 : 0;
}
