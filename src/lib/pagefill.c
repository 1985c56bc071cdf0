/* pagefill.c - deterministic page contents per data kind (pagefill.h).
 *
 * Every page is a pure function of (kind, seed, page index): the page's
 * own generator state is splitmix64 of the three, so any page can be made
 * alone, in any order, by the simulator's tools or a kernel executor.
 *
 * The kinds:
 *   same   - a memset: one byte, 1 to 255 (never 0: 6.12+ catches
 *            zero-filled pages in the swap layer before any device,
 *            swap_writepage()'s zeromap, and zram would never see them),
 *            repeated;
 *   ints   - qsbench's array: 1024 ints in [0, 2^31), rand()'s range;
 *   text   - a compiler heap as docs/zram.md describes it: C-like words,
 *            runs of zeros, small ints and near pointers, in chunks;
 *   random - every byte random. */
#include "pagefill.h"

#include <string.h>

static uint64_t mix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void fill_random(uint64_t *s, unsigned char *out)
{
	for (int i = 0; i < PAGEFILL_SIZE; i += 8)
		put64(out + i, mix64(s));
}

static void fill_ints(uint64_t *s, unsigned char *out)
{
	for (int i = 0; i < PAGEFILL_SIZE; i += 8) {
		uint64_t v = mix64(s);
		uint64_t lo = v & 0x7fffffffULL, hi = (v >> 32) & 0x7fffffffULL;
		put64(out + i, lo | hi << 32);
	}
}

static const char *const words[] = {
	"int ", "struct ", "static ", "return ", "if (", "else ", "for (",
	"while (", "unsigned ", "long ", "char *", "void ", "const ",
	"NULL", "sizeof(", "->next", "->prev", "page", "spin_lock(",
	"spin_unlock(", "list_head", "#include <linux/", ".h>\n", ";\n",
	"\t", "{\n", "}\n", " = ", " == ", " != ", "0x", "kmalloc(",
	"GFP_KERNEL", "__init ", "inline ", "u64 ", "u32 ", "err", "goto out",
	"break;\n", "case ", "default:", "switch (", "struct page *", "mm",
	"vma", "flags", "addr", "size", "count", "i++", "++", " && ", " || ",
	"(", ")", ",", " ", "_", "EXPORT_SYMBOL(", "pr_info(\"", "\\n\"",
	"BUG_ON(", "WARN_ON(",
};

/* One chunk of the text mix at out[pos..end): returns the bytes written. */
static int text_chunk(uint64_t *s, unsigned char *out, int pos, int end)
{
	uint64_t r = mix64(s);
	int room = end - pos, n = 0;
	switch (r % 20) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: {
		/* a few words of source-like text */
		for (int w = 0; w < 4; w++) {
			const char *t = words[(r >> (8 + 6 * w)) % (sizeof(words) / sizeof(words[0]))];
			int len = (int)strlen(t);
			if (n + len > room)
				break;
			memcpy(out + pos + n, t, (size_t)len);
			n += len;
		}
		break;
	}
	case 8: case 9: case 10: case 11: case 12:
		n = 8 + (int)((r >> 8) % 57); /* zero padding, cleared fields */
		memset(out + pos, 0, (size_t)(n < room ? n : room));
		break;
	case 13: case 14: case 15: case 16:
		/* small ints: counters, lengths, enum values */
		for (; n + 4 <= room && n < 16; n += 4) {
			uint32_t v = (uint32_t)((r >> (8 + 2 * n)) & 0xff);
			memcpy(out + pos + n, &(unsigned char[4]){ (unsigned char)v, 0, 0, 0 }, 4);
		}
		break;
	default:
		/* pointers into one heap: high bytes shared */
		for (; n + 8 <= room && n < 16; n += 8)
			put64(out + pos + n, 0x00005600a0000000ULL | ((mix64(s) & 0xfffff) << 3));
		break;
	}
	return n ? (n < room ? n : room) : 1;
}

static void fill_text(uint64_t *s, unsigned char *out)
{
	int pos = 0;
	while (pos < PAGEFILL_SIZE) {
		int n = text_chunk(s, out, pos, PAGEFILL_SIZE);
		if (n == 1 && pos < PAGEFILL_SIZE)
			out[pos] = ' ';
		pos += n;
	}
}

void pagefill(enum data_kind k, uint64_t seed, uint64_t page_index,
	      unsigned char out[PAGEFILL_SIZE])
{
	uint64_t s = seed ^ 0x243f6a8885a308d3ULL;
	s = mix64(&s) ^ page_index;
	s = mix64(&s) ^ (uint64_t)k;
	switch (k) {
	case DK_SAME:
		memset(out, 1 + (int)(mix64(&s) % 255), PAGEFILL_SIZE);
		break;
	case DK_INTS:
		fill_ints(&s, out);
		break;
	case DK_TEXT:
		fill_text(&s, out);
		break;
	default:
		fill_random(&s, out);
		break;
	}
}

static const char *const kind_names[DK_NR] = {
	[DK_RANDOM] = "random", [DK_SAME] = "same", [DK_INTS] = "ints",
	[DK_TEXT] = "text", [DK_RATIO] = "ratio",
};

const char *data_kind_name(enum data_kind k)
{
	return (unsigned)k < DK_NR ? kind_names[k] : NULL;
}

bool data_kind_parse(const char *s, enum data_kind *k)
{
	for (int i = 0; i < DK_NR; i++)
		if (!strcmp(s, kind_names[i])) {
			*k = (enum data_kind)i;
			return true;
		}
	return false;
}

bool page_same_filled(const unsigned char page[PAGEFILL_SIZE], uint64_t *value)
{
	uint64_t first, w;
	memcpy(&first, page, 8);
	for (int i = 8; i < PAGEFILL_SIZE; i += 8) {
		memcpy(&w, page + i, 8);
		if (w != first)
			return false;
	}
	*value = first;
	return true;
}
