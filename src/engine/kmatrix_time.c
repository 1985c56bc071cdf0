/* kmatrix_time.c - compare --matrix: where a case's time misses.  An
 * elapsed time is the longest workload's wall time; on both sides it
 * splits into that workload's CPU (user + system: counted work x cost in
 * pagelab, getrusage's children times in the kernel) and its wait, the
 * rest (the disk, locks slept on, throttling, and on the host the run
 * queue of a loaded machine).  The kernel side cannot be split further
 * from user/system/elapsed, so this is as far as both sides compare.  A
 * system-time miss is work by definition. */
#include "kmatrix.h"
#include "json.h"
#include "record.h"
#include "stats.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>

/* The longest workload's CPU and wait of one record (false: no figures). */
static bool record_split(const struct json *j, double *cpu, double *wait)
{
	const struct json *w = json_get(j, "workloads");
	double best = -1, el, u, s;
	if (!w || w->type != JSON_ARR)
		return false;
	for (int i = 0; i < w->n; i++) {
		const struct json *x = &w->items[i];
		if (!json_get_num(x, "elapsed_s", &el) || !json_get_num(x, "user_s", &u) ||
		    !json_get_num(x, "sys_s", &s) || el <= best)
			continue;
		best = el;
		*cpu = u + s;
		*wait = el > u + s ? el - (u + s) : 0;
	}
	return best >= 0;
}

double km_records_split(const struct record *const *r, int from, int to, bool wait)
{
	double *v = xcalloc((size_t)(to - from) + 1, sizeof(double));
	int n = 0;
	for (int i = from; i < to; i++) {
		double cpu = 0, w = 0;
		if (record_split(r[i]->j, &cpu, &w))
			v[n++] = wait ? w : cpu;
	}
	double m = n ? median_inplace(v, n) : NAN;
	free(v);
	return m;
}

static bool part_misses(double k, double s, double kel, double tol)
{
	return km_classify(k, s, tol, 0) == KM_MISS && fabs(s - k) > kel * tol / 100;
}

enum km_cause km_time_cause(double kel, double kcpu, double scpu, double kwait, double swait, double tol)
{
	if (isnan(kcpu) || isnan(scpu) || isnan(kwait) || isnan(swait))
		return KM_CAUSE_UNSPLIT;
	bool work = part_misses(kcpu, scpu, kel, tol), waits = part_misses(kwait, swait, kel, tol);
	return work && waits ? KM_CAUSE_BOTH : work ? KM_CAUSE_WORK : waits ? KM_CAUSE_WAITS : KM_CAUSE_NONE;
}

/* 2 decimals under 10 s, 1 under 100, none above: a pair fits 10 columns. */
static int digits(double v) { return v < 9.995 ? 2 : v < 99.95 ? 1 : 0; }

/* "1.35>0.26": the kernel's, then pagelab's, in 10 columns. */
static void pair(FILE *out, double k, double s)
{
	char b[64];
	if (isnan(k) || isnan(s))
		snprintf(b, sizeof(b), "-");
	else
		snprintf(b, sizeof(b), "%.*f>%.*f", digits(k), k, digits(s), s);
	fprintf(out, " %10s", b);
}

static const char *const cause_name[] = { "-", "work", "waits", "both", "?" };

/* One design's table: the cases missing on a time, and the counts. */
static void print_design(const struct kmatrix *m, int p, FILE *out)
{
	int n[5] = { 0 }, nsys = 0, nmiss = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			fprintf(out, "\n%-28s %10s %10s %10s %10s %6s\n", m->pol[p], "elapsed", "cpu", "wait",
				"system", "misses");
		for (int i = 0; i < m->ncase; i++) {
			const struct kmatrix_case *c = &m->c[i];
			bool el = km_classify(c->kel, c->sel[p], m->tol, 0) == KM_MISS;
			bool sy = km_classify(c->ksys, c->ssys[p], m->tol, 0) == KM_MISS;
			if (!el && !sy)
				continue;
			enum km_cause why = el ? km_time_cause(c->kel, c->kcpu, c->scpu[p], c->kwait, c->swait[p], m->tol)
					       : KM_CAUSE_NONE;
			if (!pass) {
				nmiss++;
				n[why] += el;
				nsys += sy;
				continue;
			}
			fprintf(out, "%-28.28s", c->name);
			pair(out, c->kel, c->sel[p]);
			pair(out, c->kcpu, c->scpu[p]);
			pair(out, c->kwait, c->swait[p]);
			pair(out, c->ksys, c->ssys[p]);
			fprintf(out, " %6s\n", el ? cause_name[why] : "system");
		}
		if (!pass)
			fprintf(out, "\n%s: %d of %d cases miss on a time; elapsed misses by part:\n"
				"  work %d, waits %d, both %d, neither %d, unsplit %d; system misses %d\n", m->pol[p],
				nmiss, m->ncase, n[KM_CAUSE_WORK], n[KM_CAUSE_WAITS], n[KM_CAUSE_BOTH],
				n[KM_CAUSE_NONE], n[KM_CAUSE_UNSPLIT], nsys);
	}
}

void kmatrix_print_times(const struct kmatrix *m, FILE *out)
{
	fprintf(out, "\nTIME MISSES: kernel>pagelab medians, s.  cpu and wait are the longest\n"
		"workload's (wait = its elapsed - user - system; 0 when its tasks ran in\n"
		"parallel); misses: the part of elapsed outside +-%g%% by over %g%% of the\n"
		"kernel's elapsed (work: cpu, waits: wait; ?: a side has no workload\n"
		"figures); \"system\": system time alone (work)\n",
		m->tol, m->tol);
	for (int p = 0; p < m->npol; p++)
		print_design(m, p, out);
}
