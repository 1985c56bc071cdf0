/* exp_file.c - reading experiment files (exp_file.h, docs/experiments.md;
 * exp_write.c writes them), and the built-in ones.  A file is lines of
 * KEYWORD ARGS...; an argument with blanks is "quoted" (\" and \\
 * inside).  Lines after `run KEY` and before the next top-level keyword
 * describe that run.  Everything a later stage would panic on (a
 * template, a machine setting, a name) is checked here, so a bad file is
 * one clear message and exit 2. */
#include "../engine/runspec.h"
#include "exp_file.h"
#include "exp_check.h"
#include "exp_named.h"
#include "../lib/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 16

/* Every string and array of a parsed experiment, freed together. */
struct arena { void **p; int n; };

static void *own(struct arena *a, void *p)
{
	a->p = xrealloc(a->p, (size_t)(a->n + 1) * sizeof(void *));
	a->p[a->n++] = p;
	return p;
}

static char *own_str(struct arena *a, const char *s)
{
	return own(a, xstrdup(s));
}

struct parse {
	const char *name;
	int line;
	char *err;
	size_t errlen;
	bool failed;
	struct arena *a;
	struct experiment *e;
	struct exp_design *designs; int nd;
	struct exp_run *runs; int nr;
	struct exp_metric *metrics; int nm;
	struct exp_published *pub; int np;
	struct exp_comparison *cmps; int nc;
	bool have_id, have_machine;
	struct later *later; int nl;
};

/* A workload line or machine setting, checked once the whole file is read
 * (the machine and quick-scale may come after it). */
struct later {
	int line;
	int run;                /* its run, -1 for the experiment's machine-set */
	bool machine;           /* a machine-set, else a workload */
	const char *s;
};

static bool fail(struct parse *p, const char *fmt, const char *a, const char *b)
{
	if (!p->failed) {
		char msg[400];
		snprintf(msg, sizeof(msg), fmt, a ? a : "", b ? b : "");
		snprintf(p->err, p->errlen, "%s:%d: %s", p->name, p->line, msg);
	}
	p->failed = true;
	return false;
}

/* Split a line into tokens (quotes removed); -1 on a bad quote. */
static int tokenize(char *s, char **tok, int max)
{
	int n = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return -2;
		if (*s == '"') {
			char *o = ++s;
			tok[n++] = o;
			while (*s && *s != '"') {
				if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
					s++;
				*o++ = *s++;
			}
			if (*s != '"')
				return -1;
			s++;
			*o = 0;
			if (*s && *s != ' ' && *s != '\t')
				return -1;
			continue;
		}
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = 0;
	}
}

static bool num(struct parse *p, const char *s, double *v)
{
	if (!parse_double(s, v))
		return fail(p, "'%s' is not a number", s, NULL);
	return true;
}

static bool count(struct parse *p, const char *s, int lo, int hi, int *v)
{
	uint64_t x;
	if (!parse_u64(s, &x) || x < (uint64_t)lo || x > (uint64_t)hi) {
		char range[40];
		snprintf(range, sizeof(range), "%d..%d", lo, hi);
		return fail(p, "'%s' is not a whole number in %s", s, range);
	}
	*v = (int)x;
	return true;
}

/* "{M:1000}", "{S:12G}", "{B:4096}", "{N:40}": what exp_expand reads. */
static bool template_ok(struct parse *p, const char *t)
{
	for (const char *s = strchr(t, '{'); s; s = strchr(s + 1, '{')) {
		const char *end = strchr(s, '}');
		if (!end || end - s < 4 || s[2] != ':' || !strchr("MNTSB", s[1]) || end - s - 3 >= 60)
			return fail(p, "bad template in '%s' ({M:n}, {N:n}, {T:n}, {S:size} or {B:size})", t, NULL);
		char val[64];
		snprintf(val, sizeof(val), "%.*s", (int)(end - s - 3), s + 3);
		double v;
		uint64_t b;
		if (strchr("MNT", s[1]) ? !parse_double(val, &v) : !parse_size(val, &b))
			return fail(p, "bad template value in '%s'", t, NULL);
	}
	return true;
}

/* "ram={S:836M} swap=64M": each NAME=VALUE names a machine parameter. */
static bool machine_sets_ok(struct parse *p, const char *s)
{
	if (!template_ok(p, s))
		return false;
	char copy[512];
	snprintf(copy, sizeof(copy), "%s", s);
	char *argv[32];
	int n = cell_split_args(copy, argv, 32);
	for (int i = 0; i < n; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq || eq == argv[i])
			return fail(p, "machine setting '%s' is not NAME=VALUE", argv[i], NULL);
		*eq = 0;
		if (!runspec_is_machine_key(argv[i]))
			return fail(p, "'%s' is not a machine parameter (see pagelab machines --show NAME)", argv[i], NULL);
	}
	return true;
}

#define GROW(arr, n) (arr = xrealloc(arr, (size_t)((n) + 1) * sizeof(*(arr))), memset(&(arr)[n], 0, sizeof(*(arr))), &(arr)[(n)++])

static void check_later(struct parse *p, const char *s, bool machine, int run)
{
	*GROW(p->later, p->nl) = (struct later){ p->line, run, machine, s };
}

const char *const exp_kind_words[NR_EXP_KIND_WORDS] = { "thread", "modern", "reference" };
const struct exp_metric_word exp_metric_words[NR_EXP_METRIC_WORDS] = {
	{ "elapsed", MK_ELAPSED }, { "user", MK_USER }, { "sys", MK_SYS }, { "cpu", MK_CPU_PCT },
	{ "majflt", MK_MAJFLT }, { "minflt", MK_MINFLT }, { "swaps", MK_SWAPS },
	{ "swap-peak-mb", MK_SWAP_PEAK_MB }, { "kthread-cpu", MK_KTHREAD_CPU },
};
const char *const exp_cmp_words[NR_EXP_CMP_WORDS] = { "ratio", "worse", "not-worse", "zero", "figure", "nonzero" };

static bool run_line(struct parse *p, char **t, int n)
{
	struct exp_run *x = &p->runs[p->nr - 1];
	const char *k = t[0];
	if (!strcmp(k, "title") && n == 2) {
		x->title = own_str(p->a, t[1]);
	} else if (!strcmp(k, "wl") && n == 2) {
		int w = 0;
		while (w < EXP_MAX_WL && x->wl[w])
			w++;
		if (w == EXP_MAX_WL)
			return fail(p, "more than 4 workloads in a run", NULL, NULL);
		if (!template_ok(p, t[1]))
			return false;
		x->wl[w] = own_str(p->a, t[1]);
		check_later(p, x->wl[w], false, p->nr - 1);
	} else if (!strcmp(k, "machine-set") && n == 2) {
		if (!machine_sets_ok(p, t[1]))
			return false;
		x->machine_sets = own_str(p->a, t[1]);
		check_later(p, x->machine_sets, true, p->nr - 1);
	} else if (!strcmp(k, "repeats") && n == 3) {
		return count(p, t[1], 1, 64, &x->repeats) && count(p, t[2], 1, 64, &x->quick_repeats);
	} else if (!strcmp(k, "vmstat") && n == 2) {
		return num(p, t[1], &x->vmstat_s) && (x->vmstat_s >= 0.001 || fail(p, "vmstat below 0.001 s", NULL, NULL));
	} else if (!strcmp(k, "max-time") && (n == 2 || (n == 3 && !strcmp(t[2], "unscaled")))) {
		x->max_time_unscaled = n == 3;
		return num(p, t[1], &x->max_time_s) && (x->max_time_s > 0 || fail(p, "max-time must be positive", NULL, NULL));
	} else if (!strcmp(k, "delayed") && n == 3) {
		if (!count(p, t[1], 0, EXP_MAX_WL - 1, &x->delayed) || !template_ok(p, t[2]))
			return false;
		x->fill_wl = own_str(p->a, t[2]);
		check_later(p, x->fill_wl, false, p->nr - 1);
	} else if (!strcmp(k, "residency") && n == 2) {
		return count(p, t[1], 0, EXP_MAX_WL - 1, &x->residency_wl);
	} else if (!strcmp(k, "stop-with") && n == 2) {
		return count(p, t[1], 1, EXP_MAX_WL, &x->stop_with);
	} else {
		return fail(p, "unknown or malformed run line '%s' (see docs/experiments.md)", k, NULL);
	}
	return true;
}

static bool top_line(struct parse *p, char **t, int n, bool *in_run)
{
	const char *k = t[0];
	struct experiment *e = p->e;
	*in_run = false;
	if (!strcmp(k, "experiment") && n == 3) {
		p->have_id = true;
		e->slug = own_str(p->a, t[2]);
		return count(p, t[1], 1, 9999, &e->id);
	} else if (!strcmp(k, "title") && n == 2) {
		e->title = own_str(p->a, t[1]);
	} else if (!strcmp(k, "thread") && n == 2) {
		e->thread = own_str(p->a, t[1]);
	} else if (!strcmp(k, "who") && n == 2) {
		e->who = own_str(p->a, t[1]);
	} else if (!strcmp(k, "machine") && n == 2) {
		if (!profile_find(t[1]))
			return fail(p, "unknown machine profile '%s' (see pagelab machines)", t[1], NULL);
		e->profile = own_str(p->a, t[1]);
		p->have_machine = true;
	} else if (!strcmp(k, "machine-set") && n == 2) {
		if (!machine_sets_ok(p, t[1]))
			return false;
		e->machine_sets = own_str(p->a, t[1]);
		check_later(p, e->machine_sets, true, -1);
	} else if (!strcmp(k, "quick-scale") && n == 2) {
		if (!num(p, t[1], &e->quick_scale))
			return false;
		if (!(e->quick_scale > 0 && e->quick_scale <= 1))
			return fail(p, "quick-scale must be in (0, 1]", NULL, NULL);
	} else if (!strcmp(k, "printer") && n == 2) {
		e->print = exp_printer_find(t[1]);
		if (!e->print)
			return fail(p, "no printer named '%s' in this build", t[1], NULL);
	} else if (!strcmp(k, "design") && (n == 4 || n == 5)) {
		struct exp_design *d = GROW(p->designs, p->nd);
		d->label = own_str(p->a, t[1]);
		d->policy = own_str(p->a, t[2]);
		d->sets = n == 5 ? own_str(p->a, t[4]) : NULL;
		int kk = -1;
		for (int i = 0; i < 3; i++)
			if (!strcmp(t[3], exp_kind_words[i]))
				kk = i;
		if (kk < 0)
			return fail(p, "design kind '%s' is not thread, modern or reference", t[3], NULL);
		d->kind = (enum design_kind)kk;
		for (int i = 0; i + 1 < p->nd; i++)
			if (!strcmp(p->designs[i].label, d->label))
				return fail(p, "design '%s' defined twice", d->label, NULL);
	} else if (!strcmp(k, "run") && n == 3) {
		struct exp_run *x = GROW(p->runs, p->nr);
		x->key = own_str(p->a, t[1]);
		x->title = own_str(p->a, t[2]);
		x->repeats = x->quick_repeats = 1;
		x->vmstat_s = 1;
		x->max_time_s = 3600;
		x->delayed = x->residency_wl = -1;
		for (int i = 0; i + 1 < p->nr; i++)
			if (!strcmp(p->runs[i].key, x->key))
				return fail(p, "run '%s' defined twice", x->key, NULL);
		*in_run = true;
	} else if (!strcmp(k, "metric") && n == 7) {
		/* metric KEY RUN WL KIND higher|lower "name" */
		struct exp_metric *m = GROW(p->metrics, p->nm);
		m->key = own_str(p->a, t[1]);
		m->run = own_str(p->a, t[2]);
		m->name = own_str(p->a, t[6]);
		if (!count(p, t[3], 0, EXP_MAX_WL - 1, &m->wl))
			return false;
		if (strcmp(t[5], "higher") && strcmp(t[5], "lower"))
			return fail(p, "'%s': say which is better, higher or lower", t[5], NULL);
		m->higher_better = !strcmp(t[5], "higher");
		bool found = false;
		for (size_t i = 0; i < ARRAY_SIZE(exp_metric_words); i++)
			if (!strcmp(t[4], exp_metric_words[i].word)) {
				m->kind = exp_metric_words[i].kind;
				found = true;
			}
		if (!found && !strncmp(t[4], "counter:", 8)) {
			m->kind = MK_COUNTER;
			m->arg = own_str(p->a, t[4] + 8);
			found = false;
			for (int i = 0; i < NR_VM_EVENTS; i++)
				found |= !strcmp(vm_event_names[i], m->arg);
			if (!found)
				return fail(p, "no counter named '%s'", m->arg, NULL);
		} else if (!found && !strncmp(t[4], "custom:", 7)) {
			char fn[64];
			const char *colon = strchr(t[4] + 7, ':');
			snprintf(fn, sizeof(fn), "%.*s", (int)(colon ? colon - t[4] - 7 : (long)strlen(t[4] + 7)), t[4] + 7);
			m->kind = MK_CUSTOM;
			m->fn = exp_metric_fn_find(fn);
			m->arg = colon ? own_str(p->a, colon + 1) : NULL;
			if (!m->fn)
				return fail(p, "no metric function named '%s' in this build", fn, NULL);
		} else if (!found) {
			return fail(p, "unknown metric kind '%s' (see docs/experiments.md)", t[4], NULL);
		}
		for (int i = 0; i + 1 < p->nm; i++)
			if (!strcmp(p->metrics[i].key, m->key))
				return fail(p, "metric '%s' defined twice", m->key, NULL);
	} else if (!strcmp(k, "published") && n == 6) {
		/* published DESIGN METRIC VALUE|- "text" SOURCE */
		struct exp_published *x = GROW(p->pub, p->np);
		x->design = own_str(p->a, t[1]);
		x->metric = own_str(p->a, t[2]);
		x->text = own_str(p->a, t[4]);
		x->source = own_str(p->a, t[5]);
		x->value = NAN;
		if (strcmp(t[3], "-") && !num(p, t[3], &x->value))
			return false;
	} else if (!strcmp(k, "compare") && (n == 9 || n == 10)) {
		/* compare METRIC A|- B KIND TOL TIE FLOOR SOURCE ["statement"] */
		struct exp_comparison *c = GROW(p->cmps, p->nc);
		c->metric = own_str(p->a, t[1]);
		c->a = strcmp(t[2], "-") ? own_str(p->a, t[2]) : NULL;
		c->b = own_str(p->a, t[3]);
		int kk = -1;
		for (int i = 0; i < NR_EXP_CMP_WORDS; i++)
			if (!strcmp(t[4], exp_cmp_words[i]))
				kk = i;
		if (kk < 0)
			return fail(p, "comparison kind '%s' is not ratio, worse, not-worse, zero, figure or nonzero", t[4], NULL);
		c->kind = (enum cmp_kind)kk;
		c->source = own_str(p->a, t[8]);
		c->statement = n == 10 ? own_str(p->a, t[9]) : NULL;
		return num(p, t[5], &c->tol) && num(p, t[6], &c->tie) && num(p, t[7], &c->floor);
	} else if (!strcmp(k, "quick-note") && n == 2) {
		/* quick-note "TEXT": of the comparison just above */
		if (!p->nc)
			return fail(p, "quick-note before any compare line", NULL, NULL);
		if (p->cmps[p->nc - 1].quick_note)
			return fail(p, "a second quick-note for one comparison", NULL, NULL);
		p->cmps[p->nc - 1].quick_note = own_str(p->a, t[1]);
	} else {
		return fail(p, "unknown or malformed line '%s' (see docs/experiments.md)", k, NULL);
	}
	return true;
}

static int design_of(const struct parse *p, const char *label)
{
	for (int i = 0; label && i < p->nd; i++)
		if (!strcmp(p->designs[i].label, label))
			return i;
	return -1;
}

/* The cross-references, once everything is read. */
static bool check_refs(struct parse *p)
{
	struct experiment *e = p->e;
	if (!p->have_id)
		return fail(p, "no 'experiment ID SLUG' line", NULL, NULL);
	if (!e->title || !p->have_machine)
		return fail(p, "an experiment needs a title and a machine", NULL, NULL);
	if (!p->nd || !p->nr)
		return fail(p, "an experiment needs at least one design and one run", NULL, NULL);
	for (int i = 0; i < p->nr; i++) {
		const struct exp_run *x = &p->runs[i];
		int nw = 0;
		while (nw < EXP_MAX_WL && x->wl[nw])
			nw++;
		if (!nw)
			return fail(p, "run '%s' has no workload (wl ...)", x->key, NULL);
		if (x->delayed >= nw || x->residency_wl >= nw || x->stop_with > nw)
			return fail(p, "run '%s' refers to a workload it does not have", x->key, NULL);
	}
	for (int i = 0; i < p->nm; i++) {
		int r = -1;
		for (int k = 0; k < p->nr; k++)
			if (!strcmp(p->runs[k].key, p->metrics[i].run))
				r = k;
		if (r < 0)
			return fail(p, "metric '%s' names no run '%s'", p->metrics[i].key, p->metrics[i].run);
		int nw = 0;
		while (nw < EXP_MAX_WL && p->runs[r].wl[nw])
			nw++;
		if (p->metrics[i].wl >= nw)
			return fail(p, "metric '%s': run '%s' has fewer workloads", p->metrics[i].key, p->metrics[i].run);
	}
	for (int i = 0; i < p->np; i++) {
		bool m = false;
		for (int k = 0; k < p->nm; k++)
			m |= !strcmp(p->metrics[k].key, p->pub[i].metric);
		if (design_of(p, p->pub[i].design) < 0 || !m)
			return fail(p, "published figure of unknown design or metric '%s %s'", p->pub[i].design,
				    p->pub[i].metric);
	}
	for (int i = 0; i < p->nc; i++) {
		const struct exp_comparison *c = &p->cmps[i];
		bool m = false;
		for (int k = 0; k < p->nm; k++)
			m |= !strcmp(p->metrics[k].key, c->metric);
		if (!m || design_of(p, c->b) < 0 || (c->a && design_of(p, c->a) < 0) ||
		    (!c->a && c->kind != CMP_ZERO && c->kind != CMP_FIGURE &&
		     c->kind != CMP_NONZERO))
			return fail(p, "comparison of unknown metric or design ('%s', '%s')", c->metric, c->b);
		if (c->kind == CMP_RATIO) {
			int have = 0;
			for (int k = 0; k < p->np; k++)
				if (!strcmp(p->pub[k].metric, c->metric) && !isnan(p->pub[k].value) &&
				    (!strcmp(p->pub[k].design, c->a) || !strcmp(p->pub[k].design, c->b)))
					have++;
			if (have < 2)
				return fail(p, "ratio comparison of '%s' needs a published figure for %s and the other design",
					    c->metric, c->b);
		}
		if (c->kind == CMP_FIGURE) {
			bool have = false;
			for (int k = 0; k < p->np; k++)
				have |= !strcmp(p->pub[k].metric, c->metric) && !isnan(p->pub[k].value) &&
					!strcmp(p->pub[k].design, c->b);
			if (!have)
				return fail(p, "figure comparison of '%s' needs a published figure for %s", c->metric, c->b);
		}
		if (c->kind != CMP_RATIO && !c->statement)
			return fail(p, "comparison of '%s' in words needs the thread's statement", c->metric, NULL);
		if (!(c->tol >= 0) || !(c->tie >= 0) || !(c->floor >= 0))
			return fail(p, "comparison of '%s': tolerance, tie and floor are not negative", c->metric, NULL);
	}
	return true;
}

/* Each workload line and machine setting through the parser a run will
 * use, at full scale and at quick scale, so that what no run could start
 * is refused with its line (not run as "n/a" with exit status 0). */
static bool check_lines(struct parse *p)
{
	const struct profile *base = profile_find(p->e->profile);
	const double scales[2] = { 1, p->e->quick_scale };
	for (int i = 0; i < p->nl; i++)
		for (int k = 0; k < 2; k++) {
			const struct later *l = &p->later[i];
			char why[300];
			struct profile prof = *base;
			struct machine_opts mo = { 0 };
			p->line = l->line;
			if (l->machine && l->run >= 0 && p->e->machine_sets)
				exp_check_machine_sets(&prof, &mo, p->e->machine_sets, scales[k], why, sizeof(why));
			if (l->machine ? !exp_check_machine_sets(&prof, &mo, l->s, scales[k], why, sizeof(why))
				       : !exp_check_workload(l->s, scales[k], why, sizeof(why)))
				return fail(p, "%s%s", why, k ? " (in quick mode)" : "");
		}
	return true;
}

struct experiment *exp_file_parse(const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	struct arena *a = xcalloc(1, sizeof(*a));
	struct experiment *e = xcalloc(1, sizeof(*e));
	e->owned = a;
	e->quick_scale = 1;
	e->print = exp_print_generic;
	e->thread = "";
	e->who = "";
	struct parse p = { .name = name, .err = err, .errlen = errlen, .a = a, .e = e };
	bool in_run = false;
	size_t pos = 0;
	while (pos < len && !p.failed) {
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		p.line++;
		char buf[2048];
		if (end - pos >= sizeof(buf)) {
			fail(&p, "line too long", NULL, NULL);
			break;
		}
		if (memchr(text + pos, 0, end - pos)) {
			fail(&p, "NUL byte in the file", NULL, NULL);
			break;
		}
		memcpy(buf, text + pos, end - pos);
		buf[end - pos] = 0;
		pos = end + 1;
		size_t l = strlen(buf);
		if (l && buf[l - 1] == '\r')
			buf[--l] = 0;
		char *s = buf;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			continue;
		char *t[MAX_TOKENS];
		int n = tokenize(s, t, MAX_TOKENS);
		if (n == -1) {
			fail(&p, "unbalanced quote", NULL, NULL);
			break;
		}
		if (n == -2) {
			fail(&p, "too many fields", NULL, NULL);
			break;
		}
		static const char *const run_keys[] = { "wl", "machine-set", "repeats", "vmstat", "max-time",
							 "delayed", "residency", "stop-with", "title" };
		bool sub = false;
		for (size_t i = 0; in_run && i < ARRAY_SIZE(run_keys); i++)
			sub |= !strcmp(t[0], run_keys[i]);
		if (sub)
			run_line(&p, t, n);
		else
			top_line(&p, t, n, &in_run);
	}
	if (!p.failed && check_refs(&p))
		check_lines(&p);
	free(p.later);
	e->designs = own(a, p.designs);
	e->nr_designs = p.nd;
	e->runs = own(a, p.runs);
	e->nr_runs = p.nr;
	e->metrics = own(a, p.metrics);
	e->nr_metrics = p.nm;
	e->published = own(a, p.pub);
	e->nr_published = p.np;
	e->cmps = own(a, p.cmps);
	e->nr_cmps = p.nc;
	if (p.failed) {
		exp_file_free(e);
		return NULL;
	}
	return e;
}

void exp_file_free(struct experiment *e)
{
	if (!e)
		return;
	struct arena *a = e->owned;
	for (int i = 0; a && i < a->n; i++)
		free(a->p[i]);
	if (a)
		free(a->p);
	free(a);
	free(e);
}

struct experiment *exp_file_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0;
	char chunk[4096];
	size_t k;
	while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + k > 1 << 22) {
			fclose(f);
			free(buf);
			snprintf(err, errlen, "%s: larger than 4 MB, not an experiment file", path);
			return NULL;
		}
		if (len + k > cap) {
			cap = (len + k) * 2;
			buf = xrealloc(buf, cap);
		}
		memcpy(buf + len, chunk, k);
		len += k;
	}
	fclose(f);
	struct experiment *e = exp_file_parse(path, buf ? buf : "", len, err, errlen);
	free(buf);
	return e;
}

/* ---- the built-in experiments ------------------------------------------- */

extern const char *const builtin_experiment_files[][2];

static struct experiment **builtin;

static void builtin_free(void)
{
	for (int i = 0; builtin && builtin[i]; i++)
		exp_file_free(builtin[i]);
	free(builtin);
	builtin = NULL;
}

const struct experiment *const *builtin_experiments(void)
{
	if (builtin)
		return (const struct experiment *const *)builtin;
	int n = 0;
	while (builtin_experiment_files[n][0])
		n++;
	builtin = xcalloc((size_t)n + 1, sizeof(*builtin));
	for (int i = 0; i < n; i++) {
		char err[600];
		const char *text = builtin_experiment_files[i][1];
		builtin[i] = exp_file_parse(builtin_experiment_files[i][0], text, strlen(text), err, sizeof(err));
		if (!builtin[i])
			panic("built-in experiment: %s", err);
	}
	atexit(builtin_free);
	return (const struct experiment *const *)builtin;
}
