/* cgtree.c - `pagelab kernel --cgroup PATH:...`: a tree of memory cgroups
 * below the run's own (cgroup.c), each with the knobs it was given, and
 * what each counted at the end.  After Documentation/admin-guide/
 * cgroup-v1/memory.rst and cgroup-v2.rst of Linux 6.18:
 *  - v1 charges a child's pages to its parents only with use_hierarchy
 *    1 (mem_cgroup_hierarchy_write(): always 1 since 6.0, where writing 0
 *    fails), so it is written in the run's own cgroup before any child
 *    exists; a new child's limits are unlimited and its swappiness its
 *    parent's (mem_cgroup_css_alloc());
 *  - v2 gives a child the memory controller only when "+memory" is in
 *    its parent's cgroup.subtree_control, which a cgroup with processes
 *    of its own refuses ("no internal processes"): the workloads of a v2
 *    tree run in its leaves (src/engine/kexec_tree.c refuses others).
 * The knobs are written in the order kexec_tree.c lists them (the limit
 * first, so memsw can be checked against it).  Removing the tree is
 * cgroup.c's ncg_remove() of the run's own cgroup: deepest first, on
 * every way out (guard.c). */
#define _GNU_SOURCE
#include "native.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *ntree_path(const struct ntree *t, int i)
{
	return i ? t->cg[i - 1].path : "/";
}

/* Every cgroup of t that has a child gets +memory in subtree_control. */
static bool v2_delegate(const struct ncgroup *top, const struct ntree *t, char *err, size_t errlen)
{
	for (int i = 0; i <= t->n; i++) {
		const char *p = ntree_path(t, i);
		size_t n = strlen(p);
		bool parent = false;
		for (int j = 0; j < t->n && !parent; j++)
			parent = !strncmp(t->cg[j].path, i ? p : "", i ? n : 0) && t->cg[j].path[i ? n : 0] == '/';
		struct ncgroup c;
		ncg_child(top, i ? p : "", &c);
		if (parent && !ncg_write(&c, "cgroup.subtree_control", "+memory")) {
			snprintf(err, errlen, "kernel: --cgroup %s: cannot enable the memory controller below it: %s",
				 p, strerror(errno));
			return false;
		}
	}
	return true;
}

bool ntree_create(const struct ncgroup *top, const struct ntree *t, char *err, size_t errlen)
{
	if (!t->n)
		return true;
	if (top->version == 1 && !ncg_write(top, "memory.use_hierarchy", "1")) {
		char v[8];
		if (!ncg_read(top, "memory.use_hierarchy", v, sizeof(v)) || v[0] != '1') {
			snprintf(err, errlen, "kernel: --cgroup: cannot set memory.use_hierarchy 1 in %s: %s",
				 top->path, strerror(errno));
			return false;
		}
	}
	for (int i = 0; i < t->n; i++) {
		struct ncgroup c;
		ncg_child(top, t->cg[i].path, &c);
		if (ncg_fs->mkdir(c.path, 0755) && errno != EEXIST) {
			snprintf(err, errlen, "kernel: cannot create the cgroup %s: %s", c.path, strerror(errno));
			return false;
		}
	}
	if (top->version == 2 && !v2_delegate(top, t, err, errlen))
		return false;
	for (int i = 0; i < t->n; i++) {
		struct ncgroup c;
		ncg_child(top, t->cg[i].path, &c);
		if (!nknob_apply(&c, &t->cg[i].knobs, err, errlen))
			return false;
	}
	return true;
}

/* A file's first number, 0 when it cannot be read. */
static uint64_t read_u64(const struct ncgroup *c, const char *file)
{
	char buf[64];
	return ncg_read(c, file, buf, sizeof(buf)) ? strtoull(buf, NULL, 10) : 0;
}

/* v1 has no memory.events: the limit's failcnt (the charges that hit
 * it), memsw's, and oom_control's oom_kill stand for them. */
static void v1_events(const struct ncgroup *c, struct nstat *ev)
{
	char buf[1024], text[256];
	uint64_t kills = 0;
	if (ncg_read(c, "memory.oom_control", buf, sizeof(buf))) {
		const char *k = strstr(buf, "oom_kill ");
		kills = k ? strtoull(k + 9, NULL, 10) : 0;
	}
	snprintf(text, sizeof(text), "failcnt %llu\nmemsw.failcnt %llu\noom_kill %llu\n",
		 (unsigned long long)read_u64(c, "memory.failcnt"),
		 (unsigned long long)read_u64(c, "memory.memsw.failcnt"), (unsigned long long)kills);
	nstat_parse(ev, text);
}

void ntree_read(const struct ncgroup *top, const struct ntree *t, int i, struct ncg_result *r)
{
	struct ncgroup c;
	char p[640];
	ncg_child(top, t->cg[i].path, &c);
	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", t->cg[i].path);
	r->current = read_u64(&c, c.version == 2 ? "memory.current" : "memory.usage_in_bytes");
	r->peak = ncg_peak(&c);
	if (c.version == 2) {
		snprintf(p, sizeof(p), "%s/memory.events", c.path);
		nstat_read_file(&r->events, p);
	} else {
		v1_events(&c, &r->events);
	}
	snprintf(p, sizeof(p), "%s/memory.stat", c.path);
	nstat_read_file(&r->memstat, p);
	/* v1 has no pressure file of a cgroup's own. */
	r->psi_some_us = r->psi_full_us = -1;
	snprintf(p, sizeof(p), "%s/memory.pressure", c.path);
	if (c.version != 2 || !npsi_read(p, &r->psi_some_us, &r->psi_full_us))
		r->psi_some_us = r->psi_full_us = -1;
	nknob_read(&c, &t->cg[i].knobs, r->knob);
}

void ncg_result_free(struct ncg_result *r)
{
	nstat_free(&r->events);
	nstat_free(&r->memstat);
}
