/* exp_mglru.c - the named metrics of the experiment files in docs/mglru/
 * (docs/mglru.md): the shape of MGLRU's evidence, Yu Zhao's "[PATCH v7
 * 05/12] mm: multigenerational LRU: minimal implementation", 8 Feb 2022
 * (docs/threads/mglru_v7_05.txt): fio's IOPS and hit ratio, memtier's
 * ops/s, and reclaim's counted work (src/mm/work.h) as the files ask for
 * it.  Every figure is read from the run's own output or counters; none
 * is estimated. */
#include "experiment.h"
#include "exp_named.h"
#include "../mm/work.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The run's workload mt->wl, when it ran to its end. */
static const struct wl_result *done_wl(const struct exp_metric *mt, const struct run_result *rr)
{
	if (mt->wl >= rr->nr_wl || !run_wl_c(rr, mt->wl)->done)
		return NULL;
	return run_wl_c(rr, mt->wl);
}

/* What the program printed at its exit: fio and memtier print their
 * summaries from their tasks' reports (exit_text), others as output. */
static const char *printed(const struct wl_result *w, const char *key)
{
	if (!w)
		return NULL;
	if (w->output && strstr(w->output, key))
		return w->output;
	return w->exit_text && strstr(w->exit_text, key) ? w->exit_text : NULL;
}

/* fio's "IOPS=55.7k": the number after IOPS=, times its k or M. */
static bool fio_iops(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
		     double *v)
{
	(void)r;
	const struct wl_result *w = done_wl(mt, rr);
	const char *text = printed(w, "IOPS="), *p = text ? strstr(text, "IOPS=") : NULL;
	if (!p)
		return false;
	char *end;
	double x = strtod(p + 5, &end);
	if (end == p + 5 || !isfinite(x))
		return false;
	*v = x * (*end == 'k' ? 1e3 : *end == 'M' ? 1e6 : 1);
	return true;
}

/* The share of the bytes fio's read(2)s copied (copy_user_bytes: a buffered
 * read copies every byte from the page cache, hit or miss) that did not
 * come from the disk (pgpgin, KiB read into the page cache), in %: the
 * page cache's hit ratio of a run whose only disk reads are fio's. */
static bool fio_hit_pct(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
			double *v)
{
	(void)r;
	if (!done_wl(mt, rr))
		return false;
	double copied = (double)reclaim_work_total(&rr->work, W_COPY_USER_BYTES);
	if (copied <= 0)
		return false;
	*v = 100.0 * (1.0 - (double)rr->ev[PGPGIN] * 1024.0 / copied);
	return true;
}

/* memtier's ops/s: the first number of its ALL STATS "Totals" line. */
static bool memtier_ops(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
			double *v)
{
	(void)r;
	return exp_number_after(printed(done_wl(mt, rr), "Totals"), "Totals", v);
}

/* The total of rows of reclaim's work, ARG their names joined by '+'
 * ("isolate_lru_folios+isolate_folios": the folios either design took
 * off its lists).  A row the design does not count adds 0. */
static bool work_sum(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
		     double *v)
{
	(void)r;
	if (!mt->arg || !done_wl(mt, rr))
		return false;
	double sum = 0;
	const char *p = mt->arg;
	while (*p) {
		size_t n = strcspn(p, "+");
		int found = -1;
		for (int i = 0; i < NR_RECLAIM_WORK; i++)
			if (strlen(reclaim_work_names[i]) == n && !strncmp(reclaim_work_names[i], p, n))
				found = i;
		if (found < 0)
			return false;
		sum += (double)reclaim_work_total(&rr->work, (enum work_op)found);
		p += n + (p[n] == '+');
	}
	*v = sum;
	return true;
}

/* rmap walks (folio_referenced + try_to_unmap: each one a
 * page_vma_mapped_walk over the folio's mappings) per 100 folios reclaim
 * isolated: how much of reclaim's work on a folio goes through rmap. */
static bool rmap_per_100(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
			 double *v)
{
	(void)r;
	if (!done_wl(mt, rr))
		return false;
	const struct reclaim_work *w = &rr->work;
	double walks = (double)(reclaim_work_total(w, W_FOLIO_REFERENCED) + reclaim_work_total(w, W_TRY_TO_UNMAP));
	double folios = (double)(reclaim_work_total(w, W_ISOLATE_LRU_FOLIOS) + reclaim_work_total(w, W_ISOLATE_FOLIOS));
	if (folios <= 0)
		return false;
	*v = 100.0 * walks / folios;
	return true;
}

const struct exp_named_metric exp_mglru_metric_fns[] = {
	{ "fio_iops", fio_iops },
	{ "fio_hit_pct", fio_hit_pct },
	{ "memtier_ops", memtier_ops },
	{ "work", work_sum },
	{ "rmap_per_100", rmap_per_100 },
	{ NULL, NULL },
};
