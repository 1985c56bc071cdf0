/* test_nshared.c - the native executor's shared results area
 * (src/native/shared.c): faulted in by pagelab kernel, outside the
 * cgroup, but for the agents' records when no workload is an agent, which
 * then never become pages (before, all 6.4 MiB was zeroed every run). */
#define _GNU_SOURCE
#include "test.h"
#include "../src/native/native.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Pages from to to (page numbers, to excluded) of sh that are in memory. */
static size_t resident(const struct nshared *sh, size_t from, size_t to)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = 0;
	unsigned char *vec = calloc(to - from + 1, 1);
	CHECK(!mincore((char *)sh + from * pg, (to - from) * pg, vec));
	for (size_t i = 0; i < to - from; i++)
		n += vec[i] & 1;
	free(vec);
	return n;
}

/* shmem_enabled=force gives huge pages whatever madvise says. */
static bool shmem_forced_huge(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/shmem_enabled", "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return strstr(buf, "[force]") != NULL;
}

void test_nshared_records_untouched_without_agents(void)
{
	size_t cg = offsetof(struct nshared, cgops), task = offsetof(struct nshared, task), size;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct nshared *sh = nshared_map(3, false, &size);
	CHECK_EQ(size, task + 3 * sizeof(struct ntask_result));
	size_t pages = (size + pg - 1) / pg;
	CHECK_EQ(resident(sh, 0, cg / pg + 1), cg / pg + 1);        /* header, marks */
	CHECK_EQ(resident(sh, task / pg, pages), pages - task / pg);  /* task results */
	if (!shmem_forced_huge())   /* the records' whole pages: 4.4 MiB */
		CHECK_EQ(resident(sh, cg / pg + 1, task / pg), 0);
	CHECK(sh->nmarks == 0 && sh->ncgops == 0 && sh->task[2].nops == 0);
	CHECK(sh->cgops[NCGOPS_MAX - 1].task == 0);   /* zero where never written */
	munmap(sh, size);

	sh = nshared_map(3, true, &size);
	CHECK_EQ(resident(sh, 0, pages), pages);   /* all of it */
	munmap(sh, size);
}
