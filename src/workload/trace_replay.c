/* trace_replay.c - the `trace` workload: one task replaying a reference
 * trace (pagelab's text format, docs/trace-format.md) over one data region.
 * Every reference is one op touching one page once; a page read before it
 * was ever written still gets a frame (trace pages hold real data), so a
 * first reference is a minor fault and a reference after eviction a major
 * one.  It offers the whole reference string as an oracle, which is what
 * lets `opt` (Belady) run. */
#include "workload.h"
#include "../trace/trace.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

struct replay {
	struct trace t;
	uint64_t pos;
	int phase;
};

static void replay_help(FILE *out)
{
	fputs(
"usage: trace FILE\n"
"Replay a memory-reference trace in pagelab's text format: one reference per\n"
"line, \"PAGE r\" or \"PAGE w\" (PAGE decimal or 0x-hex), '#' comments.\n"
"Pages are renumbered densely; each reference touches its page once.\n"
"With --machine ideal (no watermarks, no timing) it is a cache simulation:\n"
"pgfault counts misses.  The only workload that lets --policy opt run.\n", out);
}

static void *replay_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	(void)seed;
	if (argc != 2) {
		snprintf(err, errlen, "trace: expected exactly one FILE argument");
		return NULL;
	}
	struct replay *r = xcalloc(1, sizeof(*r));
	if (!trace_load_text(argv[1], &r->t, err, errlen)) {
		free(r);
		return NULL;
	}
	if (r->t.n == 0) {
		snprintf(err, errlen, "trace '%s' holds no references", argv[1]);
		trace_free(&r->t);
		free(r);
		return NULL;
	}
	return r;
}

static void replay_destroy(void *p)
{
	struct replay *r = p;
	trace_free(&r->t);
	free(r);
}

static int replay_nr_tasks(void *p) { (void)p; return 1; }

static bool replay_next_op(void *p, int task, struct op *op)
{
	struct replay *r = p;
	(void)task;
	memset(op, 0, sizeof(*op));
	if (r->phase == 0) {
		r->phase = 1;
		op->kind = OP_MMAP_DATA;
		op->npages = r->t.npages;
		return true;
	}
	if (r->pos >= r->t.n)
		return false;
	op->kind = OP_TOUCH;
	op->first = r->t.page[r->pos];
	op->npages = 1;
	op->refs = 1;
	op->write = r->t.write[r->pos];
	r->pos++;
	return true;
}

static bool replay_oracle(void *p, const uint64_t **next_use, uint64_t *n)
{
	struct replay *r = p;
	*next_use = r->t.next_use;
	*n = r->t.n;
	return true;
}

static void replay_report(void *p, const double *elapsed, FILE *out)
{
	struct replay *r = p;
	(void)elapsed;
	fprintf(out, "trace: %llu references to %llu distinct pages\n",
		(unsigned long long)r->t.n, (unsigned long long)r->t.npages);
}

const struct workload_ops trace_workload = {
	.name = "trace",
	.summary = "replay a memory-reference trace (pagelab text format)",
	.help = replay_help,
	.create = replay_create,
	.destroy = replay_destroy,
	.nr_tasks = replay_nr_tasks,
	.next_op = replay_next_op,
	.oracle = replay_oracle,
	.report = replay_report,
};
