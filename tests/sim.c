/* sim.c - see sim.h. */
#include "sim.h"
#include "test.h"
#include "../src/lib/util.h"
#include "../src/trace/trace.h"
#include "../src/policy/policy.h"
#include "../src/cachesim/cachesim.h"
#include "../src/mm/pte.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The distinct values among n page numbers. */
static uint64_t count_distinct(const uint64_t *pages, uint64_t n)
{
	uint64_t *v = xmalloc(n ? n * sizeof(*v) : 1);
	memcpy(v, pages, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_u64);
	uint64_t d = 0;
	for (uint64_t i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	free(v);
	return d;
}

/* Replay the trace file at path (`distinct` pages) through the trace
 * workload, exactly as the CLI does, on the ideal machine with `frames`
 * frames; inspect (if not NULL) sees the machine at the end. */
static void replay(const char *policy, const char *path, uint64_t frames, uint64_t distinct, struct sim_result *r,
		   void (*inspect)(struct machine *m, void *arg), void *arg)
{
	const struct profile *p = profile_find("ideal");
	struct profile prof = *p;
	prof.ram = frames * PAGE_SIZE;
	/* A small swap area (16 MB) keeps the machine small, but never less
	 * than twice the trace's pages: past half full, vm_swap_full()
	 * (swap.c) has swap-ins give their slots back, and a full area
	 * swaps no more, either changing the counts silently. */
	prof.swap = 16ULL << 20;
	if (2 * distinct * PAGE_SIZE > prof.swap)
		prof.swap = 2 * distinct * PAGE_SIZE;
	struct machine_opts mo = { .seed = 1, .check = true };
	struct machine m;
	char err[256];
	if (!machine_init(&m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	const struct workload_ops *wo = workload_find("trace");
	char name0[] = "trace";
	char *argv[] = { name0, (char *)path, NULL };
	void *w = wo->create(2, argv, 1, err, sizeof(err));
	if (!w)
		panic("%s", err);
	const struct policy_ops *pol = policy_find(policy);
	if (!pol)
		panic("no policy %s", policy);
	/* Only OPT gets the oracle, as in run.c: every other policy replays
	 * the trace streaming. */
	if (pol->flags & POLICY_NEEDS_ORACLE) {
		const uint64_t *nu;
		uint64_t nn;
		if (!wo->oracle(w, &nu, &nn))
			panic("trace oracle refused");
		mm_set_oracle(&m.mm, nu, nn);
	}
	machine_set_policy(&m, pol, NULL);
	machine_add_workload(&m, wo, w, "trace");
	machine_run(&m);
	const uint64_t *ev = m.mm.ev;
	*r = (struct sim_result){
		.pgfault = ev[PGFAULT], .pgmajfault = ev[PGMAJFAULT],
		.pswpin = ev[PSWPIN], .pswpout = ev[PSWPOUT],
		.pgscan = ev[PGSCAN_DIRECT] + ev[PGSCAN_KSWAPD],
		.pgsteal = ev[PGSTEAL_DIRECT] + ev[PGSTEAL_KSWAPD],
		.allocstall = ev[ALLOCSTALL],
		.check_failed = m.check_failed,
	};
	CHECK(!m.check_failed);
	CHECK_EQ(m.live_user, 0);
	if (inspect)
		inspect(&m, arg);
	machine_free(&m);
}

static FILE *temp_trace(char *path)
{
	int fd = mkstemp(path);
	if (fd < 0)
		panic("mkstemp");
	FILE *f = fdopen(fd, "w");
	if (!f)
		panic("fdopen");
	return f;
}

uint64_t sim_trace_faults(const char *policy, const uint64_t *pages, uint64_t n, uint64_t frames, int write)
{
	char path[] = "/tmp/pagelab-test-XXXXXX";
	FILE *f = temp_trace(path);
	for (uint64_t i = 0; i < n; i++)
		fprintf(f, "%llu %c\n", (unsigned long long)pages[i], write ? 'w' : 'r');
	fclose(f);
	struct sim_result r;
	replay(policy, path, frames, count_distinct(pages, n), &r, NULL, NULL);
	unlink(path);
	return r.pgfault;
}

void sim_trace_inspect(const char *policy, const char *refs, uint64_t frames, struct sim_result *r,
		       void (*inspect)(struct machine *m, void *arg), void *arg)
{
	char path[] = "/tmp/pagelab-test-XXXXXX";
	FILE *f = temp_trace(path);
	/* "12w" -> "12 w\n" */
	uint64_t *pages = NULL, n = 0, cap = 0;
	for (const char *s = refs; *s;) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		const char *d = s;
		while (*s >= '0' && *s <= '9')
			s++;
		if (s == d || (*s != 'r' && *s != 'w'))
			panic("bad test reference string '%s'", refs);
		fprintf(f, "%.*s %c\n", (int)(s - d), d, *s);
		if (n == cap)
			pages = xrealloc(pages, (cap = cap ? 2 * cap : 64) * sizeof(*pages));
		pages[n++] = strtoull(d, NULL, 10);
		s++;
	}
	fclose(f);
	replay(policy, path, frames, count_distinct(pages, n), r, inspect, arg);
	free(pages);
	unlink(path);
}

void sim_trace_run(const char *policy, const char *refs, uint64_t frames, struct sim_result *r)
{
	sim_trace_inspect(policy, refs, frames, r, NULL, NULL);
}

void *wl_make(const char *line, int *ntasks)
{
	char buf[512], *argv[64];
	int argc = 0;
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	const struct workload_ops *ops = workload_find(argv[0]);
	char err[256] = "";
	void *w = ops ? ops->create(argc, argv, 1, err, sizeof(err)) : NULL;
	if (!w) {
		fprintf(stderr, "cannot create '%s': %s\n", line, err);
		test_failures++;
		return NULL;
	}
	if (ntasks)
		*ntasks = ops->nr_tasks(w);
	return w;
}

static struct machine *run_seeded(const char *machine, uint64_t ram, const char *policy, const char *const *sets,
				  const char *const *vm_sets, uint64_t seed, bool check, int argc, char **argv)
{
	static struct machine m;
	struct profile prof = *profile_find(machine);
	char err[256];
	prof.ram = ram;
	prof.swap = 2 * ram;
	for (int i = 0; vm_sets && vm_sets[i]; i += 2)
		if (!profile_set(&prof, vm_sets[i], vm_sets[i + 1], err, sizeof(err)))
			panic("%s", err);
	struct machine_opts mo = { .seed = seed, .check = check, .max_time_ns = 3600ULL * 1000000000ULL };
	if (!machine_init(&m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	const struct workload_ops *wo = workload_find(argv[0]);
	void *w = wo->create(argc, argv, seed, err, sizeof(err));
	const struct policy_ops *ops = policy_find(policy);
	int n = policy_nr_tunables(ops);
	double tun[64];
	if (n > 64)
		panic("sim_run_workload: %s has %d tunables", policy, n);
	for (int i = 0; i < n; i++)
		tun[i] = ops->tunables[i].def;
	for (int i = 0; sets && sets[i]; i += 2)
		tun[policy_tunable_index(ops, sets[i])] = atof(sets[i + 1]);
	machine_set_policy(&m, ops, tun);
	machine_add_workload(&m, wo, w, argv[0]);
	machine_run(&m);
	return &m;
}

struct machine *sim_run_workload(const char *machine, uint64_t ram, const char *policy, const char *const *sets,
				 const char *const *vm_sets, int argc, char **argv)
{
	return run_seeded(machine, ram, policy, sets, vm_sets, 1, false, argc, argv);
}

struct machine *sim_run_checked(const char *machine, uint64_t ram, const char *policy, const char *const *vm_sets,
				uint64_t seed, int argc, char **argv)
{
	return run_seeded(machine, ram, policy, NULL, vm_sets, seed, true, argc, argv);
}

uint64_t sim_cache_misses(const char *policy, uint64_t frames, const uint32_t *ids, size_t n)
{
	struct cachesim *cs = cachesim_new(policy_find(policy), NULL, frames);
	cachesim_refs(cs, ids, NULL, n);
	struct cachesim_stats st;
	cachesim_stats(cs, &st);
	cachesim_free(cs);
	return st.misses;
}

struct aspace *sim_swapped_out(struct mm *mm, const struct mm_costs *cost, struct mm_ctx *ctx, uint64_t n,
			       uint32_t *vma)
{
	struct mm_config cfg = { .ram_pages = 64, .swap_pages = 64, .untimed = true };
	mm_init(mm, &cfg, cost);
	mm_set_policy(mm, policy_find("fifo"), NULL);
	*ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	mm->cur = ctx;
	struct aspace *as = mm_aspace_new(mm, -1);
	uint32_t v = mm_mmap_anon(mm, as, n, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(mm, ctx, as, v, 0, n, 1, TOUCH_WRITE, UINT64_MAX / 2, &st), n);
	struct scan_control sc = { .nr_to_reclaim = n, .who = RECLAIM_DIRECT, .may_swap = true,
				   .may_writepage = true };
	for (uint64_t off = 0; off < n; off++) {
		pfn_t pfn = pte_pfn(as->vmas[v].pte[off]);
		mm->pol.ops->remove(mm->pol.priv, pfn);
		CHECK_EQ(mm_reclaim_page(mm, &sc, pfn), EVICT_FREED);
		CHECK_EQ(pte_slot(as->vmas[v].pte[off]), off);
	}
	CHECK_EQ(mm->ev[PSWPOUT], n);
	mm->cur = NULL;
	*vma = v;
	return as;
}
