/* fio_out.c - the fio workload's timing and output: each I/O's completion
 * latency from its OP_MARK, and fio 3.x's result shape (stat.c:
 * show_ddir_status, show_clat_percentiles, show_run_stats; num2str's four
 * significant digits: "IOPS=19.6k", "BW=76.6MiB/s (80.4MB/s)"); and its
 * figures of merit for the records (fio_figures). */
#include "fio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void fio_mark(void *p, int task, uint32_t id, uint64_t now, uint64_t cpu)
{
	struct fio *f = p;
	struct fio_task *t = &f->t[task];
	(void)cpu;
	t->stop = now >= FIO_FAR_FUTURE;
	if (id == 0) {
		t->start_ns = t->last_ns = t->now_ns = now;
		return;
	}
	wl_hist_add(&t->lat[id - 1], now - t->last_ns);
	t->last_ns = t->now_ns = now;
	t->marks++;
}

/* fio's num2str: at most 4 integer digits, else the next unit up with
 * the decimals that fit in 4 characters. */
static void num(char *b, size_t n, double v, bool bin, const char *const *units)
{
	int i = 0;
	while (v >= 9999.5 && units[i + 1]) {
		v /= bin ? 1024 : 1000;
		i++;
	}
	int dec = i == 0 || v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
	snprintf(b, n, "%.*f%s", dec, v, units[i]);
}

static const char *const U_IOPS[] = { "", "k", "M", "G", NULL };
static const char *const U_BIN[] = { "B", "KiB", "MiB", "GiB", "TiB", NULL };
static const char *const U_DEC[] = { "B", "kB", "MB", "GB", "TB", NULL };

/* What one job (or a group of them) did in one direction. */
struct dstat {
	uint64_t ios, bytes, run_ns;
	struct wl_hist lat;
};

static unsigned long long usec(double ns)
{
	return (unsigned long long)((ns + 500) / 1000);
}

static void clat_lines(FILE *out, const struct wl_hist *lat)
{
	static const double pct[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
				      99.95, 99.99 };
	size_t np = sizeof(pct) / sizeof(pct[0]);
	/* fio scales the percentiles so that they fit their 5 columns. */
	double div = usec((double)wl_hist_pct(lat, pct[np - 1])) > 99999 ? 1e6 : 1e3;
	fprintf(out, "    clat (usec): min=%llu, max=%llu, avg=%.2f, stdev=%.2f\n", usec((double)lat->min),
		usec((double)lat->max), wl_hist_avg(lat) / 1000, wl_hist_stdev(lat) / 1000);
	fprintf(out, "    clat percentiles (%s):\n", div > 1e3 ? "msec" : "usec");
	for (size_t i = 0; i < np; i++)
		fprintf(out, "%s %5.2fth=[%5llu]%s", i % 4 ? "" : "     |", pct[i],
			(unsigned long long)(((double)wl_hist_pct(lat, pct[i]) + div / 2) / div),
			i + 1 == np ? "\n" : i % 4 == 3 ? ",\n" : ",");
}

static void ddir_block(FILE *out, const char *dname, struct dstat *d)
{
	char iops[32], bw[32], bwd[32], io[32];
	double s = (double)d->run_ns / 1e9;
	num(iops, sizeof(iops), s > 0 ? (double)d->ios / s : 0, false, U_IOPS);
	num(bw, sizeof(bw), s > 0 ? (double)d->bytes / s : 0, true, U_BIN);
	num(bwd, sizeof(bwd), s > 0 ? (double)d->bytes / s : 0, false, U_DEC);
	num(io, sizeof(io), (double)d->bytes, true, U_BIN);
	fprintf(out, "  %s: IOPS=%s, BW=%s/s (%s/s)(%s/%llumsec)\n", dname, iops, bw, bwd, io,
		(unsigned long long)((d->run_ns + 500000) / 1000000));
	clat_lines(out, &d->lat);
}

/* A task's runtime: from its start mark to its last I/O's, or (marks
 * lost: the native executor keeps 65536 a run) its elapsed time. */
static uint64_t task_run_ns(const struct fio_task *t, const struct wl_task_result *r)
{
	if (t->marks == t->ios[0] + t->ios[1] && t->marks)
		return t->last_ns - t->start_ns;
	return (uint64_t)(r->elapsed_s * 1e9);
}

/* Jobs [j0, j1) as one block: fio's per-job (or group_reporting) lines. */
static void job_block(struct fio *f, const struct wl_task_result *r, int j0, int j1, FILE *out)
{
	struct dstat *d = xcalloc(2, sizeof(*d));
	double user = 0, sys = 0;
	uint64_t majf = 0, minf = 0, run = 0;
	for (int j = j0; j < j1; j++) {
		struct fio_task *t = &f->t[j];
		uint64_t rn = task_run_ns(t, &r[j]);
		run = MAX(run, rn);
		for (int k = 0; k < 2; k++) {
			d[k].ios += t->ios[k];
			wl_hist_merge(&d[k].lat, &t->lat[k]);
		}
		user += r[j].user_s;
		sys += r[j].sys_s;
		majf += r[j].majflt;
		minf += r[j].minflt;
	}
	fprintf(out, "%s: (groupid=0, jobs=%d): err= 0\n", f->name, j1 - j0);
	for (int k = 0; k < 2; k++) {
		d[k].bytes = d[k].ios * f->bs_pages * PAGE_SIZE;
		d[k].run_ns = run;
		if (d[k].ios)
			ddir_block(out, k ? "write" : "read", &d[k]);
	}
	free(d);
	double rs = (double)run / 1e9;
	fprintf(out, "  cpu          : usr=%.2f%%, sys=%.2f%%, majf=%llu, minf=%llu\n",
		rs > 0 ? 100 * user / rs : 0, rs > 0 ? 100 * sys / rs : 0, (unsigned long long)majf,
		(unsigned long long)minf);
}

/* The group's I/Os in direction k (0 read, 1 write) and its jobs'
 * shortest and longest runtimes: fio's "Run status group" line. */
static uint64_t group_ios(const struct fio *f, const struct wl_task_result *r, int k, uint64_t *lo,
			  uint64_t *hi)
{
	uint64_t ios = 0;
	*lo = UINT64_MAX;
	*hi = 0;
	for (uint32_t j = 0; j < f->numjobs; j++) {
		uint64_t rn = task_run_ns(&f->t[j], &r[j]);
		ios += f->t[j].ios[k];
		*lo = MIN(*lo, rn);
		*hi = MAX(*hi, rn);
	}
	return ios;
}

static void group_lines(struct fio *f, const struct wl_task_result *r, FILE *out)
{
	fputs("\nRun status group 0 (all jobs):\n", out);
	for (int k = 0; k < 2; k++) {
		uint64_t lo, hi, ios = group_ios(f, r, k, &lo, &hi);
		if (!ios)
			continue;
		double bytes = (double)(ios * f->bs_pages * PAGE_SIZE), s = (double)hi / 1e9;
		char bw[32], bwd[32], io[32], iod[32];
		num(bw, sizeof(bw), s > 0 ? bytes / s : 0, true, U_BIN);
		num(bwd, sizeof(bwd), s > 0 ? bytes / s : 0, false, U_DEC);
		num(io, sizeof(io), bytes, true, U_BIN);
		num(iod, sizeof(iod), bytes, false, U_DEC);
		fprintf(out, "  %s: bw=%s/s (%s/s), io=%s (%s), run=%llu-%llumsec\n", k ? "WRITE" : " READ",
			bw, bwd, io, iod, (unsigned long long)((lo + 500000) / 1000000),
			(unsigned long long)((hi + 500000) / 1000000));
	}
}

void fio_report_tasks(void *p, const struct wl_task_result *r, int ntasks, FILE *out)
{
	struct fio *f = p;
	(void)ntasks;
	fprintf(out, "%s: (g=0): rw=%s, bs=(R) %lluB-%lluB, ioengine=%s, iodepth=1\n", f->name,
		fio_rw_names[f->rw], (unsigned long long)(f->bs_pages * PAGE_SIZE),
		(unsigned long long)(f->bs_pages * PAGE_SIZE), f->mmap ? "mmap" : f->pvsync2 ? "pvsync2" : "psync");
	fprintf(out, "Starting %u process%s\n", f->numjobs, f->numjobs > 1 ? "es" : "");
	uint32_t layouts = fio_reads(f) ? (f->filename ? 1 : f->numjobs) : 0;
	for (uint32_t j = 0; j < layouts; j++) {
		if (f->nrfiles == 1)
			fprintf(out, "%s: Laying out IO file (1 file / %lluMiB)\n", f->name,
				(unsigned long long)(f->file_pages >> 8));
		else
			fprintf(out, "%s: Laying out IO files (%u files / total %lluMiB)\n", f->name,
				f->nrfiles, (unsigned long long)(f->file_pages * f->nrfiles >> 8));
	}
	if (f->group)
		job_block(f, r, 0, (int)f->numjobs, out);
	else
		for (uint32_t j = 0; j < f->numjobs; j++)
			job_block(f, r, (int)j, (int)j + 1, out);
	group_lines(f, r, out);
}

/* Per direction with I/O: the group's IOPS (its I/Os over its longest
 * job's runtime, as the job block's "IOPS=" with group_reporting or one
 * job) and the median and 99th percentile of the completion latency of
 * all its jobs, in usec (the "clat percentiles" lines, unrounded).  The
 * bandwidth is the IOPS times --bs: the same change, so not another
 * figure. */
void fio_figures(void *p, const struct wl_task_result *r, int ntasks, struct wl_figures *out)
{
	static const char *const dname[2] = { "read", "write" };
	struct fio *f = p;
	struct wl_hist *lat = xcalloc(1, sizeof(*lat));
	(void)ntasks;
	for (int k = 0; k < 2; k++) {
		uint64_t lo, hi, ios = group_ios(f, r, k, &lo, &hi);
		char name[WL_FIGURE_NAME];
		if (!ios)
			continue;
		memset(lat, 0, sizeof(*lat));
		for (uint32_t j = 0; j < f->numjobs; j++)
			wl_hist_merge(lat, &f->t[j].lat[k]);
		double s = (double)hi / 1e9;
		snprintf(name, sizeof(name), "%s_iops", dname[k]);
		wl_figure_add(out, name, s > 0 ? (double)ios / s : 0, true);
		snprintf(name, sizeof(name), "%s_clat_p50_us", dname[k]);
		wl_figure_add(out, name, (double)wl_hist_pct(lat, 50) / 1e3, false);
		snprintf(name, sizeof(name), "%s_clat_p99_us", dname[k]);
		wl_figure_add(out, name, (double)wl_hist_pct(lat, 99) / 1e3, false);
	}
	free(lat);
}
