/* test_kcompare_v2.c - compare's kernel column for the counters the
 * kernel's /proc/vmstat leaves out of cgroup limit reclaim (pgscan_direct
 * and the like, "not counted"): never taken from the cgroup's own
 * memory.stat, which on cgroup v2 has them and counts them under limit
 * reclaim (6.12 in tools/v2vm.sh: pgscan_direct 3247 in a row marked
 * not counted). */
#include "test.h"
#include "../src/engine/kcompare.h"
#include "../src/engine/json.h"
#include "../src/engine/kexec.h"

#include <string.h>

void test_kcompare_v2_not_counted_from_vmstat(void);

void test_kcompare_v2_not_counted_from_vmstat(void)
{
	static const char *const lines[] = {
		"{\"cell\": 0, \"cmd\": \"k\", \"design\": \"kernel\", \"config\": \"\", \"seed\": 1, "
		"\"available\": true, \"counters\": {\"pgfault\": 9, \"pgscan_direct\": 0, \"pgrefill\": 0}, "
		"\"kernel\": {\"memory_stat\": {\"pgfault\": 5, \"pgscan_direct\": 3247, \"pgrefill\": 12}}}",
		"{\"cell\": 1, \"cmd\": \"s\", \"design\": \"mglru\", \"config\": \"\", \"seed\": 1, "
		"\"available\": true, \"counters\": {\"pgfault\": 6, \"pgscan_direct\": 0, \"pgrefill\": 0}}",
	};
	struct record k, s;
	char err[200];
	CHECK(record_parse(lines[0], &k, err, sizeof(err)));
	CHECK(record_parse(lines[1], &s, err, sizeof(err)));
	const struct record *kp[] = { &k }, *sp[] = { &s };
	const char *pol[] = { "mglru" };
	struct kcmp_setup st = { .repeat = 1, .seeds = 1, .tol = 25 };
	struct kcmp x;
	kcmp_build(&x, kp, sp, 1, pol, &st);
	for (int i = 0; i < x.nrows; i++) {
		const struct kcmp_row *r = &x.row[i];
		if (!strcmp(r->name, "pgfault"))
			CHECK(r->med == 5);
		if (!strcmp(r->name, "pgscan_direct") || !strcmp(r->name, "pgrefill"))
			CHECK(r->med == 0 && r->verdict == KCMP_NOT_COUNTED);
	}
	CHECK(!strcmp(x.own, "pgfault"));
	kcmp_free(&x);
	record_free(&k);
	record_free(&s);
}
