/* wlshare.h - a size given as a share of a trace's distinct pages
 * (src/lib/share.h) resolved against the workloads of a command: it
 * applies only where the workload is one trace replay of a file. */
#ifndef PAGELAB_WLSHARE_H
#define PAGELAB_WLSHARE_H

#include "wlist.h"

/* The pages share stands for in l's trace; false with one line in err
 * (what is asked of the workloads, or the trace's own error). */
bool wl_share_pages(const struct wl_list *l, double share, uint64_t *pages, char *err, size_t errlen);

#endif
