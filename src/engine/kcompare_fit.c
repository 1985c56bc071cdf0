/* kcompare_fit.c - pagelab compare --fit-cpu LIMIT (kcompare.h).
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
#include "kcompare.h"
#include "stats.h"
#include "../lib/util.h"
#include "../machine/profile.h"
#include "runspec.h"

#include <stdlib.h>
#include <string.h>

/* The costs fitted, and which time scales each. */
static const struct { const char *name; bool user; } fit_costs[] = {
	{ "cost.ref", true },        { "cost.fault", false },     { "cost.zero_page", false },
	{ "cost.copy_page", false }, { "cost.scan", false },      { "cost.rmap", false },
	{ "cost.io_submit", false }, { "cost.free_page", false }, { "cost.io_complete", false },
};

bool kcompare_fit_user(const char *name)
{
	for (size_t i = 0; i < sizeof(fit_costs) / sizeof(fit_costs[0]); i++)
		if (!strcmp(fit_costs[i].name, name))
			return fit_costs[i].user;
	return false;
}

/* The median user and system times of the records. */
static void median_times(const struct records *rs, double *user, double *sys)
{
	int n = rs->n;
	double *u = xcalloc((size_t)n + 1, sizeof(double)), *s = xcalloc((size_t)n + 1, sizeof(double));
	for (int i = 0; i < n; i++) {
		if (!record_metric(&rs->r[i], "user_s", &u[i]) || !record_metric(&rs->r[i], "sys_s", &s[i]))
			die_usage("compare: --fit-cpu: a run without CPU times");
	}
	qsort(u, (size_t)n, sizeof(double), cmp_double_asc);
	qsort(s, (size_t)n, sizeof(double), cmp_double_asc);
	*user = n % 2 ? u[n / 2] : (u[n / 2 - 1] + u[n / 2]) / 2;
	*sys = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(u);
	free(s);
}

/* One side's runs at the fit's limit: their median CPU times. */
static void side_times(struct kcompare *k, bool kernel, const char *limit, double *user, double *sys)
{
	uint64_t fl = 0;
	parse_size(limit, &fl);
	struct records rs = { 0 };
	char err[1200], *first = xstrdup(k->policies);
	first[strcspn(first, ",")] = 0;
	int resumed, rc = kcompare_side(k, kernel, first, limit, fl + fl / 4 + (64ULL << 20), 1, &rs, &resumed,
					err, sizeof(err));
	free(first);
	if (rc == 2)
		die_usage("compare: --fit-cpu: %s", err);
	if (rc) {
		fprintf(stderr, "pagelab: compare: --fit-cpu: %s\n", err);
		exit(1);
	}
	median_times(&rs, user, sys);
	records_free(&rs);
}

void kcompare_fit_apply(struct kcompare *k, const struct profile *prof, struct kfit *fit)
{
	fit->first_fitted = k->nsets;
	for (size_t i = 0; i < sizeof(fit_costs) / sizeof(fit_costs[0]); i++) {
		uint64_t v;
		char prefix[48];
		snprintf(prefix, sizeof(prefix), "%s=", fit_costs[i].name);
		if (kcompare_has_set(k, prefix) || !profile_get_u64(prof, fit_costs[i].name, &v))
			continue;
		char arg[64];
		double x = (double)v * (fit_costs[i].user ? fit->ru : fit->rs) + 0.5;
		snprintf(arg, sizeof(arg), "%s=%llu%s", fit_costs[i].name, (unsigned long long)x,
			 !strcmp(profile_param_unit(fit_costs[i].name), "ps") ? "ps" : "ns");
		kcompare_add_set(k, arg);
	}
}

void kcompare_fit(struct kcompare *k, const char *limit, char *note, size_t len, struct kfit *fit)
{
	char err[512];
	const struct profile *prof = runspec_find_machine(k->machine, err, sizeof(err));
	if (!prof)
		die_usage("compare: %s", err);
	/* The simulator first: its bad input shows before the kernel runs. */
	double su, ss, kum, ksm;
	side_times(k, false, limit, &su, &ss);
	side_times(k, true, limit, &kum, &ksm);
	/* The reports give times to the hundredth of a second: a ratio of
	 * shorter times than these would be mostly rounding. */
	if (kum < 1.0)
		die_usage("compare: --fit-cpu: the workload took %.2f s of user time on the kernel in a %s cgroup; "
			  "fitting needs at least 1 s", kum, limit);
	if (su < 0.1 || ss < 0.05 || ksm < 0.05)
		die_usage("compare: --fit-cpu: too little CPU time to fit on in a %s cgroup (kernel %.2f s user, "
			  "%.2f s system; pagelab %.2f s, %.2f s; at least 0.1 s and 0.05 s are needed)",
			  limit, kum, ksm, su, ss);
	*fit = (struct kfit){ .limit = limit, .ru = kum / su, .rs = ksm / ss, .kum = kum, .ksm = ksm, .su = su,
			      .ss = ss };
	kcompare_fit_apply(k, prof, fit);
	snprintf(note, len,
		 "CPU fitted on the run in a %s cgroup (kernel median %.2f s user, %.2f s system over %llu run%s; "
		 "pagelab with %s's costs %.2f s, %.2f s): cost.ref x%.3f, the system costs x%.3f",
		 limit, kum, ksm, (unsigned long long)k->repeat, k->repeat == 1 ? "" : "s", k->machine, su, ss,
		 fit->ru, fit->rs);
}
