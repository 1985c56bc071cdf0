/* test_run_options.c - every option of `pagelab run` through libpagelab
 * (include/pagelab.h): the call that takes it, or why the library has
 * none.  tests/cli.d/run_options.sh walks `pagelab run --help` and checks
 * that each option has a row here, and takes the same options through
 * sweep and an experiment file. */
#include "test.h"
#include "../include/pagelab.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_run_options_library_takes_each(void);
void test_run_options_library_make_inputs_and_vmstat(void);
void test_run_options_library_delayed_start(void);
void test_run_options_library_residency(void);

/* How the library takes a run option: pagelab_set(name, value), one of
 * its own calls (fn), or why not. */
static const struct lib_row {
	const char *opt, *name, *value, *fn, *why;
} lib_rows[] = {
	{ "--machine", NULL, NULL, "pagelab_new", NULL },
	{ "--ram", "ram", "64M", NULL, NULL },
	{ "--swap", "swap", "128M", NULL, NULL },
	{ "--cpus", "cpus", "2", NULL, NULL },
	{ "--disk", "disk", "ssd", NULL, NULL },
	{ "--set", "vm.dirty_ratio", "5", NULL, NULL },
	{ "--memcg", "memcg", "32M", NULL, NULL },
	{ "--cgroup", "cgroup", "/a:max=16M", NULL, NULL },   /* or pagelab_add_cgroup() */
	{ "--policy", NULL, NULL, "pagelab_set_policy", NULL },
	{ "--seed", NULL, NULL, "pagelab_set_seed", NULL },
	{ "--vmstat", "vmstat", "0.5", NULL, NULL },
	{ "--check", NULL, NULL, "pagelab_set_check", NULL },
	{ "--json", NULL, NULL, "pagelab_report", NULL },
	{ "--html", NULL, NULL, NULL, "a page is a file the program writes: the library gives text and JSON "
				      "(pagelab_report) and every figure by call" },
	{ "--max-time", NULL, NULL, "pagelab_set_max_time", NULL },
	{ "--progress", NULL, NULL, NULL, "a library prints nothing on its own" },
	{ "--no-progress", NULL, NULL, NULL, "a library prints nothing on its own" },
	{ "--make-inputs", "make-inputs", "1", NULL, NULL },
	{ "--full-machine", NULL, NULL, NULL, "the library always runs the whole machine (the cache-only "
					     "replay is pagelab run's shortcut)" },
	{ "--warmup", NULL, NULL, NULL, "the cache-only replay's: pagelab_cache_replay counts a whole trace" },
	{ "--window", NULL, NULL, NULL, "the cache-only replay's: pagelab_cache_replay counts a whole trace" },
	{ "--help", NULL, NULL, NULL, "no help to print" },
};

/* Each row: the name is taken (0) and a bad value of it refused (-1 with
 * one line); a function row names a function of the API; a why row says
 * why. */
void test_run_options_library_takes_each(void)
{
	for (size_t i = 0; i < sizeof(lib_rows) / sizeof(lib_rows[0]); i++) {
		const struct lib_row *r = &lib_rows[i];
		if (r->why) {
			CHECK(strlen(r->why) > 10);
			continue;
		}
		if (r->fn) {
			CHECK(!strncmp(r->fn, "pagelab_", 8));
			continue;
		}
		pagelab_sim *s = pagelab_new("vmm-2008");
		int rc = pagelab_set(s, r->name, r->value);
		if (rc)
			fprintf(stderr, "%s: %s\n", r->opt, pagelab_error(s));
		CHECK_EQ(rc, 0);
		if (strcmp(r->name, "vm.dirty_ratio")) {
			CHECK_EQ(pagelab_set(s, r->name, "bogus"), -1);
			CHECK(strlen(pagelab_error(s)) > 10 && !strchr(pagelab_error(s), '\n'));
		}
		pagelab_free(s);
	}
}

/* --make-inputs and --vmstat from the library: the input is made (a dd of
 * it reads 2 MB from the disk) and the report has vmstat's lines. */
void test_run_options_library_make_inputs_and_vmstat(void)
{
	pagelab_sim *s = pagelab_new("vmm-2008");
	const char *w[] = { "dd", "if=data", "bs=64K", "count=32" };
	CHECK_EQ(pagelab_set(s, "ram", "64M"), 0);
	CHECK_EQ(pagelab_set(s, "vmstat", "0.01"), 0);
	CHECK_EQ(pagelab_add_workload(s, 4, w), 0);
	CHECK_EQ(pagelab_set(s, "make-inputs", "1"), 0);
	int rc = pagelab_run(s);
	if (rc)
		fprintf(stderr, "%s\n", pagelab_error(s));
	CHECK_EQ(rc, 0);
	uint64_t in = 0;
	CHECK_EQ(pagelab_counter(s, "pgpgin", &in), 0);
	CHECK(in >= 2048);                  /* KB read from the disk */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK_EQ(pagelab_report(s, f, 0), 0);
	fclose(f);
	CHECK(buf && strstr(buf, " r  b   swpd   free   buff  cache"));
	free(buf);
	pagelab_free(s);

	/* Without make-inputs, the file is missing: bad input, one line. */
	s = pagelab_new("vmm-2008");
	CHECK_EQ(pagelab_add_workload(s, 4, w), 0);
	rc = pagelab_run(s);
	CHECK_EQ(rc, -1);
	CHECK(strlen(pagelab_error(s)) > 5);
	pagelab_free(s);
}

/* start.K=SECONDS, a delayed start (the cells' own until now): workload 1
 * exits after its start, its time(1) counted from there; a K past the
 * last workload is refused at pagelab_run() and leaves the handle as it
 * was. */
void test_run_options_library_delayed_start(void)
{
	pagelab_sim *s = pagelab_new("vmm-2008");
	const char *w[] = { "usemem", "-m", "8" };
	CHECK_EQ(pagelab_set(s, "ram", "64M"), 0);
	CHECK_EQ(pagelab_set(s, "start.1", "2"), 0);
	CHECK_EQ(pagelab_set(s, "start.x", "2"), -1);
	CHECK_EQ(pagelab_add_workload(s, 3, w), 0);
	CHECK_EQ(pagelab_run(s), -1);
	CHECK(!strcmp(pagelab_error(s), "start.1: the run has 1 workload"));
	CHECK_EQ(pagelab_add_workload(s, 3, w), 0);
	CHECK_EQ(pagelab_run(s), 0);
	double t0 = -1, t1 = -1, t;
	int kind;
	for (int i = 0; pagelab_event(s, i, &t, &kind, NULL) == 0; i++)
		if (kind == PAGELAB_EVENT_EXIT)
			*(t0 < 0 ? &t0 : &t1) = t;
	CHECK(t0 >= 0 && t0 < 1);
	CHECK(t1 > 2 && t1 < 3);
	struct pagelab_times a, b;
	CHECK_EQ(pagelab_workload_times(s, 0, &a), 0);
	CHECK_EQ(pagelab_workload_times(s, 1, &b), 0);
	CHECK(b.elapsed < 1 && b.elapsed > 0);
	pagelab_free(s);
}

/* residency=K (an experiment file's `residency` until now): with vmstat
 * samples, the JSON report gives workload K's resident set in each. */
void test_run_options_library_residency(void)
{
	pagelab_sim *s = pagelab_new("vmm-2008");
	const char *w[] = { "usemem", "-m", "20", "-r", "4" };
	CHECK_EQ(pagelab_set(s, "ram", "64M"), 0);
	CHECK_EQ(pagelab_set(s, "vmstat", "0.001"), 0);
	CHECK_EQ(pagelab_set(s, "residency", "0"), 0);
	CHECK_EQ(pagelab_set(s, "residency", "-1"), -1);
	CHECK_EQ(pagelab_add_workload(s, 5, w), 0);
	CHECK_EQ(pagelab_run(s), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK_EQ(pagelab_report(s, f, 1), 0);
	fclose(f);
	/* 20 MB touched: some sample sees at least 10 MB of it resident. */
	bool big = false;
	for (const char *p = buf; p && (p = strstr(p, "\"resident_kb\": ")); p++)
		big |= strtoull(p + 15, NULL, 10) >= 10240;
	CHECK(big);
	free(buf);
	pagelab_free(s);
}
