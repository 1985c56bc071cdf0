/* compress.c - a page's compressed size, drawn from the measured table
 * (compress_table.h).  The simulator holds no page contents: a page of
 * kind k compresses under algorithm a to a size drawn from what
 * bench/compress measured for pagefill()'s pages of that kind, through
 * the page's own seeded hash, so the same page written the same number
 * of times always draws the same size (docs/zram.md). */
#include "compress_table.h"

#include <string.h>

static const char *const names[ZALGO_NR] = { "lz4", "lzo-rle", "zstd" };

const char *zalgo_name(enum zalgo a)
{
	return (unsigned)a < ZALGO_NR ? names[a] : NULL;
}

bool zalgo_parse(const char *s, enum zalgo *a)
{
	for (int i = 0; i < ZALGO_NR; i++)
		if (!strcmp(s, names[i])) {
			*a = (enum zalgo)i;
			return true;
		}
	/* the kernel's name for lzo1x without the run-length coding */
	if (!strcmp(s, "lzo")) {
		*a = ZALGO_LZO_RLE;
		return true;
	}
	return false;
}

unsigned compress_draw(enum data_kind k, enum zalgo a, uint64_t u, unsigned ratio_pct)
{
	if (k == DK_RATIO)
		return ratio_pct ? (unsigned)(4096ULL * 100 / ratio_pct) : 4096;
	const struct compress_row *r = &compress_table[k][a];
	/* the top 32 bits pick same-filled or not, the low 32 the size:
	 * independent parts of one hash */
	uint64_t hi = u >> 32, lo = u & 0xffffffffULL;
	if (hi * compress_table_pages < (uint64_t)r->same << 32)
		return 0;
	/* position lo / 2^32 among COMPRESS_NQ - 1 intervals */
	uint64_t pos = lo * (COMPRESS_NQ - 1);
	unsigned i = (unsigned)(pos >> 32);
	uint64_t frac = pos & 0xffffffffULL;
	uint64_t a0 = r->q[i], a1 = r->q[i + 1];
	return (unsigned)(a0 + (((a1 - a0) * frac) >> 32));
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

unsigned compress_page(uint64_t seed, uint32_t owner, uint64_t index, unsigned ver, unsigned kind,
		       enum zalgo a, unsigned ratio_pct)
{
	uint64_t u = mix(seed ^ mix(owner ^ mix(index ^ mix((uint64_t)ver << 8 | kind))));
	return compress_draw((enum data_kind)kind, a, u, ratio_pct);
}
