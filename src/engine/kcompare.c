/* kcompare.c - the two sides of compare -- WORKLOAD as sweeps (kcompare.h):
 * a run matrix per side, run by sweep_run() on its executor, each side's
 * records file resumed. */
#define _GNU_SOURCE
#include "kcompare.h"
#include "kexec.h"
#include "matrix.h"
#include "sweep.h"
#include "../lib/output.h"
#include "../lib/util.h"
#include "../lib/version.h"
#include "../mm/compress_table.h"

#include <stdlib.h>
#include <string.h>

void kcompare_free(struct kcompare *k)
{
	for (int i = 0; i < k->nsets; i++)
		free(k->sets[i]);
	free(k->sets);
	for (int w = 0; w < k->nr_wl; w++)
		free(k->wl[w]);
}

char *kcompare_workloads(const struct kcompare *k)
{
	size_t len = 1;
	for (int w = 0; w < k->nr_wl; w++)
		len += strlen(k->wl[w]) + 3;
	char *s = xcalloc(len, 1);
	for (int w = 0; w < k->nr_wl; w++)
		snprintf(s + strlen(s), len - strlen(s), "%s%s", w ? " + " : "", k->wl[w]);
	return s;
}

/* The swap size of --swap zram:SIZE[,algo=NAME] (its SIZE as written),
 * or --swap itself: the swap axis's value.  The kernel's cells are given
 * the device afterwards (side_cells), since an axis's values are split at
 * commas; the simulator's is that size of its own zram (sim_zram_axis). */
static void swap_size(const char *swap, char *buf, size_t len)
{
	bool zram = !strncmp(swap, "zram:", 5);
	const char *from = zram ? swap + 5 : swap;
	snprintf(buf, len, "%.*s", (int)(zram ? strcspn(from, ",") : strlen(from)), from);
}

/* --set swappiness=N is the simulated policy's tunable and the kernel
 * cgroup's memory.swappiness (cgroup v1: mm/memcontrol-v1.c,
 * mem_cgroup_swappiness_write(); the one knob both sides name alike). */
const char *kcompare_kernel_set(const struct kcompare *k)
{
	for (int i = k->nsets - 1; i >= 0; i--)
		if (!strncmp(k->sets[i], "swappiness=", 11))
			return k->sets[i];
	return NULL;
}

/* --swap zram:SIZE[,algo=NAME]: the simulator's device is the `zram`
 * parameter (1 + enum zalgo; an axis's values split at commas, so not
 * the spec itself), of the algorithm named or, with none, the one the
 * kernel's zram starts with: CONFIG_ZRAM_DEF_COMP, lzo-rle by default
 * since 5.1 (drivers/block/zram/Kconfig), Debian's too. */
static bool sim_zram_axis(const char *spec, struct matrix *mx, char *err, size_t errlen)
{
	const char *algo = strstr(spec, ",algo=");
	enum zalgo a = ZALGO_LZO_RLE;
	if (algo && !zalgo_parse(algo + 6, &a)) {
		snprintf(err, errlen, "--swap %s: the simulator has no zram algorithm '%s' (lz4, lzo-rle, zstd)",
			 spec, algo + 6);
		return false;
	}
	char v[16];
	snprintf(v, sizeof(v), "%d", 1 + (int)a);
	return matrix_add_axis(mx, "zram", true, v, AXV_ANY, err, errlen);
}

/* The axes of one side: the kernel takes its cgroup, its swap and the
 * seed; the simulator the machine sized like it and every --set. */
static bool side_axes(const struct kcompare *k, bool kernel, const char *policies, const char *memcg,
		      uint64_t ram, struct matrix *mx, char *err, size_t errlen)
{
	char num[32], *pol = xstrdup(policies);
	if (kernel)
		pol[strcspn(pol, ",")] = 0;   /* any that runs in a cgroup: none is used */
	bool ok = matrix_add_axis(mx, "policy", false, pol, AXV_WORD, err, errlen) &&
		  matrix_add_axis(mx, "machine", false, k->machine, AXV_WORD, err, errlen);
	free(pol);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)ram);
	/* A tree: the kernel's sits in its run's own cgroup of `memcg`
	 * (a kernel cell's RAM, kexec_cell_limit()), pagelab's in the
	 * machine, which takes no --memcg beside it. */
	bool tree = k->nr_cgroups > 0;
	for (int g = 0; g < k->nr_cgroups; g++)
		mx->cgroups[mx->nr_cgroups++] = k->cgroups[g];
	if (ok && (!kernel || tree))
		ok = matrix_add_axis(mx, "ram", false, kernel ? memcg : num, AXV_SIZE, err, errlen);
	char swap[64];
	swap_size(k->swap, swap, sizeof(swap));
	ok = ok && matrix_add_axis(mx, "swap", false, swap, AXV_SIZE, err, errlen);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)k->cpus);
	if (ok && !kernel)
		ok = matrix_add_axis(mx, "cpus", false, num, AXV_NUMBER, err, errlen);
	if (ok && !kernel && k->disk)
		ok = matrix_add_axis(mx, "disk", false, k->disk, AXV_WORD, err, errlen);
	ok = ok && (tree || matrix_add_axis(mx, "memcg", false, memcg, AXV_SIZE, err, errlen));
	if (ok && !kernel && !strncmp(k->swap, "zram:", 5))
		ok = sim_zram_axis(k->swap, mx, err, errlen);
	for (int i = 0; ok && !kernel && i < k->nsets; i++) {
		if (tree && !strncmp(k->sets[i], "memcg.v1=", 9))
			continue;   /* the --memcg model's; no --memcg with a tree */
		char *name = xstrdup(k->sets[i]), *eq = strchr(name, '=');
		if (!eq || strchr(eq, ',')) {
			snprintf(err, errlen, "--set %s: want NAME=VALUE, one value", k->sets[i]);
			ok = false;
		} else {
			*eq = 0;
			ok = matrix_add_axis(mx, name, true, eq + 1, AXV_ANY, err, errlen);
		}
		free(name);
	}
	return ok;
}

/* The side's cells: the matrix's, or the kernel's runs of its one cell. */
static bool side_cells(const struct kcompare *k, bool kernel, struct matrix *mx, struct matrix_cell **cells,
		       int *n, char *err, size_t errlen)
{
	if (!matrix_cells(mx, cells, n, err, errlen))
		return false;
	for (int i = 0; kernel && i < *n && !strncmp(k->swap, "zram:", 5); i++)
		snprintf((*cells)[i].c.swap_dev, sizeof((*cells)[i].c.swap_dev), "%s", k->swap);
	if (kernel)
		return kexec_cells(cells, n, mx->nr_axes, (int)k->repeat, k->timeout_ns, kcompare_kernel_set(k), err,
				   errlen);
	return cell_check(&(*cells)[0].c, err, errlen);
}

/* Every record ran: a kernel run that failed or stopped at --timeout is
 * exit 1, a simulation that could not run bad input. */
static int side_ran(const struct records *rs, int from, bool kernel, char *err, size_t errlen)
{
	for (int i = from; i < rs->n; i++) {
		bool avail = false, timed_out = false;
		json_get_bool(rs->r[i].j, "available", &avail);
		json_get_bool(rs->r[i].j, "timed_out", &timed_out);
		const char *why = json_get_str(rs->r[i].j, "why");
		if (avail && kernel && timed_out) {
			snprintf(err, errlen, "kernel run %d stopped at --timeout", i - from + 1);
			return 1;
		}
		if (avail)
			continue;
		if (kernel)
			snprintf(err, errlen, "kernel run %d failed: %s", i - from + 1, why ? why : "?");
		else
			snprintf(err, errlen, "simulator (%s): %s", rs->r[i].design, why ? why : "?");
		return kernel ? 1 : 2;
	}
	return 0;
}

/* The simulator's cache of this version's runs, DIR/sim-VERSION.jsonl; on a
 * machine read from a profile file, DIR/sim-VERSION-pHASH.jsonl with HASH
 * the file's bytes (FNV-1a): a run's command names the file, not what it
 * holds, and a recalibrated profile must not find the old profile's runs. */
static void sim_cache_path(char *path, size_t len, const char *dir, const char *machine)
{
	FILE *f = machine ? fopen(machine, "rb") : NULL;
	if (!f) {
		snprintf(path, len, "%s/sim-%s.jsonl", dir, pagelab_version());
		return;
	}
	uint64_t h = 14695981039346656037ULL;
	for (int c; (c = getc(f)) != EOF;)
		h = (h ^ (uint64_t)(unsigned char)c) * 1099511628211ULL;
	fclose(f);
	snprintf(path, len, "%s/sim-%s-p%016llx.jsonl", dir, pagelab_version(), (unsigned long long)h);
}

/* A side's matrix before its axes: k's workloads over nseeds seeds from
 * k->seed0. */
static void side_matrix(const struct kcompare *k, uint64_t nseeds, struct matrix *mx)
{
	memset(mx, 0, sizeof(*mx));
	mx->nr_seeds = (int)nseeds;
	mx->seeds = xcalloc(nseeds, sizeof(uint64_t));
	for (uint64_t s = 0; s < nseeds; s++)
		mx->seeds[s] = k->seed0 + s;
	for (int w = 0; w < k->nr_wl; w++)
		mx->wl[mx->nr_wl++] = xstrdup(k->wl[w]);
}

int kcompare_side(const struct kcompare *k, bool kernel, const char *policies, const char *memcg,
		  uint64_t ram, uint64_t nseeds, struct records *rs, int *resumed, char *err, size_t errlen)
{
	struct matrix mx;
	side_matrix(k, nseeds, &mx);
	mx.make_inputs = !kernel;   /* the kernel's executor makes them always */
	struct matrix_cell *cells = NULL;
	int n = 0, rc = 2;
	if (side_axes(k, kernel, policies, memcg, ram, &mx, err, errlen) &&
	    side_cells(k, kernel, &mx, &cells, &n, err, errlen)) {
		const char **names = xcalloc((size_t)mx.nr_axes, sizeof(char *));
		for (int a = 0; a < mx.nr_axes; a++)
			names[a] = mx.axes[a].name;
		char path[4096];
		const char *dir = kernel ? k->kernel_cache : k->sim_cache;
		if (kernel)
			snprintf(path, sizeof(path), "%s/kernel.jsonl", dir ? dir : "");
		else
			sim_cache_path(path, sizeof(path), dir ? dir : "", k->machine);
		struct sweep_opts o = { .jobs = kernel ? 1 : k->jobs, .out = dir ? path : NULL, .nshards = 1,
					.progress = k->progress, .axis_names = names, .nr_axes = mx.nr_axes,
					.resumed = resumed };
		int from = rs->n;
		rc = sweep_run(cells, n, &o, rs, err, errlen);
		if (!rc)
			rc = side_ran(rs, from, kernel, err, errlen);
		free(names);
	}
	matrix_cells_free(cells, n);
	matrix_free(&mx);
	return rc;
}

bool kcompare_check_sim(const struct kcompare *k, char *err, size_t errlen)
{
	struct matrix mx;
	side_matrix(k, 1, &mx);
	mx.make_inputs = true;
	struct matrix_cell *cells = NULL;
	int n = 0;
	bool ok = side_axes(k, false, k->policies, k->memcg, k->ram, &mx, err, errlen) &&
		  side_cells(k, false, &mx, &cells, &n, err, errlen);
	matrix_cells_free(cells, n);
	matrix_free(&mx);
	return ok;
}

int kcompare_cached_kernel(const struct kcompare *k, struct records *rs, char *err, size_t errlen)
{
	struct matrix mx;
	side_matrix(k, 1, &mx);
	struct matrix_cell *cells = NULL;
	struct records have = { 0 };
	int n = 0, ncells = -1;
	char path[4096];
	snprintf(path, sizeof(path), "%s/kernel.jsonl", k->kernel_cache);
	long partial = -1;
	if (side_axes(k, true, k->policies, k->memcg, k->ram, &mx, err, errlen) &&
	    side_cells(k, true, &mx, &cells, &n, err, errlen) &&
	    records_load(path, &have, true, &partial, err, errlen)) {
		records_sort_cmd(&have);
		ncells = n;
		for (int i = 0; i < n; i++) {
			const struct record *old = records_find_cmd(&have, cells[i].cmd);
			struct record r;
			if (!old || !record_parse(old->line, &r, err, errlen))
				continue;
			rs->r = xrealloc(rs->r, (size_t)(rs->n + 1) * sizeof(*rs->r));
			rs->r[rs->n++] = r;
		}
	}
	records_free(&have);
	matrix_cells_free(cells, n);
	matrix_free(&mx);
	return ncells;
}
