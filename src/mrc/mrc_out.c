/* mrc_out.c - table, CSV and JSON of miss-ratio curves (mrc_out.h). */
#include "mrc_out.h"
#include "../engine/matrix.h"
#include "../lib/json.h"
#include "../lib/util.h"
#include "../lib/version.h"

#include <string.h>

#define CURVES_PER_BLOCK 3

const char *mrc_method_name(enum mrc_method m)
{
	switch (m) {
	case MRC_EXACT: return "exact";
	case MRC_SHARDS_RATE: return "shards-rate";
	case MRC_SHARDS_SIZE: return "shards-size";
	case MRC_SIMULATED: return "simulated";
	}
	return "?";
}

static bool estimated(const struct mrc_curve *c)
{
	return c->method == MRC_SHARDS_RATE || c->method == MRC_SHARDS_SIZE;
}

/* --window: a curve's miss ratio in each window, sizes across (7 to a
 * block, 80 columns). */
#define SIZES_PER_BLOCK 7
static void print_windows(FILE *out, const struct mrc_result *r, const struct mrc_curve *c)
{
	fprintf(out, "\n# %s: miss ratio in each window of %llu references\n", c->name,
		(unsigned long long)r->window);
	for (int b = 0; b < r->nr_sizes; b += SIZES_PER_BLOCK) {
		int e = MIN(r->nr_sizes, b + SIZES_PER_BLOCK);
		fprintf(out, "%-8s", "window");
		for (int k = b; k < e; k++) {
			char sz[32];
			snprintf(sz, sizeof(sz), "%llup", (unsigned long long)r->sizes[k]);
			fprintf(out, " %9s", sz);
		}
		fputc('\n', out);
		for (int w = 0; w < r->nwin; w++) {
			fprintf(out, "%-8d", w);
			for (int k = b; k < e; k++)
				fprintf(out, " %9.4f", c->win_misses[(size_t)w * (size_t)r->nr_sizes + (size_t)k] /
						       (double)r->win_refs[w]);
			fputc('\n', out);
		}
	}
}

void mrc_print_table(FILE *out, const struct mrc_result *r, const char *path)
{
	if (r->npages)
		fprintf(out, "%s (%s): %llu references, %llu distinct pages\n", path, r->format,
			(unsigned long long)r->nrefs, (unsigned long long)r->npages);
	else
		fprintf(out, "%s (%s): %llu references, about %llu distinct pages (SHARDS)\n", path, r->format,
			(unsigned long long)r->nrefs, (unsigned long long)r->npages_estimated);
	if (r->warmup)
		fprintf(out, "warm-up: the first %llu references are not counted (%llu are)\n",
			(unsigned long long)r->warmup, (unsigned long long)(r->nrefs - r->warmup));
	for (int b = 0; b < r->nr_curves; b += CURVES_PER_BLOCK) {
		int e = MIN(r->nr_curves, b + CURVES_PER_BLOCK);
		fprintf(out, "\n%-7s %9s", "", "");
		for (int i = b; i < e; i++)
			fprintf(out, " %17.17s", r->curves[i].name);
		fprintf(out, "\n%-7s %9s", "size", "pages");
		for (int i = b; i < e; i++)
			fprintf(out, " %10s %6s", "misses", "ratio");
		fputc('\n', out);
		for (int k = 0; k < r->nr_sizes; k++) {
			char sz[32];
			size_name(sz, sizeof(sz), r->sizes[k] * PAGE_SIZE);
			fprintf(out, "%-7s %9llu", sz, (unsigned long long)r->sizes[k]);
			for (int i = b; i < e; i++)
				fprintf(out, " %10.0f %6.4f", r->curves[i].misses[k], r->curves[i].ratio[k]);
			fputc('\n', out);
		}
	}
	for (int i = 0; i < r->nr_curves; i++) {
		const struct mrc_curve *c = &r->curves[i];
		if (!estimated(c))
			continue;
		fprintf(out, "\n%s: rate %.4g, %llu of %llu references sampled, %.1f KiB\n", c->name, c->rate,
			(unsigned long long)c->sampled, (unsigned long long)(r->nrefs - r->warmup), (double)c->host_bytes / 1024);
		if (c->mae >= 0)
			fprintf(out, "  mean absolute error against the exact curve: %.4f (%d sizes)\n", c->mae,
				r->nr_sizes);
	}
	for (int i = 0; i < r->nr_curves; i++)
		if (r->curves[i].win_misses)
			print_windows(out, r, &r->curves[i]);
	if (r->interrupted)
		fprintf(out, "\ninterrupted: the curves cover the references read until then\n");
}

void mrc_print_csv(FILE *out, const struct mrc_result *r)
{
	fputs("curve,method,pages,bytes,misses,miss_ratio\n", out);
	for (int i = 0; i < r->nr_curves; i++) {
		const struct mrc_curve *c = &r->curves[i];
		for (int k = 0; k < r->nr_sizes; k++)
			fprintf(out, "%s,%s,%llu,%llu,%.*f,%.6f\n", c->name, mrc_method_name(c->method),
				(unsigned long long)r->sizes[k], (unsigned long long)(r->sizes[k] * PAGE_SIZE),
				estimated(c) ? 1 : 0, c->misses[k], c->ratio[k]);
	}
}

static void json_doubles(FILE *out, const double *v, int n, const char *fmt)
{
	fputc('[', out);
	for (int k = 0; k < n; k++) {
		fputs(k ? ", " : "", out);
		fprintf(out, fmt, v[k]);
	}
	fputc(']', out);
}

void mrc_print_json(FILE *out, const struct mrc_result *r, const char *path, int argc, char *const *argv)
{
	fputs("{\n  \"pagelab_version\": ", out);
	json_str(out, pagelab_version());
	fputs(",\n  \"command\": [", out);
	for (int i = 0; i < argc; i++) {
		fputs(i ? ", " : "", out);
		json_str(out, argv[i]);
	}
	fputs("],\n  \"trace\": ", out);
	json_str(out, path);
	fputs(",\n  \"format\": ", out);
	json_str(out, r->format);
	fprintf(out, ",\n  \"references\": %llu,\n  \"warmup\": %llu,\n  \"distinct_pages\": ", (unsigned long long)r->nrefs,
		(unsigned long long)r->warmup);
	if (r->npages)
		fprintf(out, "%llu", (unsigned long long)r->npages);
	else
		fprintf(out, "null,\n  \"distinct_pages_estimated\": %llu", (unsigned long long)r->npages_estimated);
	if (r->window) {
		fprintf(out, ",\n  \"window\": %llu,\n  \"window_refs\": [", (unsigned long long)r->window);
		for (int w = 0; w < r->nwin; w++)
			fprintf(out, "%s%llu", w ? ", " : "", (unsigned long long)r->win_refs[w]);
		fputc(']', out);
	}
	fprintf(out, ",\n  \"interrupted\": %s,\n  \"pages\": [", r->interrupted ? "true" : "false");
	for (int k = 0; k < r->nr_sizes; k++)
		fprintf(out, "%s%llu", k ? ", " : "", (unsigned long long)r->sizes[k]);
	fputs("],\n  \"curves\": [", out);
	for (int i = 0; i < r->nr_curves; i++) {
		const struct mrc_curve *c = &r->curves[i];
		fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
		json_str(out, c->name);
		fprintf(out, ", \"method\": \"%s\"", mrc_method_name(c->method));
		if (estimated(c)) {
			fprintf(out, ", \"rate\": %.9g, \"sampled\": %llu, \"host_bytes\": %zu", c->rate,
				(unsigned long long)c->sampled, c->host_bytes);
			if (c->mae >= 0)
				fprintf(out, ", \"mae\": %.9g", c->mae);
		}
		fputs(",\n     \"misses\": ", out);
		json_doubles(out, c->misses, r->nr_sizes, estimated(c) ? "%.1f" : "%.0f");
		fputs(",\n     \"miss_ratio\": ", out);
		json_doubles(out, c->ratio, r->nr_sizes, "%.9g");
		if (c->win_misses) {
			fputs(",\n     \"window_misses\": [", out);
			for (int w = 0; w < r->nwin; w++) {
				fputs(w ? ", " : "", out);
				json_doubles(out, c->win_misses + (size_t)w * (size_t)r->nr_sizes, r->nr_sizes, "%.0f");
			}
			fputc(']', out);
		}
		fputc('}', out);
	}
	fputs("\n  ]\n}\n", out);
}
