/* pagemap.h - dense renumbering of a trace's (pid, page) pairs, in order of
 * first reference, grown as new pages appear (streaming replay, convert).
 * Open addressing, 16 bytes a slot, at most half full. */
#ifndef PAGELAB_TRACE_PAGEMAP_H
#define PAGELAB_TRACE_PAGEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pagemap_slot { uint64_t page; uint32_t pid; uint32_t val; };

struct pagemap {
	struct pagemap_slot *slot;
	uint64_t cap, used;
};

#define PAGEMAP_MAX (UINT32_MAX - 1)  /* distinct pages */

/* Dense index of (pid, page), assigning the next one if new; false when
 * PAGEMAP_MAX pages are already numbered. */
bool pagemap_get(struct pagemap *m, uint64_t page, uint32_t pid, uint32_t *out);
size_t pagemap_host_bytes(const struct pagemap *m);
void pagemap_free(struct pagemap *m);

#endif
