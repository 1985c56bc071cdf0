/* test_wlist.c - the `+`-joined workload list of run, kernel and sweep
 * (src/workload/wlist.c): how it splits, and every refusal. */
#include "test.h"
#include "../src/workload/wlist.h"
#include "../src/workload/workload.h"

#include <string.h>

static bool parse(const char *line, struct wl_list *l, char *err, size_t errlen)
{
	static char buf[256];
	static char *argv[32];
	snprintf(buf, sizeof(buf), "%s", line);
	int argc = 0;
	for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " "))
		argv[argc++] = t;
	return wl_list_parse(argc, argv, l, err, errlen);
}

void test_wlist_split(void);
void test_wlist_split(void)
{
	struct wl_list l;
	char err[200];
	CHECK(parse("usemem -m 10 + dd if=/f of=/dev/null + qsbench", &l, err, sizeof(err)));
	CHECK_EQ(l.n, 3);
	CHECK(l.n == 3 && l.v[0].ops == workload_find("usemem") && l.v[0].argc == 3);
	CHECK(l.n == 3 && !strcmp(l.v[1].cmd, "dd if=/f of=/dev/null") && l.v[1].argc == 3);
	CHECK(l.n == 3 && !strcmp(l.v[2].cmd, "qsbench") && l.v[2].argc == 1);
	CHECK(l.help == NULL);
	wl_list_free(&l);
	/* --help of the second workload: named, nothing else refused */
	CHECK(parse("usemem -m 10 + dd --help", &l, err, sizeof(err)));
	CHECK(l.help == workload_find("dd"));
	wl_list_free(&l);
}

void test_wlist_refusals(void);
void test_wlist_refusals(void)
{
	static const struct { const char *line, *err; } cases[] = {
		{ "", "no workload given (see pagelab workloads)" },
		{ "+ usemem", "empty workload before '+'" },
		{ "usemem + + dd", "empty workload before '+'" },
		{ "usemem -m 1 +", "nothing after the last '+'" },
		{ "usemem + nosuch -x", "unknown workload 'nosuch' (see pagelab workloads)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct wl_list l;
		char err[200] = "";
		bool ok = parse(cases[i].line, &l, err, sizeof(err));
		CHECK(!ok);
		if (strcmp(err, cases[i].err))
			fprintf(stderr, "  '%s': got '%s'\n", cases[i].line, err);
		CHECK(!strcmp(err, cases[i].err));
		CHECK(l.n == 0 && l.v == NULL);
	}
}
