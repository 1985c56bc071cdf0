/* args.c - see args.h. */
#include "args.h"
#include "../lib/util.h"

const char *wl_optval(int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	if (a[1] && a[2])
		return a + 2;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

bool wl_u64_in(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	uint64_t x;
	if (!s || !parse_u64(s, &x) || x < lo || x > hi)
		return false;
	*v = x;
	return true;
}
