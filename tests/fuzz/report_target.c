/* report_target.c - fuzz_report_one() (targets.h): a record of
 * pagelab compare's kernel cache (its records file, which is input like
 * any file the user names) as compare -- WORKLOAD reads it: parsed, then
 * its counters, memory.stat and traced figures taken into the table on
 * both sides (src/engine/kcompare_table.c). */
#include "targets.h"
#include "../../src/engine/kcompare.h"
#include "../../src/engine/json.h"
#include "../../src/lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fuzz_report_one(const uint8_t *data, size_t size)
{
	char *line = xmalloc(size + 1);
	memcpy(line, data, size);
	line[size] = 0;
	struct record r;
	char err[200];
	bool ok = true;
	if (record_parse(line, &r, err, sizeof(err))) {
		const struct record *rp[] = { &r, &r };
		const char *pol[] = { "p" };
		struct kcmp_setup st = { .repeat = 2, .seeds = 2, .tol = 25 };
		struct kcmp x;
		kcmp_build(&x, rp, rp, 1, pol, &st);
		for (int k = 0; k < x.nrows; k++)
			ok &= x.row[k].verdict <= KCMP_NOT_COUNTED;
		ok &= x.agree[0] <= x.compared[0];
		kcmp_free(&x);
		record_free(&r);
	}
	free(line);
	return ok;
}
