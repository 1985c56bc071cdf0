/* knobs.c - the per-cgroup reclaim knobs `pagelab kernel --set NAME=VALUE`
 * writes into its own memory cgroup, after the limit (cgroup.c), before
 * anything runs: only files of that cgroup, never a global setting.
 *
 * Which ones, after Documentation/admin-guide/cgroup-v1/memory.rst and
 * cgroup-v2.rst of Linux 6.18:
 *  - v1: memory.swappiness (mm/memcontrol-v1.c,
 *    mem_cgroup_swappiness_write(): 0..MAX_SWAPPINESS, 200 since 5.8,
 *    100 before; named `swappiness` as pagelab run's tunable is),
 *    memory.soft_limit_in_bytes (reclaimed down to it first under global
 *    pressure, mem_cgroup_soft_limit_reclaim()), and
 *    memory.memsw.limit_in_bytes (memory + swap; at least the limit, as
 *    mem_cgroup_resize_max() requires);
 *  - v2: memory.high (reclaim and throttling above it), memory.low and
 *    memory.min (protection from reclaim, at most the limit here),
 *    memory.swap.max, memory.swap.high, memory.zswap.max and
 *    memory.zswap.writeback.  v2 has no per-cgroup swappiness:
 *    mem_cgroup_swappiness() returns vm_swappiness on the default
 *    hierarchy, so `swappiness` is refused there.
 * Left out: oom_control's oom_kill_disable (a task hangs instead of
 * dying), the deprecated move_charge_at_immigrate and kmem limits, and
 * memory.max / limit_in_bytes themselves (--memcg).  Those two and v2's
 * memory.oom.group are knobs of a --cgroup below the run's own only
 * (`tree`: cgtree.c, src/engine/kexec_tree.c). */
#define _GNU_SOURCE
#include "native.h"
#include "../lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum kind { K_SWAPPINESS, K_BYTES, K_BYTES_OR_MAX, K_PROTECT, K_MEMSW, K_BOOL };

static const struct knob {
	const char *name;       /* --set NAME */
	const char *file;       /* in the cgroup */
	int version;
	enum kind kind;
	bool tree;              /* a --cgroup's only, not --set's */
} knobs[] = {
	{ "swappiness", "memory.swappiness", 1, K_SWAPPINESS, false },
	{ "memory.soft_limit_in_bytes", "memory.soft_limit_in_bytes", 1, K_BYTES, false },
	{ "memory.memsw.limit_in_bytes", "memory.memsw.limit_in_bytes", 1, K_MEMSW, false },
	{ "memory.high", "memory.high", 2, K_BYTES_OR_MAX, false },
	{ "memory.low", "memory.low", 2, K_PROTECT, false },
	{ "memory.min", "memory.min", 2, K_PROTECT, false },
	{ "memory.swap.max", "memory.swap.max", 2, K_BYTES_OR_MAX, false },
	{ "memory.swap.high", "memory.swap.high", 2, K_BYTES_OR_MAX, false },
	{ "memory.zswap.max", "memory.zswap.max", 2, K_BYTES_OR_MAX, false },
	{ "memory.zswap.writeback", "memory.zswap.writeback", 2, K_BOOL, false },
	{ "memory.limit_in_bytes", "memory.limit_in_bytes", 1, K_BYTES, true },
	{ "memory.max", "memory.max", 2, K_BYTES_OR_MAX, true },
	{ "memory.oom.group", "memory.oom.group", 2, K_BOOL, true },
};
_Static_assert(sizeof(knobs) / sizeof(knobs[0]) <= NKNOB_MAX, "NKNOB_MAX");

const char *nknob_name(int idx) { return knobs[idx].name; }
const char *nknob_file(int idx) { return knobs[idx].file; }
int nknob_version(int idx) { return knobs[idx].version; }

/* The names of one version's knobs, comma-separated. */
static void names_of(int version, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++)
		if ((!version || knobs[i].version == version) && !knobs[i].tree)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "", knobs[i].name);
}

/* VALUE as the file takes it (bytes in decimal, "max", 0..200, 0 or 1);
 * false if it is not one of the knob's values. */
static bool value_of(const struct knob *k, const char *v, char *out, size_t len)
{
	uint64_t n;
	switch (k->kind) {
	case K_SWAPPINESS:
		if (!parse_u64(v, &n) || n > 200)
			return false;
		break;
	case K_BOOL:
		if (strcmp(v, "0") && strcmp(v, "1"))
			return false;
		n = *v == '1';
		break;
	default:
		if (k->kind != K_BYTES && k->kind != K_MEMSW && !strcmp(v, "max")) {
			snprintf(out, len, "max");
			return true;
		}
		if (!parse_size(v, &n) || n > (1ULL << 50))
			return false;
	}
	snprintf(out, len, "%llu", (unsigned long long)n);
	return true;
}

static const char *const value_help[] = {
	[K_SWAPPINESS] = "0..200", [K_BYTES] = "a size, 64M", [K_BYTES_OR_MAX] = "a size, 64M, or max",
	[K_PROTECT] = "a size, 64M, or max", [K_MEMSW] = "a size, 1G", [K_BOOL] = "0 or 1",
};

static bool parse_knob(struct nknobs *ks, const char *assign, bool tree, char *err, size_t errlen)
{
	const char *eq = strchr(assign, '=');
	size_t nlen = eq ? (size_t)(eq - assign) : strlen(assign);
	char names[512];
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++) {
		if (strlen(knobs[i].name) != nlen || strncmp(knobs[i].name, assign, nlen) || (knobs[i].tree && !tree))
			continue;
		char val[NKNOB_VAL];
		if (!eq || !value_of(&knobs[i], eq + 1, val, sizeof(val))) {
			snprintf(err, errlen, "kernel: bad --set %s: want %s=VALUE, VALUE %s", assign, knobs[i].name,
				 value_help[knobs[i].kind]);
			return false;
		}
		for (int j = 0; j < ks->n; j++)
			if (ks->idx[j] == (int)i) {
				snprintf(err, errlen, "kernel: --set %s given twice", knobs[i].name);
				return false;
			}
		ks->idx[ks->n] = (int)i;
		snprintf(ks->val[ks->n++], NKNOB_VAL, "%s", val);
		return true;
	}
	names_of(0, names, sizeof(names));
	snprintf(err, errlen, "kernel: --set %.*s: not a cgroup knob pagelab kernel sets (%s)", (int)nlen, assign,
		 names);
	return false;
}

bool nknob_parse(struct nknobs *ks, const char *assign, char *err, size_t errlen)
{
	return parse_knob(ks, assign, false, err, errlen);
}

bool nknob_parse_tree(struct nknobs *ks, const char *assign, char *err, size_t errlen)
{
	return parse_knob(ks, assign, true, err, errlen);
}

/* One knob against the host: its cgroup version, the kernel, the limit. */
static bool check_one(const struct knob *k, const char *val, int version, uint64_t limit, const char *what,
		      char *err, size_t errlen)
{
	char names[512];
	uint64_t n = strcmp(val, "max") ? strtoull(val, NULL, 10) : UINT64_MAX;
	if (!version) {
		snprintf(err, errlen, "kernel: %s %s: this host has no memory cgroup controller", what, k->name);
		return false;
	}
	if (k->version != version) {
		names_of(version, names, sizeof(names));
		snprintf(err, errlen, "kernel: %s %s: %s; this host's memory cgroup is v%d (%s)", what, k->name,
			 k->kind == K_SWAPPINESS ? "cgroup v2 has no per-cgroup swappiness (the host's vm.swappiness"
			 " applies)" : k->version == 1 ? "a cgroup v1 file" : "a cgroup v2 file", version, names);
		return false;
	}
	if (k->kind == K_SWAPPINESS && n > 100 && !nhost_kernel_at_least(5, 8)) {
		snprintf(err, errlen, "kernel: %s swappiness=%s: this kernel takes 0..100 (200 since 5.8)", what, val);
		return false;
	}
	if (k->kind == K_MEMSW && n < limit) {
		snprintf(err, errlen, "kernel: %s %s=%s: below the %s limit (%llu bytes): memory + swap "
			 "cannot be less than memory", what, k->name, val, strcmp(what, "--set") ? "cgroup's" : "--memcg",
			 (unsigned long long)limit);
		return false;
	}
	if (k->kind == K_PROTECT && n > limit && n != UINT64_MAX) {
		snprintf(err, errlen, "kernel: %s %s=%s: above the --memcg limit (%llu bytes)", what, k->name, val,
			 (unsigned long long)limit);
		return false;
	}
	return true;
}

bool nknob_check(const struct nknobs *ks, int version, uint64_t limit, char *err, size_t errlen)
{
	return nknob_check_as(ks, version, limit, "--set", err, errlen);
}

bool nknob_check_as(const struct nknobs *ks, int version, uint64_t limit, const char *what, char *err,
		    size_t errlen)
{
	for (int i = 0; i < ks->n; i++)
		if (!check_one(&knobs[ks->idx[i]], ks->val[i], version, limit, what, err, errlen))
			return false;
	if (version == 1 && ks->n) {
		/* memsw files exist only with swap accounting on. */
		for (int i = 0; i < ks->n; i++)
			if (knobs[ks->idx[i]].kind == K_MEMSW && !ncg_host_has("memory.memsw.limit_in_bytes")) {
				snprintf(err, errlen, "kernel: %s %s: this host's cgroup v1 has no swap accounting "
					 "(swapaccount=0?)", what, knobs[ks->idx[i]].name);
				return false;
			}
	}
	return true;
}

bool nknob_apply(const struct ncgroup *cg, const struct nknobs *ks, char *err, size_t errlen)
{
	for (int i = 0; i < ks->n; i++) {
		const struct knob *k = &knobs[ks->idx[i]];
		if (ncg_write(cg, k->file, ks->val[i]))
			continue;
		if (errno == ENOENT)
			snprintf(err, errlen, "kernel: --set %s: this host's memory cgroup has no %s", k->name, k->file);
		else
			snprintf(err, errlen, "kernel: --set %s=%s: writing %s/%s: %s", k->name, ks->val[i], cg->path,
				 k->file, strerror(errno));
		return false;
	}
	return true;
}

/* The file's first word (a number or "max" fits); "?" when it cannot be
 * read. */
static void read_word(const struct ncgroup *cg, const char *file, char out[NKNOB_VAL])
{
	if (!ncg_read(cg, file, out, NKNOB_VAL) || !out[0])
		snprintf(out, NKNOB_VAL, "?");
	out[strcspn(out, " \n")] = 0;
}

void nknob_read(const struct ncgroup *cg, const struct nknobs *ks, char (*out)[NKNOB_VAL])
{
	for (int i = 0; i < ks->n; i++)
		read_word(cg, knobs[ks->idx[i]].file, out[i]);
}

int nknob_swappiness(const struct ncgroup *cg)
{
	char v[NKNOB_VAL];
	if (cg->version == 1) {
		read_word(cg, "memory.swappiness", v);
	} else {
		/* v2 reclaims with the host's (mem_cgroup_swappiness()). */
		struct ncgroup proc = { .version = 2 };
		snprintf(proc.path, sizeof(proc.path), "/proc/sys/vm");
		read_word(&proc, "swappiness", v);
	}
	return *v >= '0' && *v <= '9' ? atoi(v) : -1;
}
