/* run_cache.c - `pagelab run --machine ideal ... trace FILE` on the
 * cache-only replay (src/cachesim): the run's figures without the machine.
 * run.c decides when it applies (docs/trace-format.md, "The cache-only
 * replay"); the report keeps the full path's shape where it has the
 * same figures (the header, the trace lines, /proc/vmstat) and has no
 * time lines, since there is no time. */
#include "cli.h"
#include "run_cache.h"
#include "../cachesim/cachesim.h"
#include "../report/report.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <signal.h>

#include <stdlib.h>

int run_cache(const struct run_cache_args *a)
{
	char err[512];
	struct trace_opts o;
	const char *path;
	if (!trace_parse_args(a->argc, a->argv, &o, &path, err, sizeof(err)))
		die_usage("%s", err);
	struct cachesim *cs = cachesim_new(a->policy, a->tun, a->frames);
	struct cachesim_trace tr;
	output_catch_interrupts();
	if (!cachesim_replay(cs, path, &o, a->progress, &tr, err, sizeof(err))) {
		cachesim_free(cs);
		die_usage("%s", err);
	}
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	FILE *out = stdout;
	fprintf(out, "pagelab: machine %s: %llu MiB RAM (%llu pages for the page allocator), cache-only replay; policy %s; seed %llu\n",
		a->machine, (unsigned long long)(a->frames * PAGE_SIZE >> 20), (unsigned long long)a->frames,
		a->policy->name, (unsigned long long)a->seed);
	fprintf(out, "trace: %llu references to %llu distinct pages\n", (unsigned long long)tr.refs,
		(unsigned long long)tr.pages);
	fprintf(out, "trace: replay held %.1f MiB of host memory (%.2f bytes per reference)\n",
		(double)tr.host_bytes / (1 << 20), (double)tr.host_bytes / (double)tr.refs);
	fprintf(out, "cache: %llu misses in %llu references (miss ratio %.6f); %llu refaulted evicted pages\n",
		(unsigned long long)st.misses, (unsigned long long)st.refs, (double)st.misses / (double)st.refs,
		(unsigned long long)st.major);
	fprintf(out, "cache: %llu evictions, %llu written back; %.1f MiB of host memory for the cache\n",
		(unsigned long long)st.evictions, (unsigned long long)st.writebacks,
		(double)st.host_bytes / (1 << 20));
	const char *sig = tr.interrupted == SIGTERM ? "SIGTERM" : "SIGINT";
	if (tr.interrupted) {
		fprintf(stderr, "pagelab: interrupted by %s; the report covers what ran until then\n", sig);
		fprintf(out, "pagelab: interrupted by %s after %llu references\n", sig, (unsigned long long)tr.refs);
	}
	fprintf(out, "# /proc/vmstat\n");
	report_vmstat(cachesim_mm(cs), out);
	cachesim_free(cs);
	return tr.interrupted ? 128 + tr.interrupted : 0;
}
