/* wlist.h - a `+`-joined list of workloads on a command line
 * ("usemem -m 100 + dd if=/f of=/dev/null"), split and looked up in one
 * place for run, kernel, sweep and libpagelab, so that each gives the same
 * errors and the same meaning to --help. */
#ifndef PAGELAB_WLIST_H
#define PAGELAB_WLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct workload_ops;

struct wl_spec {
	const struct workload_ops *ops;
	int argc;
	char **argv;                      /* into the caller's argv: name first */
	char *cmd;                        /* the words joined by blanks */
};

struct wl_list {
	struct wl_spec *v;
	int n;
	/* A workload whose arguments hold --help: the caller prints its help
	 * (ops->help) and exits 0, creating nothing. */
	const struct workload_ops *help;
};

/* Split argv[0..argc) at each "+" and look every workload up by name.
 * false with a one-line reason in err: an empty workload before a '+',
 * nothing after the last '+', an unknown workload, none at all. */
bool wl_list_parse(int argc, char **argv, struct wl_list *l, char *err, size_t errlen);
void wl_list_free(struct wl_list *l);

/* The workload of spec s, seeded seed (run seeds the k-th workload of a
 * list with --seed + k); NULL with the workload's reason in err. */
void *wl_spec_create(const struct wl_spec *s, uint64_t seed, char *err, size_t errlen);

#endif
