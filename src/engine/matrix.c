/* matrix.c - expanding a sweep's axes into cells (matrix.h).  Every cell
 * is built exactly as `pagelab run` builds its machine from the same
 * options (profile, then --ram/--swap/--cpus/--disk, then each --set in
 * order), so a record's command line reproduces its figures. */
#include "matrix.h"
#include "runspec.h"
#include "../lib/share.h"
#include "../lib/util.h"
#include "../policy/policy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AXIS_MAX_VALUES 100000

void size_name(char *buf, size_t len, uint64_t b)
{
	if (b && b % (1ULL << 30) == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(b >> 30));
	else if (b && b % (1ULL << 20) == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(b >> 20));
	else if (b && b % (1ULL << 10) == 0)
		snprintf(buf, len, "%lluK", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)b);
}

static bool add_value(struct axis *ax, const char *v, char *err, size_t errlen)
{
	if (ax->n >= AXIS_MAX_VALUES) {
		snprintf(err, errlen, "--%s: more than %d values", ax->name, AXIS_MAX_VALUES);
		return false;
	}
	/* The array doubles when n reaches a power of two (its capacity is
	 * the next one): one reallocation a value made building 10^5 values
	 * quadratic under ASan, whose realloc always copies (61 s). */
	if (!(ax->n & (ax->n - 1)))
		ax->values = xrealloc(ax->values, (size_t)(ax->n ? 2 * ax->n : 1) * sizeof(*ax->values));
	ax->values[ax->n++] = xstrdup(v);
	return true;
}

/* "A:B:+S" or "A:B:xF" (or "A:B", step +1, for numbers). */
static bool expand_range(const char *item, enum axis_values kind, struct axis *ax, char *err, size_t errlen)
{
	char a[128], b[128], st[128] = "";
	const char *c1 = strchr(item, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if ((size_t)(c1 - item) >= sizeof(a) || strlen(c1 + 1) >= sizeof(b))
		goto bad;
	snprintf(a, sizeof(a), "%.*s", (int)(c1 - item), item);
	if (c2) {
		snprintf(b, sizeof(b), "%.*s", (int)(c2 - c1 - 1), c1 + 1);
		snprintf(st, sizeof(st), "%s", c2 + 1);
	} else {
		snprintf(b, sizeof(b), "%s", c1 + 1);
	}
	bool size = kind == AXV_SIZE, share = false;
	double lo, hi;
	uint64_t ulo, uhi;
	if (!size && parse_double(a, &lo) && parse_double(b, &hi)) {
		/* numbers */
	} else if (size && parse_share(a, &lo) && parse_share(b, &hi)) {
		/* shares of a trace's pages, stepped in percent: 1%:64%:x2, 5%:50%:+5% */
		share = true;
		size = false;
		lo *= 100;
		hi *= 100;
		size_t sl = strlen(st);
		if (st[0] == '+' && sl > 1 && st[sl - 1] == '%')
			st[sl - 1] = 0;
	} else if (kind != AXV_NUMBER && kind != AXV_WORD && parse_size(a, &ulo) && parse_size(b, &uhi)) {
		size = true;
		lo = (double)ulo;
		hi = (double)uhi;
	} else {
		goto bad;
	}
	bool factor = st[0] == 'x' || st[0] == '*';
	double step;
	if (!st[0] && !size) {
		step = 1;
	} else if (st[0] == '+' || factor) {
		uint64_t us;
		if (!size || factor) {
			if (!parse_double(st + 1, &step))
				goto bad;
		} else {
			if (!parse_size(st + 1, &us))
				goto bad;
			step = (double)us;
		}
	} else {
		goto bad;
	}
	if (hi < lo || (factor ? step <= 1 : step <= 0)) {
		snprintf(err, errlen, "--%s: range '%s' does not go up (A:B:+S or A:B:xF with B >= A)", ax->name, item);
		return false;
	}
	/* 0 (or less) times a factor never reaches B: the values would run
	 * on until pow() overflows (0 * inf is NaN, found by fuzz_mrc). */
	if (factor && lo <= 0) {
		snprintf(err, errlen, "--%s: range '%s' multiplies from %s (A:B:xF needs A > 0)", ax->name, item,
			 lo < 0 ? "below 0" : "0");
		return false;
	}
	/* A long range is refused before it is built: value by value it ran
	 * up to the limit through 10^5 reallocations and string copies (21 s
	 * under the fuzzer's ASan for "1M:8M:+1", 1.5 GB for the factor
	 * range "1p:64p:x1.0000001").  A factor range has log(B/A)/log(F)
	 * steps, counted with the slack at B the loop below allows. */
	double count = factor ? floor(log(hi * (1 + 1e-9) / lo) / log(step)) + 1 : (hi - lo) / step + 1;
	if (count > AXIS_MAX_VALUES - ax->n) {
		snprintf(err, errlen, "--%s: more than %d values", ax->name, AXIS_MAX_VALUES);
		return false;
	}
	/* Multiplying or adding floating point drifts: count the steps and
	 * compute each value from A, with a little slack at B. */
	for (int k = 0;; k++) {
		double v = factor ? lo * pow(step, k) : lo + step * k;
		if (v > hi * (1 + 1e-9))
			break;
		char buf[64];
		if (size)
			size_name(buf, sizeof(buf), (uint64_t)floor(v + 0.5));
		else
			snprintf(buf, sizeof(buf), share ? "%.10g%%" : "%.10g", v);
		if (!add_value(ax, buf, err, errlen))
			return false;
	}
	return true;
bad:
	snprintf(err, errlen, "--%s: bad range '%s' (A:B:+STEP or A:B:xFACTOR)", ax->name, item);
	return false;
}

bool axis_expand(const char *list, enum axis_values kind, struct axis *ax, char *err, size_t errlen)
{
	/* The errors below quote the bad item: no control character may
	 * reach them, or the message would not be one line. */
	for (const char *c = list; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			snprintf(err, errlen, "--%s: a control character in the list", ax->name);
			return false;
		}
	char *copy = xstrdup(list);
	bool ok = true;
	char *save = NULL;
	if (!list[0] || list[strlen(list) - 1] == ',' || list[0] == ',' || strstr(list, ",,")) {
		snprintf(err, errlen, "--%s: empty item in '%s'", ax->name, list);
		ok = false;
	}
	for (char *it = ok ? strtok_r(copy, ",", &save) : NULL; ok && it; it = strtok_r(NULL, ",", &save)) {
		if (strchr(it, ' ')) {
			snprintf(err, errlen, "--%s: blank in '%s'", ax->name, it);
			ok = false;
		} else if (strchr(it, ':') && kind != AXV_WORD) {
			ok = expand_range(it, kind, ax, err, errlen);
		} else if (kind == AXV_SIZE) {
			uint64_t b;
			double sh;
			if (!parse_share(it, &sh) && (!parse_size(it, &b) || b > (1ULL << 50))) {
				snprintf(err, errlen, "--%s: bad size '%s'%s", ax->name, it,
					 strchr(it, '%') ? " (a share of a trace's pages is N%, 0 < N <= 100)" : "");
				ok = false;
			} else {
				ok = add_value(ax, it, err, errlen);
			}
		} else if (kind == AXV_NUMBER) {
			double v;
			if (!parse_double(it, &v)) {
				snprintf(err, errlen, "--%s: bad number '%s'", ax->name, it);
				ok = false;
			} else {
				ok = add_value(ax, it, err, errlen);
			}
		} else {
			ok = add_value(ax, it, err, errlen);
		}
	}
	free(copy);
	return ok;
}

void axis_free(struct axis *ax)
{
	for (int i = 0; i < ax->n; i++)
		free(ax->values[i]);
	free(ax->values);
	free(ax->name);
	memset(ax, 0, sizeof(*ax));
}

void matrix_free(struct matrix *mx)
{
	for (int i = 0; i < mx->nr_axes; i++)
		axis_free(&mx->axes[i]);
	free(mx->axes);
	free(mx->seeds);
	for (int i = 0; i < mx->nr_wl; i++)
		free(mx->wl[i]);
	memset(mx, 0, sizeof(*mx));
}

/* A growing string: sb_add() appends fmt formatted with a and c (NULL:
 * ""), however long (a cell's command carries every --set of a
 * calibrated profile: well over a kilobyte). */
struct sbuf { char *s; size_t n, cap; };

static void sb_add(struct sbuf *b, const char *fmt, const char *a, const char *c)
{
	int k = snprintf(NULL, 0, fmt, a, c ? c : "");
	if (k < 0)
		return;
	if (b->n + (size_t)k + 1 > b->cap) {
		b->cap = (b->n + (size_t)k + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	snprintf(b->s + b->n, (size_t)k + 1, fmt, a, c ? c : "");
	b->n += (size_t)k;
}

/* The cell's --memcg (or --set memcg=), before the other axes: a --set
 * memcg.v1 needs it, wherever it stands in the order. */
static bool cell_limit(const struct matrix *mx, const int *pick, struct cell *c, char *err, size_t errlen)
{
	for (int a = 2; a < mx->nr_axes; a++)
		if (!strcmp(mx->axes[a].name, "memcg") &&
		    runspec_set_machine(&c->prof, &c->mo, "memcg", mx->axes[a].values[pick[a]], err, errlen) == RS_SET_BAD)
			return false;
	return true;
}

/* A RAM the user gave (--ram or --set ram=): the cgroup's RAM rule then
 * stands aside, as in pagelab run. */
static bool ram_axis(const struct matrix *mx)
{
	for (int a = 2; a < mx->nr_axes; a++)
		if (!strcmp(mx->axes[a].name, "ram"))
			return true;
	return false;
}

/* Build cell idx's machine and design from the chosen values. */
static bool build_cell(const struct matrix *mx, const int *pick, uint64_t seed, struct matrix_cell *mc,
		       char *err, size_t errlen)
{
	const char *policy = mx->axes[0].values[pick[0]];
	const char *machine = mx->axes[1].values[pick[1]];
	const struct policy_ops *pol = policy_lookup(policy, err, errlen);
	if (!pol)
		return false;
	const struct profile *base = runspec_find_machine(machine, err, errlen);
	if (!base)
		return false;
	struct cell *c = &mc->c;
	c->prof = *base;
	c->pol = pol;
	c->residency_wl = -1;
	int nt = policy_nr_tunables(pol);
	mc->tun = xcalloc((size_t)nt + 1, sizeof(double));
	for (int t = 0; t < nt; t++)
		mc->tun[t] = pol->tunables[t].def;
	c->tun = mc->tun;
	struct sbuf mopt = { 0 }, dopt = { 0 };
	sb_add(&mopt, "--machine %s", machine, NULL);
	sb_add(&dopt, "%s", policy, NULL);
	mc->param_values = xcalloc((size_t)mx->nr_axes, sizeof(char *));
	mc->param_values[0] = policy;
	mc->param_values[1] = machine;
	bool ok = cell_limit(mx, pick, c, err, errlen);
	for (int g = 0; ok && g < mx->nr_cgroups; g++) {
		ok = runspec_set_machine(&c->prof, &c->mo, "cgroup", mx->cgroups[g], err, errlen) != RS_SET_BAD;
		sb_add(&mopt, " --cgroup %s", mx->cgroups[g], NULL);
	}
	for (int a = 2; ok && a < mx->nr_axes; a++) {
		const struct axis *ax = &mx->axes[a];
		const char *v = ax->values[pick[a]];
		mc->param_values[a] = v;
		uint64_t b;
		if (!ax->is_set) {
			double sh;
			if (!strcmp(ax->name, "ram") && parse_share(v, &sh)) {
				if (!mx->trace_pages) {
					snprintf(err, errlen, "--ram %s: a share of a trace's distinct pages needs them counted", v);
					ok = false;
					break;
				}
				c->prof.ram = share_pages(sh, mx->trace_pages) * PAGE_SIZE;
			} else if (!strcmp(ax->name, "ram") || !strcmp(ax->name, "swap")) {
				if (!parse_size(v, &b) || (!b && !strcmp(ax->name, "ram"))) {
					snprintf(err, errlen, "bad --%s '%s'", ax->name, v);
					ok = false;
					break;
				}
				*(!strcmp(ax->name, "ram") ? &c->prof.ram : &c->prof.swap) = b;
			} else if (!strcmp(ax->name, "cpus")) {
				if (!parse_u64(v, &b) || !b || b > 1024) {
					snprintf(err, errlen, "bad --cpus '%s' (1..1024)", v);
					ok = false;
					break;
				}
				c->prof.cpus = (unsigned)b;
			} else if (!strcmp(ax->name, "memcg")) {
				/* set by cell_limit() */
			} else if (!strcmp(ax->name, "disk")) {
				const struct disk_params *d = runspec_find_disk(v, err, errlen);
				if (!d) {
					ok = false;
					break;
				}
				c->prof.disk = *d;
			}
			sb_add(&mopt, " --%s", ax->name, NULL);
			sb_add(&mopt, " %s", v, NULL);
			continue;
		}
		enum runspec_set_kind k = runspec_is_start_key(ax->name)
			? runspec_set_start(ax->name, v, c->start_ns, EXP_MAX_WL, err, errlen)
			: runspec_set(&c->prof, &c->mo, pol, mc->tun, ax->name, v, err, errlen);
		ok = k != RS_SET_BAD;
		if (k == RS_SET_MACHINE || k == RS_SET_CGROUP || k == RS_SET_RUN)
			sb_add(&mopt, " --set %s=%s", ax->name, v);
		else if (k == RS_SET_TUNABLE)
			sb_add(&dopt, " %s=%s", ax->name, v);
	}
	runspec_set_memcg(&c->prof, &c->mo, c->mo.memcg_pages * PAGE_SIZE, ram_axis(mx));
	if (ok)
		ok = runspec_memcg_ok(pol, &c->mo, err, errlen);   /* refused before anything runs, as run does */
	c->mo.seed = seed;
	c->mo.max_time_ns = mx->max_time_ns ? mx->max_time_ns : 100000ULL * 1000000000ULL;
	c->mo.check = mx->check;
	/* or a --set make-inputs=1 axis, which runspec_set() gave it above */
	c->mo.make_inputs |= mx->make_inputs;
	for (int w = 0; w < mx->nr_wl; w++)
		c->wl[w] = mx->wl[w];
	c->nr_wl = mx->nr_wl;
	/* The configuration: machine options, then the workloads. */
	struct sbuf wls = { 0 };
	for (int w = 0; w < mx->nr_wl; w++)
		sb_add(&wls, w ? " + %s" : "%s", mx->wl[w], NULL);
	struct sbuf cfg = { 0 }, cmd = { 0 };
	sb_add(&cfg, "%s %s", mopt.s, wls.s);
	char seedbuf[32], mt[64] = "";
	snprintf(seedbuf, sizeof(seedbuf), "%llu", (unsigned long long)seed);
	if (mx->max_time_ns)
		snprintf(mt, sizeof(mt), " --max-time %.9g", (double)mx->max_time_ns / 1e9);
	sb_add(&cmd, "pagelab run %s", mopt.s, NULL);
	sb_add(&cmd, " --policy %s", policy, NULL);
	for (int a = 2; a < mx->nr_axes; a++)
		if (mx->axes[a].is_set && !runspec_is_machine_key(mx->axes[a].name) &&
		    !runspec_is_start_key(mx->axes[a].name))
			sb_add(&cmd, " --set %s=%s", mx->axes[a].name, mc->param_values[a]);
	sb_add(&cmd, " --seed %s%s", seedbuf, mt);
	if (mx->check)
		sb_add(&cmd, " --check", "", NULL);
	if (mx->make_inputs)
		sb_add(&cmd, " --make-inputs", "", NULL);
	sb_add(&cmd, " %s", wls.s, NULL);
	mc->cmd = cmd.s;
	mc->design = dopt.s;
	mc->config = cfg.s;
	mc->seed = seed;
	free(mopt.s);
	free(wls.s);
	return ok;
}

bool matrix_add_axis(struct matrix *mx, const char *name, bool is_set, const char *list, enum axis_values kind,
		     char *err, size_t errlen)
{
	for (int a = 0; a < mx->nr_axes; a++)
		if (!strcmp(mx->axes[a].name, name)) {
			snprintf(err, errlen, "%s%s given twice", is_set ? "--set " : "--", name);
			return false;
		}
	mx->axes = xrealloc(mx->axes, (size_t)(mx->nr_axes + 1) * sizeof(*mx->axes));
	struct axis *ax = &mx->axes[mx->nr_axes++];
	memset(ax, 0, sizeof(*ax));
	ax->name = xstrdup(name);
	ax->is_set = is_set;
	return axis_expand(list, kind, ax, err, errlen);
}

bool matrix_cells(const struct matrix *mx, struct matrix_cell **cells, int *n, char *err, size_t errlen)
{
	long total = mx->nr_seeds;
	for (int a = 0; a < mx->nr_axes; a++)
		total *= mx->axes[a].n;
	*cells = NULL;
	*n = 0;
	if (total <= 0 || total > 1000000) {
		snprintf(err, errlen, "the sweep has %ld cells (1..1000000)", total);
		return false;
	}
	struct matrix_cell *mc = xcalloc((size_t)total, sizeof(*mc));
	int *pick = xcalloc((size_t)mx->nr_axes, sizeof(int));
	bool ok = true;
	for (long i = 0; ok && i < total; i++) {
		/* cell i: the seed varies fastest, the policy slowest */
		long rest = i / mx->nr_seeds;
		for (int a = mx->nr_axes - 1; a >= 0; a--) {
			pick[a] = (int)(rest % mx->axes[a].n);
			rest /= mx->axes[a].n;
		}
		mc[i].index = (int)i;
		ok = build_cell(mx, pick, mx->seeds[i % mx->nr_seeds], &mc[i], err, errlen);
		*n = (int)i + 1;
	}
	free(pick);
	*cells = mc;
	if (!ok) {
		matrix_cells_free(mc, *n);
		*cells = NULL;
		*n = 0;
	}
	return ok;
}

void matrix_cells_free(struct matrix_cell *cells, int n)
{
	for (int i = 0; i < n; i++) {
		free(cells[i].cmd);
		free(cells[i].design);
		free(cells[i].config);
		free(cells[i].param_values);
		free(cells[i].tun);
	}
	free(cells);
}
