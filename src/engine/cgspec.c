/* cgspec.c - parsing a cgroup tree's words (cgspec.h).  The keys are the
 * cgroup v2 files they set (Documentation/admin-guide/cgroup-v2.rst):
 * memory.max, memory.high, memory.low, memory.min, memory.swap.max,
 * memory.swappiness (6.x: a per-memcg value; v2 has no file, cgroup v1's
 * memory.swappiness), memory.oom.group, memory.zswap.max and
 * memory.zswap.writeback (0 or 1; 6.8+).  Sizes are rounded down to
 * pages as page_counter_memparse() does; "max" is no limit. */
#include "cgspec.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool path_ok(const char *p)
{
	if (p[0] != '/' || !p[1] || strlen(p) >= CG_PATH_MAX)
		return false;
	for (const char *c = p; *c; c++) {
		if (*c == '/' && (c[1] == '/' || c[1] == 0))
			return false;
		if (*c != '/' && *c != '_' && *c != '-' && *c != '.' && !(*c >= 'a' && *c <= 'z') &&
		    !(*c >= 'A' && *c <= 'Z') && !(*c >= '0' && *c <= '9'))
			return false;
	}
	return true;
}

int cgspec_find(const struct cg_tree_conf *t, const char *path)
{
	if (!strcmp(path, "/"))
		return 0;
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->cg[i].path, path))
			return i + 1;
	return -1;
}

/* The cgroup of path, its parents implied first; its id, or -1 when the
 * tree is full. */
static int declare(struct cg_tree_conf *t, const char *path)
{
	int id = cgspec_find(t, path);
	if (id >= 0)
		return id;
	char parent[CG_PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", path);
	char *slash = strrchr(parent, '/');
	if (slash == parent)
		slash[1] = 0;
	else
		*slash = 0;
	int pid = declare(t, parent);
	if (pid < 0 || t->n >= CG_MAX)
		return -1;
	struct cg_conf *c = &t->cg[t->n++];
	*c = (struct cg_conf){ .parent = pid, .max = CG_UNLIMITED, .high = CG_UNLIMITED,
			       .swap_max = CG_UNLIMITED, .swap_high = CG_UNLIMITED, .zswap_max = CG_UNLIMITED,
			       .swappiness = -1,
			       .implied = true };
	snprintf(c->path, sizeof(c->path), "%s", path);
	return t->n;
}

static bool size_value(const char *v, uint64_t *pages)
{
	uint64_t b;
	if (!strcmp(v, "max")) {
		*pages = CG_UNLIMITED;
		return true;
	}
	if (!parse_size(v, &b) || b > (1ULL << 50))
		return false;
	*pages = b / PAGE_SIZE;
	return true;
}

/* One KEY=VALUE of c; false with one line in err. */
static bool set_key(struct cg_conf *c, const char *kv, char *err, size_t errlen)
{
	const char *eq = strchr(kv, '=');
	size_t kl = eq ? (size_t)(eq - kv) : strlen(kv);
	const char *v = eq ? eq + 1 : "";
	static const char *const sizes[] = { "max", "high", "low", "min", "swap.max", "zswap.max", "swap.high" };
	uint64_t *dest[] = { &c->max, &c->high, &c->low, &c->min, &c->swap_max, &c->zswap_max, &c->swap_high };
	for (int i = 0; i < 7; i++) {
		if (strlen(sizes[i]) != kl || strncmp(kv, sizes[i], kl))
			continue;
		bool plain = i == 2 || i == 3;   /* low, min: a size, "max" means all */
		if (eq && size_value(v, dest[i]) && (!plain || strcmp(v, "max")))
			return true;
		snprintf(err, errlen, "--cgroup %s: bad %s '%s' (a size%s)", c->path, sizes[i], v,
			 plain ? "" : " or max");
		return false;
	}
	uint64_t n;
	if (kl == 10 && !strncmp(kv, "swappiness", kl)) {
		if (eq && parse_u64(v, &n) && n <= 200) {
			c->swappiness = (int)n;
			return true;
		}
		snprintf(err, errlen, "--cgroup %s: bad swappiness '%s' (0 to 200)", c->path, v);
		return false;
	}
	/* the 0-or-1 keys: oom.group, zswap.writeback (0 stored as nowb) */
	static const char *const flags[] = { "oom.group", "zswap.writeback" };
	bool *fdest[] = { &c->oom_group, &c->zswap_nowb };
	for (int i = 0; i < 2; i++) {
		if (strlen(flags[i]) != kl || strncmp(kv, flags[i], kl))
			continue;
		if (eq && (!strcmp(v, "0") || !strcmp(v, "1"))) {
			*fdest[i] = (v[0] == '1') == (i == 0);
			return true;
		}
		snprintf(err, errlen, "--cgroup %s: bad %s '%s' (0 or 1)", c->path, flags[i], v);
		return false;
	}
	snprintf(err, errlen,
		 "--cgroup %s: unknown key '%.*s' (max, high, low, min, swap.max, swap.high, zswap.max, "
		 "zswap.writeback, swappiness, oom.group)", c->path,
		 (int)kl, kv);
	return false;
}

bool cgspec_add(struct cg_tree_conf *t, const char *spec, char *err, size_t errlen)
{
	char path[CG_PATH_MAX + 1];
	const char *colon = strchr(spec, ':');
	size_t pl = colon ? (size_t)(colon - spec) : strlen(spec);
	snprintf(path, sizeof(path), "%.*s", (int)(pl < CG_PATH_MAX ? pl : CG_PATH_MAX), spec);
	if (pl >= CG_PATH_MAX || !path_ok(path)) {
		snprintf(err, errlen, "bad --cgroup '%s' (PATH[:KEY=VALUE,...], PATH like /a/b: letters, digits, _ - .; not /)",
			 spec);
		return false;
	}
	int id = cgspec_find(t, path);
	if (id > 0 && !t->cg[id - 1].implied) {
		snprintf(err, errlen, "--cgroup %s given twice", path);
		return false;
	}
	if (id < 0 && (id = declare(t, path)) < 0) {
		snprintf(err, errlen, "--cgroup %s: more than %d cgroups", path, CG_MAX);
		return false;
	}
	struct cg_conf c = t->cg[id - 1];
	c.implied = false;
	char *keys = xstrdup(colon ? colon + 1 : "");
	bool ok = !colon || keys[0];
	if (!ok)
		snprintf(err, errlen, "--cgroup %s: nothing after ':'", path);
	for (char *save = NULL, *kv = strtok_r(keys, ",", &save); ok && kv; kv = strtok_r(NULL, ",", &save))
		ok = set_key(&c, kv, err, errlen);
	free(keys);
	if (ok)
		t->cg[id - 1] = c;
	return ok;
}

int cgspec_placement(const struct cg_tree_conf *t, int *argc, char *const *argv, char *err, size_t errlen)
{
	if (*argc < 2 || !argv[*argc - 1] || argv[*argc - 1][0] != '@')
		return 0;
	const char *path = argv[*argc - 1] + 1;
	int id = cgspec_find(t, path);
	if (id < 0) {
		snprintf(err, errlen, "%s @%s: no such cgroup (declare it with --cgroup %s)", argv[0], path, path);
		return -1;
	}
	(*argc)--;
	return id;
}

#define KEY_PREFIX "cgroup."

/* The key KEY at the end of "cgroup.PATH.KEY": its offset, or 0. */
static size_t key_at(const char *name)
{
	/* zswap.max before swap.max, and those, swap.high and oom.group
	 * before max and high: the longest that ends it. */
	static const char *const keys[] = { "zswap.writeback", "zswap.max", "swap.max", "swap.high", "oom.group", "swappiness", "max",
					    "high", "low", "min" };
	size_t n = strlen(name), pl = strlen(KEY_PREFIX);
	if (strncmp(name, KEY_PREFIX, pl) || name[pl] != '/')
		return 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t kl = strlen(keys[i]);
		if (n > pl + kl + 1 && !strcmp(name + n - kl, keys[i]) && name[n - kl - 1] == '.')
			return n - kl;
	}
	return 0;
}

bool cgspec_is_key_name(const char *name)
{
	return !strncmp(name, KEY_PREFIX "/", strlen(KEY_PREFIX) + 1);
}

bool cgspec_set(struct cg_tree_conf *t, const char *name, const char *value, char *err, size_t errlen)
{
	size_t k = key_at(name), pl = strlen(KEY_PREFIX);
	if (!k) {
		snprintf(err, errlen, "bad --set %s (cgroup.PATH.KEY, KEY max, high, low, min, swap.max, swap.high, "
			 "zswap.max, zswap.writeback, swappiness, oom.group)", name);
		return false;
	}
	char path[CG_PATH_MAX + 1], kv[128];
	snprintf(path, sizeof(path), "%.*s", (int)(k - 1 - pl < CG_PATH_MAX ? k - 1 - pl : CG_PATH_MAX), name + pl);
	int id = cgspec_find(t, path);
	if (id <= 0) {
		snprintf(err, errlen, "--set %s: no cgroup %s (declare it with --cgroup %s first)", name, path, path);
		return false;
	}
	snprintf(kv, sizeof(kv), "%s=%s", name + k, value);
	struct cg_conf c = t->cg[id - 1];
	if (!set_key(&c, kv, err, errlen))
		return false;
	t->cg[id - 1] = c;
	return true;
}
