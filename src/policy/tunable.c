/* tunable.c - reading a policy tunable from --set NAME=VALUE.  The kernel's
 * tunables are integers: a sysctl write of "0x10" or "17.5" is refused
 * there (proc_dointvec takes decimal integers), so it is here too. */
#include "policy.h"
#include "../lib/util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool whole(double x)
{
	return x == floor(x);
}

bool tunable_parse(const struct tunable *t, const char *value, double *v, char *err, size_t errlen)
{
	bool integer = whole(t->def) && whole(t->min) && whole(t->max);
	uint64_t u;
	bool ok;
	if (integer) {
		/* Decimal digits only, an optional minus for negative ranges. */
		bool neg = value[0] == '-' && t->min < 0;
		ok = parse_u64(value + neg, &u) && u <= (1ULL << 53);
		*v = ok ? (neg ? -(double)u : (double)u) : 0;
	} else {
		ok = parse_double(value, v) && !strpbrk(value, "xXpP");
	}
	if (!ok || *v < t->min || *v > t->max) {
		snprintf(err, errlen, "bad value '%s' for %s (%s %g..%g)", value, t->name,
			 integer ? "a whole number" : "a number", t->min, t->max);
		return false;
	}
	return true;
}
