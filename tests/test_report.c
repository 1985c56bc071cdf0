/* test_report.c - the report shapes: zsh's and GNU time's time lines and
 * vmstat's header and columns, character for character. */
#include "test.h"
#include "../src/report/report.h"

#include <string.h>

#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b); if (strcmp(_a, _b)) { \
	fprintf(stderr, "%s:%d: got\n  \"%s\"\nexpected\n  \"%s\"\n", __FILE__, __LINE__, _a, _b); \
	test_failures++; } } while (0)

void test_time_lines(void);
void test_time_lines(void)
{
	char buf[256];
	/* akpm's line from the June 2008 thread, as zsh prints it. */
	struct time_figures tf = { .user = 0.10, .sys = 10.27, .elapsed = 16.567, .cpu_pct = 62,
				   .majflt = 3, .minflt = 256000, .swaps = 31000 };
	format_zsh_time(buf, sizeof(buf), "usemem -m 1000", &tf);
	CHECK_STR(buf, "usemem -m 1000  0.10s user 10.27s system 62% cpu 16.567 total");
	/* Over a minute: m:ss.ss as in the 2008 thread ("6:08.40 total"). */
	tf.elapsed = 368.4;
	tf.user = 175.45;
	tf.sys = 45.67;
	tf.cpu_pct = 60;
	format_zsh_time(buf, sizeof(buf), "make -j4", &tf);
	CHECK_STR(buf, "make -j4  175.45s user 45.67s system 60% cpu 6:08.40 total");

	/* GNU time: %Uuser %Ssystem %Eelapsed %PCPU (%Fmajor+%Rminor)pagefaults
	 * %Wswaps, %E as m:ss.hh (h:mm:ss from an hour on), every field
	 * truncated, not rounded, as GNU time does. */
	tf = (struct time_figures){ .user = 0.10, .sys = 10.27, .elapsed = 16.567, .cpu_pct = 62,
				    .majflt = 3, .minflt = 256000, .swaps = 31000 };
	format_gnu_time(buf, sizeof(buf), &tf);
	CHECK_STR(buf, "0.10user 10.27system 0:16.56elapsed 62%CPU (3major+256000minor)pagefaults 31000swaps");
	tf.elapsed = 898.99;
	tf.user = 645.05;
	tf.sys = 57.93;
	tf.cpu_pct = 78;
	format_gnu_time(buf, sizeof(buf), &tf);
	CHECK_STR(buf, "645.05user 57.93system 14:58.99elapsed 78%CPU (3major+256000minor)pagefaults 31000swaps");
	tf.elapsed = 59.999;
	format_gnu_time(buf, sizeof(buf), &tf);
	CHECK(strstr(buf, " 0:59.99elapsed ") != NULL);
	tf.elapsed = 3725.5;
	format_gnu_time(buf, sizeof(buf), &tf);
	CHECK(strstr(buf, " 1:02:05elapsed ") != NULL);
	tf.user = 0.29;         /* 0.29 * 100 is 28.999... in binary */
	format_gnu_time(buf, sizeof(buf), &tf);
	CHECK(!strncmp(buf, "0.29user ", 9));
}

void test_vmstat_format(void);
void test_vmstat_format(void)
{
	/* procps vmstat's header, and its column widths. */
	CHECK_STR(vmstat_header,
		  "procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n"
		  " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa\n");
	struct vmstat_sample s = { .r = 1, .b = 2, .swpd = 73856, .free = 3796, .buff = 0,
				   .cache = 1920, .si = 0, .so = 61440, .bi = 0, .bo = 61440,
				   .in = 370, .cs = 12, .us = 1, .sy = 6, .id = 0, .wa = 93 };
	char buf[256];
	format_vmstat_line(buf, sizeof(buf), &s);
	CHECK_STR(buf, " 1  2  73856   3796      0   1920    0 61440     0 61440  370   12  1  6  0 93");
	/* Each value ends under the last character of its column name. */
	const char *hdr = strchr(vmstat_header, '\n') + 1;
	static const char *const cols[] = { "r", "b", "swpd", "free", "buff", "cache", "si", "so",
					    "bi", "bo", "in", "cs", "us", "sy", "id", "wa" };
	s = (struct vmstat_sample){ .t = 1, .r = 1, .b = 1, .swpd = 1, .free = 1, .buff = 1, .cache = 1,
				    .si = 1, .so = 1, .bi = 1, .bo = 1, .in = 1, .cs = 1,
				    .us = 1, .sy = 1, .id = 1, .wa = 1 };
	format_vmstat_line(buf, sizeof(buf), &s);
	size_t pos = 0;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		const char *c = strstr(hdr + pos, cols[i]);
		CHECK(c != NULL);
		if (!c)
			break;
		size_t end = (size_t)(c - hdr) + strlen(cols[i]) - 1;
		CHECK(end < strlen(buf) && buf[end] == '1' && (end + 1 == strlen(buf) || buf[end + 1] == ' '));
		pos = end + 1;
	}
}
