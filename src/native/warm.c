/* warm.c - the memory pagelab kernel touches and frees just before a run
 * where the host takes back reported free pages (session.c says when;
 * docs/native.md, "Warming the host's pages first").
 *
 * Linux 6.18's virtio balloon reports free blocks of pageblock order and
 * up (mm/page_reporting.c, page_reporting_order 9: 2 MiB here), so what
 * goes cold is whole 2 MiB blocks.  Base-page faults are served from the
 * low orders of the free lists, which are never reported; readahead's
 * large folios (mm/readahead.c, page_cache_ra_order(), up to 2 MiB on
 * ext4) are taken from the high orders, the reported blocks.  A warm-up
 * of base pages therefore left a stream's page cache cold (docs/
 * fidelity.md, "The stream's read, page by page").  So the warm-up maps
 * its region 2 MiB-aligned and asks for transparent huge pages
 * (MADV_HUGEPAGE: a fault allocates and clears a whole 2 MiB block,
 * do_huge_pmd_anonymous_page()), touches it and frees it: the blocks go
 * back to the head of the high-order free lists, warm, unreported for
 * the next two seconds.  Where THP is off ("[never]" in
 * /sys/kernel/mm/transparent_hugepage/enabled, mm/huge_memory.c
 * enabled_show()) or madvise() refuses, or a fault finds no free 2 MiB
 * block, the same region is touched in base pages, as before.  Global
 * THP settings are only read, never written. */
#define _GNU_SOURCE
#include "native.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define WARM_BLOCK ((uint64_t)2 << 20)

bool nwarm_thp_usable(const char *enabled)
{
	/* enabled_show() brackets the mode in force: "always [madvise] never";
	 * MADV_HUGEPAGE gets huge pages under "always" and "madvise". */
	return strstr(enabled, "[always]") || strstr(enabled, "[madvise]");
}

void nwarm_span(uint64_t base, uint64_t bytes, uint64_t *start, uint64_t *len)
{
	*start = (base + WARM_BLOCK - 1) & ~(WARM_BLOCK - 1);
	*len = (bytes + WARM_BLOCK - 1) & ~(WARM_BLOCK - 1);
}

uint64_t nwarm_map_bytes(uint64_t bytes)
{
	uint64_t start, len;
	nwarm_span(0, bytes, &start, &len);
	return len + WARM_BLOCK; /* room to align the start up */
}

static bool thp_usable(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (!f)
		return false;
	bool ok = fgets(buf, sizeof(buf), f) && nwarm_thp_usable(buf);
	fclose(f);
	return ok;
}

void nwarm_touch(uint64_t bytes)
{
	if (!thp_usable()) {
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (p != MAP_FAILED)
			munmap(p, bytes);
		return;
	}
	uint64_t map = nwarm_map_bytes(bytes), start, len;
	char *p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	nwarm_span((uint64_t)(uintptr_t)p, bytes, &start, &len);
	/* A refusal leaves base pages: the region is touched all the same. */
	madvise((void *)(uintptr_t)start, len, MADV_HUGEPAGE);
	memset((void *)(uintptr_t)start, 1, len);
	munmap(p, map);
}
