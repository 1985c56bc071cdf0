/* kernel.c - pagelab kernel: run workloads natively on the host kernel in
 * a memory cgroup and with a swapfile of their own (src/native/, through
 * the kernel executor src/engine/kexec.h, as sweep --executor kernel), and
 * report in pagelab run's shapes: the workload's own lines, zsh's and GNU
 * time's lines, `name value` counters (deltas of /proc/vmstat), or --json
 * with run's keys ("workloads", "counters", "seed", "finished"). */
#define _GNU_SOURCE
#include "cli.h"
#include "../workload/wlist.h"
#include "../native/native.h"
#include "../native/calibrate.h"
#include "../report/report.h"
#include "../engine/kexec.h"
#include "../engine/record.h"
#include "../engine/stats.h"
#include "../lib/json.h"
#include "../lib/util.h"
#include "../lib/version.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

struct host {
	char release[128];
	long cpus;
	uint64_t ram;
	const char *lru;
};

/* The host's reclaim settings, as --json's machine parameters: the kernel
 * side's counterpart of a simulated profile's parameters. */
static const char *const host_settings[] = {
	"/proc/sys/vm/swappiness", "/proc/sys/vm/page-cluster", "/proc/sys/vm/min_free_kbytes",
	"/proc/sys/vm/watermark_scale_factor", "/proc/sys/vm/watermark_boost_factor",
	"/proc/sys/vm/overcommit_memory", "/proc/sys/vm/dirty_ratio", "/proc/sys/vm/dirty_background_ratio",
	"/proc/sys/vm/vfs_cache_pressure", "/sys/kernel/mm/transparent_hugepage/enabled",
	"/sys/kernel/mm/lru_gen/enabled",
};

/* FILE's first line; for a "[choice]" list the chosen word. */
static bool read_setting(const char *file, char *buf, size_t len)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return false;
	bool ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return false;
	buf[strcspn(buf, "\n")] = 0;
	char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = 0;
		memmove(buf, open + 1, strlen(open + 1) + 1);
	}
	return true;
}

static void json_host_params(const struct host *h, FILE *out)
{
	fprintf(out, "{\"cpus\": \"%ld\", \"ram\": \"%llu\"", h->cpus, (unsigned long long)h->ram);
	for (size_t i = 0; i < sizeof(host_settings) / sizeof(host_settings[0]); i++) {
		char v[128];
		if (!read_setting(host_settings[i], v, sizeof(v)))
			continue;
		/* /proc/sys/vm/page-cluster -> vm.page-cluster; sysfs by its folder */
		const char *p = host_settings[i], *name = strstr(p, "/proc/sys/") ? p + 10 : p + 5;
		char key[96];
		snprintf(key, sizeof(key), "%s", name);
		for (char *c = key; *c; c++)
			*c = *c == '/' ? '.' : *c;
		fputs(", ", out);
		json_str(out, key);
		fputs(": ", out);
		json_str(out, v);
	}
	fputc('}', out);
}

static void host_info(struct host *h)
{
	struct utsname u;
	snprintf(h->release, sizeof(h->release), "%s", uname(&u) ? "?" : u.release);
	h->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	h->ram = host_memory_bytes();
	/* CONFIG_LRU_GEN shows as /sys/kernel/mm/lru_gen. */
	h->lru = access("/sys/kernel/mm/lru_gen/enabled", F_OK) ? "classic split LRU" : "MGLRU (lru_gen)";
}

static void time_figs(const struct nwl_result *w, struct time_figures *tf)
{
	memset(tf, 0, sizeof(*tf));
	tf->user = w->user_s;
	tf->sys = w->sys_s;
	tf->elapsed = w->elapsed_s;
	tf->cpu_pct = w->elapsed_s > 0 ? (unsigned)((w->user_s + w->sys_s) * 100 / w->elapsed_s) : 0;
	tf->majflt = w->majflt;
	tf->minflt = w->minflt;
	/* Linux's getrusage() counts no swaps (GNU time prints 0 there too);
	 * pswpin/pswpout below are the kernel's counts. */
	tf->swaps = 0;
	tf->killed = w->killed;
}

struct kopts {
	uint64_t limit, swap, seed;
	struct nzram_spec zram;  /* --swap zram:...; size 0: a swapfile */
	bool cold;
	uint64_t warm;           /* --warm: bytes warmed first (0: the default) */
	bool disk_probe;         /* --disk-probe */
	struct nknobs knobs;     /* --set */
	const char *cg_spec[CG_MAX]; /* --cgroup, as given */
	int ncg_spec;
	struct cg_tree_conf tree; /* ... as the simulator reads them */
	struct ntree ntree;      /* ... and the host's files for them */
	int cg_version;
	int argc;                /* the command line, for --json */
	char **argv;
};

/* A disk probe's line (none: nothing): 4 KiB writes and fsync(), 1 MiB
 * reads (--help). */
static void put_probe_line(FILE *out, const char *when, const struct ndisk_rates *d)
{
	if (d->bytes)
		fprintf(out, "pagelab: disk probe %s: %llu MiB written at %.0f MB/s, read at %.0f MB/s\n", when,
			(unsigned long long)(d->bytes >> 20), d->write_bps / 1e6, d->read_bps / 1e6);
}

/* The same as a record's "kernel" holds it (record.c), a line of its own. */
static void put_probe_json(FILE *out, const char *indent, const char *key, const struct ndisk_rates *d)
{
	if (!d->bytes)
		return;
	fprintf(out, "%s  ", indent);
	record_put_probe(out, key, d);
	fputs(",\n", out);
}

static void print_text(const struct host *h, const struct kopts *o, const struct kexec_work *s,
		       const struct nrun *r, FILE *out)
{
	fprintf(out, "pagelab: kernel Linux %s, %ld CPUs, %llu MiB RAM, %s\n", h->release, h->cpus,
		(unsigned long long)(h->ram >> 20), h->lru);
	char sw[16];
	snprintf(sw, sizeof(sw), r->swappiness >= 0 ? "%d" : "?", r->swappiness);
	char dev[64];
	if (r->has_zram)
		snprintf(dev, sizeof(dev), "zram %llu MiB %s", (unsigned long long)(r->zram.disksize >> 20),
			 r->zram.algo);
	else
		snprintf(dev, sizeof(dev), "swapfile %llu MiB", (unsigned long long)(o->swap >> 20));
	char warm[48] = "";
	if (r->warmed)
		snprintf(warm, sizeof(warm), "; warmed %llu MiB", (unsigned long long)(r->warm_bytes >> 20));
	fprintf(out, "pagelab: memcg v%d limit %llu MiB, swappiness %s; %s; seed %llu%s\n", o->cg_version,
		(unsigned long long)(o->limit >> 20), sw, dev, (unsigned long long)o->seed,
		r->warmed ? warm : o->cold ? "; cold" : "");
	put_probe_line(out, "before", &r->disk);
	put_probe_line(out, "after", &r->disk_after);
	/* The other --set knobs, as the cgroup's files held them at the end. */
	for (int i = 0; i < o->knobs.n; i++)
		if (strcmp(nknob_name(o->knobs.idx[i]), "swappiness"))
			fprintf(out, "pagelab: memcg %s %s\n", nknob_file(o->knobs.idx[i]), r->knob[i]);
	char buf[1024];
	for (int w = 0; w < r->nwl; w++) {
		const struct nwl_result *x = &r->wl[w];
		struct time_figures tf;
		time_figs(x, &tf);
		fputs(x->output, out);
		if (x->killed)
			fprintf(out, "zsh: killed     %s\n", s->wl[w].cmd);
		format_zsh_time(buf, sizeof(buf), s->wl[w].cmd, &tf);
		fprintf(out, "%s\n", buf);
		format_gnu_time(buf, sizeof(buf), &tf);
		fprintf(out, "%s\n", buf);
	}
	if (r->timed_out)
		fprintf(out, "pagelab: stopped at the --timeout\n");
	fprintf(out, "# cgroup\n");
	fprintf(out, "memcg_peak_bytes %llu\n", (unsigned long long)r->peak_bytes);
	fprintf(out, "memcg_oom_kill %llu\n", (unsigned long long)r->oom_kills);
	if (r->psi_some_us >= 0)
		fprintf(out, "psi_memory_some_us %lld\npsi_memory_full_us %lld\n", (long long)r->psi_some_us,
			(long long)r->psi_full_us);
	for (int i = 0; i < r->memstat.n; i++)
		fprintf(out, "memcg.%s %lld\n", r->memstat.name[i], (long long)r->memstat.val[i]);
	for (int i = 0; i < r->traced.n; i++)
		fprintf(out, "traced.%s %lld\n", r->traced.name[i], (long long)r->traced.val[i]);
	kernel_tree_text(&o->ntree, r, out);
	if (r->has_zram) {
		fprintf(out, "# zram\n");
		for (int i = 0; i < r->zram.stat.n; i++)
			fprintf(out, "%s %lld\n", r->zram.stat.name[i], (long long)r->zram.stat.val[i]);
	}
	fprintf(out, "# /proc/vmstat\n");
	for (int i = 0; i < r->vmstat.n; i++)
		fprintf(out, "%s %lld\n", r->vmstat.name[i], (long long)r->vmstat.val[i]);
}

/* Each task as time(1) would show it alone (run --json's "tasks", the one
 * writer); swaps is 0 as in the workload's line: Linux does not count
 * them. */
static void json_tasks(const struct nwl_result *r, FILE *out)
{
	struct task_times *t = xcalloc((size_t)r->ntasks + 1, sizeof(*t));
	for (int i = 0; i < r->ntasks; i++) {
		const struct wl_task_result *x = &r->tasks[i];
		t[i] = (struct task_times){ .user_s = x->user_s, .sys_s = x->sys_s, .elapsed_s = x->elapsed_s,
					    .majflt = x->majflt, .minflt = x->minflt };
	}
	report_json_tasks(t, r->ntasks, out);
	free(t);
}

/* What the host's scheduler did with each task (schedinfo.c): when it
 * started and ended, its run-queue wait, the CPU it ended on, its
 * migrations.  Tasks alone on a CPU end first (docs/fidelity.md). */
static void json_sched(const struct nwl_result *r, FILE *out)
{
	fputs(", \"sched\": [", out);
	for (int i = 0; i < r->ntasks; i++) {
		const struct ntask_sched *x = &r->sched[i];
		fprintf(out, "%s{\"start_s\": %.6f, \"end_s\": %.6f, \"runq_wait_s\": %.6f, \"cpu\": %d, "
			"\"migrations\": %llu}", i ? ", " : "", x->start_s, x->end_s, x->runq_wait_s, x->cpu,
			(unsigned long long)x->migrations);
	}
	fputc(']', out);
}

static void print_json(const struct host *h, const struct kopts *o, const struct kexec_work *s,
		       const struct nrun *r, FILE *out, const char *indent)
{
	fprintf(out, "%s{\n%s  \"pagelab_version\": ", indent, indent);
	json_str(out, pagelab_version());
	fprintf(out, ",\n%s  \"command\": [", indent);
	for (int i = 0; i < o->argc; i++) {
		fputs(i ? ", " : "", out);
		json_str(out, o->argv[i]);
	}
	fprintf(out, "],\n%s  \"kernel\": {\"release\": ", indent);
	json_str(out, h->release);
	fprintf(out, ", \"cpus\": %ld, \"ram_bytes\": %llu, \"lru\": ", h->cpus, (unsigned long long)h->ram);
	json_str(out, h->lru);
	fprintf(out, "},\n%s  \"machine_params\": ", indent);
	json_host_params(h, out);
	fprintf(out, ",\n%s  \"memcg\": {\"version\": %d, \"limit_bytes\": %llu, \"swap_bytes\": %llu, "
		"\"peak_bytes\": %llu, \"oom_kill\": %llu, \"swappiness\": %d, \"set\": {", indent, o->cg_version,
		(unsigned long long)o->limit, (unsigned long long)o->swap, (unsigned long long)r->peak_bytes,
		(unsigned long long)r->oom_kills, r->swappiness);
	for (int i = 0; i < o->knobs.n; i++) {
		fputs(i ? ", " : "", out);
		json_str(out, nknob_file(o->knobs.idx[i]));
		fputs(": ", out);
		json_str(out, r->knob[i]);
	}
	fputs("}},\n", out);
	fprintf(out, "%s  \"warmed\": %s,\n", indent, r->warmed ? "true" : "false");
	if (r->warmed)
		fprintf(out, "%s  \"warm_bytes\": %llu,\n", indent, (unsigned long long)r->warm_bytes);
	put_probe_json(out, indent, "disk_probe", &r->disk);
	put_probe_json(out, indent, "disk_probe_after", &r->disk_after);
	fprintf(out, "%s  \"seed\": %llu,\n%s  \"finished\": %s,\n%s  \"elapsed_s\": %.6f,\n", indent,
		(unsigned long long)o->seed, indent, r->timed_out ? "false" : "true", indent, r->elapsed_s);
	fprintf(out, "%s  \"psi\": {\"memory_some_us\": %lld, \"memory_full_us\": %lld},\n", indent,
		(long long)r->psi_some_us, (long long)r->psi_full_us);
	fprintf(out, "%s  \"workloads\": [", indent);
	for (int w = 0; w < r->nwl; w++) {
		struct time_figures tf;
		time_figs(&r->wl[w], &tf);
		fprintf(out, "%s\n%s    {\"command\": ", w ? "," : "", indent);
		json_str(out, s->wl[w].cmd);
		fprintf(out, ", \"user_s\": %.6f, \"system_s\": %.6f, \"elapsed_s\": %.6f, \"cpu_pct\": %u, "
			"\"majflt\": %llu, \"minflt\": %llu, \"swaps\": 0, \"killed\": %s, \"finished\": %s, \"output\": ",
			tf.user, tf.sys, tf.elapsed, tf.cpu_pct, (unsigned long long)tf.majflt,
			(unsigned long long)tf.minflt, tf.killed ? "true" : "false", tf.killed ? "false" : "true");
		json_str(out, r->wl[w].output);
		json_tasks(&r->wl[w], out);
		report_figures_json(&r->wl[w].figs, out);
		json_sched(&r->wl[w], out);
		fputc('}', out);
	}
	fprintf(out, "\n%s  ],\n%s  \"memory_stat\": {", indent, indent);
	for (int i = 0; i < r->memstat.n; i++)
		fprintf(out, "%s\"%s\": %lld", i ? ", " : "", r->memstat.name[i], (long long)r->memstat.val[i]);
	fprintf(out, "},\n%s  \"traced\": {", indent);
	for (int i = 0; i < r->traced.n; i++)
		fprintf(out, "%s\"%s\": %lld", i ? ", " : "", r->traced.name[i], (long long)r->traced.val[i]);
	fputs("},\n", out);
	if (r->ncg) {
		fprintf(out, "%s  \"cgroups\": ", indent);
		kexec_tree_json(out, &o->ntree, r->cg, r->ncg);
		fputs(",\n", out);
	}
	if (r->has_zram) {
		fprintf(out, "%s  \"zram\": {\"algorithm\": ", indent);
		json_str(out, r->zram.algo);
		fprintf(out, ", \"disksize\": %llu", (unsigned long long)r->zram.disksize);
		for (int i = 0; i < r->zram.stat.n; i++)
			fprintf(out, ", \"%s\": %lld", r->zram.stat.name[i], (long long)r->zram.stat.val[i]);
		fputs("},\n", out);
	}
	fprintf(out, "%s  \"counters\": {", indent);
	for (int i = 0; i < r->vmstat.n; i++)
		fprintf(out, "%s\"%s\": %lld", i ? ", " : "", r->vmstat.name[i], (long long)r->vmstat.val[i]);
	fprintf(out, "}\n%s}", indent);
}

/* Median, min and max of v[0..n) (sorts v). */
static void stats3(double *v, int n, double *med, double *lo, double *hi)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double_asc);
	*lo = v[0];
	*hi = v[n - 1];
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The summary of --repeat: per workload its times and faults, then every
 * counter, each as median, min and max over the runs. */
static void print_summary(const struct kexec_work *s, const struct nrun *runs, int n, bool json, FILE *out)
{
	double *v = xcalloc((size_t)n, sizeof(double));
	double med, lo, hi;
	static const char *const wf[] = { "elapsed_s", "user_s", "system_s", "majflt", "minflt" };
	if (json)
		fprintf(out, ",\n  \"summary\": {\"runs\": %d, \"workloads\": [", n);
	else
		fprintf(out, "# median min max over %d runs\n", n);
	for (int w = 0; w < s->nwl; w++) {
		if (json) {
			fprintf(out, "%s\n    {\"command\": ", w ? "," : "");
			json_str(out, s->wl[w].cmd);
		} else {
			fprintf(out, "# %s\n", s->wl[w].cmd);
		}
		for (size_t f = 0; f < ARRAY_SIZE(wf); f++) {
			for (int i = 0; i < n; i++) {
				const struct nwl_result *x = &runs[i].wl[w];
				double fv[] = { x->elapsed_s, x->user_s, x->sys_s, (double)x->majflt, (double)x->minflt };
				v[i] = fv[f];
			}
			stats3(v, n, &med, &lo, &hi);
			if (json)
				fprintf(out, ", \"%s\": {\"median\": %.6f, \"min\": %.6f, \"max\": %.6f}", wf[f], med, lo, hi);
			else
				fprintf(out, f < 3 ? "%s %.2f %.2f %.2f\n" : "%s %.0f %.0f %.0f\n", wf[f], med, lo, hi);
		}
		if (json)
			fputc('}', out);
	}
	if (json)
		fprintf(out, "\n  ], \"counters\": {");
	else
		fprintf(out, "# /proc/vmstat\n");
	const struct nstat *names = &runs[0].vmstat;
	for (int c = 0; c < names->n; c++) {
		for (int i = 0; i < n; i++)
			v[i] = (double)nstat_get(&runs[i].vmstat, names->name[c]);
		stats3(v, n, &med, &lo, &hi);
		if (json)
			fprintf(out, "%s\"%s\": {\"median\": %.1f, \"min\": %.0f, \"max\": %.0f}", c ? ", " : "",
				names->name[c], med, lo, hi);
		else
			fprintf(out, "%s %.1f %.0f %.0f\n", names->name[c], med, lo, hi);
	}
	if (json)
		fprintf(out, "}}");
	free(v);
}

struct kernel_args {
	struct kopts o;
	uint64_t repeat, timeout_ns;
	bool json;
};

static int size_opt(void *dest, const struct opt *o, const char *typed, const char *value);
static int knob_opt(void *dest, const struct opt *o, const char *typed, const char *value);
static int cgroup_opt(void *dest, const struct opt *o, const char *typed, const char *value);
static int tlb_cost_opt(void *dest, const struct opt *o, const char *typed, const char *value);
static int calibrate_opt(void *dest, const struct opt *o, const char *typed, const char *value);
static int host_opt(void *dest, const struct opt *o, const char *typed, const char *value);

#define AT(f) offsetof(struct kernel_args, f)
static const struct opt kernel_table[] = {
	{ "--memcg", NULL, OPT_CALL, AT(o.limit), "LIMIT", .call = size_opt,
	  .help = "the cgroup's memory limit (default 512M; at most half\nof the host's RAM)" },
	{ "--swap", NULL, OPT_CALL, AT(o.swap), "SIZE", .call = size_opt,
	  .help = "swapfile size (default 512M; 0: no swapfile), or\n"
	  "zram:SIZE[,algo=NAME]: a zram device of the run's own\n"
	  "instead (its mm_stat and io_stat under # zram);\n"
	  "writeback (backing=...) is refused: simulation-only" },
	{ "--repeat", NULL, OPT_U64, AT(repeat), "N", 1, 1000, "(1..1000)",
	  .help = "run N times; print each run and median/min/max" },
	{ "--timeout", NULL, OPT_DURATION, AT(timeout_ns), "T", .range = "(seconds)",
	  .help = "kill the workload after T seconds (default 600)" },
	{ "--seed", NULL, OPT_U64, AT(o.seed), "N", 0, (double)UINT64_MAX,
	  .help = "the workloads' random seed, as in pagelab run (default 1)" },
	{ "--set", NULL, OPT_CALL, AT(o.knobs), "NAME=VALUE", .call = knob_opt,
	  .help = "a knob of the run's own cgroup (repeatable).  cgroup v1:\n"
	  "swappiness=0..200 (default 60), memory.soft_limit_in_bytes,\n"
	  "memory.memsw.limit_in_bytes (>= --memcg; default\n"
	  "unlimited).  v2: memory.high, memory.low, memory.min,\n"
	  "memory.swap.max (default max), memory.swap.high,\n"
	  "memory.zswap.max (a size or max), memory.zswap.writeback\n"
	  "(0/1); v2 has no per-cgroup swappiness.  Sizes as\n"
	  "--memcg.  Another host's knob: refused (docs/native.md)" },
	{ "--cgroup", NULL, OPT_CALL, AT(o), "PATH[:KEY=VALUE,...]", .call = cgroup_opt,
	  .help = "a cgroup below the run's own (repeatable; a\n"
	  "workload runs in it with a last word @PATH), as\n"
	  "pagelab run --cgroup: max, high, low, min, swap.max,\n"
	  "swappiness, oom.group, each as this host's file (v1:\n"
	  "max, swappiness), and the --set knobs of its version\n"
	  "(v1: memory.soft_limit_in_bytes,\n"
	  "memory.memsw.limit_in_bytes).  A key the host lacks:\n"
	  "refused.  Each cgroup's counters under # cgroup PATH.\n"
	  "memreclaim, senpai and oomd act on v2's\n"
	  "memory.reclaim, memory.pressure and cgroup.kill\n"
	  "(each in a leaf @PATH); v1 lacks them: refused" },
	{ "--json", NULL, OPT_FLAG, AT(json), .help = "print everything as JSON" },
	{ "--cold", NULL, OPT_FLAG, AT(o.cold), .help = "in a guest whose host takes its free pages back (a\n"
	  "virtio balloon's free page reporting), do not warm\nthem first: by default the limit and every file page\n"
	  "the run may cache (at most half of RAM) are touched\n(in 2 MiB huge pages where THP allows) and freed just\n"
	  "before each run, so that it meets no faults in the\nhost (docs/native.md)" },
	{ "--warm", NULL, OPT_CALL, AT(o.warm), "SIZE", .call = size_opt, .help = "warm SIZE instead of the default "
	  "(at most half of\nthe host's RAM)" },
	{ "--disk-probe", NULL, OPT_FLAG, AT(o.disk_probe), .help = "before and after each run, measure the disk:\n128 MiB "
	  "written in 4 KiB calls and fsync()ed, read\nback cold in 1 MiB calls, in a cgroup of its own (~1 s\neach; "
	  "compare's kernel runs always do: it simulates\na case on their median, docs/native.md)" },
	{ "--tlb-cost", NULL, OPT_CALL, 0, .call = tlb_cost_opt, .help = "run no workload: measure what one remote "
	  "TLB flush\ncosts here (~4 s, no cgroup, no root) and print it\nas pagelab run's --set arguments (0 where "
	  "there is\nnone to measure: one CPU, not x86; why on stderr;\nthe share of flushes that became IPIs too)" },
	{ "--host", NULL, OPT_CALL, 0, .call = host_opt, .help = "run no workload: print the host settings a run "
	  "here\nrecords (its \"host\" object: CPUs, kernel release, the\nswap disk's queue, the dirty sysctls) "
	  "as JSON" },
	{ "--calibrate", NULL, OPT_CALL, 0, "FILE", .call = calibrate_opt, .help = "run no workload: measure "
	  "what the operations pagelab\ncharges CPU time for cost here (microbenchmarks, ~3 s),\nand as root "
	  "the kernel paths (unmap, swap-out, O_DIRECT\nrequests, buffered writes, ~6 s in a cgroup and\nswapfile of its own),\n"
	  "print them and write them to FILE as a machine profile\nfor --machine FILE (docs/cost.md)" },
	{ "--calibrate-user", NULL, OPT_CALL, 0, "FILE", .call = calibrate_opt, .help = "--calibrate without "
	  "the kernel paths: the user-space\nmicrobenchmarks only (no root, no cgroup, no lock)" },
	{ .kind = OPT_END },
};

const struct opt_cmd kernel_cmd = {
	.name = "kernel",
	.usage =
"usage: pagelab kernel [OPTIONS] WORKLOAD [ARGS] [+ WORKLOAD [ARGS]]...\n"
"Run pagelab's workloads as real processes on this host's kernel, inside a\n"
"memory cgroup and with a swapfile of their own, and print what the kernel\n"
"counted, in the shapes of pagelab run.  Needs root.  One run at a time:\n"
"a second one waits.  Everything it creates is removed on every way out.\n"
"\n",
	.opts = kernel_table,
	.col = 20,
	.after =
"\n"
"Workloads run natively: usemem, mtest01, qsbench, memeater, workingset,\n"
"fileio, dd (of files, not /dev/sda), mmap001, trace, and the others whose\n"
"ops map to syscalls (docs/native.md).  Files a workload reads but none\n"
"creates (dd if=FILE) are made first, uncached.  Beside the host's\n"
"/proc/vmstat and the cgroup's memory.stat, traced.* lines give the cgroup's\n"
"own reclaim and activations, from tracepoints (tracefs is mounted for the\n"
"run if it is not; docs/native.md).\n"
"Exit status: 0 on success, 1 if a workload failed, 2 on bad input or a\n"
"refusal (no root, no memory controller, a limit too big, no room for the\n"
"swapfile, no zram), 3 on --timeout; killed by SIGINT/SIGTERM after cleaning up.\n",
	.prefix = "",
	.unknown = "unknown option '%s' (see pagelab kernel --help)",
	.mode = OPT_LEADING,
};

/* --memcg LIMIT (room for the program itself) and --swap SIZE or
 * zram:SIZE[,algo=NAME] (src/native/zram.c). */
static int size_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	uint64_t b;
	char err[256];
	if (o->name[2] == 's') {
		struct kernel_args *ka = (struct kernel_args *)((char *)dest - offsetof(struct kernel_args, o.swap));
		int z = native_zram_parse(value, &ka->o.zram, err, sizeof(err));
		if (z < 0)
			die_usage("%s", err);
		if (z > 0) {
			ka->o.swap = ka->o.zram.size;
			return OPT_GO;
		}
	}
	if (!parse_size(value, &b) || b > (1ULL << 50))
		die_usage("bad size '%s' for %s", value, typed);
	if (o->name[2] == 'm' && b < (16ULL << 20))
		die_usage("--memcg %s: a limit below 16 MiB leaves no room for the program itself", value);
	if (o->name[2] == 's' && b && b < (1ULL << 20))
		die_usage("--swap %s: a swapfile needs at least 1 MiB (or 0 for none)", value);
	if (o->name[2] == 'w' && b < (1ULL << 20))
		die_usage("--warm %s: at least 1 MiB (--cold warms none)", value);
	*(uint64_t *)dest = b;
	return OPT_GO;
}

/* --set NAME=VALUE: a knob of the run's own cgroup (src/native/knobs.c). */
static int knob_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	char err[512] = "";
	(void)o;
	(void)typed;
	if (!nknob_parse(dest, value, err, sizeof(err)))
		die_usage("%s", err);
	return OPT_GO;
}

/* --cgroup SPEC: kept as given; read once all are (kernel_workloads()). */
static int cgroup_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	struct kopts *k = dest;
	(void)o;
	(void)typed;
	if (k->ncg_spec == CG_MAX)
		die_usage("kernel: more than %d --cgroup", CG_MAX);
	k->cg_spec[k->ncg_spec++] = value;
	return OPT_GO;
}

/* --tlb-cost: the host's remote TLB flush (src/native/tlbprobe.c). */
static int tlb_cost_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	uint64_t send = 0, recv = 0;
	double share = 0;
	char why[256];
	(void)dest;
	(void)o;
	(void)typed;
	(void)value;
	if (!nhost_tlb_ipi_cost(&send, &recv, &share, why, sizeof(why)))
		fprintf(stderr, "pagelab: kernel: --tlb-cost: %s\n", why);
	else /* the rest were left to the hypervisor (kvm_flush_tlb_multi) */
		fprintf(stderr, "pagelab: kernel: --tlb-cost: %.2f IPIs taken per flush aimed at the busy CPU\n",
			share);
	printf("--set cost.tlb_ipi=%lluns --set cost.tlb_ipi_recv=%lluns\n", (unsigned long long)send,
	       (unsigned long long)recv);
	return 0;
}

/* --host: this host's settings as a run records them (record.c), so
 * that a test can write a record of this host without reading them in
 * a second way. */
static int host_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	struct nhost_settings h;
	(void)dest;
	(void)o;
	(void)typed;
	(void)value;
	nhost_settings_read(&h, "/proc/sys");
	record_put_host(stdout, &h);
	putchar('\n');
	return 0;
}

/* --calibrate FILE, --calibrate-user FILE: the host's costs
 * (src/native/calibrate.c). */
static int calibrate_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	(void)dest;
	(void)typed;
	return cal_run(value, !strcmp(o->name, "--calibrate"));
}

/* The workloads of the run (kexec.h: parsed, seeded as pagelab run seeds
 * them, created once and the files they read planned); false when a
 * workload's --help was asked for (and printed). */
static bool kernel_workloads(struct kexec_work *kw, struct kopts *o, int argc, char **argv)
{
	char err[512] = "";
	int version = ncg_host_version();
	if (o->ncg_spec && !kexec_tree_build(o->cg_spec, o->ncg_spec, version, o->limit, &o->tree, &o->ntree, err,
					     sizeof(err)))
		die_usage("%s", err);
	if (!kexec_work_prepare_tree(kw, &o->tree, argc, argv, true, o->seed, o->limit, o->swap, err, sizeof(err)))
		die_usage("%s", err);
	if (kw->wll.help) {
		kw->wll.help->help(stdout);
		kexec_work_free(kw);
		return false;
	}
	/* The knobs against this host's cgroup version: no root needed. */
	if (o->knobs.n && !nknob_check(&o->knobs, version, o->limit, err, sizeof(err)))
		die_usage("%s", err);
	if (!kexec_tree_places(&o->tree, version, kw->place, kw->nwl, err, sizeof(err)))
		die_usage("%s", err);
	return true;
}

/* Root, limits within half the host's RAM, and a memory controller. */
static void kernel_host_checks(const struct host *h, struct kopts *o, struct ncgroup *cg)
{
	char err[512];
	if (geteuid() != 0)
		die_usage("kernel: needs root (it creates a memory cgroup and a swapfile)");
	if (h->ram && o->limit > h->ram / 2)
		die_usage("kernel: --memcg %llu MiB is above half of this host's %llu MiB of RAM",
			  (unsigned long long)(o->limit >> 20), (unsigned long long)(h->ram >> 20));
	if (h->ram && o->swap > h->ram / 2)
		die_usage("kernel: --swap %llu MiB is above half of this host's %llu MiB of RAM",
			  (unsigned long long)(o->swap >> 20), (unsigned long long)(h->ram >> 20));
	if (h->ram && o->warm > h->ram / 2)
		die_usage("kernel: --warm %llu MiB is above half of this host's %llu MiB of RAM",
			  (unsigned long long)(o->warm >> 20), (unsigned long long)(h->ram >> 20));
	if (o->warm && o->cold)
		die_usage("kernel: --warm and --cold: choose one");
	if (!ncg_detect(cg, err, sizeof(err)))
		die_usage("%s", err);
	if (o->zram.size && !nzram_available(err, sizeof(err)))
		die_usage("%s", err);
	o->cg_version = cg->version;
}

/* --repeat runs (fewer if one is stopped), each printed as it ends, then
 * the summary; the exit status, *done the runs made. */
static int kernel_runs(const struct kernel_args *ka, const struct host *h, struct kexec_work *s,
		       const struct kexec_opts *ko, struct nrun *runs, int *done)
{
	char err[512] = "";
	uint64_t repeat = ka->repeat;
	int rc = 0;
	if (ka->json && repeat > 1)
		printf("{\n  \"runs\": [\n");
	for (uint64_t k = 0; k < repeat; k++) {
		if (repeat > 1 && isatty(2))
			fprintf(stderr, "pagelab: kernel: run %llu of %llu\n", (unsigned long long)k + 1,
				(unsigned long long)repeat);
		if (!kexec_session_run(s, ko, &runs[k], err, sizeof(err)))
			die_usage("%s", err);
		++*done;
		const struct nrun *r = &runs[k];
		if (repeat > 1 && !ka->json)
			printf("# run %llu of %llu\n", (unsigned long long)k + 1, (unsigned long long)repeat);
		if (ka->json) {
			print_json(h, &ka->o, s, r, stdout, repeat > 1 ? "  " : "");
			fputs(repeat > 1 && k + 1 < repeat ? ",\n" : "\n", stdout);
		} else {
			print_text(h, &ka->o, s, r, stdout);
		}
		if (r->err[0]) {
			fprintf(stderr, "pagelab: %s\n", r->err);
			rc = 1;
		}
		if (r->stop_signal || r->timed_out)
			break;
	}
	if (ka->json && repeat > 1) {
		printf("  ]");
		if (*done > 1)
			print_summary(s, runs, *done, true, stdout);
		printf("\n}\n");
	} else if (*done > 1) {
		print_summary(s, runs, *done, false, stdout);
	}
	fflush(stdout);
	return rc;
}

int cmd_kernel(int argc, char **argv)
{
	struct kernel_args ka = { .o = { .limit = 512ULL << 20, .swap = 512ULL << 20, .seed = 1, .argc = cli_argc,
					 .argv = cli_argv },
				  .repeat = 1, .timeout_ns = 600ULL * 1000000000ULL };
	int i, rc = opt_parse(&kernel_cmd, argc, argv, &ka, &i);
	if (rc != OPT_GO)
		return rc;
	if (i >= argc)
		die_usage("kernel: no workload given (see pagelab workloads)");
	struct kexec_work kw;
	if (!kernel_workloads(&kw, &ka.o, argc - i, argv + i))
		return 0;
	struct host h;
	host_info(&h);
	struct ncgroup cg;
	kernel_host_checks(&h, &ka.o, &cg);
	struct nguard *g = kexec_guard();
	struct kexec_opts ko = { .limit = ka.o.limit, .swap = ka.o.swap, .timeout_ns = ka.timeout_ns, .guard = g,
				 .cold = ka.o.cold, .warm = ka.o.warm, .knobs = &ka.o.knobs, .zram = ka.o.zram.size ? &ka.o.zram : NULL,
				 .tree = ka.o.ntree.n ? &ka.o.ntree : NULL, .disk_probe = ka.o.disk_probe };
	struct nrun *runs = xcalloc(ka.repeat, sizeof(*runs));
	int done = 0;
	rc = kernel_runs(&ka, &h, &kw, &ko, runs, &done);
	const struct nrun *last = &runs[done - 1];
	int sig = last->stop_signal;
	bool timed_out = last->timed_out;
	for (int k = 0; k < done; k++)
		nrun_free(&runs[k]);
	free(runs);
	kexec_work_free(&kw);
	nguard_cleanup(g);
	if (sig) {
		fprintf(stderr, "pagelab: kernel: stopped by signal %d; the cgroup, swapfile and files are removed\n", sig);
		nguard_reraise(sig);
	}
	if (timed_out) {
		fprintf(stderr, "pagelab: kernel: timed out after %g s; the workload was killed and everything removed\n",
			(double)ka.timeout_ns / 1e9);
		return 3;
	}
	return rc;
}
