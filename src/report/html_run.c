/* html_run.c - see html_run.h. */
#include "html_run.h"
#include "chart.h"
#include "htmlpage.h"
#include "../lib/util.h"
#include "../lib/version.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_W 480
#define PLOT_H 130

enum fig { F_FREE, F_SWPD, F_SI, F_SO, F_SCAN, F_INACT, F_ACTIVE, F_US, F_SY, F_WA, NR_FIGS };

static double sample_value(const struct vmstat_sample *s, enum fig f)
{
	switch (f) {
	case F_FREE: return (double)s->free / 1024.0;
	case F_SWPD: return (double)s->swpd / 1024.0;
	case F_SI: return (double)s->si;
	case F_SO: return (double)s->so;
	case F_SCAN: return (double)s->scan;
	case F_INACT: return (double)s->inact / 1024.0;
	case F_ACTIVE: return (double)s->active / 1024.0;
	case F_US: return s->us;
	case F_SY: return s->sy;
	case F_WA: return s->wa;
	default: return 0;
	}
}

static const struct {
	const char *title;
	enum fig f[3];          /* its series, -1 after the last */
	const char *names[3];
} charts[] = {
	{ "memory (MB)", { F_FREE, F_SWPD, -1 }, { "free", "swap used (swpd)", NULL } },
	/* Swap in and out on their own axes: one is often a thousandth of the
	 * other, and on a shared axis it would vanish. */
	{ "swap out (KB/s)", { F_SO, -1, -1 }, { "so", NULL, NULL } },
	{ "swap in (KB/s)", { F_SI, -1, -1 }, { "si", NULL, NULL } },
	{ "pages scanned (pages/s)", { F_SCAN, -1, -1 }, { "pgscan", NULL, NULL } },
	{ "LRU lists (MB)", { F_INACT, F_ACTIVE, -1 }, { "inactive", "active", NULL } },
	{ "CPU (%)", { F_US, F_SY, F_WA }, { "user", "system", "iowait" } },
};
#define NR_CHARTS ((int)ARRAY_SIZE(charts))

/* Where the run was cut short, on every timeline: a cross at the time a
 * workload was OOM-killed (its last task's end), a flag at --max-time. */
static void stop_marks(struct chart *c, const struct machine *m)
{
	char t[600];
	for (int w = 0; w < m->nr_wls; w++)
		if (m->wls[w].killed) {
			snprintf(t, sizeof(t), "%s %s at %.3f s", m->wls[w].cmd,
				 m->wls[w].signal == SIGBUS ? "killed by SIGBUS" : "OOM-killed", task_seconds(m->wls[w].end));
			chart_mark(c, CHART_MARK_OOM, task_seconds(m->wls[w].end), NAN, -1, t);
		}
	if (m->timed_out) {
		snprintf(t, sizeof(t), "stopped at --max-time %.9g s", (double)m->opt.max_time_ns / 1e9);
		chart_mark(c, CHART_MARK_MAXTIME, (double)m->now / 1e9, NAN, -1, t);
	}
}

/* The samples a timeline is drawn from: one in timeline_stride(n), at
 * most TIMELINE_POINTS a line.  They are picked as they are read back, so
 * the charts hold a bounded number of points whatever --vmstat is (every
 * sample of `--vmstat 0.001` on an 11-minute run, 270 bytes each, used to
 * reach the chart before it drew one in 1100 of them). */
uint64_t timeline_stride(uint64_t nr_samples)
{
	return nr_samples > TIMELINE_POINTS ? (nr_samples + TIMELINE_POINTS - 1) / TIMELINE_POINTS : 1;
}

static void timelines(const struct machine *m, FILE *out)
{
	fputs("<h2>Timelines</h2>\n", out);
	struct sample_iter it;
	uint64_t nr, every;
	machine_timeline_rewind(m, &it, &nr, &every);
	if (!nr) {
		fputs("<p class=\"na\">No vmstat samples: the run ended before the first one (--vmstat SECONDS "
		      "samples more often).</p>\n", out);
		return;
	}
	uint64_t stride = timeline_stride(nr);
	fprintf(out, "<p class=\"src\">%s every %.9g s of simulated time, %llu samples", it.timeline ? "Sampled" : "vmstat",
		(double)every / 1e9, (unsigned long long)nr);
	if (stride > 1)
		fprintf(out, ", one in %llu drawn (%llu points a line)", (unsigned long long)stride,
			(unsigned long long)((nr + stride - 1) / stride));
	fprintf(out, "%s.</p>\n", it.timeline ? " (their own interval: --vmstat's lines keep theirs)" : "");
	struct chart *cs[NR_CHARTS];
	int ser[NR_CHARTS][3];
	for (int k = 0; k < NR_CHARTS; k++) {
		cs[k] = chart_new(CHART_LINES, PLOT_W, PLOT_H);
		chart_class(cs[k], "plot");
		chart_title(cs[k], charts[k].title);
		chart_axis(cs[k], 'x', "simulated time (s)", CHART_LINEAR);
		for (int j = 0; j < 3; j++)
			ser[k][j] = (int)charts[k].f[j] >= 0 ? chart_series(cs[k], charts[k].names[j], NULL) : -1;
	}
	struct vmstat_sample s;
	for (uint64_t i = 0; machine_sample_next(&it, &s); i++)
		for (int k = 0; k < NR_CHARTS && i % stride == 0; k++)
			for (int j = 0; j < 3 && ser[k][j] >= 0; j++)
				chart_point(cs[k], ser[k][j], (double)s.t / 1e9, sample_value(&s, charts[k].f[j]), NAN, NAN,
					    NULL);
	for (int k = 0; k < NR_CHARTS; k++)
		stop_marks(cs[k], m);
	chart_range(cs[NR_CHARTS - 1], 'y', 0, 100);
	/* One time axis for every figure, so that an event reads down the page. */
	chart_share(cs, NR_CHARTS, 'x');
	for (int k = 0; k < NR_CHARTS; k++) {
		chart_svg(cs[k], out);
		chart_free(cs[k]);
	}
}

static void workloads(const struct machine *m, FILE *out)
{
	fputs("<h2>Workloads</h2>\n<table class=\"t\"><tr><th>workload</th><th>user s</th><th>system s</th>"
	      "<th>elapsed s</th><th>CPU</th><th>major faults</th><th>minor faults</th><th>swaps</th>"
	      "<th>outcome</th></tr>\n", out);
	for (int w = 0; w < m->nr_wls; w++) {
		struct time_figures tf;
		workload_times(m, w, &tf);
		fputs("<tr><td><code>", out);
		html_escape(out, m->wls[w].cmd);
		fprintf(out, "</code></td><td class=\"n\">%.2f</td><td class=\"n\">%.2f</td><td class=\"n\">%.3f</td>"
			"<td class=\"n\">%u%%</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td>",
			tf.user, tf.sys, tf.elapsed, tf.cpu_pct, (unsigned long long)tf.majflt,
			(unsigned long long)tf.minflt, (unsigned long long)tf.swaps);
		if (tf.killed)
			fprintf(out, "<span class=\"stop oom\">&#10005; %s</span>",
				m->wls[w].signal == SIGBUS ? "killed by SIGBUS" : "OOM-killed");
		else if (m->wls[w].live > 0)
			fprintf(out, "<span class=\"stop unfinished\">&#9873; did not finish%s</span>",
				m->timed_out ? " (--max-time)" : m->interrupted ? " (interrupted)" : "");
		else
			fputs("finished", out);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n<pre>", out);
	for (int w = 0; w < m->nr_wls; w++) {
		struct time_figures tf;
		char buf[1024];
		workload_times(m, w, &tf);
		format_zsh_time(buf, sizeof(buf), m->wls[w].cmd, &tf);
		html_escape(out, buf);
		fputc('\n', out);
		format_gnu_time(buf, sizeof(buf), &tf);
		html_escape(out, buf);
		fputc('\n', out);
	}
	fputs("</pre>\n", out);
}

static void machine_params(const struct machine *m, const struct run_info *ri, FILE *out)
{
	const struct profile *p = &m->prof;
	fprintf(out, "<p>Machine <b>");
	html_escape(out, ri->machine);
	fprintf(out, "</b>: %llu CPU%s, %llu MiB RAM (%llu pages for the page allocator), %llu MiB swap, disk ",
		(unsigned long long)p->cpus, p->cpus == 1 ? "" : "s", (unsigned long long)(p->ram >> 20),
		(unsigned long long)m->ram_pages, (unsigned long long)(p->swap >> 20));
	html_escape(out, p->disk.model);
	fputs("; policy <b>", out);
	html_escape(out, ri->policy);
	fprintf(out, "</b>; seed %llu; %.9g s of simulated time.</p>\n", (unsigned long long)ri->seed,
		(double)m->now / 1e9);
	html_profile_params(out, "every machine parameter", p);
}

static void messages(const struct machine *m, FILE *out)
{
	bool any = false;
	for (uint64_t i = 0; i < m->nr_log; i++) {
		if (m->log[i].kind != LOG_KERNEL)
			continue;
		if (!any)
			fputs("<h2>Kernel messages</h2>\n<pre class=\"kmsg\">", out);
		any = true;
		char t[40];
		snprintf(t, sizeof(t), "[%5llu.%06llu] ", (unsigned long long)(m->log[i].t / 1000000000ULL),
			 (unsigned long long)(m->log[i].t % 1000000000ULL / 1000));
		fputs(t, out);
		html_escape(out, m->log[i].text);
		fputc('\n', out);
	}
	if (any)
		fputs("</pre>\n", out);
}

/* The counters that moved, by their /proc/vmstat names, four to a row. */
static void counters(const struct machine *m, FILE *out)
{
	fputs("<h2>/proc/vmstat</h2>\n<table class=\"t counters\">\n", out);
	int n = 0, zero = 0;
	for (int i = 0; i < NR_VM_EVENTS; i++) {
		if (!m->mm.ev[i]) {
			zero++;
			continue;
		}
		fputs(n % 4 ? "" : "<tr>", out);
		fprintf(out, "<td>%s</td><td class=\"n\">%llu</td>%s", vm_event_names[i],
			(unsigned long long)m->mm.ev[i], n % 4 == 3 ? "</tr>\n" : "");
		n++;
	}
	fprintf(out, "%s</table>\n<p class=\"src\">%d counters are 0 and not shown (the text and --json reports "
		"have every one).</p>\n", n % 4 ? "</tr>\n" : "", zero);
}

void report_html(const struct machine *m, const struct run_info *ri, FILE *out)
{
	char date[64];
	html_date(date, sizeof(date));
	char *cmd = ri->argc > 1 ? html_cmdline(ri->argc - 1, ri->argv + 1) : html_cmdline(0, NULL);
	struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmd, .date = date };
	html_page_begin(out, "pagelab run", ".stop.oom{color:#d00}\n");
	html_provenance(out, &pv);
	free(cmd);
	machine_params(m, ri, out);
	if (m->timed_out)
		fprintf(out, "<p class=\"stop\">&#9873; Stopped at --max-time %.9g s of simulated time: the report covers "
			"what ran until then.</p>\n", (double)m->opt.max_time_ns / 1e9);
	if (m->interrupted)
		fprintf(out, "<p class=\"stop\">Interrupted by %s at %.9g s of simulated time.</p>\n",
			m->interrupted == SIGTERM ? "SIGTERM" : "SIGINT", (double)m->now / 1e9);
	workloads(m, out);
	timelines(m, out);
	messages(m, out);
	counters(m, out);
	report_work_html(&m->mm.work, out);
	html_page_end(out);
}
