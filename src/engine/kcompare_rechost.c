/* kcompare_rechost.c - which machine compare simulates (kcompare.h
 * kcompare_host_sets()): the one the kernel side's runs were taken on.
 * A kernel record keeps it under "kernel": {"cgroup_version", "host":
 * {cpus, release, swap_rotational, read_ahead_kb, dirty_*}} (record.c);
 * runs read from a cache on another machine are then compared with a
 * simulation of theirs, not of the machine reading them.  Older records
 * lack "host": this host's settings stand in, said on stderr. */
#include "kcompare_rechost.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *hs_name(int i, char *buf, size_t len)
{
	static const char *fixed[HS_DIRTY] = { "cpus", "memcg.v1", "sched_eevdf", "sched_percpu",
					       "vm.swap_rotational", "vm.ra_pages" };
	if (i < HS_DIRTY)
		return fixed[i];
	if (i == HS_DIRTYABLE)
		return "dirtyable_kb";
	snprintf(buf, len, "vm.%s", nhost_dirty_name(i - HS_DIRTY));
	return buf;
}

/* The simulator's defaults: a v2 cgroup, CFS, one run queue, a
 * solid-state swap device, 128 KiB readahead (32 pages), the kernel's
 * writeback sysctls. */
const char *hs_default(int i, char *buf, size_t len)
{
	static const char *fixed[HS_DIRTY] = { "", "0", "0", "0", "0", "32" };
	if (i < HS_DIRTY)
		return fixed[i];
	if (i == HS_DIRTYABLE)
		return "";
	snprintf(buf, len, "%llu", nhost_dirty_default(i - HS_DIRTY));
	return buf;
}

void hvals_of(const struct nhost_settings *h, int cg_version, struct hvals *o)
{
	memset(o, 0, sizeof(*o));
	if (h->cpus > 0)
		snprintf(o->v[HS_CPUS], sizeof(o->v[0]), "%ld", h->cpus);
	if (cg_version)
		snprintf(o->v[HS_V1], sizeof(o->v[0]), "%d", cg_version == 1);
	if (h->release[0])
		snprintf(o->v[HS_EEVDF], sizeof(o->v[0]), "%d", nhost_release_at_least(h->release, 6, 6));
	/* A run queue per CPU (struct rq, one per CPU since 2.6.0's O(1)
	 * scheduler; 6.18: kernel/sched/core.c's runqueues, balanced by
	 * fair.c's sched_balance_rq): with one queue, tasks started together
	 * share the CPUs equally and fault in lockstep, where the kernel
	 * puts usemem -n 3's children two and one on two CPUs and the one
	 * alone ends first (docs/fidelity.md, "Three children on two
	 * CPUs").  One CPU has one queue either way. */
	if (h->release[0])
		snprintf(o->v[HS_PERCPU], sizeof(o->v[0]), "%d",
			 nhost_release_at_least(h->release, 2, 6) && h->cpus != 1);
	if (h->swap_rotational >= 0)
		snprintf(o->v[HS_ROT], sizeof(o->v[0]), "%d", h->swap_rotational == 1);
	/* bdi->ra_pages is read_ahead_kb / 4; the simulator takes at most
	 * 65536 pages and keeps its default past that. */
	if (h->read_ahead_kb >= 0)
		snprintf(o->v[HS_RA], sizeof(o->v[0]), "%ld", h->read_ahead_kb / 4 <= 65536 ? h->read_ahead_kb / 4 : 32);
	for (int i = 0; i < NHOST_DIRTY_SETTINGS; i++)
		if (h->dirty[i] >= 0)
			snprintf(o->v[HS_DIRTY + i], sizeof(o->v[0]), "%lld", h->dirty[i]);
	if (h->dirtyable_kb > 0)
		snprintf(o->v[HS_DIRTYABLE], sizeof(o->v[0]), "%lld", h->dirtyable_kb);
}

/* A record's host: its "kernel" object's cgroup_version and "host". */
static void hvals_of_record(const struct record *r, struct hvals *o)
{
	const struct json *kj = json_get(r->j, "kernel"), *hj = json_get(kj, "host");
	struct nhost_settings h = { .cpus = -1, .swap_rotational = -1, .read_ahead_kb = -1, .dirtyable_kb = -1 };
	double v, cg = 0;
	if (json_get_num(hj, "cpus", &v))
		h.cpus = (long)v;
	const char *rel = json_get_str(hj, "release");
	snprintf(h.release, sizeof(h.release), "%s", rel ? rel : "");
	if (json_get_num(hj, "swap_rotational", &v))
		h.swap_rotational = (int)v;
	if (json_get_num(hj, "read_ahead_kb", &v))
		h.read_ahead_kb = (long)v;
	for (int i = 0; i < NHOST_DIRTY_SETTINGS; i++)
		h.dirty[i] = json_get_num(hj, nhost_dirty_name(i), &v) ? (long long)v : -1;
	if (json_get_num(hj, "dirtyable_kb", &v))
		h.dirtyable_kb = (long long)v;
	json_get_num(kj, "cgroup_version", &cg);
	hvals_of(&h, (int)cg, o);
}

/* Does the simulation take setting i?  Not one the user set, nor a
 * swapfile's device with --swap zram: (never rotational, zram_drv.c). */
static bool hs_taken(const struct kcompare *k, int i)
{
	char buf[64], pre[72];
	if (i == HS_CPUS)
		return !k->cpus;
	if (i == HS_ROT && !strncmp(k->swap, "zram:", 5))
		return false;
	snprintf(pre, sizeof(pre), "%s=", hs_name(i, buf, sizeof(buf)));
	return !kcompare_has_set(k, pre);
}

/* Fold one run's value of setting i into o: false on a second value. */
static bool fold(struct hvals *o, int i, const char *v, const char *what, const struct kcompare *k, char *err,
		 size_t errlen)
{
	char buf[64];
	if (!v[0] || !strcmp(o->v[i], v))
		return true;
	/* Free memory differs a little from run to run: the least. */
	if (i == HS_DIRTYABLE && o->v[i][0] && strtoll(v, NULL, 10) >= strtoll(o->v[i], NULL, 10))
		return true;
	if (!o->v[i][0] || i == HS_DIRTYABLE) {
		snprintf(o->v[i], sizeof(o->v[0]), "%s", v);
		return true;
	}
	snprintf(err, errlen, "the kernel runs of %s/kernel.jsonl %s on %s (%s and %s): %s it", k->kernel_cache,
		 what, hs_name(i, buf, sizeof(buf)), o->v[i], v, i == HS_CPUS ? "--cpus" : "--set");
	return false;
}

bool hvals_pick(const struct kcompare *k, const struct hvals *cur, struct hvals *o, char *err, size_t errlen)
{
	struct records rs = { 0 };
	int nall = k->kernel_cache ? kcompare_cached_kernel(k, &rs, err, errlen) : 0;
	bool ok = true, lacks[HS_N] = { false };
	memset(o, 0, sizeof(*o));
	if (nall < 0 || !rs.n)   /* the sweep says why it cannot read them */
		*o = *cur;
	for (int r = 0; r < rs.n && ok; r++) {
		struct hvals rv;
		hvals_of_record(&rs.r[r], &rv);
		for (int i = 0; i < HS_N && ok; i++) {
			if (!hs_taken(k, i))
				continue;
			/* noted only where this host has a value to take: a
			 * host that cannot read it either (a chroot without
			 * /sys/block) takes nothing, and the preset stands */
			lacks[i] |= !rv.v[i][0] && cur->v[i][0];
			ok = fold(o, i, rv.v[i][0] ? rv.v[i] : cur->v[i], "disagree", k, err, errlen);
			/* runs still to make are this host's */
			if (ok && rs.n < nall)
				ok = fold(o, i, cur->v[i], "and this host, which runs the rest, disagree", k, err,
					  errlen);
		}
	}
	char miss[512] = "", buf[64];
	for (int i = 0; i < HS_N; i++)
		if (lacks[i] && strlen(miss) + 40 < sizeof(miss))
			snprintf(miss + strlen(miss), sizeof(miss) - strlen(miss), "%s%s", miss[0] ? " " : "",
				 hs_name(i, buf, sizeof(buf)));
	/* Once a process: a matrix asks for each case's host. */
	static bool said;
	if (ok && miss[0] && !said) {
		said = true;
		fprintf(stderr, "pagelab: compare: note: %s/kernel.jsonl's runs do not record %s: this host's taken\n",
			k->kernel_cache, miss);
	}
	records_free(&rs);
	return ok;
}
