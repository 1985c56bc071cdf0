/* test_optparse.c - the one option parser (src/cli/opt.c): every kind
 * into its destination, the three ways the options end, the messages of
 * bad input in the table's words, --help rows drawn from the table, and
 * the machine-options group as sweep (lists) and run (one value each)
 * take it. */
#include "test.h"
#include "../src/cli/opt.h"
#include "../src/cli/machine_opts.h"
#include "../src/lib/util.h"

#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct targs {
	bool flag, on;
	const char *str;
	uint64_t u, ns;
	int n;
	double x;
	int calls;
	struct machine_args ma;
	char taken[256];
};

static int count_call(void *dest, const struct opt *o, const char *typed, const char *value)
{
	(void)o;
	(void)typed;
	(void)value;
	((struct targs *)dest)->calls++;
	return OPT_GO;
}

static int stop_call(void *dest, const struct opt *o, const char *typed, const char *value)
{
	(void)dest;
	(void)o;
	(void)typed;
	(void)value;
	return 7;
}

/* run's --vmstat [-a] SECONDS: "-a" sets a flag and asks for the value. */
static int vmstat_call(void *dest, const struct opt *o, const char *typed, const char *value)
{
	struct targs *ta = dest;
	(void)o;
	(void)typed;
	if (!strcmp(value, "-a") && !ta->flag) {
		ta->flag = true;
		return OPT_AGAIN;
	}
	ta->str = value;
	return OPT_GO;
}

#define AT(f) offsetof(struct targs, f)
static const struct opt topts[] = {
	{ "--flag", NULL, OPT_FLAG, AT(flag), .help = "a flag" },
	{ "--off", NULL, OPT_UNFLAG, AT(on), .help = "clears on" },
	{ "--str", "-s", OPT_STR, AT(str), "S", .help = "a string\nof two lines" },
	{ "--u", NULL, OPT_U64, AT(u), "N", 2, 9, "(2..9)", .help = "a number" },
	{ "--n", NULL, OPT_INT, AT(n), "N", 1, 3, .help = "an int" },
	{ "--x", NULL, OPT_DOUBLE, AT(x), "R", 0, 1, "(0 < R <= 1)", .help = "a rate" },
	{ "--time", NULL, OPT_DURATION, AT(ns), "T", .help = "a duration" },
	{ "--call", NULL, OPT_CALL, 0, .call = count_call, .help = "counted" },
	{ "--no-call", NULL, OPT_CALL, 0, .call = count_call, .flags = OPT_JOINED },
	{ "--stop", NULL, OPT_CALL, 0, .call = stop_call, .help = "a whole command" },
	{ "--vmstat", NULL, OPT_CALL, 0, "[-a] SECONDS", .call = vmstat_call, .help = "a prefix, then the value" },
	{ "Machine:", .kind = OPT_SECTION },
	{ .kind = OPT_GROUP, .group = machine_opts, .at = AT(ma) },
	{ .kind = OPT_END },
};

static struct opt_cmd tcmd = {
	.name = "t", .usage = "usage: t\n", .opts = topts, .col = 14, .after = "end\n",
	.prefix = "t: ", .unknown = "t: unknown option '%s'", .mode = OPT_LEADING,
};

/* take(): each machine option as "name=value;" in a->... order. */
static int record_take(struct machine_args *ma, const struct machine_arg *a)
{
	char *s = ma->ctx;
	snprintf(s + strlen(s), 256 - strlen(s), "%s=%s;", a->name, a->value);
	return OPT_GO;
}

static jmp_buf die_jmp;
static char die_msg[300];

static void die_to_test(const char *msg)
{
	snprintf(die_msg, sizeof(die_msg), "%s", msg);
	longjmp(die_jmp, 1);
}

/* Parse argv (NULL-terminated) with tcmd in mode m: the status, *next,
 * and die_msg set ("" when none). */
static int parse(enum opt_mode m, struct targs *ta, int *next, const char **argv)
{
	volatile int argc = 0;
	while (argv[argc])
		argc++;
	memset(ta, 0, sizeof(*ta));
	ta->on = true;
	ta->ma = (struct machine_args){ .take = record_take, .ctx = ta->taken };
	tcmd.mode = m;
	die_msg[0] = 0;
	die_usage_set_handler(die_to_test);
	volatile int rc = -100;
	if (setjmp(die_jmp) == 0)
		rc = opt_parse(&tcmd, argc, (char **)argv, ta, next);
	die_usage_set_handler(NULL);
	return rc;
}

void test_optparse_kinds(void)
{
	struct targs ta;
	int next = -1;
	const char *argv[] = { "t", "--flag", "--off", "-s", "v", "--u", "9", "--n", "3", "--x", "0.5", "--time",
			       "120s", "--call", "--no-call", "--ram", "1G", "--set", "a=b", "--policy", "lru", "rest", NULL };
	CHECK_EQ(parse(OPT_LEADING, &ta, &next, argv), OPT_GO);
	if (die_msg[0])
		fprintf(stderr, "died: %s\n", die_msg);
	CHECK(!die_msg[0]);
	CHECK_EQ(next, 21);
	CHECK(ta.flag && !ta.on && ta.str && !strcmp(ta.str, "v"));
	CHECK_EQ(ta.u, 9);
	CHECK_EQ(ta.n, 3);
	CHECK(ta.x == 0.5);
	CHECK_EQ(ta.ns, 120000000000ULL);
	CHECK_EQ(ta.calls, 2);
	CHECK(!strcmp(ta.taken, "ram=1G;a=b;"));
	CHECK(ta.ma.policy && !strcmp(ta.ma.policy, "lru"));
	/* an option that is a whole command: its status at once */
	const char *stop[] = { "t", "--stop", "--bogus", NULL };
	CHECK_EQ(parse(OPT_LEADING, &ta, &next, stop), 7);
}

void test_optparse_modes(void)
{
	struct targs ta;
	int next = -1;
	const char *dd[] = { "t", "--flag", "--", "--u", NULL };
	CHECK_EQ(parse(OPT_DASHDASH, &ta, &next, dd), OPT_GO);
	CHECK_EQ(next, 2);
	const char *lead[] = { "t", "--flag", "-", "--u", NULL };
	CHECK_EQ(parse(OPT_LEADING, &ta, &next, lead), OPT_GO);
	CHECK_EQ(next, 2);
	/* before "--" every argument is an option */
	const char *word[] = { "t", "word", "--", NULL };
	parse(OPT_DASHDASH, &ta, &next, word);
	CHECK(!strcmp(die_msg, "t: unknown option 'word'"));
}

void test_optparse_again(void)
{
	struct targs ta;
	int next;
	const char *both[] = { "t", "--vmstat", "-a", "0.5", "w", NULL };
	CHECK_EQ(parse(OPT_LEADING, &ta, &next, both), OPT_GO);
	CHECK(ta.flag && ta.str && !strcmp(ta.str, "0.5"));
	CHECK_EQ(next, 4);
	const char *one[] = { "t", "--vmstat", "1", NULL };
	CHECK_EQ(parse(OPT_LEADING, &ta, &next, one), OPT_GO);
	CHECK(!ta.flag && ta.str && !strcmp(ta.str, "1"));
	/* the value missing after the prefix: named as pagelab run always
	 * named it, by the prefix */
	const char *cut[] = { "t", "--vmstat", "-a", NULL };
	parse(OPT_LEADING, &ta, &next, cut);
	CHECK(!strcmp(die_msg, "option -a needs a value"));
	const char *none[] = { "t", "--vmstat", NULL };
	parse(OPT_LEADING, &ta, &next, none);
	CHECK(!strcmp(die_msg, "option --vmstat needs a value"));
}

void test_optparse_bad_input(void)
{
	static const struct { const char *a, *b, *msg; } cases[] = {
		{ "--u", NULL, "option --u needs a value" },
		{ "--u", "10", "t: bad --u '10' (2..9)" },
		{ "--u", "1", "t: bad --u '1' (2..9)" },
		{ "--n", "4", "t: bad --n '4'" },
		{ "--x", "0", "t: bad --x '0' (0 < R <= 1)" },
		{ "--x", "1.5", "t: bad --x '1.5' (0 < R <= 1)" },
		{ "--time", "0", "t: bad --time '0'" },
		{ "--bogus", NULL, "t: unknown option '--bogus'" },
		{ "--set", "=1", "--set wants NAME=VALUE, got '=1'" },
	};
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		struct targs ta;
		int next;
		const char *argv[] = { "t", cases[k].a, cases[k].b, NULL };
		CHECK_EQ(parse(OPT_LEADING, &ta, &next, argv), -100);
		if (strcmp(die_msg, cases[k].msg)) {
			fprintf(stderr, "case %zu: '%s', expected '%s'\n", k, die_msg, cases[k].msg);
			test_failures++;
		}
	}
	/* the group in a sweep's words: each value a list */
	struct targs ta;
	int next;
	const char *argv[] = { "t", "--set", "x", NULL };
	int argc = 3;
	memset(&ta, 0, sizeof(ta));
	ta.ma = (struct machine_args){ .lists = true, .take = record_take, .ctx = ta.taken };
	die_usage_set_handler(die_to_test);
	if (setjmp(die_jmp) == 0)
		opt_parse(&tcmd, argc, (char **)argv, &ta, &next);
	die_usage_set_handler(NULL);
	CHECK(!strcmp(die_msg, "--set wants NAME=LIST, got 'x'"));
}

void test_optparse_usage(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	opt_usage(&tcmd, f);
	fclose(f);
	/* the left column padded to col (two blanks when it reaches it),
	 * the help's lines under each other, a short alias first, a joined
	 * entry on its row, sections, groups */
	CHECK(strstr(buf, "usage: t\n  --flag      a flag\n"));
	CHECK(strstr(buf, "\n  -s, --str S a string\n              of two lines\n"));
	CHECK(strstr(buf, "\n  --call / --no-call  counted\n"));
	CHECK(strstr(buf, "\nMachine:\n  --policy NAME  reclaim policy"));
	CHECK(strstr(buf, "\n  --swap SIZE swap space; zram:SIZE"));
	CHECK(len > 5 && !strcmp(buf + len - 4, "end\n"));
	free(buf);
}
