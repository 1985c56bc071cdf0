/* wlshare.c - see wlshare.h. */
#include "wlshare.h"
#include "workload.h"
#include "../lib/share.h"
#include "../trace/distinct.h"

#include <stdio.h>
#include <string.h>

bool wl_share_pages(const struct wl_list *l, double share, uint64_t *pages, char *err, size_t errlen)
{
	if (l->n != 1 || strcmp(l->v[0].ops->name, "trace")) {
		snprintf(err, errlen, "a share of a trace's distinct pages applies to one trace replay alone "
			 "(... trace FILE); give a size (64M, 4096p)");
		return false;
	}
	struct trace_opts o;
	const char *path;
	/* a last word @PATH is the replay's cgroup (src/engine/cgspec.h) */
	int argc = l->v[0].argc;
	if (argc > 1 && l->v[0].argv[argc - 1][0] == '@')
		argc--;
	if (!trace_parse_args(argc, l->v[0].argv, &o, &path, err, errlen))
		return false;
	if (!strcmp(path, "-")) {
		snprintf(err, errlen, "a share of a trace's distinct pages needs a trace file: standard input "
			 "cannot be read twice");
		return false;
	}
	uint64_t distinct;
	if (!trace_distinct_pages(path, &o, &distinct, err, errlen))
		return false;
	*pages = share_pages(share, distinct);
	return true;
}
