/* compare_fit.c - pagelab compare --fit-cpu LIMIT (compare_fit.h).
 *
 * Why: a machine profile's CPU is not the host's.  On this 2-CPU host
 * qsbench without pressure took 16.09 s of simulated user time where the
 * kernel took 8.30 s, and its system time was two thirds of the kernel's
 * (0.26 s against 0.41 s, the kernel's runs warmed: docs/native.md);
 * under pressure a CPU that slow beside the host's disk kept the sorts
 * off the CPU while they swapped, and linux6's swap totals grew with the
 * disk's rate (docs/fidelity.md).  The run without pressure exercises the
 * CPU and no reclaim, so its times say how fast this host is and nothing
 * about the policy: the user-time ratio scales the reference cost, the
 * system-time ratio every system cost (those reclaim alone uses
 * included, an extrapolation the run with pressure then tests).  This is
 * make fidelity's calibrate_on() (tests/fidelity.sh) for any workload. */
#include "compare_fit.h"
#include "../lib/util.h"
#include "../lib/version.h"
#include "../machine/profile.h"

#include <stdlib.h>
#include <string.h>

/* The costs fitted, and which time scales each. */
static const struct { const char *name; bool user; } fit_costs[] = {
	{ "cost.ref", true },        { "cost.fault", false },     { "cost.zero_page", false },
	{ "cost.copy_page", false }, { "cost.scan", false },      { "cost.rmap", false },
	{ "cost.io_submit", false }, { "cost.free_page", false }, { "cost.io_complete", false },
};

static bool sets_name(const struct argv_buf *sets, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < sets->n; i++)
		if (!strncmp(sets->v[i], name, n) && sets->v[i][n] == '=')
			return true;
	return false;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, uint64_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A finished run's CPU times from its report (out), kept at path under
 * key if path; the files and key freed. */
static void keep_times(FILE *out, FILE *err, const char *path, char *key, const char *who, double *user,
		       double *sys)
{
	if (!report_cpu_times(out, user, sys))
		die_usage("compare: --fit-cpu: %s printed no CPU times", who);
	rewind(out);
	if (path)
		cache_store(path, key, out);
	free(key);
	fclose(out);
	fclose(err);
}

/* One kernel run at the fit's limit (run r), or its cached report:
 * its CPU times. */
static void kernel_times(const struct fit_cpu_req *q, uint64_t r, double *user, double *sys)
{
	const struct kernel_cmd kc = { .memcg = q->limit, .swap = q->swap, .seed = q->seed, .timeout = q->timeout,
				       .tag = "--fit-cpu: ", .wl = q->kwl, .nwl = q->nwl };
	bool hit;
	FILE *f = kernel_report(&kc, q->kernel_cache, "fit", r, q->repeat, q->progress, &hit);
	bool ok = report_cpu_times(f, user, sys);
	fclose(f);
	if (!ok)
		die_usage("compare: --fit-cpu: the kernel run printed no CPU times");
}

/* The simulator's run at the fit's limit with the profile's costs. */
static void sim_times(const struct fit_cpu_req *q, double *user, double *sys)
{
	struct argv_buf a = { 0 };
	char num[32];
	argv_push(&a, "pagelab");
	argv_push(&a, "run");
	argv_push(&a, "--machine"); argv_push(&a, q->machine);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)q->cpus);
	argv_push(&a, "--cpus"); argv_push(&a, num);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)q->ram);
	argv_push(&a, "--ram"); argv_push(&a, num);
	argv_push(&a, "--swap"); argv_push(&a, q->swap);
	argv_push(&a, "--memcg"); argv_push(&a, q->limit);
	if (q->disk) {
		argv_push(&a, "--disk"); argv_push(&a, q->disk);
	}
	for (int s = 0; s < q->sets->n; s++) {
		argv_push(&a, "--set"); argv_push(&a, q->sets->v[s]);
	}
	argv_push(&a, "--policy"); argv_push(&a, q->policy);
	argv_push(&a, "--seed"); argv_push(&a, q->seed);
	argv_push(&a, "--no-progress");
	for (int w = 0; w < q->nswl; w++)
		argv_push(&a, q->swl[w]);
	char *key = NULL, path[4096];
	if (q->sim_cache) {
		char *cmd = join_words(a.n, a.v);
		const char *ver = pagelab_version();
		key = xmalloc(strlen(cmd) + strlen(ver) + 8);
		sprintf(key, "%s (%s)\n", cmd, ver);
		free(cmd);
		snprintf(path, sizeof(path), "%s/sim.%016llx", q->sim_cache, (unsigned long long)fnv1a64(key));
		if (cache_times(path, key, user, sys)) {
			free(key);
			argv_free(&a);
			return;
		}
	}
	if (q->progress)
		fprintf(stderr, "compare: --fit-cpu: pagelab run --memcg %s --policy %s...\n", q->limit, q->policy);
	FILE *out, *err;
	char msg[512];
	if (run_self(a.v, &out, &err)) {
		free(key);
		argv_free(&a);
		first_line(err, msg, sizeof(msg));
		die_usage("compare: --fit-cpu: simulator: %s", msg);
	}
	keep_times(out, err, key ? path : NULL, key, "the simulator", user, sys);
	argv_free(&a);
}

void compare_fit_cpu(const struct fit_cpu_req *q, struct argv_buf *fitted, char *note, size_t len)
{
	const struct profile *prof = profile_find(q->machine);
	if (!prof)
		die_usage("compare: unknown machine '%s' (see pagelab machines)", q->machine);
	/* The simulator first: its bad input shows before the kernel runs. */
	double su, ss;
	sim_times(q, &su, &ss);
	double *ku = xcalloc(q->repeat, sizeof(*ku)), *ks = xcalloc(q->repeat, sizeof(*ks));
	for (uint64_t r = 0; r < q->repeat; r++)
		kernel_times(q, r, &ku[r], &ks[r]);
	double kum = median(ku, q->repeat), ksm = median(ks, q->repeat);
	free(ku);
	free(ks);
	/* The reports give times to the hundredth of a second: a ratio of
	 * shorter times than these would be mostly rounding. */
	if (kum < 1.0)
		die_usage("compare: --fit-cpu: the workload took %.2f s of user time on the kernel in a %s cgroup; "
			  "fitting needs at least 1 s", kum, q->limit);
	if (su < 0.1 || ss < 0.05 || ksm < 0.05)
		die_usage("compare: --fit-cpu: too little CPU time to fit on in a %s cgroup (kernel %.2f s user, "
			  "%.2f s system; pagelab %.2f s, %.2f s; at least 0.1 s and 0.05 s are needed)",
			  q->limit, kum, ksm, su, ss);
	double ru = kum / su, rs = ksm / ss;
	for (size_t i = 0; i < sizeof(fit_costs) / sizeof(fit_costs[0]); i++) {
		uint64_t v;
		if (sets_name(q->sets, fit_costs[i].name) || !profile_get_u64(prof, fit_costs[i].name, &v))
			continue;
		char arg[64];
		double x = (double)v * (fit_costs[i].user ? ru : rs) + 0.5;
		snprintf(arg, sizeof(arg), "%s=%llu%s", fit_costs[i].name, (unsigned long long)x,
			 !strcmp(profile_param_unit(fit_costs[i].name), "ps") ? "ps" : "ns");
		argv_push(fitted, arg);
	}
	snprintf(note, len,
		 "CPU fitted on the run in a %s cgroup (kernel median %.2f s user, %.2f s system over %llu run%s; "
		 "pagelab with %s's costs %.2f s, %.2f s): cost.ref x%.3f, the system costs x%.3f",
		 q->limit, kum, ksm, (unsigned long long)q->repeat, q->repeat == 1 ? "" : "s", q->machine, su, ss,
		 ru, rs);
}
