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
 * flush at).  A --set of any wins. */
#include "kcompare.h"
#include "../native/native.h"
#include "../lib/output.h"
#include "../lib/util.h"

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

void kcompare_host_sets(struct kcompare *k)
{
	bool v1_set = kcompare_has_set(k, "memcg.v1="), eevdf_set = kcompare_has_set(k, "sched_eevdf="),
	     rot_set = kcompare_has_set(k, "vm.swap_rotational="), ra_set = kcompare_has_set(k, "vm.ra_pages="),
	     tlb_set = kcompare_has_set(k, "cost.tlb_ipi");
	struct ncgroup cg;
	char err[256];
	if (!v1_set && ncg_detect(&cg, err, sizeof(err)) && cg.version == 1)
		kcompare_add_set(k, "memcg.v1=1");
	if (!eevdf_set && nhost_kernel_at_least(6, 6))
		kcompare_add_set(k, "sched_eevdf=1");
	/* A zram device is never rotational (zram_drv.c sets no
	 * BLK_FEAT_ROTATIONAL): only the swapfile's disk may be. */
	if (!rot_set && strncmp(k->swap, "zram:", 5) && nhost_swap_rotational())
		kcompare_add_set(k, "vm.swap_rotational=1");
	long ra_kb = ra_set ? -1 : nhost_read_ahead_kb();
	if (ra_kb >= 0 && ra_kb != 128 && ra_kb / 4 <= 65536) {
		char ra_arg[48];
		snprintf(ra_arg, sizeof(ra_arg), "vm.ra_pages=%ld", ra_kb / 4);
		kcompare_add_set(k, ra_arg);
	}
	char dirty[NHOST_DIRTY_SETTINGS][64];
	int ndirty = nhost_dirty_settings("/proc/sys", dirty);
	for (int i = 0; i < ndirty; i++) {
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(dirty[i], "="), dirty[i]);
		strcat(name, "=");
		if (!kcompare_has_set(k, name))
			kcompare_add_set(k, dirty[i]);
	}
	char tlb_args[2][48];
	if (!tlb_set && k->cpus > 1 && host_tlb_cost(k->kernel_cache, tlb_args)) {
		kcompare_add_set(k, tlb_args[0]);
		kcompare_add_set(k, tlb_args[1]);
	}
}
