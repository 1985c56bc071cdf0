/* util.c - see util.h. */
#define _DEFAULT_SOURCE /* madvise() */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

/* The library's handler for die_usage() (see util.h), per thread. */
static _Thread_local void (*usage_handler)(const char *msg);

void die_usage_set_handler(void (*handler)(const char *msg))
{
	usage_handler = handler;
}

static _Noreturn void vdie(int status, const char *fmt, va_list ap)
{
	if (usage_handler) {
		char msg[512];
		va_list copy;
		va_copy(copy, ap);
		vsnprintf(msg, sizeof(msg), fmt, copy);
		va_end(copy);
		usage_handler(msg); /* does not return */
	}
	fputs("pagelab: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(status);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdie(EXIT_USAGE, fmt, ap);
}

void die_status(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdie(status, fmt, ap);
}

void panic(const char *fmt, ...)
{
	va_list ap;
	fputs("pagelab: internal error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static void *check_alloc(void *p, size_t n)
{
	if (!p && n)
		die_usage("out of host memory allocating %zu bytes", n);
	return p;
}

void *xmalloc(size_t n) { return check_alloc(malloc(n ? n : 1), n); }
void *xcalloc(size_t n, size_t size)
{
	return check_alloc(calloc(n ? n : 1, size ? size : 1), n * size);
}
#define HUGE_PAGE (2u << 20)
/* n * size bytes, 2 MiB aligned with huge-page advice from HUGE_PAGE on,
 * cleared if `clear` (below HUGE_PAGE: xcalloc's, cleared either way). */
static void *alloc_huge(size_t n, size_t size, bool clear)
{
	if (size && n > SIZE_MAX / size)
		return xcalloc(n, size);
	size_t bytes = n * size;
	if (bytes < HUGE_PAGE)
		return xcalloc(n, size);
	/* Whole huge pages: with the advice only on those wholly inside the
	 * array, the last part of it stayed in 4 KiB pages (the last 2.4 MB
	 * of a replay's 8.4 MB page table: the host's TLB missed on them).
	 * The room past the array is never touched but is backed with it. */
	size_t room = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	void *p = NULL;
	if (posix_memalign(&p, HUGE_PAGE, room))
		return check_alloc(NULL, room);
#ifdef MADV_HUGEPAGE
	(void)madvise(p, room, MADV_HUGEPAGE);
#endif
	return clear ? memset(p, 0, bytes) : p;
}
void *xcalloc_huge(size_t n, size_t size) { return alloc_huge(n, size, true); }
void *xmalloc_huge(size_t n, size_t size) { return alloc_huge(n, size, false); }
void *xrealloc(void *p, size_t n) { return check_alloc(realloc(p, n ? n : 1), n); }
char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

bool parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	if (!s || !*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		unsigned d = (unsigned)(*s - '0');
		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

bool parse_size(const char *s, uint64_t *bytes)
{
	char num[32];
	size_t n = 0;
	if (!s)
		return false;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	if (n == 0 || n >= sizeof(num))
		return false;
	memcpy(num, s, n);
	num[n] = 0;
	uint64_t v;
	if (!parse_u64(num, &v))
		return false;
	const char *suf = s + n;
	unsigned shift = 0;
	switch (*suf) {
	case 0: break;
	case 'k': case 'K': shift = 10; suf++; break;
	case 'm': case 'M': shift = 20; suf++; break;
	case 'g': case 'G': shift = 30; suf++; break;
	case 't': case 'T': shift = 40; suf++; break;
	case 'p': case 'P': shift = PAGE_SHIFT; suf++;
		if (*suf)
			return false;
		break;
	default: return false;
	}
	if (shift && shift != PAGE_SHIFT && (*suf == 'b' || *suf == 'B'))
		suf++;
	if (*suf)
		return false;
	if (shift && v > (UINT64_MAX >> shift))
		return false;
	*bytes = v << shift;
	return true;
}

bool parse_double(const char *s, double *v)
{
	char *end;
	/* strtod() would skip leading white space: refuse it like parse_u64. */
	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	double x = strtod(s, &end);
	if (*end || errno || !isfinite(x))
		return false;
	*v = x;
	return true;
}

/* A duration in units of 1/per_ns nanosecond: ns (per_ns 1) or ps (1000,
 * which also takes a "ps" suffix).  A bare number is seconds. */
static bool parse_duration_in(const char *s, uint64_t *v, double per_ns)
{
	char *end;
	/* A digit or a point first: no sign, and no white space that strtod()
	 * would skip (" -0" must not pass as a duration). */
	if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
		return false;
	errno = 0;
	double x = strtod(s, &end);
	if (errno || !isfinite(x) || x < 0 || end == s)
		return false;
	double mult = 1e9;
	if (!strcmp(end, "ps") && per_ns >= 1000) mult = 1e-3;
	else if (!strcmp(end, "ns")) mult = 1;
	else if (!strcmp(end, "us")) mult = 1e3;
	else if (!strcmp(end, "ms")) mult = 1e6;
	else if (!strcmp(end, "s") || !*end) mult = 1e9;
	else return false;
	x *= mult * per_ns;
	if (x >= 1.8e19)
		return false;
	*v = (uint64_t)(x + 0.5);
	return true;
}

bool parse_duration_ns(const char *s, uint64_t *ns) { return parse_duration_in(s, ns, 1); }
bool parse_duration_ps(const char *s, uint64_t *ps) { return parse_duration_in(s, ps, 1000); }

uint64_t host_memory_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psz = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || psz <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)psz;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;
	do
		x = rng_next(r);
	while (x >= limit);
	return x % n;
}

uint64_t isqrt64(uint64_t x)
{
	uint64_t r = (uint64_t)sqrt((double)x);
	while (r * r > x)
		r--;
	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

char *join_words(int argc, char *const *argv)
{
	size_t n = 1;
	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	char *s = xmalloc(n), *p = s;
	*p = 0;
	for (int i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]);
		if (i)
			*p++ = ' ';
		memcpy(p, argv[i], len + 1);
		p += len;
	}
	return s;
}
