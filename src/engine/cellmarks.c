/* cellmarks.c - a sweep cell's warm-up and windows (cellmarks.h). */
#include "cellmarks.h"
#include "../cachesim/cachesim.h"
#include "../lib/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The trace's arguments of c's one workload, split into argv (argv[0]
 * "trace") in buf, which the caller frees. */
static bool trace_args(const struct cell *c, char **buf, char **argv, int max, int *argc, struct trace_opts *o,
		       const char **path, char *err, size_t errlen)
{
	*buf = xstrdup(c->wl[0]);
	*argc = cell_split_args(*buf, argv, max);
	return trace_parse_args(*argc, argv, o, path, err, errlen);
}

/* The profile's parameters as JSON, to compare two machines whole. */
static char *profile_text(const struct profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		panic("open_memstream: out of memory");
	profile_json(p, f);
	fclose(f);
	return buf;
}

bool cell_marks_ok(const struct cell *c, char *err, size_t errlen)
{
	const char *why = NULL;
	struct profile ideal = *profile_find("ideal");
	ideal.ram = c->prof.ram;
	char *a = profile_text(&ideal), *b = profile_text(&c->prof);
	uint64_t reserve = profile_kernel_reserve(&c->prof);
	if (c->executor != EXEC_SIM)
		why = "simulated cells, not the host kernel's";
	else if (c->nr_wl != 1 || strncmp(c->wl[0], "trace ", 6))
		why = "a lone trace workload";
	else if (strcmp(a, b) || c->mo.memcg_pages || c->mo.cgroups.n)
		why = "--machine ideal with no machine option but --ram";
	else if (c->prof.ram <= reserve || (c->prof.ram - reserve) / PAGE_SIZE >= PFN_NONE)
		why = "a --ram of 1 to 2^32 - 2 pages";
	else if (!cachesim_policy_ok(c->pol))
		why = "a cache policy (fifo, clock, lru, opt or a research policy)";
	else if (c->mo.check)
		why = "no --check";
	free(a);
	free(b);
	if (why)
		snprintf(err, errlen, "--warmup and --window take the cache-only replay's counts: they need %s (policy %s)",
			 why, c->pol->name);
	return !why;
}

bool cell_marks_warmup(const struct cell *c, const struct warmup_arg *w, uint64_t *out, char *err, size_t errlen)
{
	char *buf, *argv[64];
	int argc;
	struct trace_opts o;
	const char *path;
	uint64_t n = 0;
	bool ok = trace_args(c, &buf, argv, 64, &argc, &o, &path, err, errlen) &&
		  trace_count_refs(path, &o, &n, err, errlen);
	*out = w->frac ? (uint64_t)floor(w->frac * (double)n) : w->refs;
	if (ok && *out >= n) {
		snprintf(err, errlen, "--warmup %llu: the trace holds only %llu references", (unsigned long long)*out,
			 (unsigned long long)n);
		ok = false;
	}
	free(buf);
	return ok;
}

bool cell_marks_run(const struct cell *c, struct marks *mk, uint64_t *refs, uint64_t *misses, char *err,
		    size_t errlen)
{
	char *buf, *argv[64];
	int argc;
	struct trace_opts o;
	const char *path;
	if (!trace_args(c, &buf, argv, 64, &argc, &o, &path, err, errlen)) {
		free(buf);
		return false;
	}
	/* the frames `pagelab run` gives the cache-only replay (run_spec.c) */
	uint64_t frames = (c->prof.ram - profile_kernel_reserve(&c->prof)) / PAGE_SIZE;
	struct cachesim *cs = cachesim_new(c->pol, c->tun, frames);
	struct cachesim_trace tr;
	bool ok = cachesim_replay_marked(cs, path, &o, false, mk, &tr, err, errlen);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	*refs = st.refs;
	*misses = st.misses;
	if (ok && st.refs <= mk->warmup) {
		snprintf(err, errlen, "--warmup %llu: the trace holds only %llu references",
			 (unsigned long long)mk->warmup, (unsigned long long)st.refs);
		ok = false;
	}
	cachesim_free(cs);
	free(buf);
	return ok;
}
