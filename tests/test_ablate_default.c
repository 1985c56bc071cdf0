/* test_ablate_default.c - pagelab ablate refusing a tunable that is no
 * mechanism switch names that tunable's own range and default, not a
 * switch's: folio_seq (mglru's 6.18 version switch, 0..1, default 0) was
 * described as "min 0, max 1, default 1". */
#include "test.h"
#include "../src/engine/ablate.h"

#include <string.h>

void test_ablate_nonswitch_default(void)
{
	const struct policy_ops *mg = policy_find("mglru");
	struct ablate_variant *v;
	int n;
	char err[600];
	CHECK(!ablate_variants(mg, "folio_seq", false, &v, &n, err, sizeof(err)) && !v && !n);
	CHECK(!strcmp(err, "ablate: folio_seq is a tunable of mglru (0..1, default 0), not a switch "
		      "(0..1, default 1): its switches are walk_mmu, look_around, bloom, tiers, aging_trigger, "
		      "memcg_lru"));
	CHECK(!ablate_variants(mg, "swappiness", false, &v, &n, err, sizeof(err)));
	CHECK(!strncmp(err, "ablate: swappiness is a tunable of mglru (0..200, default 60), not a switch", 75));
}
