/* exp_swappool.c - `custom:swap_pool_mb`: the memory a compressed swap
 * pool held at its peak, in MB: zram's mm_stat mem_used_max, zswap's
 * pool_max_size (zramstat.c, zswapstat.c); 0 on a disk swap area (no
 * pool).  For docs/compressed-swap.exp. */
#include "exp_named.h"
#include "../report/result.h"

#include <string.h>

static bool stat_of(const struct memstat *st, int n, const char *name, double *v)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(st[i].name, name)) {
			*v = (double)st[i].value / (1 << 20);
			return true;
		}
	return false;
}

static bool swap_pool_mb(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
			 double *v)
{
	(void)r;
	(void)mt;
	*v = 0;
	if (rr->nr_zram)
		return stat_of(rr->zram, rr->nr_zram, "mm_stat.mem_used_max", v);
	if (rr->nr_zswap)
		return stat_of(rr->zswap, rr->nr_zswap, "pool_max_size", v);
	return true;
}

const struct exp_named_metric swappool_metric_fns[] = {
	{ "swap_pool_mb", swap_pool_mb },
	{ NULL, NULL },
};
