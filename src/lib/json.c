/* json.c - see json.h.  UTF-8 validity as RFC 3629 defines it: the
 * shortest form only, no surrogates (U+D800-DFFF), nothing past U+10FFFF. */
#include "json.h"

int utf8_seq_len(const unsigned char *s)
{
	unsigned c = s[0];
	if (c < 0x80)
		return 1;
	int n;
	unsigned lo = 0x80, hi = 0xbf; /* allowed range of the second byte */
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;     /* overlong below U+0800 */
		else if (c == 0xed)
			hi = 0x9f;     /* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;     /* overlong below U+10000 */
		else if (c == 0xf4)
			hi = 0x8f;     /* past U+10FFFF */
	} else {
		return 0;              /* continuation byte, 0xc0/0xc1, 0xf5+ */
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		unsigned c = *p;
		if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (c == '\t') {
			fputs("\\t", out);
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
		} else if (c >= 0x80) {
			int n = utf8_seq_len(p);
			if (!n) {
				fputs("\\ufffd", out);
				p++;
				continue;
			}
			fwrite(p, 1, (size_t)n, out);
			p += n;
			continue;
		} else {
			fputc((int)c, out);
		}
		p++;
	}
	fputc('"', out);
}
