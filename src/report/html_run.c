/* html_run.c - see html_run.h. */
#include "html_run.h"
#include "chart.h"
#include "timeline.h"
#include "htmlpage.h"
#include "../lib/util.h"
#include "../lib/version.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_W 480
#define PLOT_H 130

static const struct {
	const char *title;
	int f[3];               /* its series (enum tl_fig), -1 after the last */
	const char *names[3];
} charts[] = {
	{ "memory (MB)", { TL_FREE, TL_SWPD, -1 }, { "free", "swap used (swpd)", NULL } },
	/* Swap in and out on their own axes: one is often a thousandth of the
	 * other, and on a shared axis it would vanish. */
	{ "swap out (KB/s)", { TL_SO, -1, -1 }, { "so", NULL, NULL } },
	{ "swap in (KB/s)", { TL_SI, -1, -1 }, { "si", NULL, NULL } },
	{ "pages scanned (pages/s)", { TL_SCAN, -1, -1 }, { "pgscan", NULL, NULL } },
	{ "LRU lists (MB)", { TL_INACT, TL_ACTIVE, -1 }, { "inactive", "active", NULL } },
	{ "CPU (%)", { TL_US, TL_SY, TL_WA }, { "user", "system", "iowait" } },
};
#define NR_CHARTS ((int)ARRAY_SIZE(charts))

/* The samples a timeline is drawn from: one in timeline_stride(n), at
 * most TIMELINE_POINTS a line.  They are picked as they are read back, so
 * the charts hold a bounded number of points whatever --vmstat is (every
 * sample of `--vmstat 0.001` on an 11-minute run, 270 bytes each, used to
 * reach the chart before it drew one in 1100 of them). */
uint64_t timeline_stride(uint64_t nr_samples)
{
	return nr_samples > TIMELINE_POINTS ? (nr_samples + TIMELINE_POINTS - 1) / TIMELINE_POINTS : 1;
}

static void timelines(const struct run_result *rr, FILE *out)
{
	fputs("<h2>Timelines</h2>\n", out);
	struct run_sample_iter it;
	uint64_t nr, every;
	run_timeline_rewind(rr, &it, &nr, &every);
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
	struct chart *cs[NR_CHARTS + 1];
	struct tl_line lines[NR_CHARTS * 3 + CG_MAX + 1];
	int n = 0, nc = NR_CHARTS + (rr->nr_cg > 0);
	for (int k = 0; k < nc; k++) {
		cs[k] = chart_new(CHART_LINES, PLOT_W, PLOT_H);
		chart_class(cs[k], "plot");
		chart_title(cs[k], k < NR_CHARTS ? charts[k].title : "memory.current per cgroup (MB)");
		chart_axis(cs[k], 'x', "simulated time (s)", CHART_LINEAR);
		for (int j = 0; k < NR_CHARTS && j < 3 && charts[k].f[j] >= 0; j++)
			lines[n++] = (struct tl_line){ cs[k], chart_series(cs[k], charts[k].names[j], NULL),
						       (enum tl_fig)charts[k].f[j] };
	}
	/* --cgroup: each cgroup's memory.current, the root's the machine's
	 * charged pages. */
	for (int c = 0; c < rr->nr_cg && c <= CG_MAX; c++)
		lines[n++] = (struct tl_line){ cs[NR_CHARTS], chart_series(cs[NR_CHARTS], rr->cg[c].path, NULL),
					       (enum tl_fig)(TL_CG0 + c) };
	timeline_draw(rr, lines, n, stride);
	for (int k = 0; k < nc; k++)
		timeline_stop_marks(cs[k], rr, NULL);
	chart_range(cs[NR_CHARTS - 1], 'y', 0, 100);
	/* One time axis for every figure, so that an event reads down the page. */
	chart_share(cs, nc, 'x');
	for (int k = 0; k < nc; k++) {
		chart_svg(cs[k], out);
		chart_free(cs[k]);
	}
}

static void workloads(const struct run_result *rr, FILE *out)
{
	fputs("<h2>Workloads</h2>\n<table class=\"t\"><tr><th>workload</th><th>user s</th><th>system s</th>"
	      "<th>elapsed s</th><th>CPU</th><th>major faults</th><th>minor faults</th><th>swaps</th>"
	      "<th>outcome</th></tr>\n", out);
	for (int w = 0; w < rr->nr_wl; w++) {
		const struct wl_result *x = run_wl_c(rr, w);
		struct time_figures tf = x->times;
		fputs("<tr><td><code>", out);
		html_escape(out, x->cmd);
		fprintf(out, "</code></td><td class=\"n\">%.2f</td><td class=\"n\">%.2f</td><td class=\"n\">%.3f</td>"
			"<td class=\"n\">%u%%</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td>",
			tf.user, tf.sys, tf.elapsed, tf.cpu_pct, (unsigned long long)tf.majflt,
			(unsigned long long)tf.minflt, (unsigned long long)tf.swaps);
		if (tf.killed)
			fprintf(out, "<span class=\"stop oom\">&#10005; %s</span>",
				x->signal == SIGBUS ? "killed by SIGBUS" : "OOM-killed");
		else if (!x->exited)
			fprintf(out, "<span class=\"stop unfinished\">&#9873; did not finish%s</span>",
				rr->timed_out ? " (--max-time)" : rr->interrupted ? " (interrupted)" : "");
		else
			fputs("finished", out);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n<pre>", out);
	for (int w = 0; w < rr->nr_wl; w++) {
		const struct wl_result *x = run_wl_c(rr, w);
		char buf[1024];
		format_zsh_time(buf, sizeof(buf), x->cmd, &x->times);
		html_escape(out, buf);
		fputc('\n', out);
		format_gnu_time(buf, sizeof(buf), &x->times);
		html_escape(out, buf);
		fputc('\n', out);
	}
	fputs("</pre>\n", out);
}

static void machine_params(const struct run_result *rr, const struct run_info *ri, FILE *out)
{
	const struct profile *p = &rr->prof;
	fprintf(out, "<p>Machine <b>");
	html_escape(out, ri->machine);
	fprintf(out, "</b>: %llu CPU%s, %llu MiB RAM (%llu pages for the page allocator), %llu MiB swap, disk ",
		(unsigned long long)p->cpus, p->cpus == 1 ? "" : "s", (unsigned long long)(p->ram >> 20),
		(unsigned long long)rr->ram_pages, (unsigned long long)(p->swap >> 20));
	html_escape(out, p->disk.model);
	fputs("; policy <b>", out);
	html_escape(out, ri->policy);
	fprintf(out, "</b>; seed %llu; %.9g s of simulated time.</p>\n", (unsigned long long)ri->seed,
		(double)rr->sim_ns / 1e9);
	html_profile_params(out, "every machine parameter", p);
}

static void messages(const struct run_result *rr, FILE *out)
{
	bool any = false;
	for (uint64_t i = 0; i < rr->nr_log; i++) {
		if (rr->log[i].kind != RUN_EV_KERNEL)
			continue;
		if (!any)
			fputs("<h2>Kernel messages</h2>\n<pre class=\"kmsg\">", out);
		any = true;
		char t[40];
		snprintf(t, sizeof(t), "[%5llu.%06llu] ", (unsigned long long)(rr->log[i].t / 1000000000ULL),
			 (unsigned long long)(rr->log[i].t % 1000000000ULL / 1000));
		fputs(t, out);
		html_escape(out, rr->log[i].text);
		fputc('\n', out);
	}
	if (any)
		fputs("</pre>\n", out);
}

/* The counters that moved, by their /proc/vmstat names, four to a row. */
static void counters(const struct run_result *rr, FILE *out)
{
	fputs("<h2>/proc/vmstat</h2>\n<table class=\"t counters\">\n", out);
	int n = 0, zero = 0;
	for (int i = 0; i < NR_VM_EVENTS; i++) {
		if (!rr->ev[i]) {
			zero++;
			continue;
		}
		fputs(n % 4 ? "" : "<tr>", out);
		fprintf(out, "<td>%s</td><td class=\"n\">%llu</td>%s", vm_event_names[i],
			(unsigned long long)rr->ev[i], n % 4 == 3 ? "</tr>\n" : "");
		n++;
	}
	fprintf(out, "%s</table>\n<p class=\"src\">%d counters are 0 and not shown (the text and --json reports "
		"have every one).</p>\n", n % 4 ? "</tr>\n" : "", zero);
}

void report_html(const struct run_result *rr, const struct run_info *ri, FILE *out)
{
	char date[64];
	html_date(date, sizeof(date));
	char *cmd = ri->argc > 1 ? html_cmdline(ri->argc - 1, ri->argv + 1) : html_cmdline(0, NULL);
	struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmd, .date = date };
	html_page_begin(out, "pagelab run", ".stop.oom{color:#d00}\n");
	html_provenance(out, &pv);
	free(cmd);
	machine_params(rr, ri, out);
	if (rr->timed_out)
		fprintf(out, "<p class=\"stop\">&#9873; Stopped at --max-time %.9g s of simulated time: the report covers "
			"what ran until then.</p>\n", (double)rr->max_time_ns / 1e9);
	if (rr->interrupted)
		fprintf(out, "<p class=\"stop\">Interrupted by %s at %.9g s of simulated time.</p>\n",
			rr->interrupted == SIGTERM ? "SIGTERM" : "SIGINT", (double)rr->sim_ns / 1e9);
	workloads(rr, out);
	timelines(rr, out);
	messages(rr, out);
	counters(rr, out);
	report_work_html(&rr->work, out);
	html_page_end(out);
}
