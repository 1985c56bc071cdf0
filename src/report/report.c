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

static void print_machine(const struct machine *m, const struct run_info *ri, FILE *out)
{
	const struct profile *p = &m->prof;
	fprintf(out, "pagelab: machine %s: %llu CPU%s, %llu MiB RAM (%llu pages for the page allocator), %llu MiB swap, disk %s; policy %s; seed %llu\n",
		ri->machine, (unsigned long long)p->cpus, p->cpus == 1 ? "" : "s",
		(unsigned long long)(p->ram >> 20), (unsigned long long)m->ram_pages,
		(unsigned long long)(p->swap >> 20), p->disk.model, ri->policy,
		(unsigned long long)ri->seed);
	if (!p->untimed && m->mm.nr_zones == 1)
		fprintf(out, "pagelab: watermarks min %llu low %llu high %llu pages\n",
			(unsigned long long)m->mm.zones[0].wmark_min,
			(unsigned long long)m->mm.zones[0].wmark_low,
			(unsigned long long)m->mm.zones[0].wmark_high);
	for (int z = 0; !p->untimed && m->mm.nr_zones > 1 && z < m->mm.nr_zones; z++)
		fprintf(out, "pagelab: zone %s: %llu pages, watermarks min %llu low %llu high %llu pages\n",
			m->mm.zones[z].name, (unsigned long long)m->mm.zones[z].managed,
			(unsigned long long)m->mm.zones[z].wmark_min,
			(unsigned long long)m->mm.zones[z].wmark_low,
			(unsigned long long)m->mm.zones[z].wmark_high);
}

/* Kernel threads as ps(1) shows them (the 1997 vhand thread was judged by
 * its TIME column): CPU time the thread consumed. */
static void print_kthreads(const struct machine *m, FILE *out)
{
	fprintf(out, "# kernel threads\n  PID     TIME CMD\n");
	for (int i = 0; i < m->nr_tasks; i++) {
		const struct task *t = &m->tasks[i];
		if (!t->kthread)
			continue;
		double sec = task_seconds(t->utime + t->stime);
		int min = (int)(sec / 60);
		fprintf(out, "%5d %2d:%05.2f %s\n", i + 1, min, sec - min * 60, t->comm);
	}
}

static void print_exit(const struct machine *m, int wl, FILE *out)
{
	const struct wl_inst *w = &m->wls[wl];
	struct time_figures tf;
	char buf[512];
	workload_times(m, wl, &tf);
	if (w->ops->report_tasks) {
		struct wl_task_result *r = xcalloc((size_t)w->ntasks, sizeof(*r));
		for (int i = 0; i < w->ntasks; i++) {
			const struct task *t = &m->tasks[w->first_task + i];
			r[i] = (struct wl_task_result){
				.elapsed_s = task_seconds(t->end), .user_s = task_seconds(t->utime),
				.sys_s = task_seconds(t->stime), .stall_s = task_seconds(t->stall_ns),
				.majflt = t->majflt, .minflt = t->minflt, .killed = t->killed,
				.failed = t->failed,
			};
		}
		w->ops->report_tasks(w->w, r, w->ntasks, out);
		free(r);
	}
	if (tf.killed)
		fprintf(out, "zsh: %-11s%s\n", w->signal == SIGBUS ? "bus error" : "killed", w->cmd);
	else if (w->ops->report) {
		double *el = xcalloc((size_t)w->ntasks, sizeof(double));
		for (int i = 0; i < w->ntasks; i++)
			el[i] = task_seconds(m->tasks[w->first_task + i].end);
		w->ops->report(w->w, el, out);
		free(el);
	}
	format_zsh_time(buf, sizeof(buf), w->cmd, &tf);
	fprintf(out, "%s\n", buf);
	format_gnu_time(buf, sizeof(buf), &tf);
	fprintf(out, "%s\n", buf);
}

static void print_kernel(const struct log_entry *l, FILE *out)
{
	fprintf(out, "[%5llu.%06llu] %s\n", (unsigned long long)(l->t / 1000000000ULL),
		(unsigned long long)(l->t % 1000000000ULL / 1000), l->text);
}

void report_vmstat(const struct mm *mm, FILE *out)
{
	fprintf(out, "nr_free_pages %llu\n", (unsigned long long)mm->nr_free);
	fprintf(out, "nr_anon_pages %llu\n", (unsigned long long)mm->nr_anon);
	fprintf(out, "nr_mlock %llu\n", (unsigned long long)mm->nr_mlock);
	fprintf(out, "nr_writeback %llu\n", (unsigned long long)mm->nr_writeback);
	fprintf(out, "nr_file_pages %llu\n", (unsigned long long)mm->nr_file);
	fprintf(out, "nr_dirty %llu\n", (unsigned long long)mm->nr_dirty);
	struct lru_sizes lz;
	mm_lru_sizes(mm, &lz);
	fprintf(out, "nr_inactive_anon %llu\nnr_active_anon %llu\nnr_inactive_file %llu\nnr_active_file %llu\n",
		(unsigned long long)lz.inactive_anon, (unsigned long long)lz.active_anon,
		(unsigned long long)lz.inactive_file, (unsigned long long)lz.active_file);
	for (int i = 0; i < NR_VM_EVENTS; i++)
		fprintf(out, "%s %llu\n", vm_event_names[i], (unsigned long long)mm->ev[i]);
}

void report_text(const struct machine *m, const struct run_info *ri, FILE *out)
{
	print_machine(m, ri, out);
	if (m->nr_samples && !ri->hide_vmstat)
		fputs(m->opt.vmstat_active ? vmstat_header_active : vmstat_header, out);
	uint64_t l = 0;
	char buf[256];
	struct sample_iter it;
	struct vmstat_sample cur;
	machine_samples_rewind(m, &it);
	bool have = !ri->hide_vmstat && machine_sample_next(&it, &cur);
	/* Merge vmstat samples and log entries in time order (samples first on ties). */
	while (have || l < m->nr_log) {
		if (have && (l >= m->nr_log || cur.t <= m->log[l].t)) {
			format_vmstat_line_mode(buf, sizeof(buf), &cur, m->opt.vmstat_active);
			fprintf(out, "%s\n", buf);
			have = machine_sample_next(&it, &cur);
			continue;
		}
		const struct log_entry *e = &m->log[l++];
		if (e->kind == LOG_KERNEL)
			print_kernel(e, out);
		else
			print_exit(m, e->wl, out);
	}
	for (int w = 0; w < m->nr_wls; w++)
		if (m->wls[w].live > 0)
			fprintf(out, "pagelab: %s did not finish\n", m->wls[w].cmd);
	if (m->timed_out)
		fprintf(out, "pagelab: stopped at --max-time: %.9g s of simulated time\n", (double)m->opt.max_time_ns / 1e9);
	if (m->interrupted)
		fprintf(out, "pagelab: interrupted by %s at %.9g s of simulated time\n",
			m->interrupted == SIGTERM ? "SIGTERM" : "SIGINT", (double)m->now / 1e9);
	print_kthreads(m, out);
	fprintf(out, "# /proc/vmstat\n");
	report_vmstat(&m->mm, out);
	if (m->mm.memcg.limit)
		report_memcg_stat(m, out);
	report_work_text(&m->mm.work, out);
}


/* Where a result comes from: the pagelab that computed it, the command
 * that asked for it and every parameter of the machine it ran on, so a
 * JSON file alone says how to get it again. */
static void json_provenance(const struct machine *m, const struct run_info *ri, FILE *out)
{
	fprintf(out, ",\n  \"pagelab_version\": ");
	json_str(out, pagelab_version());
	fprintf(out, ",\n  \"command\": [");
	for (int i = 0; i < ri->argc; i++) {
		fputs(i ? ", " : "", out);
		json_str(out, ri->argv[i]);
	}
	fprintf(out, "],\n  \"machine_params\": ");
	profile_json(&m->prof, out);
}

/* Each task of workload w as time(1) would show it alone: a workload's
 * totals hide which of its tasks waited (qsbench's four sorts end apart). */
static void json_tasks(const struct machine *m, int wl, FILE *out)
{
	const struct wl_inst *w = &m->wls[wl];
	fprintf(out, ", \"tasks\": [");
	for (int i = 0; i < w->ntasks; i++) {
		const struct task *t = &m->tasks[w->first_task + i];
		fprintf(out, "%s{\"user_s\": %.6f, \"system_s\": %.6f, \"elapsed_s\": %.6f, \"majflt\": %llu, "
			"\"minflt\": %llu, \"swaps\": %llu}", i ? ", " : "", task_seconds(t->utime),
			task_seconds(t->stime), task_seconds(t->end), (unsigned long long)t->majflt,
			(unsigned long long)t->minflt, (unsigned long long)(t->as ? t->as->nswap : 0));
	}
	fputc(']', out);
}

void report_json(const struct machine *m, const struct run_info *ri, FILE *out)
{
	const struct profile *p = &m->prof;
	fprintf(out, "{\n  \"machine\": {\"name\": ");
	json_str(out, ri->machine);
	fprintf(out, ", \"cpus\": %llu, \"ram_bytes\": %llu, \"ram_pages\": %llu, \"swap_bytes\": %llu, \"disk\": ",
		(unsigned long long)p->cpus, (unsigned long long)p->ram,
		(unsigned long long)m->ram_pages, (unsigned long long)p->swap);
	json_str(out, p->disk.model);
	fprintf(out, ", \"wmark_min\": %llu, \"wmark_low\": %llu, \"wmark_high\": %llu},\n",
		(unsigned long long)m->mm.zones[0].wmark_min, (unsigned long long)m->mm.zones[0].wmark_low,
		(unsigned long long)m->mm.zones[0].wmark_high);
	fprintf(out, "  \"policy\": ");
	json_str(out, ri->policy);
	fprintf(out, ",\n  \"seed\": %llu,\n  \"finished\": %s,\n  \"stopped\": %s,\n  \"simulated_s\": %.9f,\n  \"workloads\": [",
		(unsigned long long)ri->seed, m->live_user == 0 ? "true" : "false",
		m->interrupted ? (m->interrupted == SIGTERM ? "\"SIGTERM\"" : "\"SIGINT\"")
		: m->timed_out ? "\"max-time\"" : "null", (double)m->now / 1e9);
	for (int w = 0; w < m->nr_wls; w++) {
		struct time_figures tf;
		workload_times(m, w, &tf);
		fprintf(out, "%s\n    {\"command\": ", w ? "," : "");
		json_str(out, m->wls[w].cmd);
		fprintf(out, ", \"user_s\": %.6f, \"system_s\": %.6f, \"elapsed_s\": %.6f, \"cpu_pct\": %u, \"majflt\": %llu, \"minflt\": %llu, \"swaps\": %llu, \"killed\": %s, \"signal\": %s, \"finished\": %s",
			tf.user, tf.sys, tf.elapsed, tf.cpu_pct, (unsigned long long)tf.majflt,
			(unsigned long long)tf.minflt, (unsigned long long)tf.swaps,
			tf.killed ? "true" : "false",
			!tf.killed ? "null" : m->wls[w].signal == SIGBUS ? "\"SIGBUS\"" : "\"SIGKILL\"",
			m->wls[w].live == 0 ? "true" : "false");
		json_tasks(m, w, out);
		fputc('}', out);
	}
	fprintf(out, "\n  ],\n  \"vmstat\": [");
	struct sample_iter it;
	struct vmstat_sample cur;
	machine_samples_rewind(m, &it);
	for (uint64_t i = 0; !ri->hide_vmstat && machine_sample_next(&it, &cur); i++) {
		const struct vmstat_sample *s = &cur;
		fprintf(out, "%s\n    {\"t\": %.3f, \"r\": %u, \"b\": %u, \"swpd\": %llu, \"free\": %llu, \"buff\": %llu, \"cache\": %llu, \"inact\": %llu, \"active\": %llu, \"si\": %llu, \"so\": %llu, \"bi\": %llu, \"bo\": %llu, \"in\": %llu, \"cs\": %llu, \"us\": %u, \"sy\": %u, \"id\": %u, \"wa\": %u, \"scan\": %llu}",
			i ? "," : "", (double)s->t / 1e9, s->r, s->b, (unsigned long long)s->swpd,
			(unsigned long long)s->free, (unsigned long long)s->buff, (unsigned long long)s->cache,
			(unsigned long long)s->inact, (unsigned long long)s->active,
			(unsigned long long)s->si, (unsigned long long)s->so, (unsigned long long)s->bi,
			(unsigned long long)s->bo, (unsigned long long)s->in, (unsigned long long)s->cs,
			s->us, s->sy, s->id, s->wa, (unsigned long long)s->scan);
	}
	fprintf(out, "\n  ],\n  \"kthreads\": [");
	int firstk = 1;
	for (int i = 0; i < m->nr_tasks; i++) {
		if (!m->tasks[i].kthread)
			continue;
		fprintf(out, "%s\n    {\"comm\": ", firstk ? "" : ",");
		json_str(out, m->tasks[i].comm);
		fprintf(out, ", \"cpu_s\": %.6f}", task_seconds(m->tasks[i].utime + m->tasks[i].stime));
		firstk = 0;
	}
	fprintf(out, "\n  ],\n  \"messages\": [");
	int first = 1;
	for (uint64_t i = 0; i < m->nr_log; i++) {
		if (m->log[i].kind != LOG_KERNEL)
			continue;
		fprintf(out, "%s\n    {\"t\": %.6f, \"text\": ", first ? "" : ",", (double)m->log[i].t / 1e9);
		json_str(out, m->log[i].text);
		fputc('}', out);
		first = 0;
	}
	fprintf(out, "\n  ],\n  \"counters\": {\"nr_free_pages\": %llu, \"nr_anon_pages\": %llu, \"nr_mlock\": %llu, \"nr_writeback\": %llu, \"nr_file_pages\": %llu, \"nr_dirty\": %llu",
		(unsigned long long)m->mm.nr_free, (unsigned long long)m->mm.nr_anon,
		(unsigned long long)m->mm.nr_mlock, (unsigned long long)m->mm.nr_writeback,
		(unsigned long long)m->mm.nr_file, (unsigned long long)m->mm.nr_dirty);
	struct lru_sizes lz;
	mm_lru_sizes(&m->mm, &lz);
	fprintf(out, ", \"nr_inactive_anon\": %llu, \"nr_active_anon\": %llu, \"nr_inactive_file\": %llu, \"nr_active_file\": %llu",
		(unsigned long long)lz.inactive_anon, (unsigned long long)lz.active_anon,
		(unsigned long long)lz.inactive_file, (unsigned long long)lz.active_file);
	for (int i = 0; i < NR_VM_EVENTS; i++)
		fprintf(out, ", \"%s\": %llu", vm_event_names[i], (unsigned long long)m->mm.ev[i]);
	fprintf(out, "}");
	if (m->mm.memcg.limit)
		report_memcg_json(m, out);
	fputs(",\n  \"reclaim_work\": ", out);
	report_work_json(&m->mm.work, out);
	json_provenance(m, ri, out);
	fprintf(out, "\n}\n");
}
