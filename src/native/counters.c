/* counters.c - snapshots of the kernel's counters: /proc/vmstat and a
 * cgroup's memory.stat ("name value" lines, kept in the kernel's order so
 * the report lists them as the kernel does), and PSI's memory line
 * ("some avg10=.. avg60=.. avg300=.. total=US", Documentation/accounting/
 * psi.rst), whose total is cumulative stall time in microseconds. */
#include "native.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

void nstat_free(struct nstat *s)
{
	free(s->name);
	free(s->val);
	memset(s, 0, sizeof(*s));
}

static void nstat_add(struct nstat *s, const char *name, size_t len, int64_t v)
{
	if (len >= sizeof(s->name[0]))
		return;
	s->name = xrealloc(s->name, (size_t)(s->n + 1) * sizeof(s->name[0]));
	s->val = xrealloc(s->val, (size_t)(s->n + 1) * sizeof(s->val[0]));
	memcpy(s->name[s->n], name, len);
	s->name[s->n][len] = 0;
	s->val[s->n++] = v;
}

void nstat_parse(struct nstat *s, const char *text)
{
	memset(s, 0, sizeof(*s));
	for (const char *l = text; *l;) {
		size_t len = strcspn(l, " \n");
		if (l[len] == ' ') {
			char *end;
			long long v = strtoll(l + len + 1, &end, 10);
			if (end != l + len + 1 && len)
				nstat_add(s, l, len, v);
		}
		l += strcspn(l, "\n");
		if (*l)
			l++;
	}
}

bool nstat_read_file(struct nstat *s, const char *path)
{
	FILE *f = fopen(path, "re");
	memset(s, 0, sizeof(*s));
	if (!f)
		return false;
	size_t cap = 1 << 16, n = 0;
	char *buf = xmalloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	buf[n] = 0;
	fclose(f);
	nstat_parse(s, buf);
	free(buf);
	return true;
}

int64_t nstat_get(const struct nstat *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return s->val[i];
	return 0;
}

void nstat_delta(struct nstat *d, const struct nstat *before, const struct nstat *after)
{
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < after->n; i++) {
		/* Same order on both sides in practice: try the index first. */
		int64_t b = i < before->n && !strcmp(before->name[i], after->name[i]) ? before->val[i]
										   : nstat_get(before, after->name[i]);
		nstat_add(d, after->name[i], strlen(after->name[i]), after->val[i] - b);
	}
}

bool npsi_read(const char *path, int64_t *some_us, int64_t *full_us)
{
	*some_us = *full_us = -1;
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	char line[256];
	while (fgets(line, sizeof(line), f)) {
		const char *t = strstr(line, "total=");
		if (!t)
			continue;
		int64_t v = strtoll(t + 6, NULL, 10);
		if (!strncmp(line, "some", 4))
			*some_us = v;
		else if (!strncmp(line, "full", 4))
			*full_us = v;
	}
	fclose(f);
	return *some_us >= 0;
}
