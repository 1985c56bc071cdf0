/* share.c - see share.h. */
#include "share.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool parse_share(const char *s, double *share)
{
	size_t n = s ? strlen(s) : 0;
	char num[40];
	if (n < 2 || n >= sizeof(num) || s[n - 1] != '%')
		return false;
	snprintf(num, sizeof(num), "%.*s", (int)(n - 1), s);
	double v;
	/* digits and a point only: no exponent, sign, hex or infinity */
	if (strspn(num, "0123456789.") != n - 1 || !parse_double(num, &v) || !(v > 0) || v > 100)
		return false;
	*share = v / 100;
	return true;
}

uint64_t share_pages(double share, uint64_t distinct)
{
	double p = floor(share * (double)distinct + 0.5);
	return p < 1 ? 1 : (uint64_t)p;
}
