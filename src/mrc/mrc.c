/* mrc.c - the one pass over a trace and the curves built from it (mrc.h). */
#define _DEFAULT_SOURCE  /* mkdtemp */
#include "mrc.h"
#include "stackdist.h"
#include "shards.h"
#include "../trace/bintrace.h"
#include "../trace/pagemap.h"
#include "../engine/matrix.h"
#include "../engine/pool.h"
#include "../cachesim/cachesim.h"
#include "../cachesim/marks.h"
#include "../policy/policy.h"
#include "../lib/hostmem.h"
#include "../lib/share.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCH 4096

/* The exact LRU curve's state: a histogram of stack distances. */
struct exact {
	struct stackdist sd;
	uint64_t *hist, hist_cap, cold;
	uint64_t warmup, seen;  /* the first `warmup` references are not counted */
	/* --window: per window, the differences of its misses from one size
	 * to the next (a reference at distance d misses at every size below
	 * d: +1 at the first size, -1 at the first size of d or more) */
	uint64_t window;
	const uint64_t *sizes;
	int nsizes;
	int64_t *win;
	size_t nwin;
};

static void exact_window(struct exact *e, uint64_t d)
{
	size_t w = (size_t)((e->seen - 1 - e->warmup) / e->window), row = (size_t)e->nsizes + 1;
	if (w >= e->nwin) {
		e->win = xrealloc(e->win, (w + 1) * row * sizeof(*e->win));
		memset(e->win + e->nwin * row, 0, (w + 1 - e->nwin) * row * sizeof(*e->win));
		e->nwin = w + 1;
	}
	int lo = 0, hi = e->nsizes;      /* sizes below d: a first reference misses at all */
	while (d && lo < hi) {
		int mid = (lo + hi) / 2;
		if (e->sizes[mid] < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	int m = d ? lo : e->nsizes;
	e->win[w * row]++;
	e->win[w * row + (size_t)m]--;
}

static void exact_add(struct exact *e, uint32_t page)
{
	uint64_t d = stackdist_access(&e->sd, page);
	if (e->seen++ < e->warmup)
		return;
	if (e->window)
		exact_window(e, d);
	if (!d) {
		e->cold++;
		return;
	}
	if (d >= e->hist_cap) {
		uint64_t n = e->hist_cap ? e->hist_cap : 1024;
		while (n <= d)
			n *= 2;
		e->hist = xrealloc(e->hist, n * sizeof(*e->hist));
		memset(e->hist + e->hist_cap, 0, (n - e->hist_cap) * sizeof(*e->hist));
		e->hist_cap = n;
	}
	e->hist[d]++;
}

void mrc_misses_from_hist(const uint64_t *hist, uint64_t hist_len, uint64_t cold, const uint64_t *sizes, int n,
			  double *misses)
{
	uint64_t total = cold;
	for (uint64_t d = 1; d < hist_len; d++)
		total += hist[d];
	uint64_t hits = 0, d = 1;
	for (int k = 0; k < n; k++) {
		for (; d <= sizes[k] && d < hist_len; d++)
			hits += hist[d];
		misses[k] = (double)(total - hits);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Sort s[0..n) and drop repeats: the count left. */
static int sort_unique(uint64_t *s, int n)
{
	int u = 0;
	qsort(s, (size_t)n, sizeof(*s), cmp_u64);
	for (int k = 0; k < n; k++)
		if (!u || s[k] != s[u - 1])
			s[u++] = s[k];
	return u;
}

bool mrc_parse_sizes(const char *list, uint64_t **sizes, int *n, char *err, size_t errlen)
{
	return mrc_parse_size_list(list, sizes, n, NULL, NULL, err, errlen);
}

bool mrc_parse_size_list(const char *list, uint64_t **sizes, int *n, double **shares, int *nshares, char *err,
			 size_t errlen)
{
	*sizes = NULL;
	*n = 0;
	if (shares) {
		*shares = NULL;
		*nshares = 0;
	}
	struct axis ax = { .name = xstrdup("sizes") };
	if (!axis_expand(list, AXV_SIZE, &ax, err, errlen)) {
		axis_free(&ax);
		return false;
	}
	uint64_t *s = xcalloc((size_t)ax.n + 1, sizeof(*s));
	double *sh = shares ? xcalloc((size_t)ax.n + 1, sizeof(*sh)) : NULL;
	bool ok = true;
	int m = 0;
	for (int k = 0; ok && k < ax.n; k++) {
		uint64_t b = 0;
		double x;
		if (parse_share(ax.values[k], &x)) {
			if (!sh) {
				snprintf(err, errlen, "bad --sizes '%.100s': a share of the trace's pages is not taken here",
					 ax.values[k]);
				ok = false;
			} else {
				sh[(*nshares)++] = x;
			}
		} else if (!parse_size(ax.values[k], &b) || b < PAGE_SIZE) {
			snprintf(err, errlen, "bad --sizes '%.100s': a size is at least one page (4096 or 1p)",
				 ax.values[k]);
			ok = false;
		} else if (b / PAGE_SIZE > UINT32_MAX) {
			snprintf(err, errlen, "bad --sizes '%.100s': more than %u pages", ax.values[k], UINT32_MAX);
			ok = false;
		}
		else
			s[m++] = b / PAGE_SIZE;
	}
	if (ok) {
		*n = sort_unique(s, m);
		*sizes = s;
		if (sh)
			*shares = sh;
	} else {
		free(s);
		free(sh);
		if (shares)
			*nshares = 0;
	}
	axis_free(&ax);
	return ok;
}

int mrc_auto_sizes(uint64_t npages, uint64_t **sizes)
{
	uint64_t *s = xmalloc(2 * 66 * sizeof(*s));
	int n = 0;
	uint64_t lo = 1;
	while (lo * 4096 < npages)
		lo *= 2;
	for (uint64_t p = lo; p < npages; p *= 2) {
		s[n++] = p;
		if (p + p / 2 < npages && p >= 2)
			s[n++] = p + p / 2;
	}
	s[n++] = npages ? npages : 1;
	*sizes = s;
	return n;
}

static double host_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct mrc_curve *add_curve(struct mrc_result *r, const char *name, enum mrc_method m)
{
	r->curves = xrealloc(r->curves, (size_t)(r->nr_curves + 1) * sizeof(*r->curves));
	struct mrc_curve *c = &r->curves[r->nr_curves++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->method = m;
	c->mae = -1;
	return c;
}

static void curve_fill(struct mrc_curve *c, const struct mrc_result *r)
{
	c->misses = xcalloc((size_t)r->nr_sizes, sizeof(double));
	c->ratio = xcalloc((size_t)r->nr_sizes, sizeof(double));
	if (r->nwin && c->method != MRC_SHARDS_RATE && c->method != MRC_SHARDS_SIZE)
		c->win_misses = xcalloc((size_t)r->nwin * (size_t)r->nr_sizes, sizeof(double));
}

/* --window: the windows' lengths, and the exact curve's misses in each
 * (the running sum of its differences over the sizes). */
static void windows_set(struct mrc_result *r)
{
	uint64_t counted = r->nrefs - r->warmup;
	r->nwin = (int)((counted + r->window - 1) / r->window);
	r->win_refs = xcalloc((size_t)r->nwin, sizeof(*r->win_refs));
	for (int w = 0; w < r->nwin; w++)
		r->win_refs[w] = MIN(r->window, counted - (uint64_t)w * r->window);
}

static void exact_windows(const struct exact *e, struct mrc_curve *c, const struct mrc_result *r)
{
	size_t row = (size_t)e->nsizes + 1;
	for (size_t w = 0; w < e->nwin && w < (size_t)r->nwin; w++) {
		int64_t run = 0;
		for (int k = 0; k < r->nr_sizes; k++) {
			run += e->win[w * row + (size_t)k];
			c->win_misses[w * (size_t)r->nr_sizes + (size_t)k] = (double)run;
		}
	}
}

static void add_shards_curves(const struct mrc_opts *o, struct mrc_result *r)
{
	if (o->shards_rate > 0)
		curve_fill(add_curve(r, "lru/shards-rate", MRC_SHARDS_RATE), r);
	if (o->shards_size > 0)
		curve_fill(add_curve(r, "lru/shards-size", MRC_SHARDS_SIZE), r);
}

/* The simulated curves: one cell per (policy, size), as `pagelab sweep
 * --machine ideal --ram LIST` builds them. */
struct sim_jobs {
	struct matrix_cell *cells;
	struct run_result *rr;
};

static void sim_run(void *arg, int i)
{
	struct sim_jobs *sj = arg;
	cell_run(&sj->cells[i].c, &sj->rr[i]);
}

static bool simulate(const struct mrc_opts *o, const char *bin, struct mrc_result *r, const char **pols, int npol,
		     const int *out, char *err, size_t errlen)
{
	struct matrix mx = { 0 };
	mx.nr_axes = 3;
	mx.axes = xcalloc(3, sizeof(*mx.axes));
	const char *names[3] = { "policy", "machine", "ram" };
	for (int a = 0; a < 3; a++)
		mx.axes[a].name = xstrdup(names[a]);
	mx.axes[0].values = xcalloc((size_t)npol, sizeof(char *));
	for (int p = 0; p < npol; p++)
		mx.axes[0].values[p] = xstrdup(pols[p]);
	mx.axes[0].n = npol;
	mx.axes[1].values = xcalloc(1, sizeof(char *));
	mx.axes[1].values[0] = xstrdup("ideal");
	mx.axes[1].n = 1;
	mx.axes[2].values = xcalloc((size_t)r->nr_sizes, sizeof(char *));
	for (int k = 0; k < r->nr_sizes; k++) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%llup", (unsigned long long)r->sizes[k]);
		mx.axes[2].values[k] = xstrdup(buf);
	}
	mx.axes[2].n = r->nr_sizes;
	mx.seeds = xcalloc(1, sizeof(uint64_t));
	mx.seeds[0] = 1;
	mx.nr_seeds = 1;
	size_t wl = strlen(bin) + 8;
	mx.wl[0] = xmalloc(wl);
	snprintf(mx.wl[0], wl, "trace %s", bin);
	mx.nr_wl = 1;
	struct matrix_cell *cells;
	int n;
	bool ok = matrix_cells(&mx, &cells, &n, err, errlen);
	if (ok) {
		struct sim_jobs sj = { cells, xcalloc((size_t)n, sizeof(struct run_result)) };
		struct pool_job pj = { .run = sim_run, .arg = &sj, .n = n, .jobs = o->jobs > 0 ? o->jobs : 1,
				       .progress = o->progress ? "pagelab mrc" : NULL };
		pool_run(&pj);
		for (int i = 0; i < n; i++) {
			struct run_result *rr = &sj.rr[i];
			struct mrc_curve *c = &r->curves[out[i / r->nr_sizes]];
			int k = i % r->nr_sizes;
			if (!rr->available && ok && !output_interrupted()) {
				snprintf(err, errlen, "mrc: %s", rr->why ? rr->why : "a simulation could not run");
				ok = false;
			}
			c->misses[k] = (double)rr->ev[PGFAULT];
			run_result_free(rr);
		}
		free(sj.rr);
		matrix_cells_free(cells, n);
	}
	matrix_free(&mx);
	return ok;
}

/* The curves of cache policies (cachesim.h can run them: the same policy
 * code, no machine): every (policy, size) is a cache of its own, and all
 * of them take the binary trace in lockstep - one pass, a batch at a time,
 * the caches of a batch spread over the threads.  A cache depends only on
 * the references, so the counts are the same for any number of threads. */
#define SIM_BATCH 65536

struct lockstep {
	struct cachesim **cs;
	const uint32_t *pages;
	const uint8_t *writes;
	size_t n;
};

static uint64_t cache_misses(const struct cachesim *cs)
{
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	return st.misses;
}

static void lockstep_run(void *arg, int i)
{
	struct lockstep *ls = arg;
	cachesim_refs(ls->cs[i], ls->pages, ls->writes, ls->n);
}

static bool simulate_caches(const struct mrc_opts *o, const char *bin, struct mrc_result *r,
			    const struct policy_ops *const *ops, const int *curve, int ncurves, char *err, size_t errlen)
{
	int n = ncurves * r->nr_sizes;
	/* Every cache is held until the pass ends: refuse, before building
	 * them, a set whose frames and page tables alone exceed what this
	 * process may use (the policies' own tables come on top), rather
	 * than be OOM-killed halfway through the trace. */
	uint64_t need = 0;
	for (int i = 0; i < n; i++)
		need += cachesim_host_bytes_min(ops[i / r->nr_sizes], r->sizes[i % r->nr_sizes], r->npages);
	const char *limit;
	uint64_t avail = host_memory_available(&limit);
	if (need > avail) {
		snprintf(err, errlen,
			 "mrc: %d caches (%d policies x %d sizes) over %llu pages need at least %llu MiB of host memory, %llu MiB available (%s): give fewer sizes or policies",
			 n, ncurves, r->nr_sizes, (unsigned long long)r->npages, (unsigned long long)(need >> 20),
			 (unsigned long long)(avail >> 20), limit);
		return false;
	}
	struct trace_opts to = { .format = TRACE_FMT_BIN };
	struct trace_reader *rd = trace_open(bin, &to, err, errlen);
	if (!rd)
		return false;
	struct cachesim **cs = xcalloc((size_t)n, sizeof(*cs));
	for (int i = 0; i < n; i++)
		cs[i] = cachesim_new(ops[i / r->nr_sizes], NULL, r->sizes[i % r->nr_sizes]);
	uint32_t *pages = xmalloc(SIM_BATCH * sizeof(*pages));
	uint8_t *writes = xmalloc(SIM_BATCH);
	struct lockstep ls = { .cs = cs, .pages = pages, .writes = writes };
	struct pool_job pj = { .run = lockstep_run, .arg = &ls, .n = n, .jobs = o->jobs > 0 ? o->jobs : 1 };
	uint64_t done = 0;
	long got;
	bool ok = true;
	/* a batch ends at the warm-up's end and each window's (marks.h),
	 * where every cache's misses are taken */
	struct marks *mk = xcalloc((size_t)n, sizeof(*mk));
	for (int i = 0; i < n; i++)
		mk[i] = (struct marks){ .warmup = r->warmup, .window = r->window };
	while ((got = trace_next_dense(rd, pages, writes, marks_room(&mk[0], done, SIM_BATCH))) > 0 &&
	       !output_interrupted()) {
		ls.n = (size_t)got;
		pool_run(&pj);
		done += (uint64_t)got;
		for (int i = 0; i < n; i++)
			marks_at(&mk[i], done, cache_misses(cs[i]));
		if (o->progress && (done & ((1u << 22) - 1)) < SIM_BATCH)
			fprintf(stderr, "\rpagelab mrc: %llu of %llu references through %d caches",
				(unsigned long long)done, (unsigned long long)r->nrefs, n);
	}
	if (got < 0) {
		snprintf(err, errlen, "%s", trace_reader_error(rd));
		ok = false;
	}
	if (o->progress && r->nrefs >= (1u << 22))
		fputs("\n", stderr);
	for (int i = 0; i < n; i++) {
		struct cachesim_stats st;
		cachesim_stats(cs[i], &st);
		struct mrc_curve *c = &r->curves[curve[i / r->nr_sizes]];
		int k = i % r->nr_sizes;
		c->misses[k] = (double)(st.misses - mk[i].warm_misses);
		marks_end(&mk[i], done, st.misses);
		for (size_t w = 0; c->win_misses && w < mk[i].nwin && w < (size_t)r->nwin; w++)
			c->win_misses[w * (size_t)r->nr_sizes + (size_t)k] = (double)mk[i].win_misses[w];
		marks_free(&mk[i]);
		cachesim_free(cs[i]);
	}
	free(mk);
	free(cs);
	free(pages);
	free(writes);
	trace_close(rd);
	return ok;
}

/* A directory of our own for the binary copy (no blank in its path: the
 * cell's workload line is split on blanks). */
static char *make_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	if (!t || !t[0] || strchr(t, ' '))
		t = "/tmp";
	size_t n = strlen(t) + 32;
	char *d = xmalloc(n);
	snprintf(d, n, "%s/pagelab-mrc-XXXXXX", t);
	if (!mkdtemp(d)) {
		free(d);
		return NULL;
	}
	return d;
}

/* A warm-up is counted by the exact curve, SHARDS and the caches in
 * lockstep; the runs of the ideal machine (OPT, kernel designs, plugins)
 * count the whole trace, so they are refused with one. */
static bool warmup_policies_ok(const struct mrc_opts *o, const char **sim, int nsim, char *err, size_t errlen)
{
	const char *opt = o->warmup ? "--warmup" : "--window";
	if (o->window && (!o->sizes || o->nr_shares)) {
		snprintf(err, errlen, "mrc: --window needs --sizes in pages or bytes (not --auto or shares)");
		return false;
	}
	for (int p = 0; p < nsim; p++) {
		const struct policy_ops *ops = policy_lookup(sim[p], err, errlen);
		if (ops && (!cachesim_policy_ok(ops) || (ops->flags & POLICY_NEEDS_ORACLE))) {
			snprintf(err, errlen, "mrc: %s takes lru, SHARDS and the cache policies run in lockstep, "
				 "not %s (pagelab run %s replays any cache policy)", opt, sim[p], opt);
			return false;
		}
	}
	return true;
}

bool mrc_compute(const struct mrc_opts *o, struct mrc_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	bool want_exact = false;
	int nsim = 0;
	const char **sim = xcalloc((size_t)o->nr_policies + 1, sizeof(char *));
	for (int p = 0; p < o->nr_policies; p++) {
		if (!strcmp(o->policies[p], "lru"))
			want_exact = true;
		else
			sim[nsim++] = o->policies[p];
	}
	if ((o->warmup || o->window) && !warmup_policies_ok(o, sim, nsim, err, errlen)) {
		free(sim);
		return false;
	}
	struct trace_reader *rd = trace_open(o->path, &o->topts, err, errlen);
	if (!rd) {
		free(sim);
		return false;
	}
	r->format = trace_format_name(trace_reader_format(rd));
	uint64_t hn, hp;
	bool dense = trace_reader_counts(rd, &hn, &hp);
	/* The binary copy the simulations read: the trace itself when it is
	 * a binary one on disk. */
	char *tmpdir = NULL, *bin = NULL;
	struct bintrace_writer *w = NULL;
	if (nsim) {
		if (dense && strcmp(o->path, "-") && !strchr(o->path, ' ') && o->path[0]) {
			bin = xstrdup(o->path);
		} else {
			tmpdir = make_tmpdir();
			if (!tmpdir) {
				snprintf(err, errlen, "mrc: cannot create a temporary directory for the trace's binary copy");
				trace_close(rd);
				free(sim);
				return false;
			}
			size_t n = strlen(tmpdir) + 16;
			bin = xmalloc(n);
			snprintf(bin, n, "%s/trace.bin", tmpdir);
			w = bintrace_create(bin, err, errlen);
			if (!w) {
				rmdir(tmpdir);
				free(tmpdir);
				free(bin);
				trace_close(rd);
				free(sim);
				return false;
			}
		}
	}
	struct exact ex = { .warmup = o->warmup, .window = o->window, .sizes = o->sizes, .nsizes = o->nr_sizes };
	struct shards sr = { 0 }, ss = { 0 };
	if (o->shards_rate > 0)
		shards_init_rate(&sr, o->shards_rate, o->seed);
	if (o->shards_size > 0)
		shards_init_size(&ss, o->shards_size, o->seed);
	sr.warmup = ss.warmup = r->warmup = o->warmup;
	r->window = o->window;
	struct pagemap map = { 0 };
	struct trace_ref *b = xmalloc(BATCH * sizeof(*b));
	double t0 = host_seconds();
	long n;
	bool ok = true;
	while (ok && (n = trace_next(rd, b, BATCH)) != 0) {
		if (n < 0) {
			snprintf(err, errlen, "%s", trace_reader_error(rd));
			ok = false;
			break;
		}
		for (long i = 0; ok && i < n; i++) {
			struct trace_ref ref = b[i];
			if (o->shards_rate > 0)
				shards_access(&sr, ref.page, ref.pid);
			if (o->shards_size > 0)
				shards_access(&ss, ref.page, ref.pid);
			if (!dense && (want_exact || w)) {
				uint32_t idx;
				if (!pagemap_get(&map, ref.page, ref.pid, &idx)) {
					snprintf(err, errlen, "%s: more than %u distinct pages", o->path, PAGEMAP_MAX);
					ok = false;
					break;
				}
				ref.page = idx;
			}
			if (want_exact)
				exact_add(&ex, (uint32_t)ref.page);
			if (w && !bintrace_put(w, &ref, err, errlen))
				ok = false;
		}
		r->nrefs += (uint64_t)n;
		if (o->progress && (r->nrefs & ((1u << 22) - 1)) < BATCH)
			fprintf(stderr, "\rpagelab mrc: %llu references read", (unsigned long long)r->nrefs);
		if (output_interrupted()) {
			r->interrupted = output_interrupted();
			break;
		}
	}
	r->pass_seconds = host_seconds() - t0;
	if (o->progress && r->nrefs >= (1u << 22))
		fputs("\n", stderr);
	free(b);
	/* Without the exact curve or a copy, nothing numbers the pages: SHARDS
	 * alone holds only its sample. */
	r->npages = dense ? hp : want_exact || w ? map.used : 0;
	pagemap_free(&map);
	size_t exact_bytes = stackdist_host_bytes(&ex.sd) + ex.hist_cap * sizeof(*ex.hist);
	stackdist_free(&ex.sd);
	if (ok && !r->nrefs) {
		snprintf(err, errlen, "trace '%s' holds no references", o->path);
		ok = false;
	} else if (ok && r->nrefs <= r->warmup && !r->interrupted) {
		snprintf(err, errlen, "mrc: --warmup %llu: the trace holds only %llu references",
			 (unsigned long long)r->warmup, (unsigned long long)r->nrefs);
		ok = false;
	}
	if (w) {
		if (ok && !bintrace_finish(w, r->npages, err, errlen))
			ok = false;
		else if (!ok)
			bintrace_abort(w);
	}
	if (ok) {
		uint64_t d = r->npages;
		if (!want_exact && !w) {
			/* SHARDS alone: its sampled pages over its rate */
			const struct shards *sh = o->shards_rate > 0 ? &sr : &ss;
			d = (uint64_t)llround((double)sh->sd.live / shards_rate(sh));
			r->npages_estimated = d;
		}
		if (o->sizes || o->nr_shares) {
			/* the shares of the distinct pages, now that they are known */
			int all = o->nr_sizes + o->nr_shares;
			r->sizes = xmalloc((size_t)all * sizeof(*r->sizes));
			memcpy(r->sizes, o->sizes, (size_t)o->nr_sizes * sizeof(*r->sizes));
			for (int k = 0; k < o->nr_shares; k++)
				r->sizes[o->nr_sizes + k] = share_pages(o->shares[k], d);
			r->nr_sizes = sort_unique(r->sizes, all);
		} else {
			r->nr_sizes = mrc_auto_sizes(d, &r->sizes);
		}
		if (r->window)
			windows_set(r);
	}
	/* The curves in the order of --policy, SHARDS right after lru. */
	int *simc = xcalloc((size_t)nsim + 1, sizeof(*simc));
	int exact_idx = -1;
	for (int p = 0, s = 0; ok && p < o->nr_policies; p++) {
		if (strcmp(o->policies[p], "lru")) {
			simc[s++] = r->nr_curves;
			curve_fill(add_curve(r, o->policies[p], MRC_SIMULATED), r);
			continue;
		}
		exact_idx = r->nr_curves;
		struct mrc_curve *c = add_curve(r, "lru", MRC_EXACT);
		curve_fill(c, r);
		mrc_misses_from_hist(ex.hist, ex.hist_cap, ex.cold, r->sizes, r->nr_sizes, c->misses);
		if (c->win_misses)
			exact_windows(&ex, c, r);
		c->host_bytes = exact_bytes;
		add_shards_curves(o, r);
	}
	/* SHARDS curves asked for without lru stand alone, last. */
	if (ok && exact_idx < 0)
		add_shards_curves(o, r);
	for (int i = 0; ok && i < r->nr_curves; i++) {
		struct mrc_curve *c = &r->curves[i];
		if (c->method != MRC_SHARDS_RATE && c->method != MRC_SHARDS_SIZE)
			continue;
		struct shards *sh = c->method == MRC_SHARDS_SIZE ? &ss : &sr;
		shards_curve(sh, r->sizes, r->nr_sizes, c->ratio);
		for (int k = 0; k < r->nr_sizes; k++)
			c->misses[k] = c->ratio[k] * (double)(r->nrefs - r->warmup);
		c->rate = shards_rate(sh);
		c->sampled = sh->nsampled;
		c->host_bytes = shards_host_bytes(sh);
	}
	free(ex.hist);
	free(ex.win);
	shards_free(&sr);
	shards_free(&ss);
	if (ok && nsim && !r->interrupted) {
		/* Cache policies in lockstep; the others (kernel designs, OPT,
		 * which needs its oracle) as runs of the ideal machine. */
		const struct policy_ops **cops = xcalloc((size_t)nsim, sizeof(*cops));
		const char **mpol = xcalloc((size_t)nsim, sizeof(*mpol));
		int *ccurve = xcalloc((size_t)nsim, sizeof(int)), *mcurve = xcalloc((size_t)nsim, sizeof(int));
		int nc = 0, nm = 0;
		for (int p = 0; p < nsim; p++) {
			const struct policy_ops *ops = policy_lookup(sim[p], err, errlen);
			if (ops && cachesim_policy_ok(ops) && !(ops->flags & POLICY_NEEDS_ORACLE)) {
				cops[nc] = ops;
				ccurve[nc++] = simc[p];
			} else {
				mpol[nm] = sim[p];
				mcurve[nm++] = simc[p];
			}
		}
		if (nc)
			ok = simulate_caches(o, bin, r, cops, ccurve, nc, err, errlen);
		if (ok && nm && !output_interrupted())
			ok = simulate(o, bin, r, mpol, nm, mcurve, err, errlen);
		free(cops);
		free(mpol);
		free(ccurve);
		free(mcurve);
		/* a signal stops the pool: the sizes not simulated read 0 */
		r->interrupted = output_interrupted();
	}
	free(simc);
	if (ok) {
		const struct mrc_curve *ec = exact_idx >= 0 ? &r->curves[exact_idx] : NULL;
		for (int i = 0; i < r->nr_curves; i++) {
			struct mrc_curve *c = &r->curves[i];
			if (c->method != MRC_SHARDS_RATE && c->method != MRC_SHARDS_SIZE)
				for (int k = 0; k < r->nr_sizes; k++)
					c->ratio[k] = c->misses[k] / (double)(r->nrefs - r->warmup);
		}
		for (int i = 0; ec && i < r->nr_curves; i++) {
			struct mrc_curve *c = &r->curves[i];
			if (c->method != MRC_SHARDS_RATE && c->method != MRC_SHARDS_SIZE)
				continue;
			double sum = 0;
			for (int k = 0; k < r->nr_sizes; k++)
				sum += fabs(c->ratio[k] - ec->ratio[k]);
			c->mae = sum / r->nr_sizes;
		}
	}
	if (tmpdir) {
		if (bin)
			unlink(bin);
		rmdir(tmpdir);
	}
	free(tmpdir);
	free(bin);
	trace_close(rd);
	free(sim);
	if (!ok)
		mrc_result_free(r);
	return ok;
}

void mrc_result_free(struct mrc_result *r)
{
	for (int i = 0; i < r->nr_curves; i++) {
		free(r->curves[i].name);
		free(r->curves[i].misses);
		free(r->curves[i].ratio);
		free(r->curves[i].win_misses);
	}
	free(r->win_refs);
	free(r->curves);
	free(r->sizes);
	memset(r, 0, sizeof(*r));
}
