/* textbook.c - see textbook.h. */
#include "textbook.h"

enum victim_outcome textbook_evict_machine(struct mm *mm, struct scan_control *sc, pfn_t pfn)
{
	sc_scanned(sc, mm_page(mm, pfn), 1);
	switch (mm_evict(mm, sc, pfn)) {
	case EVICT_FREED:
	case EVICT_WRITEBACK:
		return VICTIM_GONE;
	case EVICT_MLOCKED:
		mm_cull_unevictable(mm, pfn);
		return VICTIM_CULLED;
	case EVICT_NOSWAP:
		return VICTIM_NOSWAP;
	case EVICT_BUSY:
		break;
	}
	return VICTIM_REFUSED;
}
