/* test_exp_mglru.c - the named metrics of docs/mglru/ (fio.exp, memcached.exp)
 * (src/reproduce/exp_mglru.c) on hand-made runs: fio's IOPS with its k
 * suffix, the hit ratio from bytes copied and KiB read, memtier's Totals,
 * sums of work rows, rmap walks per 100 folios. */
#include "test.h"
#include "../src/reproduce/experiment.h"
#include "../src/reproduce/exp_named.h"
#include "../src/mm/work.h"

#include <string.h>

static double figure(const char *fn, const char *arg, struct run_result *rr, bool *ok)
{
	struct exp_metric mt = { .key = "k", .wl = 0, .arg = arg };
	exp_metric_fn *f = exp_metric_fn_find(fn);
	double v = -1;
	*ok = f && f(NULL, &mt, rr, &v);
	return v;
}

void test_exp_mglru_metrics(void)
{
	struct run_result rr = { .available = true, .finished = true, .nr_wl = 1 };
	char out[] = "", text[] = "mglru: (groupid=0, jobs=4): err= 0\n  read: IOPS=55.7k, BW=218MiB/s\n"
		"Totals     49476.65     49476.65         0.00\n";
	rr.wl[0].done = true;
	rr.wl[0].output = out;
	rr.wl[0].exit_text = text;
	bool ok;
	CHECK(figure("fio_iops", NULL, &rr, &ok) == 55700 && ok);
	CHECK(figure("memtier_ops", NULL, &rr, &ok) == 49476.65 && ok);
	/* 100 KiB copied by read(2), 25 KiB of it read from the disk */
	rr.work.n[WHO_OTHER][W_COPY_USER_BYTES] = 102400;
	rr.ev[PGPGIN] = 25;
	CHECK(figure("fio_hit_pct", NULL, &rr, &ok) == 75 && ok);
	rr.work.n[WHO_MEMCG][W_ISOLATE_FOLIOS] = 7;
	rr.work.n[WHO_KSWAPD][W_ISOLATE_LRU_FOLIOS] = 1;
	CHECK(figure("work", "isolate_lru_folios+isolate_folios", &rr, &ok) == 8 && ok);
	figure("work", "isolate_folios+nosuch", &rr, &ok);
	CHECK(!ok);
	rr.work.n[WHO_MEMCG][W_FOLIO_REFERENCED] = 3;
	rr.work.n[WHO_KSWAPD][W_TRY_TO_UNMAP] = 1;
	CHECK(figure("rmap_per_100", NULL, &rr, &ok) == 50 && ok);
	/* a workload that did not finish has no figure */
	rr.wl[0].done = false;
	figure("fio_iops", NULL, &rr, &ok);
	CHECK(!ok);
	/* IOPS without a suffix, from the output */
	char plain[] = "  read: IOPS=191, BW=763KiB/s\n";
	rr.wl[0].done = true;
	rr.wl[0].output = plain;
	CHECK(figure("fio_iops", NULL, &rr, &ok) == 191 && ok);
}
