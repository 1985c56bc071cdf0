/* record.c - writing and reading results lines (record.h). */
#include "record.h"
#include "../cachesim/marks.h"
#include "kexec.h"
#include "../lib/util.h"
#include "../lib/version.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* %.9g keeps every figure a run prints (times to the microsecond up to
 * 1000 s) and reads back to the same double on every host. */
static void put_num(FILE *out, double v)
{
	if (!isfinite(v))
		fputs("null", out);
	else
		fprintf(out, "%.9g", v);
}

/* "name": value, ... of a kernel's counters (no braces). */
static void put_nstat(FILE *out, const struct nstat *st)
{
	for (int i = 0; i < st->n; i++)
		fprintf(out, "%s\"%s\": %lld", i ? ", " : "", st->name[i], (long long)st->val[i]);
}

/* {...}: what a run ran on (native.h nhost_settings), each figure known;
 * read back by compare (kcompare_rechost.c). */
void record_put_host(FILE *out, const struct nhost_settings *h)
{
	fputc('{', out);
	const char *sep = "";
	if (h->cpus > 0)
		fprintf(out, "\"cpus\": %ld", h->cpus), sep = ", ";
	if (h->release[0]) {
		fprintf(out, "%s\"release\": ", sep);
		json_put_str(out, h->release);
		sep = ", ";
	}
	if (h->swap_rotational >= 0)
		fprintf(out, "%s\"swap_rotational\": %d", sep, h->swap_rotational), sep = ", ";
	if (h->read_ahead_kb >= 0)
		fprintf(out, "%s\"read_ahead_kb\": %ld", sep, h->read_ahead_kb), sep = ", ";
	for (int i = 0; i < NHOST_DIRTY_SETTINGS; i++)
		if (h->dirty[i] >= 0)
			fprintf(out, "%s\"%s\": %lld", sep, nhost_dirty_name(i), h->dirty[i]), sep = ", ";
	if (h->dirtyable_kb >= 0)
		fprintf(out, "%s\"dirtyable_kb\": %lld", sep, h->dirtyable_kb);
	fputc('}', out);
}

bool record_put_probe(FILE *out, const char *key, const struct ndisk_rates *d)
{
	if (!d->bytes)
		return false;
	fprintf(out, "\"%s\": {\"bytes\": %llu, \"write_bps\": %.0f, \"read_bps\": %.0f}", key,
		(unsigned long long)d->bytes, d->write_bps, d->read_bps);
	return true;
}

/* After the kernel's counters (its /proc/vmstat deltas): what else it
 * counted, as "kernel": {...}. */
static void put_kernel(FILE *out, const struct kernel_result *k)
{
	fprintf(out, "}, \"kernel\": {\"cgroup_version\": %d, \"warmed\": %s, \"peak_bytes\": %llu, "
		"\"oom_kill\": %llu, ", k->cg_version, k->warmed ? "true" : "false",
		(unsigned long long)k->peak_bytes, (unsigned long long)k->oom_kills);
	if (k->warmed && k->warm_bytes)
		fprintf(out, "\"warm_bytes\": %llu, ", (unsigned long long)k->warm_bytes);
	if (k->loadavg >= 0)
		fprintf(out, "\"loadavg\": %.2f, ", k->loadavg);
	if (record_put_probe(out, "disk_probe", &k->disk))
		fputs(", ", out);
	if (record_put_probe(out, "disk_probe_after", &k->disk_after))
		fputs(", ", out);
	fputs("\"memory_stat\": {", out);
	put_nstat(out, &k->memstat);
	fputs("}, \"traced\": {", out);
	put_nstat(out, &k->traced);
	fputc('}', out);
	if (k->ncg) {
		fputs(", \"cgroups\": ", out);
		kexec_tree_json(out, &k->tree, k->cg, k->ncg);
	}
	if (k->has_host) {
		fputs(", \"host\": ", out);
		record_put_host(out, &k->host);
	}
	if (k->has_zram) {
		fputs(", \"zram\": {\"algorithm\": ", out);
		json_put_str(out, k->zram.algo);
		fprintf(out, ", \"disksize\": %llu%s", (unsigned long long)k->zram.disksize, k->zram.stat.n ? ", " : "");
		put_nstat(out, &k->zram.stat);
		fputc('}', out);
	}
	fputc('}', out);
}

char *record_format(const struct record_meta *m, const struct run_result *rr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		panic("open_memstream: out of memory");
	fprintf(out, "{\"cell\": %d, \"cmd\": ", m->cell);
	json_put_str(out, m->cmd);
	fprintf(out, ", \"version\": ");
	json_put_str(out, pagelab_version());
	fprintf(out, ", \"design\": ");
	json_put_str(out, m->design);
	fprintf(out, ", \"config\": ");
	json_put_str(out, m->config);
	fprintf(out, ", \"seed\": %llu, \"params\": {", (unsigned long long)m->seed);
	for (int i = 0; i < m->nr_params; i++) {
		fprintf(out, "%s", i ? ", " : "");
		json_put_str(out, m->param_names[i]);
		fputs(": ", out);
		json_put_str(out, m->param_values[i]);
	}
	fputc('}', out);
	if (m->kernel)
		fputs(", \"executor\": \"kernel\"", out);
	if (rr->available && !rr->kernel) {
		fputs(", \"machine_params\": ", out);
		profile_json(&rr->prof, out);
	}
	fprintf(out, ", \"available\": %s", rr->available ? "true" : "false");
	if (!rr->available) {
		fprintf(out, ", \"why\": ");
		json_put_str(out, rr->why);
		fputs("}\n", out);
		fclose(out);
		return buf;
	}
	double elapsed = 0, user = 0, sys = 0;
	bool killed = false;
	for (int w = 0; w < rr->nr_wl; w++) {
		const struct time_figures *tf = &run_wl_c(rr, w)->tf;
		elapsed = tf->elapsed > elapsed ? tf->elapsed : elapsed;
		user += tf->user;
		sys += tf->sys;
		killed |= tf->killed;
	}
	/* A run whose workload the OOM killer ended did not finish its work
	 * (rr->finished only says no workload was left running, as the
	 * kernel executor's o->done already does): compare counts it among
	 * the runs that did not finish. */
	fprintf(out, ", \"finished\": %s, \"timed_out\": %s, \"check_failed\": %s, \"simulated_s\": ",
		rr->finished && !killed ? "true" : "false", rr->timed_out ? "true" : "false", rr->check_failed ? "true" : "false");
	put_num(out, (double)rr->sim_ns / 1e9);
	fputs(", \"elapsed_s\": ", out);
	put_num(out, elapsed);
	fputs(", \"user_s\": ", out);
	put_num(out, user);
	fputs(", \"sys_s\": ", out);
	put_num(out, sys);
	fprintf(out, ", \"swap_peak_kb\": %llu, \"workloads\": [", (unsigned long long)rr->swap_peak_kb);
	for (int w = 0; w < rr->nr_wl; w++) {
		const struct wl_result *x = run_wl_c(rr, w);
		fprintf(out, "%s{\"command\": ", w ? ", " : "");
		json_put_str(out, x->cmd);
		fputs(", \"elapsed_s\": ", out);
		put_num(out, x->tf.elapsed);
		fputs(", \"user_s\": ", out);
		put_num(out, x->tf.user);
		fputs(", \"sys_s\": ", out);
		put_num(out, x->tf.sys);
		fprintf(out, ", \"majflt\": %llu, \"minflt\": %llu, \"swaps\": %llu, \"killed\": %s, \"done\": %s",
			(unsigned long long)x->tf.majflt, (unsigned long long)x->tf.minflt,
			(unsigned long long)x->tf.swaps, x->tf.killed ? "true" : "false", x->done ? "true" : "false");
		report_figures_json(&x->figs, out);
		fputc('}', out);
	}
	fputs("], \"counters\": {", out);
	if (rr->kernel) {
		put_nstat(out, &rr->kernel->vmstat);
		put_kernel(out, rr->kernel);
	} else {
		for (int i = 0; i < NR_VM_EVENTS; i++)
			fprintf(out, "%s\"%s\": %llu", i ? ", " : "", vm_event_names[i],
				(unsigned long long)rr->ev[i]);
		fputs("}, \"reclaim_work\": ", out);
		report_work_json(&rr->work, out);
		if (rr->nr_cg) {
			fputs(", \"cgroups\": ", out);
			report_cgroups_json(rr, out);
		}
		/* a zram device at its fullest, keyed as run --json's: compare
		 * reads it beside the kernel's (kcompare_table.c) */
		if (rr->nr_zram_full)
			report_memstat_json(", \"zram\": {", rr->zram_full, rr->nr_zram_full, out);
	}
	if (m->marks)
		marks_json(out, m->marks, m->marks_refs, m->marks_misses, ", ");
	if (m->marks_why) {
		fputs(", \"marks_why\": ", out);
		json_put_str(out, m->marks_why);
	}
	fputs("}\n", out);
	fclose(out);
	return buf;
}

bool record_parse(const char *line, struct record *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	char jerr[120];
	r->j = json_parse(line, strlen(line), jerr, sizeof(jerr));
	if (!r->j) {
		snprintf(err, errlen, "not JSON: %s", jerr);
		return false;
	}
	double cell, seed;
	r->cmd = json_get_str(r->j, "cmd");
	r->design = json_get_str(r->j, "design");
	r->config = json_get_str(r->j, "config");
	if (!r->cmd || !r->design || !r->config || !json_get_num(r->j, "cell", &cell) ||
	    !json_get_num(r->j, "seed", &seed) || cell < 0 || cell > 1e9 || seed < 0 || seed > 1.8e19) {
		snprintf(err, errlen, "not a pagelab result (needs cell, cmd, design, config, seed)");
		json_free(r->j);
		r->j = NULL;
		return false;
	}
	r->cell = (int)cell;
	r->seed = (uint64_t)seed;
	r->line = xstrdup(line);
	return true;
}

void record_free(struct record *r)
{
	json_free(r->j);
	free(r->line);
	memset(r, 0, sizeof(*r));
}

/* One line of f into *buf (NUL-terminated, without its newline), as
 * getline() but bounded: a results file that never ends (/dev/zero, a
 * line of a corrupt file) stops at RECORD_LINE_MAX bytes.  Returns 1 for
 * a line, 0 at end of file, -1 on a read error (errno), -2 on a line too
 * long, -3 on a NUL byte in it (no text: a record would be read up to
 * the NUL).  *complete: the line ended in '\n'. */
static int read_line(FILE *f, char **buf, size_t *cap, size_t *len, bool *complete)
{
	size_t n = 0;
	int c;
	bool nul = false;
	*complete = false;
	errno = 0;
	while ((c = getc_unlocked(f)) != EOF) {
		if (c == '\n') {
			*complete = true;
			break;
		}
		if (n == RECORD_LINE_MAX)
			return -2;
		if (n + 1 >= *cap) {
			*cap = *cap ? *cap * 2 : 256;
			*buf = xrealloc(*buf, *cap);
		}
		nul |= c == 0;
		(*buf)[n++] = (char)c;
	}
	if (c == EOF && ferror(f))
		return -1;
	if (c == EOF && !n)
		return 0;
	if (!*buf)
		*buf = xmalloc(*cap = 1);
	(*buf)[n] = 0;
	*len = n;
	return nul ? -3 : 1;
}

bool records_load(const char *path, struct records *rs, bool missing_ok, long *partial_at,
		  char *err, size_t errlen)
{
	if (partial_at)
		*partial_at = -1;
	FILE *f = fopen(path, "r");
	if (!f) {
		if (missing_ok && errno == ENOENT)
			return true;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return false;
	}
	char *line = NULL;
	size_t cap = 0, n = 0;
	long lineno = 0, off = 0;
	bool ok = true, complete;
	int got;
	while ((got = read_line(f, &line, &cap, &n, &complete)) > 0) {
		lineno++;
		if (!complete) {
			/* unfinished: the writer was stopped mid-line */
			if (partial_at)
				*partial_at = off;
			break;
		}
		off += (long)n + 1;
		if (n && line[n - 1] == '\r')
			line[n - 1] = 0;
		if (!line[0])
			continue;
		struct record r;
		char e[200];
		if (!record_parse(line, &r, e, sizeof(e))) {
			snprintf(err, errlen, "%s:%ld: %s", path, lineno, e);
			ok = false;
			break;
		}
		rs->r = xrealloc(rs->r, (size_t)(rs->n + 1) * sizeof(*rs->r));
		rs->r[rs->n++] = r;
	}
	if (got == -2) {
		snprintf(err, errlen, "%s:%ld: line longer than %u bytes", path, lineno + 1, RECORD_LINE_MAX);
		ok = false;
	} else if (got == -3) {
		snprintf(err, errlen, "%s:%ld: a NUL byte: not a results file", path, lineno + 1);
		ok = false;
	} else if (got == -1) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
		ok = false;
	}
	free(line);
	fclose(f);
	return ok;
}

void records_free(struct records *rs)
{
	for (int i = 0; i < rs->n; i++)
		record_free(&rs->r[i]);
	free(rs->r);
	rs->r = NULL;
	rs->n = 0;
}

static int cmp_cmd(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	int c = strcmp(x->cmd, y->cmd);
	/* equal commands keep file order, so the first one is found */
	return c ? c : (x < y ? -1 : x > y);
}

void records_sort_cmd(struct records *rs)
{
	if (rs->n > 1)
		qsort(rs->r, (size_t)rs->n, sizeof(*rs->r), cmp_cmd);
}

const struct record *records_find_cmd(const struct records *rs, const char *cmd)
{
	int lo = 0, hi = rs->n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(rs->r[mid].cmd, cmd) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rs->n && !strcmp(rs->r[lo].cmd, cmd) ? &rs->r[lo] : NULL;
}

static bool counter(const struct record *r, const char *name, double *v)
{
	return json_get_num(json_get(r->j, "counters"), name, v);
}

static bool ratio(double a, double b, double scale, double *v)
{
	if (b <= 0)
		return false;
	*v = a / b * scale;
	return true;
}

/* The anon + file pairs memory.stat sums (mm/memcontrol.c's pgscan,
 * pgsteal; workingset_refault as before 5.9 split it). */
static bool sum_pair(const struct record *r, const char *name, double *v)
{
	static const char *const pairs[][3] = {
		{ "pgscan", "pgscan_anon", "pgscan_file" },
		{ "pgsteal", "pgsteal_anon", "pgsteal_file" },
		{ "workingset_refault", "workingset_refault_anon", "workingset_refault_file" },
	};
	double a, b;
	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++)
		if (!strcmp(name, pairs[k][0]) && counter(r, pairs[k][1], &a) && counter(r, pairs[k][2], &b)) {
			*v = a + b;
			return true;
		}
	return false;
}

/* elapsed_s.K: workload K's (from 0) own elapsed time. */
static bool workload_elapsed(const struct record *r, const char *k, double *v)
{
	const struct json *w = json_get(r->j, "workloads");
	char *end;
	long i = strtol(k, &end, 10);
	if (!w || w->type != JSON_ARR || end == k || *end || i < 0 || i >= w->n || k[0] == '+' || k[0] == ' ')
		return false;
	return json_get_num(&w->items[i], "elapsed_s", v);
}

const char *const record_csv_metrics[] = {
	"elapsed_s", "user_s", "sys_s", "pgmajfault", "pswpin", "pswpout",
	"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "pgsteal_direct",
	"kswapd_efficiency", "direct_reclaim", "scan_velocity",
	"swapin_mbs", "swapout_mbs", "majflt_per_s", NULL,
};

bool record_metric(const struct record *r, const char *name, double *v)
{
	bool avail = false;
	if (!json_get_bool(r->j, "available", &avail) || !avail)
		return false;
	if (json_get_num(r->j, name, v) && strcmp(name, "cell") && strcmp(name, "seed"))
		return true;
	if (counter(r, name, v))
		return true;
	/* reclaim's work, counted (src/mm/work.h): the row's total */
	if (json_get_num(json_get(json_get(r->j, "reclaim_work"), "total"), name, v))
		return true;
	double el = 0, a = 0, b = 0, c = 0, d = 0;
	if (sum_pair(r, name, v))
		return true;
	if (!strncmp(name, "elapsed_s.", 10))
		return workload_elapsed(r, name + 10, v);
	if (record_figure(r, name, v))
		return true;
	if (!strncmp(name, "cgroup.", 7))
		return record_cgroup_metric(r, name, v);
	json_get_num(r->j, "elapsed_s", &el);
	const double mb = (double)PAGE_SIZE / (1 << 20);
	if (!strcmp(name, "kswapd_efficiency"))
		return counter(r, "pgsteal_kswapd", &a) && counter(r, "pgscan_kswapd", &b) && ratio(a, b, 100, v);
	if (!strcmp(name, "direct_reclaim"))
		return counter(r, "pgsteal_direct", &a) && counter(r, "pgsteal_kswapd", &b) &&
		       ratio(a, a + b, 100, v);
	if (!strcmp(name, "scan_velocity"))
		return counter(r, "pgscan_kswapd", &a) && counter(r, "pgscan_direct", &b) && ratio(a + b, el, 1, v);
	if (!strcmp(name, "swapin_mbs"))
		return counter(r, "pswpin", &c) && ratio(c * mb, el, 1, v);
	if (!strcmp(name, "swapout_mbs"))
		return counter(r, "pswpout", &c) && ratio(c * mb, el, 1, v);
	if (!strcmp(name, "majflt_per_s"))
		return counter(r, "pgmajfault", &d) && ratio(d, el, 1, v);
	return false;
}

/* A record's command line and position: sorted, the first of equal
 * command lines comes first. */
struct cmd_at {
	const char *cmd;
	int i;
};

static int cmp_cmd_at(const void *a, const void *b)
{
	const struct cmd_at *x = a, *y = b;
	int c = strcmp(x->cmd, y->cmd);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

int records_dedupe(struct records *rs)
{
	if (rs->n < 2)
		return 0;
	struct cmd_at *ix = xmalloc((size_t)rs->n * sizeof(*ix));
	bool *drop = xcalloc((size_t)rs->n, sizeof(*drop));
	for (int i = 0; i < rs->n; i++)
		ix[i] = (struct cmd_at){ rs->r[i].cmd, i };
	qsort(ix, (size_t)rs->n, sizeof(*ix), cmp_cmd_at);
	for (int i = 1; i < rs->n; i++)
		drop[ix[i].i] = !strcmp(ix[i].cmd, ix[i - 1].cmd);
	int k = 0;
	for (int i = 0; i < rs->n; i++) {
		if (drop[i])
			record_free(&rs->r[i]);
		else
			rs->r[k++] = rs->r[i];
	}
	int dropped = rs->n - k;
	rs->n = k;
	free(drop);
	free(ix);
	return dropped;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct record *x = *(const struct record *const *)a, *y = *(const struct record *const *)b;
	if (x->cell != y->cell)
		return x->cell < y->cell ? -1 : 1;
	int c = strcmp(x->cmd, y->cmd);
	return c ? c : (x < y ? -1 : x > y);
}

const struct record **records_by_cell(const struct records *rs)
{
	const struct record **p = xcalloc((size_t)rs->n + 1, sizeof(*p));
	for (int i = 0; i < rs->n; i++)
		p[i] = &rs->r[i];
	qsort(p, (size_t)rs->n, sizeof(*p), cmp_cell);
	return p;
}

void records_mixed(const struct records *rs, char *buf, size_t len)
{
	buf[0] = 0;
	const char *v0 = NULL;
	for (int i = 0; i < rs->n && !buf[0]; i++) {
		const char *v = json_get_str(rs->r[i].j, "version");
		if (!v)
			v = "(none)";
		if (!v0)
			v0 = v;
		else if (strcmp(v, v0))
			snprintf(buf, len, "the records come from different pagelab versions (%s, %s)", v0, v);
	}
	if (buf[0] || rs->n < 2)
		return;
	/* One sweep gives each cell number one command line. */
	const struct record **p = records_by_cell(rs);
	for (int i = 1; i < rs->n && !buf[0]; i++)
		if (p[i]->cell == p[i - 1]->cell && strcmp(p[i]->cmd, p[i - 1]->cmd))
			snprintf(buf, len, "the records come from different sweeps (cell %d has two command lines)",
				 p[i]->cell);
	free(p);
}
