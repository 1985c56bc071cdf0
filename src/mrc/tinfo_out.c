/* tinfo_out.c - trace info's analyses as text (80 columns) and JSON
 * (tinfo.h). */
#include "tinfo.h"

#include <inttypes.h>

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0; }

/* The last bucket holding a reference, or -1. */
static int last_bucket(const struct tinfo *t)
{
	int last = -1;
	for (int k = 0; k < TINFO_BUCKETS; k++)
		if (t->reuse[k])
			last = k;
	return last;
}

void tinfo_print_text(const struct tinfo *t, FILE *out)
{
	uint64_t reads = t->nrefs - t->writes;
	fprintf(out, "reads       %" PRIu64 " (%.1f%%), writes %" PRIu64 " (%.1f%%)\n", reads, pct(reads, t->nrefs),
		t->writes, pct(t->writes, t->nrefs));
	fprintf(out, "kinds       anon %.1f%%, file %.1f%%, unknown %.1f%%\n", pct(t->kinds[TRACE_KIND_ANON], t->nrefs),
		pct(t->kinds[TRACE_KIND_FILE], t->nrefs), pct(t->kinds[TRACE_KIND_ANY], t->nrefs));
	if (t->fitted)
		fprintf(out, "popularity  Zipf alpha %.4f (R^2 %.4f, least squares on ln count\n"
			"            against ln rank over %" PRIu64 " pages); top page %" PRIu64 " references\n",
			t->alpha, t->r2, t->npages, t->top);
	else
		fprintf(out, "popularity  no Zipf fit (fewer than two pages); top page %" PRIu64 " references\n",
			t->top);
	fprintf(out, "\n# reuse (LRU stack) distances: an LRU cache of d pages hits d and less\n");
	fprintf(out, "%-23s %12s %8s %11s\n", "distance", "references", "share", "cumulative");
	fprintf(out, "%-23s %12" PRIu64 " %7.2f%%\n", "first reference", t->first, pct(t->first, t->nrefs));
	uint64_t cum = 0;
	for (int k = 0, last = last_bucket(t); k <= last; k++) {
		char range[48]; /* two 20-digit numbers and a dash */
		uint64_t lo = 1ULL << k, hi = (lo << 1) - 1;
		if (lo == hi)
			snprintf(range, sizeof(range), "%" PRIu64, lo);
		else
			snprintf(range, sizeof(range), "%" PRIu64 "-%" PRIu64, lo, hi);
		cum += t->reuse[k];
		fprintf(out, "%-23s %12" PRIu64 " %7.2f%% %10.2f%%\n", range, t->reuse[k], pct(t->reuse[k], t->nrefs),
			pct(cum, t->nrefs));
	}
	fprintf(out, "\n# working set: distinct pages in each window of %" PRIu64 " references\n", t->window);
	fprintf(out, "%-8s %14s %12s\n", "window", "first ref", "distinct");
	for (uint64_t w = 0; w < t->nws; w++)
		fprintf(out, "%-8" PRIu64 " %14" PRIu64 " %12" PRIu64 "\n", w, w * t->window, t->ws[w]);
}

static void json_u64s(FILE *out, const uint64_t *v, uint64_t n)
{
	fputc('[', out);
	for (uint64_t i = 0; i < n; i++)
		fprintf(out, "%s%" PRIu64, i ? ", " : "", v[i]);
	fputc(']', out);
}

void tinfo_print_json(const struct tinfo *t, FILE *out)
{
	fprintf(out, "  \"reads\": %" PRIu64 ",\n", t->nrefs - t->writes);
	fprintf(out, "  \"kinds\": {\"anon\": %" PRIu64 ", \"file\": %" PRIu64 ", \"unknown\": %" PRIu64 "},\n",
		t->kinds[TRACE_KIND_ANON], t->kinds[TRACE_KIND_FILE], t->kinds[TRACE_KIND_ANY]);
	if (t->fitted)
		fprintf(out, "  \"zipf\": {\"alpha\": %.6f, \"r2\": %.6f, \"pages\": %" PRIu64 "},\n", t->alpha, t->r2,
			t->npages);
	else
		fprintf(out, "  \"zipf\": null,\n");
	fprintf(out, "  \"top_page_references\": %" PRIu64 ",\n", t->top);
	int last = last_bucket(t);
	fprintf(out, "  \"reuse\": {\"first\": %" PRIu64 ", \"log2_buckets\": ", t->first);
	json_u64s(out, t->reuse, (uint64_t)(last + 1));
	fprintf(out, "},\n  \"working_set\": {\"window\": %" PRIu64 ", \"distinct\": ", t->window);
	json_u64s(out, t->ws, t->nws);
	fprintf(out, "}\n");
}
