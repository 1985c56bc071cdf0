/* kcompare_fit_profile.c - compare --fit-cpu's fitted costs as a machine
 * profile file (kcompare.h), the format `pagelab kernel --calibrate`
 * writes (src/machine/profile_file.h): a run names it with --machine
 * FILE, and each cost says where it comes from -- the fit (the preset's
 * value times which ratio of which median times), a --set (the user's,
 * or one compare measured on this host: the TLB IPI), or the preset. */
#include "kcompare.h"
#include "../machine/profile_file.h"

#include <stdlib.h>
#include <string.h>

struct fit_src {
	const struct kcompare *k;
	const struct kfit *fit;
	const struct profile *base;
	char *wl;
};

/* The index in k->sets of the set naming NAME, or -1. */
static int set_of(const struct kcompare *k, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < k->nsets; i++)
		if (!strncmp(k->sets[i], name, n) && k->sets[i][n] == '=')
			return i;
	return -1;
}

static void fit_source(const char *name, void *arg, char *buf, size_t len)
{
	const struct fit_src *s = arg;
	const struct kfit *f = s->fit;
	int i = set_of(s->k, name);
	char v[64];
	profile_param_value(s->base, name, v, sizeof(v));
	if (i >= f->first_fitted) {
		bool user = kcompare_fit_user(name);
		snprintf(buf, len, "fit, %s's %s x %.3f: the kernel's median %s time over pagelab's (%.2f s / "
			 "%.2f s), %s in a %s cgroup without pressure (compare --fit-cpu)", s->base->name, v,
			 user ? f->ru : f->rs, user ? "user" : "system", user ? f->kum : f->ksm, user ? f->su : f->ss,
			 s->wl, f->limit);
	} else if (i >= 0) {
		snprintf(buf, len, "set, --set %s (given, or measured on this host by compare)", s->k->sets[i]);
	} else {
		snprintf(buf, len, "default, %s's (not fitted)", s->base->name);
	}
}

bool kcompare_fit_profile_can(const struct kcompare *k, char *err, size_t len)
{
	if (profile_is_file(k->machine)) {
		snprintf(err, len, "--fit-profile: --machine %s is a profile file; the fitted profile names a "
			 "preset (--machine NAME)", k->machine);
		return false;
	}
	if (!profile_find(k->machine)) {
		snprintf(err, len, "unknown machine '%s' (see pagelab machines)", k->machine);
		return false;
	}
	return true;
}

bool kcompare_fit_profile(const struct kcompare *k, const struct kfit *fit, FILE *out, char *err, size_t len)
{
	if (!kcompare_fit_profile_can(k, err, len))
		return false;
	const struct profile *base = profile_find(k->machine);
	struct profile p = *base;
	for (int i = 0; i < k->nsets; i++) {
		if (strncmp(k->sets[i], "cost.", 5))
			continue;
		char name[64], why[256];
		size_t n = strcspn(k->sets[i], "=");
		snprintf(name, sizeof(name), "%.*s", (int)n, k->sets[i]);
		if (!profile_set(&p, name, k->sets[i] + n + (k->sets[i][n] == '='), why, sizeof(why))) {
			snprintf(err, len, "--fit-profile: %s", why);
			return false;
		}
	}
	struct fit_src s = { .k = k, .fit = fit, .base = base, .wl = kcompare_workloads(k) };
	fprintf(out, "# pagelab machine profile: %s's costs fitted to this host by\n"
		     "# `pagelab compare --fit-cpu %s` (docs/cost.md).  Run with --machine\n"
		     "# PATH (a name with a '/').  Every parameter not below is %s's.\n",
		base->name, fit->limit, base->name);
	profile_write_costs(out, &p, base->name, fit_source, &s);
	free(s.wl);
	return true;
}
