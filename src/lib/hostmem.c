/* hostmem.c - see hostmem.h.  /proc/self/cgroup names our cgroup: a
 * "0::/path" line is cgroup v2 (/sys/fs/cgroup/path/memory.max), a line
 * with the memory controller is v1 (/sys/fs/cgroup/memory/path/...).
 * Anything that cannot be read counts as no limit. */
#include "hostmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static uint64_t read_u64_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char buf[64] = "";
	uint64_t v = 0;
	if (fgets(buf, sizeof(buf), f) && strncmp(buf, "max", 3))
		v = strtoull(buf, NULL, 10);
	fclose(f);
	return v;
}

static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return 0;
	char line[128];
	uint64_t kb = 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "MemAvailable:", 13)) {
			kb = strtoull(line + 13, NULL, 10);
			break;
		}
	fclose(f);
	return kb * 1024;
}

static uint64_t rlimit(int which)
{
	struct rlimit rl;
	if (getrlimit(which, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	return (uint64_t)rl.rlim_cur;
}

/* Our cgroup's limit and usage; *name says which file gave the limit. */
static void cgroup_memory(uint64_t *limit, uint64_t *usage, const char **name)
{
	*limit = *usage = 0;
	FILE *f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return;
	char line[4096], path[4200];
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = 0;
		const char *ctrl = c1 + 1, *cg = c2 + 1;
		/* In a container the cgroup is often mounted as the root of
		 * the hierarchy: then the files are at the top. */
		if (!strcmp(line, "0") && !*ctrl) {
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max", cg);
			if (!(*limit = read_u64_file(path)))
				*limit = read_u64_file("/sys/fs/cgroup/memory.max");
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.current", cg);
			if (!(*usage = read_u64_file(path)))
				*usage = read_u64_file("/sys/fs/cgroup/memory.current");
			*name = "cgroup memory.max";
		} else if (strstr(ctrl, "memory")) {
			snprintf(path, sizeof(path), "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", cg);
			if (!(*limit = read_u64_file(path)))
				*limit = read_u64_file("/sys/fs/cgroup/memory/memory.limit_in_bytes");
			snprintf(path, sizeof(path), "/sys/fs/cgroup/memory%s/memory.usage_in_bytes", cg);
			if (!(*usage = read_u64_file(path)))
				*usage = read_u64_file("/sys/fs/cgroup/memory/memory.usage_in_bytes");
			*name = "cgroup memory.limit_in_bytes";
			/* v1 reports "no limit" as a huge page-aligned number. */
			if (*limit >= (1ULL << 62))
				*limit = 0;
			break;
		}
	}
	fclose(f);
}

uint64_t host_memory_pick(uint64_t avail, uint64_t rlimit_as, uint64_t rlimit_data,
			  uint64_t cg_limit, uint64_t cg_usage, const char *cg_name, const char **what)
{
	uint64_t best = UINT64_MAX;
	*what = "nothing known";
	if (avail && avail < best) {
		best = avail;
		*what = "MemAvailable";
	}
	if (rlimit_as && rlimit_as < best) {
		best = rlimit_as;
		*what = "RLIMIT_AS (ulimit -v)";
	}
	if (rlimit_data && rlimit_data < best) {
		best = rlimit_data;
		*what = "RLIMIT_DATA (ulimit -d)";
	}
	if (cg_limit) {
		uint64_t left = cg_limit > cg_usage ? cg_limit - cg_usage : 0;
		if (left < best) {
			best = left;
			*what = cg_name;
		}
	}
	return best;
}

uint64_t host_memory_available(const char **what)
{
	uint64_t lim, use;
	const char *name = "cgroup";
	cgroup_memory(&lim, &use, &name);
	return host_memory_pick(mem_available(), rlimit(RLIMIT_AS), rlimit(RLIMIT_DATA), lim, use, name, what);
}
