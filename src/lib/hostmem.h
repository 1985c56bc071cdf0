/* hostmem.h - how much memory this process may really use on the host:
 * the smallest of MemAvailable, the address-space and data-segment
 * rlimits, and the memory limit of our cgroup (v2 memory.max, v1
 * memory.limit_in_bytes) less what the cgroup already uses. */
#ifndef PAGELAB_HOSTMEM_H
#define PAGELAB_HOSTMEM_H

#include <stddef.h>
#include <stdint.h>

/* Bytes available (UINT64_MAX if nothing is known); *what names the
 * limit that decided it ("MemAvailable", "RLIMIT_AS", "cgroup memory.max",
 * ...), a static string. */
uint64_t host_memory_available(const char **what);

/* The same, from given figures (for tests); 0 in a figure = not known. */
uint64_t host_memory_pick(uint64_t mem_available, uint64_t rlimit_as, uint64_t rlimit_data,
			  uint64_t cg_limit, uint64_t cg_usage, const char *cg_name, const char **what);

#endif
