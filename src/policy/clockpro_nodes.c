/* clockpro_nodes.c - see clockpro_nodes.h. */
#include "clockpro_nodes.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

void cpn_init(struct cp_nodes *n, uint32_t nframes)
{
	memset(n, 0, sizeof(*n));
	n->nframes = nframes;
	n->ids = xcalloc(nframes ? nframes : 1, sizeof(*n->ids));
	n->gfree = NONE;
}

void cpn_destroy(struct cp_nodes *n)
{
	free(n->ids);
	free(n->gid);
	memset(n, 0, sizeof(*n));
}

uint32_t cpn_take_slow(struct cp_nodes *n)
{
	if (n->gnr == n->gcap) {
		if (n->gcap >= NONE / 2 - n->nframes)
			panic("clockpro: too many pages in their test period");
		n->gcap = n->gcap ? 2 * n->gcap : 1024;
		n->gid = xrealloc(n->gid, (size_t)n->gcap * sizeof(*n->gid));
	}
	return n->gnr++;
}
