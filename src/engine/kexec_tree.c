/* kexec_tree.c - `--cgroup PATH[:KEY=VALUE,...]` for the host kernel:
 * the simulator's words (cgspec.c: max, high, low, min, swap.max,
 * swappiness, oom.group) read as the simulator reads them, each turned
 * into the file this host's memory cgroup has for it, and the
 * per-cgroup knobs of pagelab kernel --set (src/native/knobs.c:
 * memory.soft_limit_in_bytes, memory.memsw.limit_in_bytes, ...) taken
 * as KEY=VALUE too.  Which file, after Documentation/admin-guide/
 * cgroup-v1/memory.rst and cgroup-v2.rst of 6.18:
 *
 *   key          v2                 v1
 *   max          memory.max         memory.limit_in_bytes
 *   high         memory.high        - (v1 has no high: refused)
 *   low, min     memory.low, .min   - (refused; soft_limit is not low)
 *   swap.max     memory.swap.max    - (refused; memsw limits memory+swap)
 *   swap.high    memory.swap.high   - (refused)
 *   swappiness   - (refused: v2's   memory.swappiness
 *                 is vm.swappiness)
 *   oom.group    memory.oom.group   - (refused)
 *   zswap.writeback=0  memory.zswap.writeback  - (refused: 6.8+, v2 only)
 *
 * A key the host lacks is one line naming it (knobs.c's refusal).
 *
 * The workloads that act on a cgroup from user space (memreclaim,
 * senpai, oomd: ops->cgroup_target) run on cgroup v2, where the
 * executor does their reads and writes of memory.reclaim,
 * memory.pressure and cgroup.kill (src/native/cgagent.c), on a cgroup
 * of the run's tree ("/": the run's own).  On cgroup v1 there is
 * nothing to drive (no memory.reclaim, no memory.pressure of a cgroup's
 * own, no cgroup.kill: Documentation/admin-guide/cgroup-v1/memory.rst):
 * refused with one line before anything is made. */
#include "kexec.h"
#include "cgspec.h"
#include "../lib/json.h"
#include "../lib/util.h"
#include "../workload/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool sim_key(const char *kv)
{
	static const char *const keys[] = { "max", "high", "low", "min", "swap.max", "swap.high", "swappiness",
					    "oom.group", "zswap.writeback" };
	size_t kl = strcspn(kv, "=");
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (strlen(keys[i]) == kl && !strncmp(kv, keys[i], kl))
			return true;
	return false;
}

/* spec's simulator words into sim ("PATH:k=v,..."), the others (knob
 * files) into host, comma-separated. */
static void split_spec(const char *spec, char *sim, char *host, size_t len)
{
	const char *colon = strchr(spec, ':');
	size_t pl = colon ? (size_t)(colon - spec) : strlen(spec);
	snprintf(sim, len, "%.*s", (int)pl, spec);
	host[0] = 0;
	if (!colon)
		return;
	/* An empty key list stays for cgspec_add's "nothing after ':'". */
	char *keys = xstrdup(colon + 1), *save = NULL;
	int ns = 0;
	if (!keys[0])
		snprintf(sim + strlen(sim), len - strlen(sim), ":");
	for (char *kv = strtok_r(keys, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *dst = sim_key(kv) ? sim : host;
		const char *sep = dst == sim ? (ns++ ? "," : ":") : (host[0] ? "," : "");
		snprintf(dst + strlen(dst), len - strlen(dst), "%s%s", sep, kv);
	}
	free(keys);
}

/* The host files for conf's keys that were given, limit first. */
static bool conf_knobs(const struct cg_conf *c, int version, struct nknobs *k, char *err, size_t errlen)
{
	char kv[96];
	bool ok = true;
#define KNOB(name, fmt, v) (snprintf(kv, sizeof(kv), "%s=" fmt, name, v), \
			    ok = ok && nknob_parse_tree(k, kv, err, errlen))
	if (c->max != CG_UNLIMITED)
		KNOB(version == 1 ? "memory.limit_in_bytes" : "memory.max", "%llu",
		     (unsigned long long)(c->max * PAGE_SIZE));
	if (c->high != CG_UNLIMITED)
		KNOB("memory.high", "%llu", (unsigned long long)(c->high * PAGE_SIZE));
	if (c->low)
		KNOB("memory.low", "%llu", (unsigned long long)(c->low * PAGE_SIZE));
	if (c->min)
		KNOB("memory.min", "%llu", (unsigned long long)(c->min * PAGE_SIZE));
	if (c->swap_max != CG_UNLIMITED)
		KNOB("memory.swap.max", "%llu", (unsigned long long)(c->swap_max * PAGE_SIZE));
	if (c->swap_high != CG_UNLIMITED)
		KNOB("memory.swap.high", "%llu", (unsigned long long)(c->swap_high * PAGE_SIZE));
	if (c->swappiness >= 0)
		KNOB("swappiness", "%d", c->swappiness);
	if (c->oom_group)
		KNOB("memory.oom.group", "%d", 1);
	if (c->zswap_nowb)
		KNOB("memory.zswap.writeback", "%d", 0);
#undef KNOB
	return ok;
}

/* Each cgroup's knobs from conf and host[] (knob words by cgroup id). */
static bool tree_knobs(const struct cg_tree_conf *conf, char (*host)[512], int version, uint64_t limit,
		       struct ntree *nt, char *err, size_t errlen)
{
	memset(nt, 0, sizeof(*nt));
	nt->n = conf->n;
	for (int i = 0; i < conf->n; i++) {
		const struct cg_conf *c = &conf->cg[i];
		struct ntree_cg *x = &nt->cg[i];
		snprintf(x->path, sizeof(x->path), "%s", c->path);
		if (!conf_knobs(c, version, &x->knobs, err, errlen))
			return false;
		char *save = NULL;
		for (char *kv = strtok_r(host[i], ",", &save); kv; kv = strtok_r(NULL, ",", &save))
			if (!nknob_parse_tree(&x->knobs, kv, err, errlen))
				return false;
		char what[80];
		snprintf(what, sizeof(what), "--cgroup %s", c->path);
		uint64_t own = c->max != CG_UNLIMITED ? c->max * PAGE_SIZE : limit;
		if (!nknob_check_as(&x->knobs, version, own, what, err, errlen))
			return false;
	}
	return true;
}

bool kexec_tree_build(const char *const *specs, int n, int version, uint64_t limit, struct cg_tree_conf *conf,
		      struct ntree *nt, char *err, size_t errlen)
{
	char (*host)[512] = xcalloc(CG_MAX, sizeof(*host));
	bool ok = true;
	memset(conf, 0, sizeof(*conf));
	for (int s = 0; ok && s < n; s++) {
		char sim[512], extra[512];
		split_spec(specs[s], sim, extra, sizeof(sim));
		ok = cgspec_add(conf, sim, err, errlen);
		int id = ok ? cgspec_find(conf, sim[0] ? strtok(sim, ":") : sim) : -1;
		if (ok && id > 0)
			snprintf(host[id - 1], sizeof(host[0]), "%s", extra);
	}
	ok = ok && tree_knobs(conf, host, version, limit, nt, err, errlen);
	free(host);
	return ok;
}

bool kexec_tree_places(const struct cg_tree_conf *conf, int version, const int *place, int nwl, char *err,
		       size_t errlen)
{
	if (version != 2 || !conf->n)
		return true;
	/* v2's "no internal processes": a cgroup with children holds none. */
	for (int w = 0; w < nwl; w++) {
		const char *p = place[w] ? conf->cg[place[w] - 1].path : "";
		size_t l = strlen(p);
		for (int i = 0; i < conf->n; i++)
			if (!strncmp(conf->cg[i].path, p, l) && conf->cg[i].path[l] == '/') {
				snprintf(err, errlen, "kernel: workload %d runs in %s, which has child cgroups: on "
					 "cgroup v2 only a leaf holds processes (place it in a leaf)", w + 1,
					 p[0] ? p : "/");
				return false;
			}
	}
	return true;
}

bool kexec_agents_refuse(const struct wl_list *l, int version, char *err, size_t errlen)
{
	for (int w = 0; w < l->n && version == 1; w++) {
		if (!l->v[w].ops->cgroup_target)
			continue;
		snprintf(err, errlen, "kernel: workload %d (%s) acts through cgroup v2's memory.reclaim, "
			 "memory.pressure or cgroup.kill, which this host's cgroup v1 memory controller "
			 "lacks: it runs only in the simulator", w + 1, l->v[w].ops->name);
		return true;
	}
	return false;
}

bool kexec_agents_targets(const struct cg_tree_conf *conf, const struct nworkload *wl, void *const *inst, int nwl,
			  char *err, size_t errlen)
{
	for (int w = 0; w < nwl; w++) {
		bool psi;
		const char *path = wl[w].ops->cgroup_target ? wl[w].ops->cgroup_target(inst[w], &psi) : NULL;
		if (path && cgspec_find(conf, path) < 0) {
			snprintf(err, errlen, "kernel: %s: no cgroup %s (declare it with --cgroup %s)",
				 wl[w].ops->name, path, path);
			return false;
		}
	}
	return true;
}

static void stat_json(const char *prefix, const struct nstat *s, FILE *out)
{
	for (int i = 0; i < s->n; i++)
		fprintf(out, ", \"%s%s\": %lld", prefix, s->name[i], (long long)s->val[i]);
}

void kexec_tree_json(FILE *out, const struct ntree *t, const struct ncg_result *cg, int n)
{
	fputc('[', out);
	for (int c = 0; c < n; c++) {
		const struct ncg_result *x = &cg[c];
		const struct nknobs *k = &t->cg[c].knobs;
		fputs(c ? ", {\"path\": " : "{\"path\": ", out);
		json_str(out, x->path);
		fputs(", \"set\": {", out);
		for (int i = 0; i < k->n; i++) {
			fputs(i ? ", " : "", out);
			json_str(out, nknob_file(k->idx[i]));
			fputs(": ", out);
			json_str(out, x->knob[i]);
		}
		fprintf(out, "}, \"memory.current\": %llu, \"memory.peak\": %llu", (unsigned long long)x->current,
			(unsigned long long)x->peak);
		stat_json("memory.events.", &x->events, out);
		if (x->psi_some_us >= 0)
			fprintf(out, ", \"memory.pressure\": {\"some\": {\"total\": %lld}, \"full\": {\"total\": %lld}}",
				(long long)x->psi_some_us, (long long)x->psi_full_us);
		stat_json("memory.stat.", &x->memstat, out);
		fputc('}', out);
	}
	fputc(']', out);
}

/* memory_recursiveprot is an option of the cgroup2 mount, which pagelab
 * does not remount: asked for, the host's v2 mount must have it. */
static bool host_recursiveprot(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char line[1024];
	bool on = false;
	while (f && !on && fgets(line, sizeof(line), f)) {
		char dev[256], dir[256], type[64], opts[512];
		if (sscanf(line, "%255s %255s %63s %511s", dev, dir, type, opts) == 4 && !strcmp(type, "cgroup2"))
			on = strstr(opts, "memory_recursiveprot") != NULL;
	}
	if (f)
		fclose(f);
	return on;
}

bool kexec_tree_from_conf(const struct cg_tree_conf *conf, int version, uint64_t limit, struct ntree *nt, char *err,
			  size_t errlen)
{
	if (conf->recursiveprot && (version != 2 || !host_recursiveprot())) {
		snprintf(err, errlen, "memory_recursiveprot=1: this host's cgroup2 mount does not have the option "
			 "(pagelab does not remount it)");
		return false;
	}
	char (*host)[512] = xcalloc(CG_MAX, sizeof(*host));
	bool ok = tree_knobs(conf, host, version, limit, nt, err, errlen);
	free(host);
	return ok;
}
