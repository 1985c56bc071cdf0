/* wlist.c - a `+`-joined list of workloads (see wlist.h). */
#include "wlist.h"
#include "workload.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool wl_list_parse(int argc, char **argv, struct wl_list *l, char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	if (argc <= 0) {
		snprintf(err, errlen, "no workload given (see pagelab workloads)");
		return false;
	}
	for (int i = 0; i < argc;) {
		int j = i;
		while (j < argc && strcmp(argv[j], "+"))
			j++;
		if (j == i) {
			snprintf(err, errlen, "empty workload before '+'");
			goto fail;
		}
		const struct workload_ops *ops = workload_find(argv[i]);
		if (!ops) {
			snprintf(err, errlen, "unknown workload '%s' (see pagelab workloads)", argv[i]);
			goto fail;
		}
		for (int k = i + 1; k < j && !l->help; k++)
			if (!strcmp(argv[k], "--help"))
				l->help = ops;
		l->v = xrealloc(l->v, (size_t)(l->n + 1) * sizeof(*l->v));
		l->v[l->n++] = (struct wl_spec){ .ops = ops, .argc = j - i, .argv = argv + i,
						 .cmd = join_words(j - i, argv + i) };
		i = j + 1;
		if (j < argc && i >= argc) {
			snprintf(err, errlen, "nothing after the last '+'");
			goto fail;
		}
	}
	return true;
fail:
	wl_list_free(l);
	return false;
}

void wl_list_free(struct wl_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i].cmd);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void *wl_spec_create(const struct wl_spec *s, uint64_t seed, char *err, size_t errlen)
{
	err[0] = 0;
	void *w = s->ops->create(s->argc, s->argv, seed, err, errlen);
	if (!w && !err[0])
		snprintf(err, errlen, "bad workload arguments");
	return w;
}
