/* report.c - see report.h. */
#include "report.h"
#include "../lib/util.h"
#include "../lib/json.h"
#include "../lib/version.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

const char vmstat_header[] =
	"procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n"
	" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa\n";
/* procps vmstat -a: the LRU's inactive and active pages in their place. */
const char vmstat_header_active[] =
	"procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n"
	" r  b   swpd   free  inact active   si   so    bi    bo   in   cs us sy id wa\n";

void workload_times(const struct machine *m, int wl, struct time_figures *tf)
{
	const struct wl_inst *w = &m->wls[wl];
	memset(tf, 0, sizeof(*tf));
	uint64_t u = 0, s = 0;
	for (int i = 0; i < w->ntasks; i++) {
		const struct task *t = &m->tasks[w->first_task + i];
		u += t->utime;
		s += t->stime;
		tf->majflt += t->majflt;
		tf->minflt += t->minflt;
		tf->swaps += t->as ? t->as->nswap : 0;
	}
	tf->user = task_seconds(u);
	tf->sys = task_seconds(s);
	tf->elapsed = task_seconds(w->end);
	tf->cpu_pct = w->end ? (unsigned)((double)(u + s) * 100.0 / (double)w->end) : 0;
	tf->killed = w->killed;
}

static void format_elapsed_zsh(char *buf, size_t len, double e)
{
	if (e < 60) {
		snprintf(buf, len, "%.3f", e);
	} else if (e < 3600) {
		int min = (int)(e / 60);
		snprintf(buf, len, "%d:%05.2f", min, e - min * 60);
	} else {
		int h = (int)(e / 3600);
		int min = (int)((e - h * 3600) / 60);
		snprintf(buf, len, "%d:%02d:%05.2f", h, min, e - h * 3600 - min * 60);
	}
}

void format_zsh_time(char *buf, size_t len, const char *cmd, const struct time_figures *tf)
{
	char e[32];
	format_elapsed_zsh(e, sizeof(e), tf->elapsed);
	snprintf(buf, len, "%s  %.2fs user %.2fs system %u%% cpu %s total", cmd, tf->user, tf->sys,
		 tf->cpu_pct, e);
}

/* Hundredths of a second, truncated like GNU time's tv_usec / 10000; the
 * epsilon absorbs binary fractions such as 0.29 * 100 = 28.999... */
static uint64_t hundredths(double sec)
{
	return sec > 0 ? (uint64_t)(sec * 100 + 1e-6) : 0;
}

void format_gnu_time(char *buf, size_t len, const struct time_figures *tf)
{
	char e[32];
	uint64_t el = hundredths(tf->elapsed), u = hundredths(tf->user), s = hundredths(tf->sys);
	uint64_t sec = el / 100;
	if (sec >= 3600)
		snprintf(e, sizeof(e), "%llu:%02llu:%02llu", (unsigned long long)(sec / 3600),
			 (unsigned long long)(sec % 3600 / 60), (unsigned long long)(sec % 60));
	else
		snprintf(e, sizeof(e), "%llu:%02llu.%02llu", (unsigned long long)(sec / 60),
			 (unsigned long long)(sec % 60), (unsigned long long)(el % 100));
	snprintf(buf, len, "%llu.%02lluuser %llu.%02llusystem %selapsed %u%%CPU (%llumajor+%lluminor)pagefaults %lluswaps",
		 (unsigned long long)(u / 100), (unsigned long long)(u % 100),
		 (unsigned long long)(s / 100), (unsigned long long)(s % 100), e, tf->cpu_pct,
		 (unsigned long long)tf->majflt, (unsigned long long)tf->minflt,
		 (unsigned long long)tf->swaps);
}

void format_vmstat_line(char *buf, size_t len, const struct vmstat_sample *s)
{
	format_vmstat_line_mode(buf, len, s, false);
}

void format_vmstat_line_mode(char *buf, size_t len, const struct vmstat_sample *s, bool active)
{
	snprintf(buf, len, "%2u %2u %6llu %6llu %6llu %6llu %4llu %4llu %5llu %5llu %4llu %4llu %2u %2u %2u %2u",
		 s->r, s->b, (unsigned long long)s->swpd, (unsigned long long)s->free,
		 (unsigned long long)(active ? s->inact : s->buff),
		 (unsigned long long)(active ? s->active : s->cache),
		 (unsigned long long)s->si, (unsigned long long)s->so,
		 (unsigned long long)s->bi, (unsigned long long)s->bo,
		 (unsigned long long)s->in, (unsigned long long)s->cs, s->us, s->sy, s->id, s->wa);
}

static void print_machine(const struct run_result *rr, const struct run_info *ri, FILE *out)
{
	const struct profile *p = &rr->prof;
	fprintf(out, "pagelab: machine %s: %llu CPU%s, %llu MiB RAM (%llu pages for the page allocator), %llu MiB swap, disk %s; policy %s; seed %llu\n",
		ri->machine, (unsigned long long)p->cpus, p->cpus == 1 ? "" : "s",
		(unsigned long long)(p->ram >> 20), (unsigned long long)rr->ram_pages,
		(unsigned long long)(p->swap >> 20), p->disk.model, ri->policy,
		(unsigned long long)ri->seed);
	if (!p->untimed && rr->nr_zones == 1)
		fprintf(out, "pagelab: watermarks min %llu low %llu high %llu pages\n",
			(unsigned long long)rr->zones[0].wmark_min,
			(unsigned long long)rr->zones[0].wmark_low,
			(unsigned long long)rr->zones[0].wmark_high);
	for (int z = 0; !p->untimed && rr->nr_zones > 1 && z < rr->nr_zones; z++)
		fprintf(out, "pagelab: zone %s: %llu pages, watermarks min %llu low %llu high %llu pages\n",
			rr->zones[z].name, (unsigned long long)rr->zones[z].managed,
			(unsigned long long)rr->zones[z].wmark_min,
			(unsigned long long)rr->zones[z].wmark_low,
			(unsigned long long)rr->zones[z].wmark_high);
}

/* Kernel threads as ps(1) shows them (the 1997 vhand thread was judged by
 * its TIME column): CPU time the thread consumed. */
static void print_kthreads(const struct run_result *rr, FILE *out)
{
	fprintf(out, "# kernel threads\n  PID     TIME CMD\n");
	for (int i = 0; i < rr->nr_kthreads; i++) {
		const struct run_kthread *k = &rr->kthreads[i];
		double sec = task_seconds(k->cpu_ns);
		int min = (int)(sec / 60);
		fprintf(out, "%5d %2d:%05.2f %s\n", k->pid, min, sec - min * 60, k->comm);
	}
}

static void print_exit(const struct wl_result *x, FILE *out)
{
	char buf[512];
	if (x->exit_text)
		fputs(x->exit_text, out);
	format_zsh_time(buf, sizeof(buf), x->cmd, &x->times);
	fprintf(out, "%s\n", buf);
	format_gnu_time(buf, sizeof(buf), &x->times);
	fprintf(out, "%s\n", buf);
}

static void print_kernel(const struct run_event *l, FILE *out)
{
	fprintf(out, "[%5llu.%06llu] %s\n", (unsigned long long)(l->t / 1000000000ULL),
		(unsigned long long)(l->t % 1000000000ULL / 1000), l->text);
}

void report_gauges(const struct mm *mm, struct run_gauges *g)
{
	struct lru_sizes lz;
	mm_lru_sizes(mm, &lz);
	*g = (struct run_gauges){ .nr_free = mm->stat.nr_free, .nr_anon = mm->stat.nr_anon, .nr_mlock = mm->stat.nr_mlock,
				  .nr_writeback = mm->stat.nr_writeback, .nr_file = mm->stat.nr_file, .nr_dirty = mm->stat.nr_dirty,
				  .inactive_anon = lz.inactive_anon, .active_anon = lz.active_anon,
				  .inactive_file = lz.inactive_file, .active_file = lz.active_file };
}

void report_vmstat_lines(const struct run_gauges *g, const uint64_t *ev, FILE *out)
{
	fprintf(out, "nr_free_pages %llu\n", (unsigned long long)g->nr_free);
	fprintf(out, "nr_anon_pages %llu\n", (unsigned long long)g->nr_anon);
	fprintf(out, "nr_mlock %llu\n", (unsigned long long)g->nr_mlock);
	fprintf(out, "nr_writeback %llu\n", (unsigned long long)g->nr_writeback);
	fprintf(out, "nr_file_pages %llu\n", (unsigned long long)g->nr_file);
	fprintf(out, "nr_dirty %llu\n", (unsigned long long)g->nr_dirty);
	fprintf(out, "nr_inactive_anon %llu\nnr_active_anon %llu\nnr_inactive_file %llu\nnr_active_file %llu\n",
		(unsigned long long)g->inactive_anon, (unsigned long long)g->active_anon,
		(unsigned long long)g->inactive_file, (unsigned long long)g->active_file);
	for (int i = 0; i < NR_VM_EVENTS; i++)
		fprintf(out, "%s %llu\n", vm_event_names[i], (unsigned long long)ev[i]);
}

void report_vmstat(const struct mm *mm, FILE *out)
{
	struct run_gauges g;
	report_gauges(mm, &g);
	report_vmstat_lines(&g, mm->ev, out);
}

void report_text(const struct run_result *rr, const struct run_info *ri, FILE *out)
{
	print_machine(rr, ri, out);
	if (rr->nr_samples && !rr->vmstat_hidden)
		fputs(rr->vmstat_active ? vmstat_header_active : vmstat_header, out);
	uint64_t l = 0;
	char buf[256];
	struct run_sample_iter it;
	struct vmstat_sample cur;
	run_samples_rewind(rr, &it);
	bool have = !rr->vmstat_hidden && run_sample_next(&it, &cur);
	/* Merge vmstat samples and log entries in time order (samples first on ties). */
	while (have || l < rr->nr_log) {
		if (have && (l >= rr->nr_log || cur.t <= rr->log[l].t)) {
			format_vmstat_line_mode(buf, sizeof(buf), &cur, rr->vmstat_active);
			fprintf(out, "%s\n", buf);
			have = run_sample_next(&it, &cur);
			continue;
		}
		const struct run_event *e = &rr->log[l++];
		if (e->kind == RUN_EV_KERNEL)
			print_kernel(e, out);
		else
			print_exit(run_wl_c(rr, e->wl), out);
	}
	for (int w = 0; w < rr->nr_wl; w++)
		if (!run_wl_c(rr, w)->exited)
			fprintf(out, "pagelab: %s did not finish\n", run_wl_c(rr, w)->cmd);
	if (rr->timed_out)
		fprintf(out, "pagelab: stopped at --max-time: %.9g s of simulated time\n", (double)rr->max_time_ns / 1e9);
	if (rr->interrupted)
		fprintf(out, "pagelab: interrupted by %s at %.9g s of simulated time\n",
			rr->interrupted == SIGTERM ? "SIGTERM" : "SIGINT", (double)rr->sim_ns / 1e9);
	print_kthreads(rr, out);
	fprintf(out, "# /proc/vmstat\n");
	report_vmstat_lines(&rr->gauges, rr->ev, out);
	if (rr->nr_memcg)
		report_memcg_stat(rr, out);
	if (rr->has_pressure)
		report_pressure_text(rr, out);
	if (rr->nr_cg)
		report_cgroups_text(rr, out);
	if (rr->nr_zram)
		report_zram_text(rr, out);
	if (rr->nr_zswap)
		report_zswap_text(rr, out);
	if (rr->nr_swapcl)
		report_memstat_text("swap clusters (--set swap.cluster=1)", rr->swapcl, rr->nr_swapcl, out);
	report_work_text(&rr->work, out);
}


/* Where a result comes from: the pagelab that computed it, the command
 * that asked for it and every parameter of the machine it ran on, so a
 * JSON file alone says how to get it again. */
static void json_provenance(const struct run_result *rr, const struct run_info *ri, FILE *out)
{
	fprintf(out, ",\n  \"pagelab_version\": ");
	json_str(out, pagelab_version());
	fprintf(out, ",\n  \"command\": [");
	for (int i = 0; i < ri->argc; i++) {
		fputs(i ? ", " : "", out);
		json_str(out, ri->argv[i]);
	}
	fprintf(out, "],\n  \"machine_params\": ");
	profile_json(&rr->prof, out);
}

void report_json_tasks(const struct task_times *t, int n, FILE *out)
{
	fprintf(out, ", \"tasks\": [");
	for (int i = 0; i < n; i++)
		fprintf(out, "%s{\"user_s\": %.6f, \"system_s\": %.6f, \"elapsed_s\": %.6f, \"majflt\": %llu, "
			"\"minflt\": %llu, \"swaps\": %llu}", i ? ", " : "", t[i].user_s, t[i].sys_s, t[i].elapsed_s,
			(unsigned long long)t[i].majflt, (unsigned long long)t[i].minflt, (unsigned long long)t[i].swaps);
	fputc(']', out);
}

static void json_workloads(const struct run_result *rr, FILE *out)
{
	for (int w = 0; w < rr->nr_wl; w++) {
		const struct wl_result *x = run_wl_c(rr, w);
		const struct time_figures *tf = &x->times;
		fprintf(out, "%s\n    {\"command\": ", w ? "," : "");
		json_str(out, x->cmd);
		fprintf(out, ", \"user_s\": %.6f, \"system_s\": %.6f, \"elapsed_s\": %.6f, \"cpu_pct\": %u, \"majflt\": %llu, \"minflt\": %llu, \"swaps\": %llu, \"killed\": %s, \"signal\": %s, \"finished\": %s",
			tf->user, tf->sys, tf->elapsed, tf->cpu_pct, (unsigned long long)tf->majflt,
			(unsigned long long)tf->minflt, (unsigned long long)tf->swaps,
			tf->killed ? "true" : "false",
			!tf->killed ? "null" : x->signal == SIGBUS ? "\"SIGBUS\"" : "\"SIGKILL\"",
			x->exited ? "true" : "false");
		report_json_tasks(x->tasks, x->ntasks, out);
		report_figures_json(&x->figs, out);
		fputc('}', out);
	}
}

static void json_samples(const struct run_result *rr, FILE *out)
{
	struct run_sample_iter it;
	struct vmstat_sample cur;
	run_samples_rewind(rr, &it);
	for (uint64_t i = 0; !rr->vmstat_hidden && run_sample_next(&it, &cur); i++) {
		const struct vmstat_sample *s = &cur;
		fprintf(out, "%s\n    {\"t\": %.3f, \"r\": %u, \"b\": %u, \"swpd\": %llu, \"free\": %llu, \"buff\": %llu, \"cache\": %llu, \"inact\": %llu, \"active\": %llu, \"si\": %llu, \"so\": %llu, \"bi\": %llu, \"bo\": %llu, \"in\": %llu, \"cs\": %llu, \"us\": %u, \"sy\": %u, \"id\": %u, \"wa\": %u, \"scan\": %llu",
			i ? "," : "", (double)s->t / 1e9, s->r, s->b, (unsigned long long)s->swpd,
			(unsigned long long)s->free, (unsigned long long)s->buff, (unsigned long long)s->cache,
			(unsigned long long)s->inact, (unsigned long long)s->active,
			(unsigned long long)s->si, (unsigned long long)s->so, (unsigned long long)s->bi,
			(unsigned long long)s->bo, (unsigned long long)s->in, (unsigned long long)s->cs,
			s->us, s->sy, s->id, s->wa, (unsigned long long)s->scan);
		if (rr->resident_kb)   /* residency=K */
			fprintf(out, ", \"resident_kb\": %llu}", (unsigned long long)rr->resident_kb[i]);
		else
			fputc('}', out);
	}
}

/* /proc/vmstat as one JSON object: the full machine's "counters", and
 * the cache-only replay's (src/cli/run_cache.c). */
void report_counters_json(const struct run_gauges *g, const uint64_t *ev, FILE *out)
{
	fprintf(out, "{\"nr_free_pages\": %llu, \"nr_anon_pages\": %llu, \"nr_mlock\": %llu, \"nr_writeback\": %llu, \"nr_file_pages\": %llu, \"nr_dirty\": %llu",
		(unsigned long long)g->nr_free, (unsigned long long)g->nr_anon,
		(unsigned long long)g->nr_mlock, (unsigned long long)g->nr_writeback,
		(unsigned long long)g->nr_file, (unsigned long long)g->nr_dirty);
	fprintf(out, ", \"nr_inactive_anon\": %llu, \"nr_active_anon\": %llu, \"nr_inactive_file\": %llu, \"nr_active_file\": %llu",
		(unsigned long long)g->inactive_anon, (unsigned long long)g->active_anon,
		(unsigned long long)g->inactive_file, (unsigned long long)g->active_file);
	for (int i = 0; i < NR_VM_EVENTS; i++)
		fprintf(out, ", \"%s\": %llu", vm_event_names[i], (unsigned long long)ev[i]);
	fprintf(out, "}");
}

void report_vmstat_json(const struct mm *mm, FILE *out)
{
	struct run_gauges g;
	report_gauges(mm, &g);
	report_counters_json(&g, mm->ev, out);
}

static void json_counters(const struct run_result *rr, FILE *out)
{
	fprintf(out, "\n  ],\n  \"counters\": ");
	report_counters_json(&rr->gauges, rr->ev, out);
}

void report_json(const struct run_result *rr, const struct run_info *ri, FILE *out)
{
	const struct profile *p = &rr->prof;
	fprintf(out, "{\n  \"machine\": {\"name\": ");
	json_str(out, ri->machine);
	fprintf(out, ", \"cpus\": %llu, \"ram_bytes\": %llu, \"ram_pages\": %llu, \"swap_bytes\": %llu, \"disk\": ",
		(unsigned long long)p->cpus, (unsigned long long)p->ram,
		(unsigned long long)rr->ram_pages, (unsigned long long)p->swap);
	json_str(out, p->disk.model);
	fprintf(out, ", \"wmark_min\": %llu, \"wmark_low\": %llu, \"wmark_high\": %llu},\n",
		(unsigned long long)rr->zones[0].wmark_min, (unsigned long long)rr->zones[0].wmark_low,
		(unsigned long long)rr->zones[0].wmark_high);
	fprintf(out, "  \"policy\": ");
	json_str(out, ri->policy);
	fprintf(out, ",\n  \"seed\": %llu,\n  \"finished\": %s,\n  \"stopped\": %s,\n  \"simulated_s\": %.9f,\n  \"workloads\": [",
		(unsigned long long)ri->seed, rr->all_exited ? "true" : "false",
		rr->interrupted ? (rr->interrupted == SIGTERM ? "\"SIGTERM\"" : "\"SIGINT\"")
		: rr->timed_out ? "\"max-time\"" : "null", (double)rr->sim_ns / 1e9);
	json_workloads(rr, out);
	fprintf(out, "\n  ],\n  \"vmstat\": [");
	json_samples(rr, out);
	fprintf(out, "\n  ],\n  \"kthreads\": [");
	for (int i = 0; i < rr->nr_kthreads; i++) {
		fprintf(out, "%s\n    {\"comm\": ", i ? "," : "");
		json_str(out, rr->kthreads[i].comm);
		fprintf(out, ", \"cpu_s\": %.6f}", task_seconds(rr->kthreads[i].cpu_ns));
	}
	fprintf(out, "\n  ],\n  \"messages\": [");
	int first = 1;
	for (uint64_t i = 0; i < rr->nr_log; i++) {
		if (rr->log[i].kind != RUN_EV_KERNEL)
			continue;
		fprintf(out, "%s\n    {\"t\": %.6f, \"text\": ", first ? "" : ",", (double)rr->log[i].t / 1e9);
		json_str(out, rr->log[i].text);
		fputc('}', out);
		first = 0;
	}
	json_counters(rr, out);
	if (rr->nr_memcg)
		report_memcg_json(rr, out);
	if (rr->has_pressure)
		report_pressure_json(rr, out);
	if (rr->nr_cg) {
		fputs(",\n  \"cgroups\": ", out);
		report_cgroups_json(rr, out);
	}
	if (rr->nr_zram)
		report_zram_json(rr, out);
	if (rr->nr_zswap)
		report_zswap_json(rr, out);
	if (rr->nr_swapcl)
		report_memstat_json(",\n  \"swap_clusters\": {", rr->swapcl, rr->nr_swapcl, out);
	fputs(",\n  \"reclaim_work\": ", out);
	report_work_json(&rr->work, out);
	json_provenance(rr, ri, out);
	fprintf(out, "\n}\n");
}
