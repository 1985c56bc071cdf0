/* pressure.c - `--set psi=1`: the machine's /proc/pressure/memory at the
 * run's end (src/machine/pressure.c, src/mm/psi.c): in the text report a
 * "# /proc/pressure/memory" section of the kernel's two lines, in --json
 * a "pressure" object with the same figures (the averages as the kernel
 * prints them, two decimals of a percent; totals in microseconds). */
#include "report.h"

void report_pressure_text(const struct run_result *rr, FILE *out)
{
	char buf[160];

	fprintf(out, "# /proc/pressure/memory\n");
	for (int full = 0; full < 2; full++) {
		psi_format_line(buf, (int)sizeof(buf), full ? "full" : "some", &rr->pressure[full]);
		fprintf(out, "%s\n", buf);
	}
}

static void json_avg(FILE *out, const char *name, unsigned long avg)
{
	fprintf(out, "\"%s\": %lu.%02lu", name, avg >> PSI_FSHIFT,
		((avg & (PSI_FIXED_1 - 1)) * 100) >> PSI_FSHIFT);
}

void report_pressure_json(const struct run_result *rr, FILE *out)
{
	fputs(",\n  \"pressure\": {\"memory\": {", out);
	for (int full = 0; full < 2; full++) {
		const struct psi_line *l = &rr->pressure[full];

		fprintf(out, "%s\"%s\": {", full ? ", " : "", full ? "full" : "some");
		json_avg(out, "avg10", l->avg[0]);
		fputs(", ", out);
		json_avg(out, "avg60", l->avg[1]);
		fputs(", ", out);
		json_avg(out, "avg300", l->avg[2]);
		fprintf(out, ", \"total\": %llu}", (unsigned long long)l->total_us);
	}
	fputs("}}", out);
}
