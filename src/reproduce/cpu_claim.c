/* cpu_claim.c - see cpu_claim.h.  The threads' CPU claims (vhand's share
 * of the CPU in 003, kswapd's load under 2.4.10-pre9 against the classzone
 * VM in 000, the -mm's system time in usemem in 004) are read here from
 * what the run counted, never from the time the run charged: each counted
 * operation (src/mm/work.h, the rows of Linux 6.18's mm/vmscan.c and
 * mm/rmap.c functions, and 2.2/2.4's swap_out_pmd() / try_to_swap_out()
 * walk) times the cost the machine profile charges for it (docs/cost.md,
 * "which rows carry which cost").  The charged time is printed beside it,
 * so that work the breakdown misses shows as a residue.
 *
 * Work with no row is read from the vmstat events that count it: the
 * 2.2/2.4 designs' list scans (shrink_mmap, page_launder,
 * refill_inactive_scan, vhand's aging of mem_map) from pgscan_kswapd,
 * pgscan_direct and pgscan_aging, which count sc->nr_scanned, the pages
 * mm.c charges cost.scan for; a task's faults from pgfault (cost.fault)
 * and its swap-in reads from pswpin (cost.io_submit). */
#include "cpu_claim.h"
#include "exp_named.h"
#include "exp_text.h"
#include "../engine/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The clock of the host the bench figures were measured on (AMD EPYC,
 * 2445 MHz in /proc/cpuinfo, 6 Dec 2026; docs/cost.md) and of each era's
 * profile.  Only figures that are instructions, not memory latency, are
 * scaled by them (a lock and release; PTEs read in order, 8 a line). */
#define HOST_MHZ 2445.0
#define EST_BELOW "est., below" /* a part priced by cpu_era_estimate() */
static const struct { const char *profile; double mhz; const char *why; } era_clock[] = {
	{ "p133-1997", 133, "P133 (thread 003)" },
	{ "athlon-2001", 1200, "1.2 GHz Athlon (assumed, profile.c)" },
	{ "osdl4way-2001", 700, "700 MHz Xeon (assumed)" },
	{ "vmm-2008", 2400, "2.4 GHz Core 2 (assumed)" },
	{ "pe1950-2008", 2330, "2.33 GHz Xeon 5345 (assumed)" },
	{ "modern", HOST_MHZ, "this host" },
};

/* A design whose reclaim counts no isolation row scans lists of its own
 * (2.2/2.4, the textbook policies): its pages scanned are in pgscan_*. */
static bool has_isolation_rows(const struct reclaim_work *wk)
{
	return wk->kept & (WORK_BIT(W_ISOLATE_LRU_FOLIOS) | WORK_BIT(W_ISOLATE_LRU_PAGES) | WORK_BIT(W_ISOLATE_FOLIOS));
}

/* A cache line filled from memory on the era's machine, where a
 * datasheet gives it: what a line reclaim's walks read could cost a
 * workload that then misses on the line it evicted (cache pollution, the
 * cause the 1997 thread's extra user time was put down to). */
static const struct { const char *profile; double ns; const char *why; } era_miss[] = {
	{ "p133-1997", 195, "a 32-byte line in x-2-2-2 clocks of the 66 MHz bus, lead-off 5-7 (430FX, EDO DRAM): "
	  "at most 13 x 15 ns" },
};

static bool era_miss_ns(const struct profile *prof, double *ns, const char **why)
{
	for (size_t i = 0; prof->name && i < sizeof(era_miss) / sizeof(era_miss[0]); i++)
		if (!strcmp(era_miss[i].profile, prof->name)) {
			*ns = era_miss[i].ns;
			*why = era_miss[i].why;
			return true;
		}
	return false;
}

uint64_t cpu_lines_read(const struct run_result *rr, unsigned who)
{
	static const struct { enum work_op w; unsigned per_line; } rows[] = {
		{ W_SWAP_OUT_PTES, 8 }, { W_TRY_TO_SWAP_OUT, 1 }, { W_ISOLATE_LRU_FOLIOS, 1 },
		{ W_ISOLATE_LRU_PAGES, 1 }, { W_ISOLATE_FOLIOS, 1 }, { W_WALK_PTES, 8 },
	};
	uint64_t lines = 0;
	for (int k = 0; k < NR_WORK_WHO; k++) {
		if (!(who & CPU_WHO(k)))
			continue;
		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
			lines += (rr->work.n[k][rows[i].w] + rows[i].per_line - 1) / rows[i].per_line;
	}
	/* the old designs' list scans: a struct page each */
	if (!has_isolation_rows(&rr->work)) {
		lines += who & CPU_WHO(WHO_KSWAPD) ? rr->ev[PGSCAN_KSWAPD] : 0;
		lines += who & CPU_WHO(WHO_DIRECT) ? rr->ev[PGSCAN_DIRECT] : 0;
		lines += who & CPU_WHO(WHO_AGING) ? rr->ev[PGSCAN_AGING] : 0;
	}
	return lines;
}

/* This host's figures (docs/cost.md, `pagelab kernel --calibrate`, one
 * run on 6 Dec 2026) for the rows whose per-operation cost every preset
 * leaves at 0. */
static double host_figure(enum work_op w, const char **what)
{
	switch (w) {
	case W_SWAP_OUT_PTES:
		*what = "pte_read 1.0 ns";
		return 1.0;
	case W_LRU_LOCK: case W_ISOLATE_BATCHES: case W_PUTBACK_BATCHES:
		*what = "lock_pair 4.4 ns";
		return 4.4;
	default:
		return 0;
	}
}

bool cpu_era_estimate(const struct profile *prof, enum work_op w, double *ns, const char **src)
{
	static _Thread_local char buf[160];
	const char *what;
	double h = host_figure(w, &what);
	*ns = 0;
	if (h <= 0 || !prof->name)
		return false;
	for (size_t i = 0; i < sizeof(era_clock) / sizeof(era_clock[0]); i++)
		if (!strcmp(era_clock[i].profile, prof->name)) {
			*ns = h * HOST_MHZ / era_clock[i].mhz;
			snprintf(buf, sizeof(buf), "this host's %s (docs/cost.md) x %.0f MHz / %.0f MHz, a %s",
				 what, HOST_MHZ, era_clock[i].mhz, era_clock[i].why);
			*src = buf;
			return true;
		}
	return false;
}

/* The cost the profile charges per operation of row w (docs/cost.md's
 * table), beyond the row's own cost.ROW. */
static double named_ns(const struct mm_costs *c, enum work_op w, const char **src)
{
	switch (w) {
	case W_ISOLATE_LRU_FOLIOS: case W_ISOLATE_LRU_PAGES: case W_ISOLATE_FOLIOS: case W_WALK_PTES_YOUNG:
		*src = "cost.scan";
		return (double)c->scan_ns;
	case W_WALK_PTES: case W_LOOK_AROUND_PTES:
		*src = "cost.scan/8";
		return (double)c->scan_ns / 8;
	case W_FOLIO_REFERENCED_PTES: case W_TRY_TO_UNMAP_PTES: case W_TRY_TO_SWAP_OUT_UNMAP:
		*src = "cost.rmap";
		return (double)c->rmap_ns;
	case W_TLB_IPI: *src = "cost.tlb_ipi"; return (double)c->tlb_ipi_ns;
	case W_PAGEOUT: *src = "cost.io_submit"; return (double)c->io_submit_ns;
	case W_CLEAR_BYTES: *src = "cost.zero_page/4096"; return (double)c->zero_page_ns / 4096;
	case W_COPY_BYTES: *src = "cost.copy_page/4096"; return (double)c->copy_page_ns / 4096;
	case W_COPY_USER_BYTES:
		*src = c->copy_user_ns ? "cost.copy_user/4096" : "cost.copy_page/4096";
		return (double)mm_copy_user_ns(c) / 4096;
	default: return 0;
	}
}

static void add(struct cpu_part *p, int *n, double *total, const char *op, uint64_t cnt, double each,
		const char *src)
{
	if (!cnt || *n >= CPU_MAX_PARTS)
		return;
	p[*n] = (struct cpu_part){ .op = op, .n = cnt, .ns_each = each, .ns = (double)cnt * each, .src = src };
	*total += p[*n].ns;
	(*n)++;
}


int cpu_work_parts(const struct run_result *rr, unsigned who, struct cpu_part *p, double *total_ns)
{
	const struct mm_costs *c = &rr->prof.cost;
	int n = 0;
	*total_ns = 0;
	for (int w = 0; w < NR_RECLAIM_WORK; w++) {
		if (!reclaim_work_present(&rr->work, (enum work_op)w))
			continue;
		uint64_t cnt = 0;
		for (int k = 0; k < NR_WORK_WHO; k++)
			if (who & CPU_WHO(k))
				cnt += rr->work.n[k][w];
		const char *src = "no cost known", *s2;
		double each = named_ns(c, (enum work_op)w, &src);
		if (c->work_ns[w]) {
			each += (double)c->work_ns[w];
			/* the profile's cost.<row>, beside the named cost if any */
			src = each > (double)c->work_ns[w] ? "cost.<row> + named" : "cost.<row>";
		}
		if (each <= 0 && cpu_era_estimate(&rr->prof, (enum work_op)w, &each, &s2))
			src = EST_BELOW;
		add(p, &n, total_ns, reclaim_work_names[w], cnt, each, src);
	}
	/* memcg limit reclaim has no pgscan event of its own: under these
	 * designs its list scans are left out (no experiment runs one). */
	if (!has_isolation_rows(&rr->work)) {
		static const struct { enum work_who k; enum vm_event e; } scans[] = {
			{ WHO_KSWAPD, PGSCAN_KSWAPD }, { WHO_DIRECT, PGSCAN_DIRECT }, { WHO_AGING, PGSCAN_AGING },
		};
		for (size_t i = 0; i < sizeof(scans) / sizeof(scans[0]); i++)
			if (who & CPU_WHO(scans[i].k))
				add(p, &n, total_ns, vm_event_names[scans[i].e], rr->ev[scans[i].e], (double)c->scan_ns,
				    "cost.scan");
	}
	if (who & CPU_TASK_SIDE) {
		add(p, &n, total_ns, "pgfault", rr->ev[PGFAULT], (double)c->fault_ns, "cost.fault");
		add(p, &n, total_ns, "pswpin", rr->ev[PSWPIN], (double)c->io_submit_ns, "cost.io_submit");
	}
	return n;
}

unsigned cpu_who_parse(const char *name)
{
	if (!strcmp(name, "task"))
		return CPU_TASK;
	for (int k = 0; k < NR_WORK_WHO; k++)
		if (!strcmp(name, work_who_names[k]))
			return CPU_WHO(k);
	return 0;
}

static bool work_s(const struct run_result *rr, const char *who, double *v)
{
	struct cpu_part p[CPU_MAX_PARTS];
	double ns;
	unsigned m = cpu_who_parse(who);
	if (!rr->available || !m)
		return false;
	cpu_work_parts(rr, m, p, &ns);
	*v = ns / 1e9;
	return true;
}

static bool work_cpu(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
		     double *v)
{
	(void)r;
	return mt->arg && work_s(rr, mt->arg, v);
}

/* % of the workload's elapsed time: a thread's "% of CPU" on one CPU. */
static bool work_share(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
		       double *v)
{
	double s;
	if (!work_cpu(r, mt, rr, &s) || mt->wl >= rr->nr_wl || !rr->wl[mt->wl].done)
		return false;
	double el = rr->wl[mt->wl].tf.elapsed;
	if (!(el > 0))
		return false;
	*v = 100 * s / el;
	return true;
}

/* "aging/kswapd": one column's CPU over the other's (ps's TIME lines). */
static bool work_ratio(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
		       double *v)
{
	(void)r;
	char a[32];
	const char *sl = mt->arg ? strchr(mt->arg, '/') : NULL;
	double x, y;
	if (!sl || (size_t)(sl - mt->arg) >= sizeof(a))
		return false;
	memcpy(a, mt->arg, (size_t)(sl - mt->arg));
	a[sl - mt->arg] = 0;
	if (!work_s(rr, a, &x) || !work_s(rr, sl + 1, &y) || !(y > 0))
		return false;
	*v = x / y;
	return true;
}

const struct exp_named_metric cpu_claim_metric_fns[] = {
	{ "work_cpu", work_cpu },
	{ "work_share", work_share },
	{ "work_ratio", work_ratio },
	{ NULL, NULL },
};

/* What the run charged the columns: kswapd's and the aging threads' own
 * CPU (ps's TIME), the workloads' system time for the task side. */
static double charged_s(const struct run_result *rr, unsigned who)
{
	double ks = 0, s = 0;
	for (int i = 0; i < rr->nr_kthreads; i++)
		if (!strncmp(rr->kthreads[i].comm, "kswapd", 6))
			ks += (double)rr->kthreads[i].cpu_ns / 1e9;
	if (who & CPU_WHO(WHO_KSWAPD))
		s += ks;
	if (who & CPU_WHO(WHO_AGING))
		s += rr->kthread_cpu_s - ks;
	if (who & CPU_TASK_SIDE)
		for (int i = 0; i < rr->nr_wl; i++)
			s += rr->wl[i].tf.sys;
	return s;
}

static const char *who_label(unsigned m)
{
	if (m == CPU_TASK)
		return "the workload's system time";
	for (int k = 0; k < NR_WORK_WHO; k++)
		if (m == CPU_WHO(k))
			return k == WHO_AGING ? "the aging thread" : k == WHO_KSWAPD ? "kswapd" : work_who_names[k];
	return "?";
}

static void print_parts(const struct run_result *rr, const char *label, unsigned who, FILE *out)
{
	struct cpu_part p[CPU_MAX_PARTS];
	double ns;
	int n = cpu_work_parts(rr, who, p, &ns);
	exp_wrap(out, "  ", 4, "%s, %s: %.3f s from counted work, %.3f s charged", label, who_label(who), ns / 1e9,
		 charged_s(rr, who));
	for (int i = 0; i < n; i++) {
		char left[80], each[16];
		snprintf(each, sizeof(each), p[i].ns_each >= 100 ? "%.0fns" : "%.2gns", p[i].ns_each);
		snprintf(left, sizeof(left), "    %-24s %10llu x %-7s %8.3fs  ", p[i].op, (unsigned long long)p[i].n,
			 each, p[i].ns / 1e9);
		exp_wrap(out, left, (int)strlen(left), "%s", p[i].src);
	}
	double miss;
	const char *why;
	uint64_t lines = cpu_lines_read(rr, who & ~CPU_TASK_SIDE);
	if (lines && era_miss_ns(&rr->prof, &miss, &why))
		exp_wrap(out, "    ", 4, "cache lines these walks read: %llu; as many later misses of the workloads, "
			 "%.0f ns each (est., below), would be %.3f s of their user time at most",
			 (unsigned long long)lines, miss, (double)lines * miss / 1e9);
}
static bool is_work_metric(const struct exp_metric *mt, unsigned *m1, unsigned *m2)
{
	if (mt->kind != MK_CUSTOM || !mt->arg)
		return false;
	*m2 = 0;
	if (mt->fn == work_cpu || mt->fn == work_share) {
		*m1 = cpu_who_parse(mt->arg);
		return *m1 != 0;
	}
	if (mt->fn != work_ratio)
		return false;
	const char *sl = strchr(mt->arg, '/');
	char a[32];
	if (!sl || (size_t)(sl - mt->arg) >= sizeof(a))
		return false;
	memcpy(a, mt->arg, (size_t)(sl - mt->arg));
	a[sl - mt->arg] = 0;
	*m1 = cpu_who_parse(a);
	*m2 = cpu_who_parse(sl + 1);
	return *m1 && *m2;
}

bool cpu_claim_metric(const struct exp_metric *mt)
{
	unsigned a, b;
	return is_work_metric(mt, &a, &b);
}

/* The (design, run, columns) of the experiment's claims, each once, in
 * the order of its comparisons: the runs are each design's first seed. */
struct claim { int design, run; unsigned who; };
#define MAX_CLAIMS 16

static int claims_of(const struct exp_result *r, struct claim *cl)
{
	const struct experiment *e = r->e;
	int n = 0;
	for (int c = 0; c < e->nr_cmps; c++) {
		const struct exp_comparison *cm = &e->cmps[c];
		const struct exp_metric *mt = &e->metrics[exp_metric_index(e, cm->metric)];
		unsigned m[2];
		if (!is_work_metric(mt, &m[0], &m[1]))
			continue;
		int run = exp_run_index(e, mt->run);
		const char *lab[2] = { cm->a, cm->b };
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 2 && m[j]; j++) {
				int d = lab[i] ? exp_design_index(e, lab[i]) : -1;
				if (d < 0 || !r->design_ok[d] || !exp_rr(r, d, run, 0)->available || n >= MAX_CLAIMS)
					continue;
				bool dup = false;
				for (int k = 0; k < n; k++)
					dup |= cl[k].design == d && cl[k].run == run && cl[k].who == m[j];
				if (!dup)
					cl[n++] = (struct claim){ d, run, m[j] };
			}
	}
	return n;
}

/* The estimates the breakdowns used, each once, with where it comes from. */
static void print_estimates(const struct exp_result *r, const struct claim *cl, int n, FILE *out)
{
	for (int w = 0; w < NR_RECLAIM_WORK; w++)
		for (int k = 0; k < n; k++) {
			const struct run_result *rr = exp_rr(r, cl[k].design, cl[k].run, 0);
			struct cpu_part p[CPU_MAX_PARTS];
			double t, each;
			const char *src;
			int np = cpu_work_parts(rr, cl[k].who, p, &t);
			bool used = false;
			for (int i = 0; i < np; i++)
				used |= !strcmp(p[i].op, reclaim_work_names[w]) && !strcmp(p[i].src, EST_BELOW);
			if (!used || !cpu_era_estimate(&rr->prof, (enum work_op)w, &each, &src))
				continue;
			exp_wrap(out, "  est.: ", 8, "%s %.3g ns: %s", reclaim_work_names[w], each, src);
			break;
		}
	double miss;
	const char *why;
	for (int k = 0; k < n; k++)
		if (cpu_lines_read(exp_rr(r, cl[k].design, cl[k].run, 0), cl[k].who & ~CPU_TASK_SIDE) &&
		    era_miss_ns(&r->prof, &miss, &why)) {
			exp_wrap(out, "  est.: ", 8, "a cache miss %.0f ns: %s", miss, why);
			break;
		}
	fputc('\n', out);
}

void cpu_claim_print(const struct exp_result *r, FILE *out)
{
	struct claim cl[MAX_CLAIMS];
	int n = claims_of(r, cl);
	if (!n)
		return;
	exp_wrap(out, "", 0, "CPU from counted work x %s's costs (each design's first seed; "
		 "docs/reproduce.md, \"The threads' CPU claims\"):", r->prof.name);
	for (int k = 0; k < n; k++)
		print_parts(exp_rr(r, cl[k].design, cl[k].run, 0), r->e->designs[cl[k].design].label, cl[k].who, out);
	print_estimates(r, cl, n, out);
}

static enum work_op work_op_of(const char *name)
{
	for (int w = 0; w < NR_RECLAIM_WORK; w++)
		if (!strcmp(reclaim_work_names[w], name))
			return (enum work_op)w;
	return NR_RECLAIM_WORK;
}

static void json_parts(const struct run_result *rr, const struct cpu_part *p, int np, FILE *out)
{
	for (int i = 0; i < np; i++) {
		const char *src = p[i].src;
		double each;
		if (!strcmp(src, EST_BELOW))
			cpu_era_estimate(&rr->prof, work_op_of(p[i].op), &each, &src);
		fprintf(out, "%s{\"op\": \"%s\", \"count\": %llu, \"ns_each\": %.6g, \"s\": %.9f, \"source\": ", i ? ", " : "",
			p[i].op, (unsigned long long)p[i].n, p[i].ns_each, p[i].ns / 1e9);
		json_put_str(out, src);
		fputc('}', out);
	}
}

void cpu_claim_json(const struct exp_result *r, FILE *out)
{
	struct claim cl[MAX_CLAIMS];
	int n = claims_of(r, cl);
	if (!n)
		return;
	fprintf(out, ",\n     \"cpu_claims\": [");
	for (int k = 0; k < n; k++) {
		const struct run_result *rr = exp_rr(r, cl[k].design, cl[k].run, 0);
		struct cpu_part p[CPU_MAX_PARTS];
		double ns;
		int np = cpu_work_parts(rr, cl[k].who, p, &ns);
		fprintf(out, "%s\n      {\"design\": ", k ? "," : "");
		json_put_str(out, r->e->designs[cl[k].design].label);
		fprintf(out, ", \"run\": ");
		json_put_str(out, r->e->runs[cl[k].run].key);
		fprintf(out, ", \"who\": ");
		json_put_str(out, who_label(cl[k].who));
		fprintf(out, ", \"counted_s\": %.9f, \"charged_s\": %.9f, \"parts\": [", ns / 1e9, charged_s(rr, cl[k].who));
		json_parts(rr, p, np, out);
		fprintf(out, "]}");
	}
	fputc(']', out);
}
