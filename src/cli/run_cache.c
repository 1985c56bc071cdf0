/* run_cache.c - `pagelab run --machine ideal ... trace FILE` on the
 * cache-only replay (src/cachesim): the run's figures without the machine.
 * run.c decides when it applies (docs/trace-format.md, "The cache-only
 * replay"); the report keeps the full path's shape where it has the
 * same figures (the header, the trace lines, /proc/vmstat) and has no
 * time lines, since there is no time. */
#include "cli.h"
#include "run_cache.h"
#include "../cachesim/cachesim.h"
#include "../cachesim/marks.h"
#include "../report/report.h"
#include "../lib/json.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <signal.h>

#include <stdlib.h>

/* --warmup and --window: their marks, the warm-up resolved against the
 * trace (a fraction counts its references first). */
static void marks_setup(const struct run_cache_args *a, const char *path, const struct trace_opts *o,
			struct marks *mk)
{
	char err[512];
	struct warmup_arg w = { 0 };
	if (a->warmup && !warmup_parse(a->warmup, &w))
		die_usage("bad --warmup '%s' (references, 0 or more, or a fraction 0 < F < 1)", a->warmup);
	*mk = (struct marks){ .window = a->window };
	if (!warmup_resolve(&w, path, o, &mk->warmup, err, sizeof(err)))
		die_usage("%s", err);
}

/* The counted references' line, after the warm-up, and the windows. */
static void print_marks(FILE *out, const struct marks *mk, const struct cachesim_stats *st)
{
	uint64_t refs = st->refs - mk->warmup, misses = st->misses - mk->warm_misses;
	fprintf(out, "cache: warm-up: %llu references (%llu misses) not counted\n",
		(unsigned long long)mk->warmup, (unsigned long long)mk->warm_misses);
	fprintf(out, "cache: %llu misses in %llu references after the warm-up (miss ratio %.6f)\n",
		(unsigned long long)misses, (unsigned long long)refs, refs ? (double)misses / (double)refs : 0);
	if (!mk->window)
		return;
	fprintf(out, "# windows of %llu references\n%-8s %14s %10s %10s %9s\n", (unsigned long long)mk->window,
		"window", "first ref", "refs", "misses", "ratio");
	uint64_t first = mk->warmup;
	for (size_t k = 0; k < mk->nwin; k++) {
		fprintf(out, "%-8zu %14llu %10llu %10llu %9.6f\n", k, (unsigned long long)first,
			(unsigned long long)mk->win_refs[k], (unsigned long long)mk->win_misses[k],
			(double)mk->win_misses[k] / (double)mk->win_refs[k]);
		first += mk->win_refs[k];
	}
}

/* The text report: the full path's header and trace lines, the cache's
 * figures, the marks (mk, or NULL), /proc/vmstat. */
static void print_text(FILE *out, const struct run_cache_args *a, const struct cachesim *cs,
		       const struct cachesim_trace *tr, const struct cachesim_stats *st, const struct marks *mk)
{
	fprintf(out, "pagelab: machine %s: %llu MiB RAM (%llu pages for the page allocator), cache-only replay; policy %s; seed %llu\n",
		a->machine, (unsigned long long)(a->frames * PAGE_SIZE >> 20), (unsigned long long)a->frames,
		a->policy->name, (unsigned long long)a->seed);
	fprintf(out, "trace: %llu references to %llu distinct pages\n", (unsigned long long)tr->refs,
		(unsigned long long)tr->pages);
	fprintf(out, "trace: replay held %.1f MiB of host memory (%.2f bytes per reference)\n",
		(double)tr->host_bytes / (1 << 20), (double)tr->host_bytes / (double)tr->refs);
	fprintf(out, "cache: %llu misses in %llu references (miss ratio %.6f); %llu refaulted evicted pages\n",
		(unsigned long long)st->misses, (unsigned long long)st->refs, (double)st->misses / (double)st->refs,
		(unsigned long long)st->major);
	fprintf(out, "cache: %llu evictions, %llu written back; %.1f MiB of host memory for the cache\n",
		(unsigned long long)st->evictions, (unsigned long long)st->writebacks,
		(double)st->host_bytes / (1 << 20));
	if (mk)
		print_marks(out, mk, st);
	if (tr->interrupted)
		fprintf(out, "pagelab: interrupted by %s after %llu references\n",
			tr->interrupted == SIGTERM ? "SIGTERM" : "SIGINT", (unsigned long long)tr->refs);
	fprintf(out, "# /proc/vmstat\n");
	report_vmstat(cachesim_mm(cs), out);
}

/* --json (taken here only with --warmup or --window, run_spec.c): the
 * text report's figures as one object, its /proc/vmstat as "counters"
 * (the full machine's key), the marks in mrc's keys. */
static void print_json(FILE *out, const struct run_cache_args *a, const struct cachesim *cs,
		       const struct cachesim_trace *tr, const struct cachesim_stats *st, const struct marks *mk)
{
	fprintf(out, "{\n  \"machine\": {\"name\": ");
	json_str(out, a->machine);
	fprintf(out, ", \"ram_pages\": %llu},\n  \"replay\": \"cache-only\",\n  \"policy\": ",
		(unsigned long long)a->frames);
	json_str(out, a->policy->name);
	fprintf(out, ",\n  \"seed\": %llu,\n  \"stopped\": %s,\n  \"references\": %llu,\n  \"distinct_pages\": %llu",
		(unsigned long long)a->seed,
		!tr->interrupted ? "null" : tr->interrupted == SIGTERM ? "\"SIGTERM\"" : "\"SIGINT\"",
		(unsigned long long)tr->refs, (unsigned long long)tr->pages);
	fprintf(out, ",\n  \"misses\": %llu,\n  \"major\": %llu,\n  \"evictions\": %llu,\n  \"writebacks\": %llu",
		(unsigned long long)st->misses, (unsigned long long)st->major, (unsigned long long)st->evictions,
		(unsigned long long)st->writebacks);
	fprintf(out, ",\n  \"replay_host_bytes\": %llu,\n  \"cache_host_bytes\": %llu",
		(unsigned long long)tr->host_bytes, (unsigned long long)st->host_bytes);
	fputs(",\n  \"counters\": ", out);
	report_vmstat_json(cachesim_mm(cs), out);
	if (mk)
		marks_json(out, mk, st->refs, st->misses, ",\n  ");
	fputs("\n}\n", out);
}

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
	struct marks mk;
	marks_setup(a, path, &o, &mk);
	bool marked = a->warmup || a->window;
	if (!cachesim_replay_marked(cs, path, &o, a->progress, marked ? &mk : NULL, &tr, err, sizeof(err))) {
		cachesim_free(cs);
		die_usage("%s", err);
	}
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	if (marked && !tr.interrupted && st.refs <= mk.warmup)
		die_usage("--warmup %llu: the trace holds only %llu references", (unsigned long long)mk.warmup,
			  (unsigned long long)st.refs);
	if (tr.interrupted)
		fprintf(stderr, "pagelab: interrupted by %s; the report covers what ran until then\n",
			tr.interrupted == SIGTERM ? "SIGTERM" : "SIGINT");
	const struct marks *shown = marked && st.refs > mk.warmup ? &mk : NULL;
	if (a->json)
		print_json(stdout, a, cs, &tr, &st, shown);
	else
		print_text(stdout, a, cs, &tr, &st, shown);
	marks_free(&mk);
	cachesim_free(cs);
	return tr.interrupted ? 128 + tr.interrupted : 0;
}
