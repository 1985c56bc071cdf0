/* wlfig.c - a workload's figures of merit (workload.h, struct
 * wl_figures): the list its figures() op fills. */
#include "workload.h"
#include "../lib/util.h"

#include <string.h>

void wl_figure_add(struct wl_figures *fs, const char *name, double value, bool higher_better)
{
	if (fs->n >= WL_MAX_FIGURES || strlen(name) >= WL_FIGURE_NAME)
		panic("wl_figure_add: %s: more than %d figures or a name of %d characters or more", name,
		      WL_MAX_FIGURES, WL_FIGURE_NAME);
	struct wl_figure *f = &fs->f[fs->n++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->value = value;
	f->higher_better = higher_better;
}
