/* kexec_cells.c - a matrix's cells made host kernel cells (kexec.h):
 * each repeated, named by the pagelab kernel command that runs it. */
#include "kexec.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* " --cgroup PATH:KEY=VALUE,..." of each cgroup of the cell's tree, with
 * the keys it was given (sizes as a user types them). */
static void cgroup_words(const struct cg_tree_conf *t, char *buf, size_t len)
{
	buf[0] = 0;
	for (int i = 0; i < t->n; i++) {
		const struct cg_conf *c = &t->cg[i];
		const uint64_t sz[] = { c->max, c->high, c->low, c->min, c->swap_max };
		static const char *const key[] = { "max", "high", "low", "min", "swap.max" };
		const uint64_t unset[] = { CG_UNLIMITED, CG_UNLIMITED, 0, 0, CG_UNLIMITED };
		char sep = ':';
		snprintf(buf + strlen(buf), len - strlen(buf), " --cgroup %s", c->path);
		for (int k = 0; k < 5; k++) {
			char v[32];
			if (sz[k] == unset[k])
				continue;
			size_name(v, sizeof(v), sz[k] * PAGE_SIZE);
			snprintf(buf + strlen(buf), len - strlen(buf), "%c%s=%s", sep, key[k], v);
			sep = ',';
		}
		if (c->swappiness >= 0)
			snprintf(buf + strlen(buf), len - strlen(buf), "%cswappiness=%d", sep, c->swappiness), sep = ',';
		if (c->oom_group)
			snprintf(buf + strlen(buf), len - strlen(buf), "%coom.group=1", sep);
	}
}

/* "pagelab kernel --memcg 64M --swap 128M --seed 1 --timeout 600 WL #
 * run R, executor V" and its configuration "--memcg 64M --swap 128M WL";
 * with a knob, "--set NAME=VALUE" after --swap in both, and with a tree
 * its --cgroup words (a run without either keeps the name it always
 * had, so that caches still match). */
static void kernel_names(const struct cell *c, int run, char **cmd, char **config)
{
	char memcg[32], swap[sizeof(c->swap_dev)], wl[4096] = "", set[2200] = "";
	size_name(memcg, sizeof(memcg), kexec_cell_limit(c));
	if (c->swap_dev[0])
		snprintf(swap, sizeof(swap), "%s", c->swap_dev);
	else
		size_name(swap, sizeof(swap), c->prof.swap);
	for (int w = 0; w < c->nr_wl; w++)
		snprintf(wl + strlen(wl), sizeof(wl) - strlen(wl), "%s%s", w ? " + " : "", c->wl[w]);
	if (c->kset)
		snprintf(set, sizeof(set), " --set %s", c->kset);
	cgroup_words(&c->mo.cgroups, set + strlen(set), sizeof(set) - strlen(set));
	size_t len = strlen(wl) + strlen(set) + 200;
	*cmd = xmalloc(len);
	snprintf(*cmd, len, "pagelab kernel --memcg %s --swap %s%s --seed %llu --timeout %.9g %s # run %d, executor %d",
		 memcg, swap, set, (unsigned long long)c->mo.seed, (double)c->mo.max_time_ns / 1e9, wl, run,
		 NATIVE_EXECUTOR_REV);
	*config = xmalloc(len);
	snprintf(*config, len, "--memcg %s --swap %s%s %s", memcg, swap, set, wl);
}

/* By command, then cell: two equal commands come out in cell order. */
static int cmp_cmd(const void *a, const void *b)
{
	const struct matrix_cell *x = *(const struct matrix_cell *const *)a;
	const struct matrix_cell *y = *(const struct matrix_cell *const *)b;
	int c = strcmp(x->cmd, y->cmd);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

bool kexec_cells(struct matrix_cell **cells, int *n, int nr_axes, int repeat, uint64_t timeout_ns,
		 const char *kset, char *err, size_t errlen)
{
	struct matrix_cell *old = *cells, *mc = xcalloc((size_t)*n * (size_t)repeat + 1, sizeof(*mc));
	int k = 0;
	for (int i = 0; i < *n; i++)
		for (int r = 1; r <= repeat; r++, k++) {
			mc[k] = old[i];
			mc[k].index = k;
			mc[k].tun = NULL;
			mc[k].c.tun = NULL;
			mc[k].c.pol = NULL;
			mc[k].c.executor = EXEC_KERNEL;
			mc[k].c.run = r;
			mc[k].c.kset = kset;
			mc[k].c.mo.max_time_ns = timeout_ns;
			mc[k].param_values = xcalloc((size_t)nr_axes + 1, sizeof(char *));
			memcpy(mc[k].param_values, old[i].param_values, (size_t)nr_axes * sizeof(char *));
			kernel_names(&mc[k].c, r, &mc[k].cmd, &mc[k].config);
			mc[k].design = xstrdup("kernel");
		}
	int nk = k;
	matrix_cells_free(old, *n);
	*cells = mc;
	*n = nk;
	const struct matrix_cell **by = xcalloc((size_t)nk + 1, sizeof(*by));
	for (int i = 0; i < nk; i++)
		by[i] = &mc[i];
	qsort(by, (size_t)nk, sizeof(*by), cmp_cmd);
	bool ok = true;
	for (int i = 1; i < nk && ok; i++)
		if (!strcmp(by[i - 1]->cmd, by[i]->cmd)) {
			snprintf(err, errlen, "cells %d and %d are the same kernel run (the host kernel takes "
				 "only --memcg, --swap and the seeds of a sweep)", by[i - 1]->index, by[i]->index);
			ok = false;
		}
	free(by);
	return ok;
}
