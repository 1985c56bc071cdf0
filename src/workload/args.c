/* args.c - see args.h. */
#include "args.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

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

bool wl_longopt(int argc, char **argv, int *i, const char *name, char letter, bool has_arg,
		const char **val)
{
	const char *a = argv[*i];
	*val = NULL;
	if (letter && a[0] == '-' && a[1] == letter) {
		if (!has_arg)
			return !a[2];
		*val = wl_optval(argc, argv, i);
		return true;
	}
	size_t n = strlen(name);
	if (a[0] != '-' || a[1] != '-' || strncmp(a + 2, name, n) || (a[2 + n] && a[2 + n] != '='))
		return false;
	if (a[2 + n] == '=')
		*val = a + 3 + n;
	else if (has_arg && *i + 1 < argc)
		*val = argv[++*i];
	return true;
}

void *wl_keep(const void *w, size_t size)
{
	void *p = xmalloc(size);
	memcpy(p, w, size);
	return p;
}

void wl_free(void *w)
{
	free(w);
}

int wl_one_task(void *w)
{
	(void)w;
	return 1;
}
