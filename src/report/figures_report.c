/* figures_report.c - a workload's figures of merit (workload.h, struct
 * wl_figures) in JSON: one writer for pagelab run --json and the
 * records (src/engine/record.c), so the two print the same digits. */
#include "report.h"
#include "../lib/json.h"

#include <math.h>

/* %.9g: every digit a figure has to tell runs apart, read back to the
 * same double (as the records' other figures). */
static void put_figure(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.9g", v);
	else
		fputs("null", out);
}

void report_figures_json(const struct wl_figures *fs, FILE *out)
{
	if (!fs->n)
		return;
	fputs(", \"figures\": {", out);
	for (int i = 0; i < fs->n; i++) {
		fputs(i ? ", " : "", out);
		json_str(out, fs->f[i].name);
		fputs(": ", out);
		put_figure(out, fs->f[i].value);
	}
	fputs("}, \"better\": {", out);
	for (int i = 0; i < fs->n; i++) {
		fputs(i ? ", " : "", out);
		json_str(out, fs->f[i].name);
		fputs(fs->f[i].higher_better ? ": \"higher\"" : ": \"lower\"", out);
	}
	fputc('}', out);
}
