/* pool.h - run n independent jobs on a pool of threads.  Jobs are handed
 * out in index order; each must write only its own results, so the outcome
 * is the same for any number of threads.  done() is called under the
 * pool's lock as each job finishes (in completion order), for callers that
 * stream results out in index order. */
#ifndef PAGELAB_POOL_H
#define PAGELAB_POOL_H

#include <stdbool.h>

struct pool_job {
	void (*run)(void *arg, int i);
	void (*done)(void *arg, int i);  /* or NULL */
	void *arg;
	int n;
	int jobs;                        /* threads, >= 1 */
	const char *progress;            /* "pagelab sweep": progress + ETA on stderr; NULL: quiet */
};

void pool_run(const struct pool_job *pj);

#endif
