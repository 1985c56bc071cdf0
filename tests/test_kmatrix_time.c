/* test_kmatrix_time.c - compare --matrix's time misses split into work
 * and waits (src/engine/kmatrix_time.c): the longest workload's CPU and
 * wait taken from records, and which part of an elapsed miss misses. */
#include "test.h"
#include "../src/engine/kmatrix.h"
#include "../src/engine/record.h"

#include <math.h>

void test_kmatrix_time_cause(void);
void test_kmatrix_time_records(void);

/* Kernel 4 s elapsed = 1 s CPU + 3 s wait; +-25 %, and a part must also
 * differ by over 1 s (25 % of 4 s) to count. */
void test_kmatrix_time_cause(void)
{
	CHECK(km_time_cause(4, 1, 1, 3, 3, 25) == KM_CAUSE_NONE);
	/* the wait 3 -> 0.5: waits; the CPU 1 -> 0.5 is out of +-25 % but
	 * only 0.5 s apart: not a cause */
	CHECK(km_time_cause(4, 1, 0.5, 3, 0.5, 25) == KM_CAUSE_WAITS);
	CHECK(km_time_cause(4, 1, 2.01, 3, 3, 25) == KM_CAUSE_WORK);
	CHECK(km_time_cause(4, 1, 2, 3, 3, 25) == KM_CAUSE_NONE);
	CHECK(km_time_cause(4, 1, 3, 3, 0.5, 25) == KM_CAUSE_BOTH);
	CHECK(km_time_cause(4, NAN, 3, 3, 0.5, 25) == KM_CAUSE_UNSPLIT);
}

/* Two workloads: the longest (3 s) ran 0.5 + 1 s of CPU, so waited 1.5
 * s; a parallel one (2 tasks, 1.2 s of CPU in 1 s) waited 0.  Medians of
 * three records; a record without workloads is left out. */
void test_kmatrix_time_records(void)
{
	static const char *const lines[] = {
		"{\"cell\": 0, \"cmd\": \"x\", \"design\": \"kernel\", \"config\": \"\", \"seed\": 1, "
		"\"workloads\": [{\"elapsed_s\": 1, \"user_s\": 0.2, \"sys_s\": 0.1}, "
		"{\"elapsed_s\": 3, \"user_s\": 0.5, \"sys_s\": 1}]}",
		"{\"cell\": 1, \"cmd\": \"x\", \"design\": \"kernel\", \"config\": \"\", \"seed\": 1, "
		"\"workloads\": [{\"elapsed_s\": 1, \"user_s\": 0.7, \"sys_s\": 0.5}]}",
		"{\"cell\": 2, \"cmd\": \"x\", \"design\": \"kernel\", \"config\": \"\", \"seed\": 1, "
		"\"workloads\": [{\"elapsed_s\": 2, \"user_s\": 0.25, \"sys_s\": 0.25}]}",
		"{\"cell\": 3, \"cmd\": \"x\", \"design\": \"kernel\", \"config\": \"\", \"seed\": 1}",
	};
	struct record rec[4];
	const struct record *r[4];
	char err[256];
	for (int i = 0; i < 4; i++) {
		CHECK(record_parse(lines[i], &rec[i], err, sizeof(err)));
		r[i] = &rec[i];
	}
	/* CPU 1.5, 1.2, 0.5: median 1.2; wait 1.5, 0, 1.5: median 1.5 */
	CHECK(fabs(km_records_split(r, 0, 4, false) - 1.2) < 1e-12);
	CHECK(fabs(km_records_split(r, 0, 4, true) - 1.5) < 1e-12);
	CHECK(fabs(km_records_split(r, 1, 2, true)) < 1e-12);
	CHECK(isnan(km_records_split(r, 3, 4, false)));
	for (int i = 0; i < 4; i++)
		record_free(&rec[i]);
}
