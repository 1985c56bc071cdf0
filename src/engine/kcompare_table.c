/* kcompare_table.c - compare -- WORKLOAD's table from the records of
 * its two sides (kcompare.h).  Counters the kernel leaves out of cgroup
 * limit reclaim (pgscan/pgsteal_kswapd/direct, allocstall, pgrefill:
 * 6.x's "if (!cgroup_reclaim(sc))") are listed as such, never compared. */
#include "kcompare.h"
#include "stats.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Field NAME of a zram object: "mm_stat.NAME" or "io_stat.NAME". */
static bool zram_get(const struct json *z, const char *name, double *v)
{
	char key[64];
	snprintf(key, sizeof(key), "mm_stat.%s", name);
	if (json_get_num(z, key, v))
		return true;
	snprintf(key, sizeof(key), "io_stat.%s", name);
	return json_get_num(z, key, v);
}

/* A counter of a record: "memcg.NAME" the kernel cgroup's memory.stat,
 * "traced.NAME" its tracepoints' counts, "zram.NAME" its zram device's
 * mm_stat or io_stat (a simulator's record: its own "zram" object, keyed
 * as pagelab run --json's, when it models the device), any other its
 * counters. */
static double counters_get(const struct record *r, const char *name, bool *found)
{
	const struct json *kern = json_get(r->j, "kernel"), *from = json_get(r->j, "counters");
	double v = 0;
	if (!strncmp(name, "zram.", 5)) {
		bool f = zram_get(json_get(kern ? kern : r->j, "zram"), name + 5, &v);
		if (found)
			*found = f;
		return f ? v : 0;
	}
	if (!strncmp(name, "memcg.", 6)) {
		from = json_get(kern, "memory_stat");
		name += 6;
	} else if (!strncmp(name, "traced.", 7)) {
		from = json_get(kern, "traced");
		name += 7;
	}
	if (name[0] == '/') {   /* a cgroup's row (kcompare_cgroups.c) */
		bool f = kcmp_cgroup_get(r, name, &v);
		if (found)
			*found = f;
		return f ? v : 0;
	}
	bool f = from && json_get_num(from, name, &v);
	if (found)
		*found = f;
	return f ? v : 0;
}

/* What is compared, in this order; not_counted: not counted by the kernel
 * under cgroup limit reclaim. */
static const struct { const char *name; bool not_counted; } rows[] = {
	{ "pgfault", 0 }, { "pgmajfault", 0 }, { "pswpin", 0 }, { "pswpout", 0 },
	{ "pgpgin", 0 }, { "pgpgout", 0 },
	{ "pgscan_anon", 0 }, { "pgscan_file", 0 }, { "pgsteal_anon", 0 }, { "pgsteal_file", 0 },
	{ "pgactivate", 0 }, { "pgdeactivate", 0 }, { "pgrotated", 0 },
	{ "swap_ra", 0 }, { "swap_ra_hit", 0 },
	{ "workingset_refault_anon", 0 }, { "workingset_refault_file", 0 },
	{ "workingset_activate_anon", 0 }, { "workingset_activate_file", 0 },
	{ "workingset_restore_anon", 0 }, { "workingset_restore_file", 0 },
	{ "oom_kill", 0 },
	{ "pgscan_kswapd", 1 }, { "pgscan_direct", 1 }, { "pgsteal_kswapd", 1 }, { "pgsteal_direct", 1 },
	{ "allocstall_normal", 1 }, { "pgrefill", 1 },
};
#define NROWS ARRAY_SIZE(rows)

/* After them when the kernel swapped to a zram device (zram.c): its
 * mm_stat and io_stat. */
static const char *const zram_rows[] = {
	"zram.orig_data_size", "zram.compr_data_size", "zram.mem_used_total", "zram.mem_limit",
	"zram.mem_used_max", "zram.same_pages", "zram.pages_compacted", "zram.huge_pages",
	"zram.huge_pages_since", "zram.failed_reads", "zram.failed_writes", "zram.invalid_io",
	"zram.notify_free",
};

static const char *row_name(const struct kcmp *x, size_t k, size_t nzram)
{
	if (k >= NROWS + nzram)
		return x->cgrow[k - NROWS - nzram];
	return k < NROWS ? rows[k].name : zram_rows[k - NROWS];
}

static bool any_zram(const struct record *const *kern, uint64_t repeat)
{
	for (uint64_t r = 0; r < repeat; r++)
		if (json_get(json_get(kern[r]->j, "kernel"), "zram"))
			return true;
	return false;
}

/* The kernel side's /proc/vmstat is the whole host's: on a shared machine
 * other processes' faults and page-cache activations land in it (pgfault
 * was 1.1-1.5 times the workload's pages while other jobs ran).  Where the
 * cgroup's memory.stat has a counter of the same name and meaning, in
 * every run, that is the workload's own and is used instead (cgroup v1:
 * pgfault, pgmajfault, workingset_refault_*; v2 also pgactivate,
 * pgdeactivate, workingset_activate/restore_*).  v1's pgpgin/pgpgout count
 * charges, not I/O: never taken.  Failing that, pgactivate and
 * pgdeactivate come from the tracepoints of the cgroup's own reclaim and
 * activations (src/native/tracer.c), when every run has them.  *src says
 * which: 'm' memory.stat, 't' traced, 0 the host's. */
static bool all_runs_have(const struct record *const *kern, uint64_t repeat, const char *name)
{
	for (uint64_t r = 0; r < repeat; r++) {
		bool found;
		counters_get(kern[r], name, &found);
		if (!found)
			return false;
	}
	return true;
}

/* A row the kernel's /proc/vmstat leaves out of cgroup limit reclaim. */
static bool not_counted(const char *name)
{
	for (size_t k = 0; k < NROWS; k++)
		if (!strcmp(rows[k].name, name))
			return rows[k].not_counted;
	return false;
}

/* Not for a not_counted row: the memcg's own counters count them under
 * limit reclaim too (6.x shrink_inactive_list(): __count_memcg_events()
 * whatever cgroup_reclaim(sc) says), so v2's memory.stat pgscan_direct
 * was the cgroup's whole scan (3247 in tools/v2vm.sh's compare) in a
 * row that says the kernel does not count it. */
static bool own_counter(const struct record *const *kern, uint64_t repeat, const char *name, char *own_name,
			size_t len, char *src)
{
	*src = 0;
	if (!strcmp(name, "pgpgin") || !strcmp(name, "pgpgout") || not_counted(name))
		return false;
	/* With a --cgroup tree the tasks run below the run's own cgroup:
	 * v1's memory.stat NAME counts its own pages only, total_NAME its
	 * subtree's (v2's NAME is recursive already). */
	snprintf(own_name, len, "memcg.total_%s", name);
	if (json_get(json_get(kern[0]->j, "kernel"), "cgroups") && all_runs_have(kern, repeat, own_name)) {
		*src = 'm';
		return true;
	}
	snprintf(own_name, len, "memcg.%s", name);
	if (all_runs_have(kern, repeat, own_name)) {
		*src = 'm';
		return true;
	}
	if (strcmp(name, "pgactivate") && strcmp(name, "pgdeactivate"))
		return false;
	snprintf(own_name, len, "traced.%s", name);
	if (!all_runs_have(kern, repeat, own_name))
		return false;
	*src = 't';
	return true;
}

static enum kcmp_verdict judge(const struct kcmp_row *r, bool not_counted, const struct kcmp_setup *s)
{
	if (not_counted)
		return KCMP_NOT_COUNTED;
	if (!r->kfound || !r->sfound)
		return KCMP_MISSING;
	/* Strictly the tolerance around the kernel's median: the kernel's
	 * min..max is no part of it (with three runs it let most values
	 * agree), and neither is the test beside it. */
	double tol = s->tol / 100;
	bool ok = r->med > 0 ? r->sim / r->med >= 1 - tol && r->sim / r->med <= 1 + tol : r->sim == 0;
	ok |= r->med < s->floor && r->sim < s->floor;
	return ok ? KCMP_YES : KCMP_NO;
}

bool kcmp_p_note(const struct kcmp_setup *s, char *head, size_t headlen, const char **tail)
{
	if (s->repeat < 2 || s->seeds < 2)
		return false;
	bool welch = s->repeat >= 5 && s->seeds >= 5;   /* significance()'s rule */
	snprintf(head, headlen, "p: %s of the %llu kernel runs against the %llu seeds, two-sided;",
		 welch ? "Welch's t-test" : "exact Mann-Whitney U",
		 (unsigned long long)s->repeat, (unsigned long long)s->seeds);
	*tail = "under 0.05, they differ by more than their own spread";
	return true;
}

void kcmp_build(struct kcmp *x, const struct record *const *kern, const struct record *const *sim, int npol,
		const char *const *pol, const struct kcmp_setup *s)
{
	uint64_t repeat = s->repeat, seeds = s->seeds;
	memset(x, 0, sizeof(*x));
	x->npol = npol;
	x->pol = pol;
	size_t nzram = any_zram(kern, repeat) ? ARRAY_SIZE(zram_rows) : 0;
	x->ncgrow = npol ? kcmp_cgroup_rows(kern[0], sim[0], &x->cgrow) : 0;
	size_t nrows = NROWS + nzram + (size_t)x->ncgrow;
	x->nrows = (int)nrows;
	x->row = xcalloc((size_t)npol * nrows, sizeof(*x->row));
	x->agree = xcalloc((size_t)npol, sizeof(int));
	x->compared = xcalloc((size_t)npol, sizeof(int));
	double *v = xcalloc(repeat, sizeof(double)), *sv = xcalloc(seeds, sizeof(double));
	for (size_t k = 0; k < NROWS; k++) {
		char mname[64], src;
		if (!own_counter(kern, repeat, rows[k].name, mname, sizeof(mname), &src))
			continue;
		char *list = src == 'm' ? x->own : x->traced;
		if (strlen(list) + strlen(rows[k].name) + 3 < sizeof(x->own))
			sprintf(list + strlen(list), "%s%s", list[0] ? ", " : "", rows[k].name);
	}
	for (int p = 0; p < npol; p++)
		for (size_t k = 0; k < nrows; k++) {
			struct kcmp_row *r = &x->row[(size_t)p * nrows + k];
			char mname[64], src;
			const char *name = row_name(x, k, nzram);
			const char *kname = own_counter(kern, repeat, name, mname, sizeof(mname), &src) ? mname : name;
			r->name = name;
			for (uint64_t i = 0; i < repeat; i++) {
				bool f;
				v[i] = counters_get(kern[i], kname, &f);
				r->kfound |= f;
			}
			r->med = median_inplace(v, (int)repeat);
			r->kmin = v[0];
			r->kmax = v[repeat - 1];
			for (uint64_t sd = 0; sd < seeds; sd++) {
				bool f;
				sv[sd] = counters_get(sim[(size_t)p * seeds + sd], name, &f);
				r->sfound |= f;
			}
			r->sim = median_inplace(sv, (int)seeds);
			r->verdict = judge(r, k < NROWS && rows[k].not_counted, s);
			r->p = NAN;
			if (r->verdict == KCMP_YES || r->verdict == KCMP_NO)
				r->test = significance(v, (int)repeat, sv, (int)seeds, &r->p);
			x->compared[p] += r->verdict == KCMP_YES || r->verdict == KCMP_NO;
			x->agree[p] += r->verdict == KCMP_YES;
		}
	free(v);
	free(sv);
}

void kcmp_free(struct kcmp *x)
{
	free(x->cgrow);
	free(x->row);
	free(x->agree);
	free(x->compared);
}

/* head, the comma-separated list and tail as one text, folded at 79
 * columns after a comma or a space. */
void kcmp_print_wrapped(const char *head, const char *list, const char *tail)
{
	char text[1024];
	snprintf(text, sizeof(text), "%s%s%s", head, list, tail);
	const char *t = text;
	while (strlen(t) > 79) {
		int cut = 79;
		while (cut > 0 && t[cut] != ' ')
			cut--;
		if (!cut)
			cut = 79;
		printf("%.*s\n", cut, t);
		t += cut + (t[cut] == ' ');
	}
	printf("%s\n", t);
}

/* zram's sizes in bytes are shown in KiB (the row named so), so that the
 * kernel's min..max fits the column. */
static double row_scale(const char *name, char *shown, size_t len)
{
	static const char *const bytes[] = { "zram.orig_data_size", "zram.compr_data_size", "zram.mem_used_total",
					     "zram.mem_limit", "zram.mem_used_max" };
	size_t n = strlen(name);
	for (size_t i = 0; i < ARRAY_SIZE(bytes); i++)
		if (!strcmp(name, bytes[i]) || (name[0] == '/' && n > 5 && !strcmp(name + n - 5, " peak"))) {
			snprintf(shown, len, "%s KiB", name);
			return 1024;
		}
	snprintf(shown, len, "%s", name);
	return 1;
}

static const char *const verdict_names[] = { "yes", "no", "missing", "not counted" };

void kcmp_print(const struct kcmp *x, const struct kcmp_setup *s, const char *cmd)
{
	printf("pagelab compare: %s\n", cmd);
	char setup[800];
	/* Warmed runs first touched no page the host had taken back
	 * (docs/native.md); say so, and when only some were. */
	char some[48] = "";
	if (s->warmed && s->warmed < s->repeat)
		snprintf(some, sizeof(some), ", %llu warmed", (unsigned long long)s->warmed);
	int n = snprintf(setup, sizeof(setup), "memcg %s, swap %s; kernel: %llu %srun%s of pagelab kernel%s%s; pagelab: %s, %llu CPU%s",
			 s->memcg, s->swap, (unsigned long long)s->repeat, s->warmed == s->repeat ? "warmed " : "",
			 s->repeat == 1 ? "" : "s", some,
			 s->cached == s->repeat ? " (cached)" : s->cached ? " (some cached)" : "", s->machine,
			 (unsigned long long)s->cpus, s->cpus == 1 ? "" : "s");
	if (s->sets && s->sets[0] && n > 0 && (size_t)n < sizeof(setup))
		n += snprintf(setup + n, sizeof(setup) - (size_t)n, ", with %s", s->sets);
	if (s->seeds > 1 && n > 0 && (size_t)n < sizeof(setup))
		snprintf(setup + n, sizeof(setup) - (size_t)n, ", median of seeds %llu..%llu",
			 (unsigned long long)s->seed0, (unsigned long long)(s->seed0 + s->seeds - 1));
	kcmp_print_wrapped("", setup, "");
	if (s->fit && s->fit[0])
		kcmp_print_wrapped("", s->fit, "");
	if (x->own[0] || x->traced[0]) {
		char list[600];
		snprintf(list, sizeof(list), "%s%s%s%s%s", x->own[0] ? "the cgroup's own memory.stat for " : "",
			 x->own, x->own[0] && x->traced[0] ? "; " : "",
			 x->traced[0] ? "its tasks' reclaim and folios, traced, for " : "", x->traced);
		kcmp_print_wrapped("kernel: ", list, "; the host's /proc/vmstat for the rest");
	}
	for (int p = 0; p < x->npol; p++) {
		printf("\n# policy %s; within +-%g%% of the kernel's median", x->pol[p], s->tol);
		if (s->floor > 0)
			printf(", or both under %g", s->floor);
		printf("\n");
		char note[160];
		const char *tail;
		bool tested = kcmp_p_note(s, note, sizeof(note), &tail);
		printf("%-24s %26s %9s %5s  %s\n", "counter", "kernel median (min..max)", "pagelab", "ratio",
		       tested ? "within     p" : "within");
		for (int k = 0; k < x->nrows; k++) {
			const struct kcmp_row *r = &x->row[p * x->nrows + k];
			char kcol[64], scol[24], ratio[16], name[48];
			double u = row_scale(r->name, name, sizeof(name));
			if (r->kfound)
				snprintf(kcol, sizeof(kcol), "%.0f (%.0f..%.0f)", r->med / u, r->kmin / u, r->kmax / u);
			else
				snprintf(kcol, sizeof(kcol), "-");
			if (r->sfound)
				snprintf(scol, sizeof(scol), "%.0f", r->sim / u);
			else
				snprintf(scol, sizeof(scol), "-");
			if (r->med > 0 && r->sfound && r->sim / r->med >= 99.995)
				snprintf(ratio, sizeof(ratio), ">99");
			else if (r->med > 0 && r->sfound)
				snprintf(ratio, sizeof(ratio), "%.2f", r->sim / r->med);
			else
				snprintf(ratio, sizeof(ratio), "-");
			if (isnan(r->p))
				printf("%-24s %26s %9s %5s  %s\n", name, kcol, scol, ratio, verdict_names[r->verdict]);
			else
				printf("%-24s %26s %9s %5s  %-6s %5.3f\n", name, kcol, scol, ratio,
				       verdict_names[r->verdict], r->p);
		}
		printf("%d of %d counters within +-%g%%; not counted: the kernel leaves them\n"
		       "out of cgroup limit reclaim (6.x: if (!cgroup_reclaim(sc)))\n", x->agree[p], x->compared[p],
		       s->tol);
		if (tested)
			printf("%s\n%s\n", note, tail);
	}
}
