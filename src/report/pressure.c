/* pressure.c - `--set psi=1`: the machine's /proc/pressure/memory at the
 * run's end (src/machine/pressure.c, src/mm/psi.c): in the text report a
 * "# /proc/pressure/memory" section of the kernel's two lines, in --json
 * a "pressure" object with the same figures (the averages as the kernel
 * prints them, two decimals of a percent; totals in microseconds).  With
 * --cgroup, each cgroup's memory.pressure the same way. */
#include "report.h"

#include <string.h>

/* The two lines, each after prefix (a cgroup's column, or ""). */
static void pressure_lines(const struct psi_line l[2], const char *prefix, FILE *out)
{
	char buf[160];

	for (int full = 0; full < 2; full++) {
		psi_format_line(buf, (int)sizeof(buf), full ? "full" : "some", &l[full]);
		fprintf(out, "%-*s%s\n", *prefix ? 14 : 0, full ? "" : prefix, buf);
	}
}

void report_pressure_text(const struct run_result *rr, FILE *out)
{
	fprintf(out, "# /proc/pressure/memory\n");
	pressure_lines(rr->pressure, "", out);
}

void report_cgroups_pressure_text(const struct run_result *rr, FILE *out)
{
	if (!rr->nr_cg || !rr->cg[0].has_pressure)
		return;
	fprintf(out, "# cgroups: memory.pressure (the root's: the machine's)\n");
	for (int c = 0; c < rr->nr_cg; c++) {
		const char *path = rr->cg[c].path;
		if (strlen(path) > 13)
			fprintf(out, "%s\n", path);
		pressure_lines(rr->cg[c].pressure, strlen(path) > 13 ? " " : path, out);
	}
}

static void json_avg(FILE *out, const char *name, unsigned long avg)
{
	fprintf(out, "\"%s\": %lu.%02lu", name, avg >> PSI_FSHIFT,
		((avg & (PSI_FIXED_1 - 1)) * 100) >> PSI_FSHIFT);
}

/* {"some": {...}, "full": {...}} */
void report_pressure_obj(const struct psi_line pl[2], FILE *out)
{
	fputc('{', out);
	for (int full = 0; full < 2; full++) {
		const struct psi_line *l = &pl[full];

		fprintf(out, "%s\"%s\": {", full ? ", " : "", full ? "full" : "some");
		json_avg(out, "avg10", l->avg[0]);
		fputs(", ", out);
		json_avg(out, "avg60", l->avg[1]);
		fputs(", ", out);
		json_avg(out, "avg300", l->avg[2]);
		fprintf(out, ", \"total\": %llu}", (unsigned long long)l->total_us);
	}
	fputc('}', out);
}

void report_pressure_json(const struct run_result *rr, FILE *out)
{
	fputs(",\n  \"pressure\": {\"memory\": ", out);
	report_pressure_obj(rr->pressure, out);
	fputc('}', out);
}
