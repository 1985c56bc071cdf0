/* exp_parse.c - reading figures back out of the programs' own output
 * (dbench's Throughput line, Bonnie's table) and their command lines. */
#include "experiment.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool exp_number_after(const char *text, const char *key, double *v)
{
	const char *p = text ? strstr(text, key) : NULL;
	if (!p)
		return false;
	p += strlen(key);
	while (*p == ' ' || *p == '=' || *p == ':')
		p++;
	char *end;
	double x = strtod(p, &end);
	if (end == p || !isfinite(x))
		return false;
	*v = x;
	return true;
}

bool exp_number_before(const char *text, const char *key, double *v)
{
	const char *p = text ? strstr(text, key) : NULL;
	if (!p)
		return false;
	const char *e = p;
	while (e > text && e[-1] == ' ')
		e--;
	const char *b = e;
	while (b > text && (isdigit((unsigned char)b[-1]) || b[-1] == '.'))
		b--;
	if (b == e)
		return false;
	char buf[64];
	snprintf(buf, sizeof(buf), "%.*s", (int)(e - b), b);
	*v = strtod(buf, NULL);
	return true;
}

static bool is_number(const char *s, size_t n)
{
	char buf[64];
	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	char *end;
	strtod(buf, &end);
	return *end == 0;
}

bool exp_last_numbers(const char *text, int n, double *out)
{
	bool found = false;
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		/* tokens of this line, from the end */
		double vals[64];
		int k = 0;
		const char *e = text + len;
		while (k < n) {
			while (e > text && isspace((unsigned char)e[-1]))
				e--;
			const char *b = e;
			while (b > text && !isspace((unsigned char)b[-1]))
				b--;
			if (b == e || !is_number(b, (size_t)(e - b)))
				break;
			vals[k++] = strtod(b, NULL);
			e = b;
		}
		if (k == n) {
			for (int i = 0; i < n; i++)
				out[i] = vals[n - 1 - i];
			found = true;
		}
		text += len + (nl ? 1 : 0);
	}
	return found;
}

bool exp_cmd_number(const char *cmd, const char *key, double *v)
{
	char k[64];
	snprintf(k, sizeof(k), " %s", key);
	const char *p = cmd ? strstr(cmd, k) : NULL;
	if (!p)
		return false;
	p += strlen(k);
	char *end;
	double x = strtod(p, &end);
	if (end == p)
		return false;
	*v = x;
	return true;
}

void exp_fmt_minutes(char *buf, size_t len, double s)
{
	long t = (long)floor(s + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%ld h %ld min %ld s", t / 3600, t % 3600 / 60, t % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ld min %ld s", t / 60, t % 60);
	else
		snprintf(buf, len, "%.1f s", s);
}
