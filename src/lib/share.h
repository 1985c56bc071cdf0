/* share.h - a cache size given as a share of a trace's distinct pages
 * ("10%", "0.5%"): the sizes a cache researcher reads a trace against, in
 * run's and sweep's --ram and mrc's --sizes, resolved once the trace's
 * page count is known (src/workload/wlshare.h).  parse_size's meanings
 * (K/M/G/T, p pages) are not touched: a share is its own syntax. */
#ifndef PAGELAB_SHARE_H
#define PAGELAB_SHARE_H

#include <stdbool.h>
#include <stdint.h>

/* "N%" with N a decimal number, 0 < N <= 100: *share = N / 100. */
bool parse_share(const char *s, double *share);
/* share of distinct pages, rounded to the nearest page, at least 1. */
uint64_t share_pages(double share, uint64_t distinct);

#endif
