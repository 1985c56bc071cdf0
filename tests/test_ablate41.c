/* test_ablate41.c - issue 41's throughput and latency in ablate and
 * compare: a workload's figures of merit in a record (record_figure:
 * NAME, NAME.K, which way is better), the columns compare and ablate
 * draw from them, the tables saying which way is better, compare's JSON
 * "better"; and the option parser taking a short option joined to its
 * value (ablate -j2, sweep -oFILE), as getopt(3) does. */
#include "test.h"
#include "../src/engine/ablate.h"
#include "../src/cli/opt.h"
#include "../src/lib/util.h"

#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A record of design d, seed s, one fio workload (or, with two, a
 * workingset before it): read_iops iops, read_clat_p99_us lat. */
static void add_fig(struct records *rs, const char *d, int s, double iops, double lat, bool two)
{
	char line[1200], err[200], fio[400];
	snprintf(fio, sizeof(fio), "{\"elapsed_s\": 2, \"figures\": {\"read_iops\": %g, \"read_clat_p99_us\": %g}, "
		 "\"better\": {\"read_iops\": \"higher\", \"read_clat_p99_us\": \"lower\"}}", iops, lat);
	snprintf(line, sizeof(line), "{\"cell\": %d, \"cmd\": \"pagelab run %s %d\", \"design\": \"%s\", "
		 "\"config\": \"c\", \"seed\": %d, \"available\": true, \"finished\": true, \"elapsed_s\": 2, "
		 "\"workloads\": [%s%s], \"counters\": {\"pgscan_anon\": 0, \"pgscan_file\": 1}}", rs->n, d, s, d, s,
		 two ? "{\"elapsed_s\": 1}, " : "", fio);
	rs->r = xrealloc(rs->r, (size_t)(rs->n + 1) * sizeof(*rs->r));
	CHECK(record_parse(line, &rs->r[rs->n], err, sizeof(err)));
	rs->n++;
}

void test_ablate41_record_figure(void)
{
	struct records rs = { 0 };
	add_fig(&rs, "d", 1, 1500, 250.5, true);
	double v = -1;
	CHECK(record_metric(&rs.r[0], "read_iops", &v) && v == 1500);   /* the one workload with it */
	CHECK(record_metric(&rs.r[0], "read_iops.1", &v) && v == 1500);
	CHECK(record_metric(&rs.r[0], "read_clat_p99_us.1", &v) && v == 250.5);
	CHECK(!record_metric(&rs.r[0], "read_iops.0", &v));   /* workingset has none */
	CHECK(!record_metric(&rs.r[0], "read_iops.2", &v));
	CHECK(!record_metric(&rs.r[0], "read_iops.", &v));
	CHECK(!record_metric(&rs.r[0], "read_iops.x", &v));
	CHECK(!record_metric(&rs.r[0], "write_iops", &v));
	CHECK_EQ(record_metric_better(&rs, "read_iops.1"), 1);
	CHECK_EQ(record_metric_better(&rs, "read_clat_p99_us"), (unsigned long long)-1);
	CHECK_EQ(record_metric_better(&rs, "pgscan"), 0);
	char **cols = record_figure_columns(&rs, "c");
	CHECK(cols[0] && !strcmp(cols[0], "read_iops.1") && cols[1] && !strcmp(cols[1], "read_clat_p99_us.1") &&
	      !cols[2]);
	record_cgroup_columns_free(cols);
	cols = record_figure_columns(&rs, "other");
	CHECK(!cols[0]);
	record_cgroup_columns_free(cols);
	records_free(&rs);
	/* two workloads with the same figure: a bare name is neither */
	const char *line = "{\"cell\": 0, \"cmd\": \"x\", \"design\": \"d\", \"config\": \"c\", \"seed\": 1, "
		"\"available\": true, \"workloads\": [{\"figures\": {\"ops_s\": 5}}, {\"figures\": {\"ops_s\": 7}}]}";
	struct record r;
	char err[200];
	CHECK(record_parse(line, &r, err, sizeof(err)));
	CHECK(!record_metric(&r, "ops_s", &v));
	CHECK(record_metric(&r, "ops_s.0", &v) && v == 5);
	CHECK(record_metric(&r, "ops_s.1", &v) && v == 7);
	record_free(&r);
}

/* The ablation's metrics put the figures after the times. */
void test_ablate41_metrics(void)
{
	char *figs[] = { "read_iops", "read_clat_p99_us", NULL };
	const char **m = ablate_metrics(1, figs);
	CHECK(!strcmp(m[0], "elapsed_s") && !strcmp(m[1], "read_iops") && !strcmp(m[2], "read_clat_p99_us") &&
	      !strcmp(m[3], "pgmajfault"));
	free(m);
}

/* The table: a figure's block says which way is better, on a line of its
 * own; its rows are the runs' means. */
void test_ablate41_text(void)
{
	struct records rs = { 0 };
	for (int s = 1; s <= 2; s++) {
		add_fig(&rs, "mglru", s, 1000 + s, 100, false);
		add_fig(&rs, "mglru bloom=0", s, 500 + s, 300, false);
	}
	char **figs = record_figure_columns(&rs, NULL);
	const char **metrics = ablate_metrics(1, figs);
	int nt;
	struct cmp_table *t = compare_records(&rs, "mglru", metrics, &nt);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ablate_print_text(t, nt, &rs, "mglru", f);
	fclose(f);
	const char *want =
		"read_iops (higher is better)\n"
		"                            mean     median     stddev    change       p\n"
		"  mglru (full)            1001.5     1001.5     0.7071\n"
		"  bloom=0               501.5000   501.5000     0.7071    -49.9%  0.3333\n"
		"\n"
		"read_clat_p99_us (lower is better)\n"
		"                            mean     median     stddev    change       p\n"
		"  mglru (full)          100.0000   100.0000     0.0000\n"
		"  bloom=0               300.0000   300.0000     0.0000   +200.0%  0.3333\n";
	CHECK(strstr(buf, want) != NULL);
	if (!strstr(buf, want))
		fprintf(stderr, "got:\n%s", buf);
	free(buf);
	/* compare's JSON says it too; a figure without a direction does not */
	buf = NULL;
	f = open_memstream(&buf, &len);
	compare_print_json(t, nt, f);
	fclose(f);
	CHECK(strstr(buf, "{\"metric\": \"read_iops\", \"better\": \"higher\", \"designs\": [") != NULL);
	CHECK(strstr(buf, "{\"metric\": \"read_clat_p99_us\", \"better\": \"lower\", \"designs\": [") != NULL);
	CHECK(strstr(buf, "{\"metric\": \"pgscan\", \"designs\": [") != NULL);
	free(buf);
	compare_free(t, nt);
	free(metrics);
	record_cgroup_columns_free(figs);
	records_free(&rs);
}

/* compare's default figures include the workloads', and its text names
 * which way is better above their Amean and Stddev rows. */
void test_ablate41_compare_default(void)
{
	struct records rs = { 0 };
	add_fig(&rs, "a", 1, 1000, 100, false);
	add_fig(&rs, "b", 1, 2000, 50, false);
	int nt;
	struct cmp_table *t = compare_records(&rs, "a", NULL, &nt);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	compare_print_text(t, nt, f);
	fclose(f);
	CHECK(strstr(buf, "\nread_iops (higher is better)\nAmean                        1000.0     2000.0 (+100.0%)") != NULL);
	CHECK(strstr(buf, "\nread_clat_p99_us (lower is better)\nAmean                      100.0000    50.0000 ( -50.0%)") !=
	      NULL);
	if (!strstr(buf, "read_iops (higher is better)\nAmean     "))
		fprintf(stderr, "got:\n%s", buf);
	free(buf);
	compare_free(t, nt);
	records_free(&rs);
}

struct jargs {
	int jobs;
	const char *out;
	bool flag;
};

#define AT(f) offsetof(struct jargs, f)
static const struct opt jopts[] = {
	{ "--jobs", "-j", OPT_INT, AT(jobs), "N", 1, 256, "(1..256)", .help = "jobs" },
	{ "-o", "--output", OPT_STR, AT(out), "FILE", .help = "output" },
	{ "--flag", "-f", OPT_FLAG, AT(flag), .help = "a flag" },
	{ .kind = OPT_END },
};

static const struct opt_cmd jcmd = {
	.name = "j", .usage = "usage: j\n", .opts = jopts, .col = 14, .prefix = "j: ",
	.unknown = "j: unknown option '%s'", .mode = OPT_DASHDASH,
};

static jmp_buf die_jmp;
static char die_msg[300];

static void die_to_test(const char *msg)
{
	snprintf(die_msg, sizeof(die_msg), "%s", msg);
	longjmp(die_jmp, 1);
}

static int jparse(struct jargs *ja, const char **argv)
{
	volatile int argc = 0;
	int next;
	while (argv[argc])
		argc++;
	memset(ja, 0, sizeof(*ja));
	die_msg[0] = 0;
	die_usage_set_handler(die_to_test);
	volatile int rc = -100;
	if (setjmp(die_jmp) == 0)
		rc = opt_parse(&jcmd, argc, (char **)argv, ja, &next);
	die_usage_set_handler(NULL);
	return rc;
}

void test_ablate41_joined_short(void)
{
	struct jargs ja;
	const char *a[] = { "j", "-j2", "-ofile.json", "--", "w", NULL };
	CHECK_EQ(jparse(&ja, a), OPT_GO);
	CHECK(!die_msg[0]);
	CHECK_EQ(ja.jobs, 2);
	CHECK(ja.out && !strcmp(ja.out, "file.json"));
	const char *b[] = { "j", "-j", "3", "--output", "x", NULL };
	CHECK_EQ(jparse(&ja, b), OPT_GO);
	CHECK(ja.jobs == 3 && !strcmp(ja.out, "x"));
	/* the joined value is checked as a separate one is */
	const char *c[] = { "j", "-j0", NULL };
	jparse(&ja, c);
	CHECK(!strcmp(die_msg, "j: bad --jobs '0' (1..256)"));
	/* a flag takes no value, a long option is never split */
	const char *d[] = { "j", "-fx", NULL };
	jparse(&ja, d);
	CHECK(!strcmp(die_msg, "j: unknown option '-fx'"));
	const char *e[] = { "j", "--jobs2", NULL };
	jparse(&ja, e);
	CHECK(!strcmp(die_msg, "j: unknown option '--jobs2'"));
	const char *g[] = { "j", "-x2", NULL };
	jparse(&ja, g);
	CHECK(!strcmp(die_msg, "j: unknown option '-x2'"));
}
