/* exp_text.c - reproduce's text fitted to 80 columns (see exp_text.h). */
#include "exp_text.h"
#include "../lib/wrap.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#define LABEL_COLS 10

void exp_wrap(FILE *out, const char *left, int col, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	wrap_row(out, left, col, buf, "", WRAP_WIDTH);
}

/* The widest line of LINES and the blanks every non-empty line starts with. */
static void measure(const char *lines, int *widest, int *lead)
{
	*widest = 0;
	*lead = -1;
	for (const char *s = lines; *s;) {
		int n = (int)strcspn(s, "\n"), b = (int)strspn(s, " ");
		if (b < n && (*lead < 0 || b < *lead))
			*lead = b;
		if (n > *widest)
			*widest = n;
		s += n + (s[n] == '\n');
	}
	if (*lead < 0)
		*lead = 0;
}

void exp_block(FILE *out, const char *indent, const char *label, const char *lines)
{
	int beside = (int)strlen(indent) + LABEL_COLS, widest, lead;
	measure(lines, &widest, &lead);
	int shift = 0, pad = beside;
	if (beside + widest > WRAP_WIDTH) {
		fprintf(out, "%s%s:\n", indent, label);
		shift = lead;
		pad = WRAP_WIDTH - (widest - lead);
		if (pad > beside)
			pad = beside;
		if (pad < 0)
			pad = 0;
	}
	bool first = true;
	for (const char *s = lines; *s;) {
		int n = (int)strcspn(s, "\n");
		if (pad == beside && first)
			fprintf(out, "%s%-*s", indent, LABEL_COLS, label);
		else if (pad == beside)
			fprintf(out, "%*s", beside, "");
		else
			fprintf(out, "%*s", pad, "");
		int skip = n < shift ? n : shift;
		fprintf(out, "%.*s\n", n - skip, s + skip);
		s += n + (s[n] == '\n');
		first = false;
	}
}
