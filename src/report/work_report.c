/* work_report.c - reclaim's work, counted (src/mm/work.h), in the text,
 * JSON and HTML reports and the engine's results lines.  Each takes the
 * counters alone, so a report drawn from a run_result prints the same. */
#include "report.h"

/* The text report's table: a row per operation the design counts, a
 * column per reclaimer (fits 80 columns up to 10-digit counts). */
void report_work_text(const struct reclaim_work *w, FILE *out)
{
	fprintf(out, "# reclaim work (operations counted, by who ran them; docs/cost.md)\n%-24s", "");
	for (int who = 0; who < NR_WORK_WHO; who++)
		fprintf(out, " %10s", work_who_names[who]);
	fputc('\n', out);
	for (int i = 0; i < NR_RECLAIM_WORK; i++) {
		if (!reclaim_work_present(w, (enum work_op)i))
			continue;
		fprintf(out, "%-24s", reclaim_work_names[i]);
		for (int who = 0; who < NR_WORK_WHO; who++)
			fprintf(out, " %10llu", (unsigned long long)w->n[who][i]);
		fputc('\n', out);
	}
}

static void json_column(const struct reclaim_work *w, int who, FILE *out)
{
	int first = 1;
	fputc('{', out);
	for (int i = 0; i < NR_RECLAIM_WORK; i++) {
		if (!reclaim_work_present(w, (enum work_op)i))
			continue;
		uint64_t v = who < 0 ? reclaim_work_total(w, (enum work_op)i) : w->n[who][i];
		fprintf(out, "%s\"%s\": %llu", first ? "" : ", ", reclaim_work_names[i], (unsigned long long)v);
		first = 0;
	}
	fputc('}', out);
}

/* {"kswapd": {...}, "direct": ..., "memcg", "aging", "other", "total"}:
 * only the rows the design counts. */
void report_work_json(const struct reclaim_work *w, FILE *out)
{
	fputc('{', out);
	for (int who = 0; who <= NR_WORK_WHO; who++) {
		fprintf(out, "%s\"%s\": ", who ? ", " : "", who < NR_WORK_WHO ? work_who_names[who] : "total");
		json_column(w, who < NR_WORK_WHO ? who : -1, out);
	}
	fputc('}', out);
}

/* The HTML page's table: the rows that moved. */
void report_work_html(const struct reclaim_work *w, FILE *out)
{
	fputs("<h2>Reclaim work</h2>\n<table class=\"t counters\">\n<tr><th>operation</th>", out);
	for (int who = 0; who < NR_WORK_WHO; who++)
		fprintf(out, "<th>%s</th>", work_who_names[who]);
	fputs("</tr>\n", out);
	for (int i = 0; i < NR_RECLAIM_WORK; i++) {
		if (!reclaim_work_present(w, (enum work_op)i) || !reclaim_work_total(w, (enum work_op)i))
			continue;
		fprintf(out, "<tr><td>%s</td>", reclaim_work_names[i]);
		for (int who = 0; who < NR_WORK_WHO; who++)
			fprintf(out, "<td class=\"n\">%llu</td>", (unsigned long long)w->n[who][i]);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n<p class=\"src\">Operations reclaim's CPU time is spent on, counted as the model does "
	      "them, by who ran them; rows that are 0 are not shown (docs/cost.md).</p>\n", out);
}
