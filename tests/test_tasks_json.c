/* test_tasks_json.c - the one writer of --json's "tasks" array
 * (report_json_tasks(), src/report/report.c), which run --json and
 * pagelab kernel --json (src/cli/kernel.c) both call: its bytes, the same
 * as the two writers it replaced wrote for the same tasks (swaps 0, as
 * the kernel's always are), and a task's swaps when it has some. */
#include "test.h"
#include "../src/report/report.h"

#include <stdlib.h>
#include <string.h>

static char *tasks_json(const struct task_times *t, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	report_json_tasks(t, n, f);
	fclose(f);
	return buf;
}

static void check_str(const char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "%s:%d: got\n  %s\nexpected\n  %s\n", __FILE__, __LINE__, got, want);
		test_failures++;
	}
}

void test_tasks_json_bytes(void);
void test_tasks_json_bytes(void)
{
	/* Six decimals rounded, 64-bit counts whole, tasks ", "-separated. */
	struct task_times t[3] = { { 1.25, 0.5, 2.0000005, 7, 123456789012ULL, 0 }, { 0, 0, 0, 0, 0, 0 },
				   { 1e6 / 3, 1.0 / 3, 99.9999994, 18446744073709551615ULL, 1, 0 } };
	char *s = tasks_json(t, 3);
	check_str(s, ", \"tasks\": [{\"user_s\": 1.250000, \"system_s\": 0.500000, \"elapsed_s\": 2.000001, "
		  "\"majflt\": 7, \"minflt\": 123456789012, \"swaps\": 0}, "
		  "{\"user_s\": 0.000000, \"system_s\": 0.000000, \"elapsed_s\": 0.000000, "
		  "\"majflt\": 0, \"minflt\": 0, \"swaps\": 0}, "
		  "{\"user_s\": 333333.333333, \"system_s\": 0.333333, \"elapsed_s\": 99.999999, "
		  "\"majflt\": 18446744073709551615, \"minflt\": 1, \"swaps\": 0}]");
	free(s);
	s = tasks_json(t, 0);
	check_str(s, ", \"tasks\": []");
	free(s);
	/* A simulated task's swaps are its own. */
	t[0].swaps = 2143;
	s = tasks_json(t, 1);
	check_str(s, ", \"tasks\": [{\"user_s\": 1.250000, \"system_s\": 0.500000, \"elapsed_s\": 2.000001, "
		  "\"majflt\": 7, \"minflt\": 123456789012, \"swaps\": 2143}]");
	free(s);
}
