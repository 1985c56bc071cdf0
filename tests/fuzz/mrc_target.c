/* mrc_target.c - see mrc_target.h. */
#include "mrc_target.h"
#include "../../src/mrc/mrc.h"
#include "../../src/lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool one_line(const char *err)
{
	return err[0] && !strchr(err, '\n');
}

static bool sizes_one(const char *s)
{
	uint64_t *sz;
	int n;
	char err[400] = "";
	if (!mrc_parse_sizes(s, &sz, &n, err, sizeof(err)))
		return sz == NULL && one_line(err);
	bool ok = n >= 1;
	for (int k = 0; ok && k < n; k++)
		ok = sz[k] >= 1 && sz[k] <= UINT32_MAX && (!k || sz[k] > sz[k - 1]);
	free(sz);
	return ok;
}

static bool curves_one(const uint8_t *text, size_t len, unsigned smax)
{
	char path[] = "/tmp/pagelab-fuzz-mrc-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return true;  /* no temporary file: nothing to check */
	FILE *f = fdopen(fd, "w");
	fwrite(text, 1, len, f);
	fclose(f);
	const char *lru[] = { "lru" };
	struct mrc_opts o = { .path = path, .topts = { .format = TRACE_FMT_TEXT }, .policies = lru,
			      .nr_policies = 1, .shards_rate = 1, .shards_size = smax, .seed = 1, .jobs = 1 };
	struct mrc_result r;
	char err[400] = "";
	bool ok;
	if (!mrc_compute(&o, &r, err, sizeof(err))) {
		ok = one_line(err);
	} else {
		const struct mrc_curve *ex = &r.curves[0], *all = &r.curves[1], *fs = &r.curves[2];
		ok = r.nr_curves == 3 && r.nr_sizes >= 1 && r.sizes[r.nr_sizes - 1] == r.npages && r.npages >= 1;
		for (int k = 0; ok && k < r.nr_sizes; k++) {
			ok = ex->misses[k] >= (double)r.npages && ex->misses[k] <= (double)r.nrefs &&
			     (!k || ex->misses[k] <= ex->misses[k - 1]) && all->misses[k] == ex->misses[k] &&
			     fs->ratio[k] >= 0 && fs->ratio[k] <= 1 && (!k || fs->ratio[k] <= fs->ratio[k - 1]);
		}
		ok = ok && ex->misses[r.nr_sizes - 1] == (double)r.npages;
		mrc_result_free(&r);
	}
	unlink(path);
	return ok;
}

bool fuzz_mrc_one(const uint8_t *data, size_t size)
{
	if (!size)
		return true;
	size_t len = MIN(size - 1, 4096);
	if (data[0] & 1)
		return curves_one(data + 1, len, (unsigned)(data[0] / 2 % 8 + 1));
	char *s = xmalloc(len + 1);
	memcpy(s, data + 1, len);
	s[len] = 0;
	bool ok = sizes_one(s);
	free(s);
	return ok;
}
