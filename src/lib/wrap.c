/* wrap.c - word-wrapped listing rows (see wrap.h). */
#include "wrap.h"

#include <string.h>

static void pad(FILE *out, int n)
{
	while (n-- > 0)
		fputc(' ', out);
}

void wrap_row(FILE *out, const char *left, int col, const char *text,
	      const char *cont, int width)
{
	/* Trailing blanks of a printf-padded LEFT do not count. */
	int len = (int)strlen(left);
	while (len > 0 && left[len - 1] == ' ')
		len--;
	fwrite(left, 1, (size_t)len, out);
	if (!text || !*text) {
		fputc('\n', out);
		return;
	}
	int x;
	if (len + 1 > col && len > 0) {
		fputc('\n', out);
		pad(out, col);
		x = col;
	} else {
		pad(out, col - len);
		x = col;
	}
	/* x: the column of the next character; `first` while the line holds
	 * no word yet (a word that does not fit goes there anyway). */
	int first = 1;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		int w = (int)strcspn(p, " ");
		if (!first && x + 1 + w > width) {
			fputc('\n', out);
			pad(out, col);
			fputs(cont, out);
			x = col + (int)strlen(cont);
			first = 1;
		}
		if (!first) {
			fputc(' ', out);
			x++;
		}
		fwrite(p, 1, (size_t)w, out);
		x += w;
		p += w;
		first = 0;
	}
	fputc('\n', out);
}
