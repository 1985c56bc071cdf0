/* trace_replay.c - the `trace` workload: one task replaying a reference
 * trace of any format the readers know (src/trace/trace_reader.h,
 * docs/trace-format.md) over its data memory.  Every reference is one op
 * touching one page once; a page read before it was ever written still
 * gets a frame (trace pages hold real data), so a first reference is a
 * minor fault and a reference after eviction a major one.
 *
 * The replay streams: references come from the reader in batches and
 * (pid, page) pairs are numbered densely as they first appear, through a
 * hash that grows with the distinct pages (a binary trace is dense
 * already and needs none).  Since the number of distinct pages is known
 * only at the end, the data memory grows too: regions of 1024, 1024, 2048,
 * 4096... pages, mapped as the pages numbered reach them (a binary trace
 * too: its reader checks that pages come in order of first reference, so
 * a hostile header or page number cannot make the replay map more than
 * twice what it has seen).  Only
 * OPT needs the whole reference string: asked for the oracle, the
 * workload loads the rest of the trace into memory (13 bytes per
 * reference) and replays from there. */
#include "workload.h"
#include "../lib/pagefill.h"
#include "../trace/trace.h"
#include "../trace/pagemap.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define REPLAY_BATCH 4096
#define REGION0 1024ULL

struct replay {
	char *path;
	struct trace_reader *rd;
	struct pagemap map;
	bool dense;              /* binary trace: ids are dense already */
	struct trace_ref *batch;
	size_t bn, bi;
	uint64_t nrefs;          /* references handed out */
	uint64_t npages;         /* distinct pages numbered */
	uint64_t mapped;         /* pages of data memory mapped */
	uint32_t nregions;
	struct op pending;       /* a touch waiting for its region's mmap */
	bool have_pending;
	bool loaded;             /* OPT: the whole trace is in t */
	struct trace t;
	size_t host_peak;        /* host bytes held, at most */
};

static void replay_help(FILE *out)
{
	fputs(
"usage: trace [--format F] [--spec SPEC] [--no-instructions] [--max-request SIZE] FILE\n"
"Replay a memory-reference trace.  FILE may be '-' (stdin) and zstd or gzip\n"
"compressed (if this build has them: pagelab --version); a compressed stream\n"
"cut short is an error.  Formats (detected by magic and extension, else\n"
"--format):\n"
"  text    pagelab's \"PAGE r|w [pid=N] [anon|file]\" lines (docs/trace-format.md)\n"
"  lackey  valgrind --tool=lackey --trace-mem=yes output (pagelab record)\n"
"  csv     libCacheSim csv; --spec \"obj-id-col=5, time-col=2, op-col=3, ...\"\n"
"  txt     one object id per line        oracle  libCacheSim oracleGeneral\n"
"  vscsi   VMware vscsi (v1, v2)         bin     pagelab trace convert output\n"
"  block   csv of byte offset + size, split into 4 KiB pages (MSR layout)\n"
"--no-instructions  lackey: leave out instruction fetches\n"
"--max-request SIZE the most pages one record (a block request, a lackey\n"
"                   access) may cover, 4096p or 16M; a larger one is an error\n"
"                   (default 262144p, 1G)\n"
"Pages (per pid) are renumbered densely; each reference touches its page once.\n"
"With --machine ideal (no watermarks, no timing) it is a cache simulation:\n"
"pgfault counts misses.  The only workload that lets --policy opt run.\n", out);
}

/* Region k holds pages [REGION0 * (2^k - 1), REGION0 * (2^(k+1) - 1)). */
static uint32_t region_of(uint64_t idx)
{
	return (uint32_t)(63 - __builtin_clzll(idx / REGION0 + 1));
}

static uint64_t region_base(uint32_t k) { return REGION0 * ((1ULL << k) - 1); }

static void refill(struct replay *r)
{
	long n = trace_next(r->rd, r->batch, REPLAY_BATCH);
	if (n < 0)
		die_usage("%s", trace_reader_error(r->rd));
	r->bn = (size_t)n;
	r->bi = 0;
}

static uint32_t dense_id(struct replay *r, const struct trace_ref *ref)
{
	if (r->dense)
		return (uint32_t)ref->page;
	uint32_t idx;
	if (!pagemap_get(&r->map, ref->page, ref->pid, &idx))
		die_usage("%s: more than %u distinct pages", r->path, PAGEMAP_MAX);
	return idx;
}

static void *replay_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	(void)seed;
	struct trace_opts o;
	const char *path;
	if (!trace_parse_args(argc, argv, &o, &path, err, errlen))
		return NULL;
	struct replay *r = xcalloc(1, sizeof(*r));
	r->path = xstrdup(path);
	r->rd = trace_open(path, &o, err, errlen);
	if (!r->rd) {
		free(r->path);
		free(r);
		return NULL;
	}
	uint64_t nrefs, npages;
	r->dense = trace_reader_counts(r->rd, &nrefs, &npages);
	r->batch = xmalloc(REPLAY_BATCH * sizeof(*r->batch));
	/* The first batch now, so that a trace bad from the start or empty
	 * is refused before the machine starts. */
	long n = trace_next(r->rd, r->batch, REPLAY_BATCH);
	if (n <= 0) {
		if (n < 0)
			snprintf(err, errlen, "%s", trace_reader_error(r->rd));
		else
			snprintf(err, errlen, "trace '%s' holds no references", path);
		trace_close(r->rd);
		free(r->batch);
		free(r->path);
		free(r);
		return NULL;
	}
	r->bn = (size_t)n;
	return r;
}

static void replay_destroy(void *p)
{
	struct replay *r = p;
	trace_close(r->rd);
	pagemap_free(&r->map);
	trace_free(&r->t);
	free(r->batch);
	free(r->path);
	free(r);
}

static int replay_nr_tasks(void *p) { (void)p; return 1; }

static size_t host_bytes(const struct replay *r)
{
	return sizeof(*r) + (r->rd ? trace_reader_host_bytes(r->rd) : 0) + REPLAY_BATCH * sizeof(struct trace_ref) +
	       pagemap_host_bytes(&r->map) + (size_t)r->t.n * 13;
}

static bool next_loaded(struct replay *r, struct op *op)
{
	if (r->mapped == 0) {
		op->kind = OP_MMAP_DATA;
		op->data_kind = DK_RATIO; /* zram: --set zram.trace_ratio */
		op->npages = r->t.npages;
		r->mapped = r->t.npages;
		return true;
	}
	if (r->nrefs >= r->t.n)
		return false;
	op->kind = OP_TOUCH;
	op->first = r->t.page[r->nrefs];
	op->npages = 1;
	op->refs = 1;
	op->write = r->t.write[r->nrefs];
	r->nrefs++;
	return true;
}

static bool replay_next_op(void *p, int task, struct op *op)
{
	struct replay *r = p;
	(void)task;
	memset(op, 0, sizeof(*op));
	if (r->loaded)
		return next_loaded(r, op);
	if (r->have_pending) {
		*op = r->pending;
		r->have_pending = false;
		return true;
	}
	if (r->bi == r->bn) {
		size_t h = host_bytes(r);
		if (h > r->host_peak)
			r->host_peak = h;
		refill(r);
		if (r->bn == 0)
			return false;
	}
	const struct trace_ref *ref = &r->batch[r->bi++];
	uint64_t idx = dense_id(r, ref);
	if (idx >= r->npages)
		r->npages = idx + 1;
	r->nrefs++;
	op->kind = OP_TOUCH;
	op->npages = 1;
	op->refs = 1;
	op->write = ref->write;
	op->region = region_of(idx);
	op->first = idx - region_base(op->region);
	if (idx < r->mapped)
		return true;
	/* The first page beyond the data memory: map the next region first. */
	r->pending = *op;
	r->have_pending = true;
	memset(op, 0, sizeof(*op));
	op->kind = OP_MMAP_DATA;
	op->data_kind = DK_RATIO; /* zram: --set zram.trace_ratio */
	op->region = r->nregions;
	op->npages = REGION0 << r->nregions;
	r->mapped += op->npages;
	r->nregions++;
	return true;
}

static bool replay_oracle(void *p, const uint64_t **next_use, uint64_t *n)
{
	struct replay *r = p;
	if (!r->loaded) {
		if (r->nrefs)
			return false; /* only before the replay starts */
		/* Everything from the current batch on, numbered as the
		 * streaming replay would number it. */
		uint64_t cap = 0;
		for (;;) {
			if (r->bi == r->bn) {
				refill(r);
				if (r->bn == 0)
					break;
			}
			if (r->t.n == cap) {
				cap = MAX(cap * 2, 4096);
				r->t.page = xrealloc(r->t.page, cap * sizeof(*r->t.page));
				r->t.write = xrealloc(r->t.write, cap * sizeof(*r->t.write));
			}
			const struct trace_ref *ref = &r->batch[r->bi++];
			uint32_t idx = dense_id(r, ref);
			r->t.page[r->t.n] = idx;
			r->t.write[r->t.n] = ref->write;
			r->t.n++;
			if (idx >= r->t.npages)
				r->t.npages = idx + 1;
		}
		trace_compute_next_use(&r->t);
		r->npages = r->t.npages;
		r->loaded = true;
		r->host_peak = MAX(r->host_peak, host_bytes(r));
		pagemap_free(&r->map);
		trace_close(r->rd);
		r->rd = NULL;
	}
	*next_use = r->t.next_use;
	*n = r->t.n;
	return true;
}

static void replay_report(void *p, const double *elapsed, FILE *out)
{
	struct replay *r = p;
	(void)elapsed;
	fprintf(out, "trace: %llu references to %llu distinct pages\n",
		(unsigned long long)r->nrefs, (unsigned long long)r->npages);
	size_t h = MAX(r->host_peak, host_bytes(r));
	fprintf(out, "trace: replay held %.1f MiB of host memory (%.2f bytes per reference)\n",
		(double)h / (1 << 20), r->nrefs ? (double)h / (double)r->nrefs : 0.0);
}

const struct workload_ops trace_workload = {
	.name = "trace",
	.summary = "replay a memory-reference trace (8 formats: trace --help)",
	.help = replay_help,
	.create = replay_create,
	.destroy = replay_destroy,
	.nr_tasks = replay_nr_tasks,
	.next_op = replay_next_op,
	.oracle = replay_oracle,
	.report = replay_report,
};
