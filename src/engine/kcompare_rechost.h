/* kcompare_rechost.h - the host compare simulates: the one its cached
 * kernel runs were taken on (kcompare_rechost.c). */
#ifndef PAGELAB_KCOMPARE_RECHOST_H
#define PAGELAB_KCOMPARE_RECHOST_H

#include <stdbool.h>
#include <stddef.h>

#include "kcompare.h"
#include "../native/native.h"

/* The settings compare takes from a host, each as the simulator's value
 * ("" unknown): cpus, then the --set names below, then the host's
 * dirtyable memory in KiB (no --set: kcompare_host.c derives the dirty
 * limits of a v1 host from it). */
enum { HS_CPUS, HS_V1, HS_EEVDF, HS_PERCPU, HS_ROT, HS_RA, HS_DIRTY,
       HS_DIRTYABLE = HS_DIRTY + NHOST_DIRTY_SETTINGS, HS_N };
struct hvals {
	char v[HS_N][24];
};
/* Setting I's --set name ("vm.ra_pages"; "cpus" for HS_CPUS) and the
 * simulator's default, for which no --set is added. */
const char *hs_name(int i, char *buf, size_t len);
const char *hs_default(int i, char *buf, size_t len);
/* The values of host h with a cgroup of cg_version (0 unknown). */
void hvals_of(const struct nhost_settings *h, int cg_version, struct hvals *o);
/* The host to simulate into *o: this one's, cur, for a run still to
 * make; the cached runs' where k->kernel_cache has them, cur for a
 * setting they do not record (one note on stderr).  false with a line in
 * err when they disagree on one the simulation takes. */
bool hvals_pick(const struct kcompare *k, const struct hvals *cur, struct hvals *o, char *err, size_t errlen);

#endif
