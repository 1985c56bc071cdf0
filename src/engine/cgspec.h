/* cgspec.h - the words that describe a cgroup tree (cgspec.c):
 * `--cgroup PATH[:KEY=VALUE,...]` (also --set cgroup=..., an experiment
 * file's machine line, pagelab_add_cgroup()) and a workload's trailing
 * `@PATH` word.  Parents not declared are implied (no limits). */
#ifndef PAGELAB_ENGINE_CGSPEC_H
#define PAGELAB_ENGINE_CGSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "../mm/cgtree.h"

/* Add one PATH[:max=SIZE,high=SIZE,low=SIZE,min=SIZE,swap.max=SIZE,
 * swappiness=N,oom.group=0|1] to t; false with one line in err. */
bool cgspec_add(struct cg_tree_conf *t, const char *spec, char *err, size_t errlen);
/* NAME is one key of one cgroup, `cgroup.PATH.KEY` (cgroup./b.high):
 * the name --set takes for it, so that a sweep makes it an axis
 * (`--set cgroup./b.high=8M,16M`; a --cgroup spec's commas are its
 * keys'). */
bool cgspec_is_key_name(const char *name);
/* Set KEY of PATH, a cgroup of t already declared, to value; false with
 * one line in err. */
bool cgspec_set(struct cg_tree_conf *t, const char *name, const char *value, char *err, size_t errlen);
/* The id of PATH in t ("/" is the root, 0), or -1. */
int cgspec_find(const struct cg_tree_conf *t, const char *path);
/* A workload's words: a last word @PATH is taken off (*argc one less)
 * and its cgroup's id returned; 0 (the root) without one; -1 with one
 * line in err if PATH names no cgroup of t. */
int cgspec_placement(const struct cg_tree_conf *t, int *argc, char *const *argv, char *err, size_t errlen);

#endif
