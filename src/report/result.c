/* result.c - reading a run_result's samples back (result.h). */
#include "result.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

struct wl_result *run_wl(struct run_result *rr, int k)
{
	return k < EXP_MAX_WL ? &rr->wl[k] : &rr->wl_more[k - EXP_MAX_WL];
}

const struct wl_result *run_wl_c(const struct run_result *rr, int k)
{
	return k < EXP_MAX_WL ? &rr->wl[k] : &rr->wl_more[k - EXP_MAX_WL];
}

void run_samples_rewind(const struct run_result *rr, struct run_sample_iter *it)
{
	it->rr = rr;
	it->i = 0;
	it->timeline = false;
	sample_spill_rewind(rr->sample_spill);
}

void run_timeline_rewind(const struct run_result *rr, struct run_sample_iter *it, uint64_t *n, uint64_t *interval_ns)
{
	run_samples_rewind(rr, it);
	it->timeline = rr->nr_timeline > 0;
	*n = it->timeline ? rr->nr_timeline : rr->nr_samples;
	*interval_ns = it->timeline ? rr->timeline_ns : rr->vmstat_ns;
}

bool run_sample_next(struct run_sample_iter *it, struct vmstat_sample *s)
{
	const struct run_result *rr = it->rr;
	struct sample_series ss = { .mem = rr->timeline, .nr = rr->nr_timeline };
	if (!it->timeline)
		ss = (struct sample_series){ .mem = rr->samples, .nr = rr->nr_samples, .nr_spilled = rr->nr_spilled,
					     .spill = rr->sample_spill };
	return sample_series_next(&ss, &it->i, s);
}

static void wl_result_free(struct wl_result *x)
{
	free(x->cmd);
	free(x->output);
	free(x->exit_text);
	free(x->tasks);
}

void run_result_free(struct run_result *rr)
{
	if (rr->kernel && rr->kernel_free)
		rr->kernel_free(rr->kernel);
	free(rr->why);
	free(rr->cg);
	for (int w = 0; w < rr->nr_wl; w++)
		wl_result_free(run_wl(rr, w));
	free(rr->wl_more);
	free(rr->kmsgs);
	free(rr->samples);
	free(rr->resident_kb);
	if (rr->sample_spill)
		fclose(rr->sample_spill);
	free(rr->timeline);
	for (uint64_t i = 0; i < rr->nr_log; i++)
		free(rr->log[i].text);
	free(rr->log);
	free(rr->kthreads);
	memset(rr, 0, sizeof(*rr));
}
