/* pool.c - the engine's thread pool: a shared next-job index under a mutex,
 * the calling thread working too.  Progress goes to stderr with an estimate
 * of the time left from the host time per finished job (only printed,
 * never part of any result). */
#include "pool.h"
#include "../lib/util.h"
#include "../lib/output.h"

#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <time.h>

struct pool {
	const struct pool_job *pj;
	int next, done;
	double t0;
	pthread_mutex_t lock;
};

static double host_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_progress(struct pool *p)
{
	double t = host_seconds() - p->t0;
	int left = p->pj->n - p->done;
	fprintf(stderr, "\r%s: %d/%d runs done", p->pj->progress, p->done, p->pj->n);
	if (left > 0 && p->done > 0) {
		double eta = t / p->done * left;
		fprintf(stderr, ", about %.0f s left   ", eta < 1 ? 1 : eta);
	} else {
		fprintf(stderr, " in %.1f s             ", t);
	}
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	const struct pool_job *pj = p->pj;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		/* After SIGINT/SIGTERM no new job starts: the caller writes
		 * what finished. */
		int i = p->next < pj->n && !output_interrupted() ? p->next++ : -1;
		pthread_mutex_unlock(&p->lock);
		if (i < 0)
			return NULL;
		pj->run(pj->arg, i);
		pthread_mutex_lock(&p->lock);
		p->done++;
		if (pj->done)
			pj->done(pj->arg, i);
		if (pj->progress)
			print_progress(p);
		pthread_mutex_unlock(&p->lock);
	}
}

void pool_run(const struct pool_job *pj)
{
	struct pool p = { .pj = pj, .t0 = host_seconds() };
	pthread_mutex_init(&p.lock, NULL);
	int nt = pj->jobs < 1 ? 1 : pj->jobs;
	if (nt > pj->n)
		nt = pj->n ? pj->n : 1;
	pthread_t *th = xcalloc((size_t)nt, sizeof(*th));
	int started = 0;
	for (int t = 1; t < nt; t++)
		if (pthread_create(&th[t], NULL, worker, &p) == 0)
			started = t;
		else
			break;
	worker(&p); /* this thread works too */
	for (int t = 1; t <= started; t++)
		pthread_join(th[t], NULL);
	if (pj->progress && pj->n)
		fputc('\n', stderr);
	pthread_mutex_destroy(&p.lock);
	free(th);
}
