/* kcompare_host.c - the simulator runs as this host runs (kcompare.h):
 * a cgroup of the host's kind (v1 reclaim waits on writeback,
 * src/mm/memcg.c) and, on 6.6 or later, EEVDF's pick order
 * (src/machine/sched.c), and with the swapfile's device rotational,
 * slot-cluster swap readahead where a solid-state one would read around
 * the faulting address (src/mm/swapin.c), and files read ahead in windows
 * of the device's read_ahead_kb (bdi->ra_pages), and what a remote TLB
 * flush costs on it (src/native/tlbprobe.c: reclaim's IPIs before it
 * writes a mapped page), and the host's writeback sysctls where they are
 * not the kernel's defaults (the dirty limits both sides throttle and
 * flush at).  A --set of any wins.  "This host" is the one the kernel
 * side's cached runs were taken on, as their records say
 * (kcompare_rechost.c), and the one compare runs on otherwise. */
#include "kcompare.h"
#include "kcompare_rechost.h"
#include "../native/native.h"
#include "../lib/output.h"
#include "../lib/util.h"
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kcompare_add_set(struct kcompare *k, const char *s)
{
	k->sets = xrealloc(k->sets, (size_t)(k->nsets + 1) * sizeof(char *));
	k->sets[k->nsets++] = xstrdup(s);
}

bool kcompare_has_set(const struct kcompare *k, const char *prefix)
{
	for (int i = 0; i < k->nsets; i++)
		if (!strncmp(k->sets[i], prefix, strlen(prefix)))
			return true;
	return false;
}

/* What a remote TLB flush costs on this host, as the two --set values,
 * measured once per kernel cache: kept in DIR/tlb_cost beside the kernel
 * runs, so that a rerun with the cache simulates the same machine (the
 * measurement moves by a fifth between two tries).  false: nothing to
 * measure (one CPU, not x86). */
static bool host_tlb_cost(const char *cache, char args[2][48])
{
	char path[4096], why[256];
	unsigned long long s, r;
	FILE *f = NULL;
	if (cache) {
		snprintf(path, sizeof(path), "%s/tlb_cost", cache);
		f = fopen(path, "r");
	}
	int n = f ? fscanf(f, "cost.tlb_ipi=%lluns cost.tlb_ipi_recv=%lluns", &s, &r) : 0;
	if (f)
		fclose(f);
	if (n != 2) {
		uint64_t send, recv;
		if (!nhost_tlb_ipi_cost(&send, &recv, NULL, why, sizeof(why)))
			return false;
		s = send;
		r = recv;
	}
	snprintf(args[0], 48, "cost.tlb_ipi=%lluns", s);
	snprintf(args[1], 48, "cost.tlb_ipi_recv=%lluns", r);
	struct atomic_file af;
	if (n != 2 && cache && atomic_open(&af, path, why, sizeof(why))) {
		fprintf(af.f, "%s %s\n", args[0], args[1]);
		atomic_commit(&af, why, sizeof(why)); /* a cache: not kept is no error */
	}
	return true;
}

/* A v1 memcg has no dirty domain of its own (cgroup writeback is v2's:
 * mem_cgroup_wb_domain() needs cgroup_subsys_on_dfl), so on a v1 host the
 * writers of the run's cgroup throttle, and its flusher starts, at the
 * ratios of the host's dirtyable memory (domain_dirty_limits() of the
 * global domain, mm/page-writeback.c, 6.18), 2.4 GB before background
 * writeback on this 24 GB host where the simulated machine, sized to the
 * cgroup, would start at a tenth of its RAM.  So the simulator gets the
 * host's limits in bytes, where the host sets them as ratios and the
 * user set neither. */
static const struct { int ratio, bytes; } dirty_pair[2] = { { 0, 2 }, { 1, 3 } }; /* nhost's dirty_vm[] */

/* Which of the two limits the user set (as a ratio or in bytes): bit p. */
static unsigned dirty_limits_set(const struct kcompare *k)
{
	unsigned m = 0;
	for (int p = 0; p < 2; p++) {
		char nr[64], nb[64];
		snprintf(nr, sizeof(nr), "vm.%s=", nhost_dirty_name(dirty_pair[p].ratio));
		snprintf(nb, sizeof(nb), "vm.%s=", nhost_dirty_name(dirty_pair[p].bytes));
		m |= (unsigned)(kcompare_has_set(k, nr) || kcompare_has_set(k, nb)) << p;
	}
	return m;
}

static void v1_dirty_limits(struct kcompare *k, const struct hvals *v, unsigned user_set)
{
	if (strcmp(v->v[HS_V1], "1") || !v->v[HS_DIRTYABLE][0])
		return;
	unsigned long long kb = strtoull(v->v[HS_DIRTYABLE], NULL, 10);
	for (int p = 0; p < 2; p++) {
		const char *ratio = v->v[HS_DIRTY + dirty_pair[p].ratio], *bytes = v->v[HS_DIRTY + dirty_pair[p].bytes];
		if (user_set >> p & 1 || (bytes[0] && strcmp(bytes, "0")))
			continue;
		unsigned long long r = ratio[0] ? strtoull(ratio, NULL, 10) : nhost_dirty_default(dirty_pair[p].ratio);
		char set[96];
		snprintf(set, sizeof(set), "vm.%s=%llu", nhost_dirty_name(dirty_pair[p].bytes), kb * 1024 / 100 * r);
		kcompare_add_set(k, set);
	}
}

/* This host's settings, as the simulator takes them.  Its dirtyable
 * memory is its MemTotal here, an upper bound that does not move: a
 * reading of free memory changed the simulated machine, and so the
 * simulator's cache key, from one compare to the next (the runs' own
 * readings, folded to their least, are steady). */
static void current_host(struct hvals *cur)
{
	struct nhost_settings h;
	struct ncgroup cg;
	char err[256];
	nhost_settings_read(&h, "/proc/sys");
	h.dirtyable_kb = nhost_meminfo_kb("/proc/sys", "MemTotal");
	hvals_of(&h, ncg_detect(&cg, err, sizeof(err)) ? cg.version : 0, cur);
}

bool kcompare_host_sets(struct kcompare *k, char *err, size_t errlen)
{
	struct hvals cur, v;
	current_host(&cur);
	if (!hvals_pick(k, &cur, &v, err, errlen))
		return false;
	if (!k->cpus)
		k->cpus = v.v[HS_CPUS][0] ? strtoull(v.v[HS_CPUS], NULL, 10) : 1;
	unsigned user_dirty = dirty_limits_set(k); /* before the host's ratios are added */
	/* The others as --set words, in this order, where not the
	 * simulator's default: memcg.v1, sched_eevdf, sched_percpu,
	 * vm.swap_rotational
	 * (never for zram: no BLK_FEAT_ROTATIONAL in zram_drv.c),
	 * vm.ra_pages, the vm.dirty_* sysctls. */
	for (int i = HS_V1; i < HS_N; i++) {
		char nbuf[64], dbuf[32], set[96];
		const char *name = hs_name(i, nbuf, sizeof(nbuf)), *def = hs_default(i, dbuf, sizeof(dbuf));
		if ((i == HS_ROT && !strncmp(k->swap, "zram:", 5)) || i == HS_DIRTYABLE)
			continue;
		snprintf(set, sizeof(set), "%s=", name);
		if (!v.v[i][0] || !strcmp(v.v[i], def) || kcompare_has_set(k, set))
			continue;
		snprintf(set, sizeof(set), "%s=%s", name, v.v[i]);
		kcompare_add_set(k, set);
	}
	v1_dirty_limits(k, &v, user_dirty);
	char tlb_args[2][48];
	if (!kcompare_has_set(k, "cost.tlb_ipi") && k->cpus > 1 && host_tlb_cost(k->kernel_cache, tlb_args)) {
		kcompare_add_set(k, tlb_args[0]);
		kcompare_add_set(k, tlb_args[1]);
	}
	return true;
}

/* The median of the records' disk_probe.KEY and disk_probe_after.KEY
 * (the probes before and after each run), 0 with none. */
static double probe_median(const struct records *kern, const char *key)
{
	static const char *const probe[2] = { "disk_probe", "disk_probe_after" };
	double *v = xcalloc(2 * (size_t)kern->n + 1, sizeof(double)), x;
	int n = 0;
	for (int i = 0; i < kern->n; i++)
		for (int p = 0; p < 2; p++)
			if (json_get_num(json_get(json_get(kern->r[i].j, "kernel"), probe[p]), key, &x) && x > 0)
				v[n++] = x;
	x = n ? median_inplace(v, n) : 0;
	free(v);
	return x;
}

/* Why: this host's disk is a virtual one whose rate moves with its
 * host's load (818 and 463-523 MB/s two hours apart, docs/fidelity.md): the
 * case is simulated on the disk its own runs met, as probes just before
 * and after each measured it (a baseline of the disk, not the case's figures). */
void kcompare_disk_sets(struct kcompare *k, const struct records *kern)
{
	static const char *const param[2] = { "disk.write_bandwidth", "disk.bandwidth" };
	static const char *const key[2] = { "write_bps", "read_bps" };
	for (int p = 0; p < 2; p++) {
		char pre[48], set[96];
		snprintf(pre, sizeof(pre), "%s=", param[p]);
		if (k->disk || (!k->disk_set[p] && kcompare_has_set(k, pre)))
			continue;
		double bps = probe_median(kern, key[p]);
		if (bps <= 0)
			continue;
		snprintf(set, sizeof(set), "%s%.0f", pre, bps);
		if (k->disk_set[p]) {
			free(k->sets[k->disk_set[p] - 1]);
			k->sets[k->disk_set[p] - 1] = xstrdup(set);
		} else {
			kcompare_add_set(k, set);
			k->disk_set[p] = k->nsets;
		}
	}
}
