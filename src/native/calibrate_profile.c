/* calibrate_profile.c - --calibrate's table and the machine profile it
 * writes (calibrate.h): the measured costs on modern's profile, every
 * other parameter modern's, each cost.* line under a comment saying where
 * its value comes from (`bench` or `default`, docs/cost.md). */
#include "calibrate.h"
#include "native.h"
#include "../machine/profile_file.h"
#include "../lib/output.h"
#include "../lib/util.h"
#include "../lib/wrap.h"

#include <string.h>

#define CAL_BASE "modern"

void cal_report(const struct cal_fig *f, FILE *out)
{
	fprintf(out, "# pagelab kernel --calibrate: this host's costs, ns per operation,\n"
		     "# the median of %d rounds (a round: PER_ROUND operations)\n", CAL_ROUNDS);
	fprintf(out, "%-13s %9s %8s %8s %9s  %s\n", "OPERATION", "MEDIAN", "MIN", "MAX", "PER_ROUND", "PARAMETER");
	for (int i = 0; i < NR_CAL; i++) {
		if (!f[i].rounds) {
			fprintf(out, "%-13s %9s %8s %8s %9s  %s\n", f[i].name, "-", "-", "-", "-",
				f[i].param ? f[i].param : "-");
			continue;
		}
		char per[24] = "-";
		if (f[i].per_round)
			snprintf(per, sizeof(per), "%llu", (unsigned long long)f[i].per_round);
		char lo[24] = "-", hi[24] = "-";
		if (!f[i].no_spread) {
			snprintf(lo, sizeof(lo), "%.1f", f[i].min);
			snprintf(hi, sizeof(hi), "%.1f", f[i].max);
		}
		fprintf(out, "%-13s %9.1f %8s %8s %9s  %s\n", f[i].name, f[i].median, lo, hi, per,
			f[i].param ? f[i].param : "-");
	}
	fputs("\n", out);
	for (int i = 0; i < NR_CAL; i++) {
		char line[400];
		snprintf(line, sizeof(line), "# %s: %s%s%s", f[i].name, f[i].method, f[i].rounds ? "" : "; not measured: ",
			 f[i].rounds ? "" : f[i].why);
		wrap_row(out, "", 0, line, "  ", WRAP_WIDTH);
	}
}

static const struct cal_fig *fig_of(const struct cal_fig *f, const char *param)
{
	for (int i = 0; i < NR_CAL; i++)
		if (f[i].param && !strcmp(f[i].param, param))
			return &f[i];
	return NULL;
}

/* Where NAME's value comes from (profile_source_fn). */
static void cal_source(const char *name, void *arg, char *buf, size_t len)
{
	const struct cal_fig *c = fig_of(arg, name);
	if (c && c->rounds && c->no_spread)
		snprintf(buf, len, "bench %s, median of %d rounds (%.1f ns a %s; no spread kept): %s", c->name,
			 c->rounds, c->median, c->unit, c->method);
	else if (c && c->rounds)
		snprintf(buf, len, "bench %s, median of %d rounds (%.1f..%.1f ns a %s): %s", c->name, c->rounds,
			 c->min, c->max, c->unit, c->method);
	else if (c)
		snprintf(buf, len, "default, %s's (not measured: %s)", CAL_BASE, c->why);
	else
		snprintf(buf, len, "default, %s's (no microbenchmark%s)", CAL_BASE,
			 !strcmp(name, "cost.ref") ? "; compare --fit-cpu fits it per workload" : "");
}

void cal_write_profile(const struct cal_fig *f, FILE *out)
{
	struct profile p = *profile_find(CAL_BASE);
	for (int i = 0; i < NR_CAL; i++) {
		if (!f[i].param || !f[i].rounds)
			continue;
		/* to the parameter's unit: ps for cost.ref, else whole ns */
		bool ps = !strcmp(profile_param_unit(f[i].param), "ps");
		profile_set_u64(&p, f[i].param, (uint64_t)(f[i].value * (ps ? 1000.0 : 1.0) + 0.5));
	}
	fprintf(out, "# pagelab machine profile: this host's CPU costs, written by\n"
		     "# `pagelab kernel --calibrate` (docs/cost.md).  Run with --machine\n"
		     "# PATH (a name with a '/').  Every parameter not below is %s's.\n", CAL_BASE);
	profile_write_costs(out, &p, CAL_BASE, cal_source, (void *)f);
}

int cal_run(const char *path, bool paths)
{
	/* Opened first: a path that cannot be written fails before the
	 * measuring (output.c: written whole or not at all). */
	struct atomic_file af;
	char err[600];
	if (!atomic_open(&af, path, err, sizeof(err))) {
		fprintf(stderr, "pagelab: kernel: --calibrate: %s\n", err);
		return 2;
	}
	struct cal_fig f[NR_CAL];
	cal_measure(f, paths);
	/* SIGINT/SIGTERM while the kernel paths ran (guard.c caught it, its
	 * cgroup and swapfile are gone): stop, FILE unwritten, as a run does */
	int sig = output_interrupted();
	if (sig) {
		atomic_abort(&af);
		fprintf(stderr, "pagelab: kernel: --calibrate: stopped by signal %d; nothing written\n", sig);
		nguard_reraise(sig);
	}
	cal_report(f, stdout);
	cal_write_profile(f, af.f);
	if (!atomic_commit(&af, err, sizeof(err))) {
		fprintf(stderr, "pagelab: kernel: --calibrate: %s\n", err);
		return 1;
	}
	printf("\nwrote %s\nrun on it: --machine %s%s\n", path, strchr(path, '/') ? "" : "./", path);
	return 0;
}
