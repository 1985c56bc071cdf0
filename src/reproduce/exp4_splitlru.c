/* exp4_splitlru.c - experiment 4: Rik van Riel's "PERF: performance tests
 * with the split LRU VM in -mm", 24 Jul 2008 (its full text is section 10.1
 * of shared/reference/workloads.md), and Johannes Weiner's reply of 29 Jul
 * (threads/001_a286016ba5389f65.txt): on a Dell PE1950 (8 cores, 16 GB, a
 * RAID1 streaming 111 MB/s),
 *   TEST 1  dd if=/dev/sda of=/dev/null bs=1M of the whole 146 GB disk beside
 *           a working set: speed and swap used;
 *   TEST 2  sysbench OLTP beside SELECT COUNT(*) over a 55 GB InnoDB file,
 *           with MySQL's default buffer pool and with a 12 GB one;
 *   and Hannes's memory eater, children eating ~120% of RAM each in turn
 *           beside his desktop ("the oom killer was never invoked"),
 * for 2.6.26 (linux26), -mm (splitlru), -mm + "fix swapout on sequential IO"
 * (splitlru noforce=1) and -mm + "evict streaming IO cache first" (splitlru
 * stream=1).
 *
 * Assumptions (the message does not say): the working set beside dd and
 * beside the memory eater is 1 GB of anonymous memory touched with think
 * time (workingset -m 1024); MySQL's default buffer pool of the era is 8 MB;
 * swap is 10 GB ("swap about half full" at 5 GB).  The innodb and memeater
 * command lines follow issue 4's description; adjust them here if those
 * workloads take other options.  Quick mode: machine and sizes x1/64. */
#include "experiment.h"
#include "exp_text.h"
#include "exp_named.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* dd's MB/s: its bytes over its elapsed time, as dd prints it. */
static bool dd_speed(const struct exp_result *r, const struct exp_metric *mt,
		     const struct run_result *rr, double *v)
{
	(void)r;
	double count;
	if (mt->wl >= rr->nr_wl || !rr->wl[mt->wl].done || rr->wl[mt->wl].tf.elapsed <= 0 ||
	    !exp_cmd_number(rr->wl[mt->wl].cmd, "count=", &count))
		return false;
	*v = count * 1048576.0 / 1e6 / rr->wl[mt->wl].tf.elapsed;
	return true;
}

/* sysbench's transactions per second, from the innodb workload's output. */
static bool tps(const struct exp_result *r, const struct exp_metric *mt,
		const struct run_result *rr, double *v)
{
	(void)r;
	if (mt->wl >= rr->nr_wl || !rr->wl[mt->wl].output)
		return false;
	const char *o = rr->wl[mt->wl].output;
	return exp_number_before(o, "tps", v) || exp_number_before(o, "per sec", v) ||
	       exp_number_after(o, "tps", v);
}

/* SELECT COUNT(*)'s time, from the mysql client's "1 row in set (M min S sec)". */
static bool scan_time(const struct exp_result *r, const struct exp_metric *mt,
		      const struct run_result *rr, double *v)
{
	(void)r;
	if (mt->wl >= rr->nr_wl || !rr->wl[mt->wl].output)
		return false;
	double min, sec;
	const char *o = strstr(rr->wl[mt->wl].output, "row in set");
	if (!o || !exp_number_after(o, "(", &min) || !exp_number_after(o, "min", &sec))
		return false;
	*v = min * 60 + sec;
	return true;
}

#define T1 "001_a286016ba5389f65.txt"
#define WL "workloads.md"

static void cell(char *buf, size_t len, const struct exp_result *r, int d, const char *metric, const char *fmt)
{
	double v;
	int m = exp_metric_index(r->e, metric);
	if (!r->design_ok[d])
		snprintf(buf, len, "n/a");
	else if (!exp_metric_value(r, d, m, &v))
		snprintf(buf, len, "-");
	else if (!strcmp(fmt, "min"))
		exp_fmt_minutes(buf, len, v);
	else
		snprintf(buf, len, fmt, v);
}

static const char *pub(const struct experiment *e, const char *design, const char *metric)
{
	const struct exp_published *p = exp_published_find(e, design, metric);
	return p ? p->text : "";
}

static void print_cmds(const struct exp_result *r, int run, FILE *out)
{
	const struct exp_run *x = &r->e->runs[run];
	char cmds[1024];
	size_t n = 0;
	cmds[0] = 0;
	for (int w = 0; w < EXP_MAX_WL && x->wl[w] && n < sizeof(cmds); w++) {
		char buf[256];
		exp_expand(r, x->wl[w], buf, sizeof(buf));
		n += (size_t)snprintf(cmds + n, sizeof(cmds) - n, "%s%s", w ? " + " : "", buf);
	}
	exp_wrap(out, "(pagelab runs:", 15, "%s)", cmds);
}

/* One table line, without the padding of empty trailing cells. */
static void line(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(FILE *out, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\n'))
		buf[--n] = 0;
	fprintf(out, "%s\n", buf);
}

static void print(const struct exp_result *r, FILE *out)
{
	const struct experiment *e = r->e;
	char a[64], b[64], c[64], d4[64], e5[64];
	fprintf(out, "  TEST 1: dd if=/dev/sda of=/dev/null bs=1M\n");
	print_cmds(r, 0, out);
	line(out, "%-10s | %-8s %-10s | %-9s %-10s %s\n", "kernel", "speed", "swap used", "speed", "swap used",
		"working set major faults");
	for (int d = 0; d < e->nr_designs; d++) {
		const char *l = e->designs[d].label;
		cell(a, sizeof(a), r, d, "dd_speed", "%.0fMB/s");
		cell(b, sizeof(b), r, d, "dd_swap", "%.1fMB");
		cell(c, sizeof(c), r, d, "dd_ws_majflt", "%.0f");
		line(out, "%-10s | %-8s %-10s | %-9s %-10s %s\n", l, pub(e, l, "dd_speed"), pub(e, l, "dd_swap"), a, b, c);
	}
	exp_wrap(out, "", 0, "(thread: left of the bar, %s:42-47, with \"-mm ... (ouch, system noticably slower)\""
		 " and \"stream ... (slight regression, not sure why yet)\"; pagelab: right)", T1);
	fputc('\n', out);

	fprintf(out, "  TEST 2: sysbench & linear query\n");
	print_cmds(r, 1, out);
	print_cmds(r, 2, out);
	line(out, "%-10s | %-5s %-14s %-5s %-14s %s\n", "kernel", "tps", "SELECT COUNT", "tps",
		"SELECT COUNT", "swapped out");
	line(out, "%-10s | %-20s %s\n", "", "default memory", "12GB InnoDB buffer");
	for (int d = 0; d < e->nr_designs; d++) {
		const char *l = e->designs[d].label;
		line(out, "%-10s | %-5s %-14s %-5s %-14s %s\n", l, pub(e, l, "def_tps"), pub(e, l, "def_scan"),
			pub(e, l, "big_tps"), pub(e, l, "big_scan"), pub(e, l, "big_swap"));
		cell(a, sizeof(a), r, d, "def_tps", "%.0f");
		cell(b, sizeof(b), r, d, "def_scan", "min");
		cell(c, sizeof(c), r, d, "big_tps", "%.0f");
		cell(d4, sizeof(d4), r, d, "big_scan", "min");
		cell(e5, sizeof(e5), r, d, "big_swap", "%.1f MB");
		line(out, "%-10s | %-5s %-14s %-5s %-14s %-10s (pagelab)\n", "", a, b, c, d4, e5);
	}
	fprintf(out, "(thread: workloads.md:683-688, Rik van Riel's table of 24 Jul 2008)\n\n");

	fprintf(out, "  Memory eater, ~120%% of RAM per child, beside a desktop (Johannes Weiner)\n");
	print_cmds(r, 3, out);
	line(out, "%-10s | %-10s %-14s %s\n", "kernel", "OOM kills", "eater elapsed", "working set major faults");
	for (int d = 0; d < e->nr_designs; d++) {
		const char *l = e->designs[d].label;
		cell(a, sizeof(a), r, d, "eat_oom", "%.0f");
		cell(b, sizeof(b), r, d, "eat_elapsed", "%.1f s");
		cell(c, sizeof(c), r, d, "eat_ws_majflt", "%.0f");
		line(out, "%-10s | %-10s %-14s %s\n", l, a, b, c);
	}
	exp_wrap(out, "", 0, "(thread, -mm + his patch: \"The box never died on me nor did it thrash perceivably"
		 " harder/longer near oom than .26.  The oom killer was never invoked.\" %s:70-71)", T1);
	bool any = false;
	for (int d = 0; d < e->nr_designs; d++)
		for (int run = 0; run < e->nr_runs; run++)
			if (!exp_rr(r, d, run, 0)->available && r->design_ok[d]) {
				if (!any)
					fprintf(out, "runs not available:\n");
				any = true;
				fprintf(out, "  %s, %s: %s\n", e->designs[d].label, e->runs[run].key, exp_rr(r, d, run, 0)->why);
			}
}

/* For the experiment files: the printer and metric functions by name. */
const struct exp_named_printer exp4_printer = { "exp4_splitlru", print };
const struct exp_named_metric exp4_metric_fns[] = {
	{ "dd_speed", dd_speed },
	{ "tps", tps },
	{ "scan_time", scan_time },
	{ NULL, NULL },
};
