/* opt.c - the one option parser (opt.h): the parse loop, --help and
 * --dump-options, all read from a command's table. */
#include "opt.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

/* The command being parsed, for opt_bad()'s prefix. */
static const struct opt_cmd *current;

/* The entry named `a` in t (or a group of it), *base its struct. */
static const struct opt *find(const struct opt *t, char *dest, const char *a, char **base)
{
	for (; t->kind != OPT_END; t++) {
		if (t->kind == OPT_GROUP) {
			const struct opt *g = find(t->group, dest + t->at, a, base);
			if (g)
				return g;
		} else if (t->kind != OPT_SECTION && t->kind != OPT_POS &&
			   (!strcmp(t->name, a) || (t->alias && !strcmp(t->alias, a)))) {
			*base = dest;
			return t;
		}
	}
	return NULL;
}

const char *opt_prefix(void)
{
	return current && current->prefix ? current->prefix : "";
}

_Noreturn void opt_bad(const struct opt *o, const char *value)
{
	die_usage("%sbad %s '%s'%s%s", opt_prefix(), o->name, value,
		  o->range ? " " : "", o->range ? o->range : "");
}

static bool in_range(const struct opt *o, double v)
{
	return o->kind == OPT_DOUBLE ? v > o->min && v <= o->max : v >= o->min && v <= o->max;
}

/* Store value into the destination of o at base. */
static int store(const struct opt *o, char *base, const char *typed, const char *value)
{
	void *d = base + o->at;
	uint64_t u;
	double x;
	switch (o->kind) {
	case OPT_FLAG:
	case OPT_UNFLAG:
		*(bool *)d = o->kind == OPT_FLAG;
		break;
	case OPT_STR:
		*(const char **)d = value;
		break;
	case OPT_U64:
	case OPT_INT:
		if (!parse_u64(value, &u) || !in_range(o, (double)u))
			opt_bad(o, value);
		if (o->kind == OPT_INT)
			*(int *)d = (int)u;
		else
			*(uint64_t *)d = u;
		break;
	case OPT_DOUBLE:
		if (!parse_double(value, &x) || !in_range(o, x))
			opt_bad(o, value);
		*(double *)d = x;
		break;
	case OPT_DURATION:
		if (!parse_duration_ns(value, &u) || !u)
			opt_bad(o, value);
		*(uint64_t *)d = u;
		break;
	case OPT_CALL:
		return o->call(d, o, typed, value);
	default:
		break;
	}
	return OPT_GO;
}

static bool is_option(const struct opt_cmd *c, const char *a)
{
	return a[0] == '-' && a[1] && !(c->mode == OPT_DASHDASH && !strcmp(a, "--"));
}

static bool takes_value(const struct opt *o)
{
	return o->arg != NULL && o->kind != OPT_FLAG && o->kind != OPT_UNFLAG;
}

/* The value of option a at argv[*i], which it moves past. */
static const char *next_value(const struct opt *o, const char *a, int argc, char **argv, int *i)
{
	if (*i + 1 >= argc || ((o->flags & OPT_NONEMPTY) && !argv[*i + 1][0]) ||
	    ((o->flags & OPT_DASHDASH_MISSING) && !strcmp(argv[*i + 1], "--"))) {
		if (o->missing)
			die_usage(o->missing, opt_prefix());
		die_usage("option %s needs a value", a);
	}
	return argv[++*i];
}

/* "-j2": a short option that takes a value, given joined to it as
 * getopt(3) takes it (-jN, -oFILE); its entry, its name in shortname
 * (3 bytes) and *value the rest of a; NULL when a is no such thing. */
static const struct opt *find_joined(const struct opt_cmd *c, void *dest, const char *a, char *shortname,
				     char **base, const char **value)
{
	if (a[0] != '-' || !a[1] || a[1] == '-' || !a[2])
		return NULL;
	shortname[0] = '-';
	shortname[1] = a[1];
	shortname[2] = 0;
	const struct opt *o = find(c->opts, dest, shortname, base);
	if (!o || !takes_value(o))
		return NULL;
	*value = a + 2;
	return o;
}

int opt_parse(const struct opt_cmd *c, int argc, char **argv, void *dest, int *next)
{
	current = c;
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (c->mode == OPT_DASHDASH && !strcmp(a, "--"))
			break;
		if (!is_option(c, a)) {
			if (c->mode == OPT_LEADING)
				break;
			if (c->mode == OPT_ANYWHERE) {
				int rc = c->pos(dest, a);
				if (rc != OPT_GO)
					return rc;
				continue;
			}
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			opt_usage(c, stdout);
			return 0;
		}
		char *base, shortname[3];
		const char *joined = NULL, *typed = a;
		const struct opt *o = find(c->opts, dest, a, &base);
		/* typed: the table's own string, which outlives this loop */
		if (!o && (o = find_joined(c, dest, a, shortname, &base, &joined)))
			typed = o->alias && !strcmp(o->alias, shortname) ? o->alias : o->name;
		if (!o)
			die_usage(c->unknown, a);
		int rc = OPT_AGAIN;
		/* After a prefix (--vmstat -a), a missing value is the
		 * prefix's: "option -a needs a value", as run said it. */
		for (const char *last = a; rc == OPT_AGAIN; last = argv[i]) {
			const char *value = joined ? joined : takes_value(o) ? next_value(o, last, argc, argv, &i) : NULL;
			joined = NULL;
			rc = store(o, base, typed, value);
		}
		if (rc != OPT_GO)
			return rc;
	}
	*next = i;
	return OPT_GO;
}

/* "-j, --jobs N": the short spelling first. */
static void left_of(const struct opt *o, bool lists, char *buf, size_t len)
{
	const char *arg = lists && o->list_arg ? o->list_arg : o->arg;
	const char *first = o->name, *second = o->alias;
	if (second && second[1] != '-') {
		first = o->alias;
		second = o->name;
	}
	snprintf(buf, len, "%s%s%s%s%s", first, second ? ", " : "", second ? second : "", arg ? " " : "",
		 arg ? arg : "");
}

/* The options of t as --help rows: the left column, then the help's
 * lines at column col. */
static void usage_rows(const struct opt *t, bool lists, int col, FILE *out)
{
	for (; t->kind != OPT_END; t++) {
		if (t->kind == OPT_GROUP) {
			usage_rows(t->group, t->flags & OPT_LISTS, col, out);
			continue;
		}
		if (t->kind == OPT_SECTION) {
			fprintf(out, "%s\n", t->name);
			continue;
		}
		if (t->flags & OPT_JOINED)
			continue;
		char left[160], one[80];
		if (t->kind == OPT_POS)
			snprintf(left, sizeof(left), "%s", t->name);
		else
			left_of(t, lists, left, sizeof(left));
		for (const struct opt *j = t + 1; j->kind != OPT_END && (j->flags & OPT_JOINED); j++) {
			left_of(j, lists, one, sizeof(one));
			snprintf(left + strlen(left), sizeof(left) - strlen(left), " / %s", one);
		}
		int w = 2 + (int)strlen(left);
		fprintf(out, "  %s%*s", left, w < col ? col - w : 2, "");
		const char *help = lists && t->list_help ? t->list_help : t->help;
		if (!help[0])
			fputc('\n', out);
		for (const char *h = help; *h;) {
			size_t n = strcspn(h, "\n");
			fprintf(out, "%.*s\n", (int)n, h);
			h += n;
			if (*h && *++h)
				fprintf(out, "%*s", col, "");
		}
	}
}

void opt_usage(const struct opt_cmd *c, FILE *out)
{
	fputs(c->usage, out);
	usage_rows(c->opts, false, c->col, out);
	if (c->after)
		fputs(c->after, out);
	if (c->more)
		c->more(out);
	if (c->also)
		opt_usage(c->also, out);
}

/* s with its line breaks as spaces. */
static void put_flat(const char *s, FILE *out)
{
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\t' ? ' ' : *s, out);
}

/* Each line of a text block as "tag<TAB>line". */
static void dump_lines(const char *tag, const char *s, FILE *out)
{
	while (s && *s) {
		size_t n = strcspn(s, "\n");
		fprintf(out, "%s\t%.*s\n", tag, (int)n, s);
		s += n + (s[n] == '\n');
	}
}

static void dump_rows(const struct opt *t, bool lists, FILE *out)
{
	for (; t->kind != OPT_END; t++) {
		if (t->kind == OPT_GROUP) {
			dump_rows(t->group, t->flags & OPT_LISTS, out);
		} else if (t->kind == OPT_SECTION) {
			fprintf(out, "section\t%s\n", t->name);
		} else {
			if (t->kind == OPT_POS)
				fprintf(out, "arg\t%s\t", t->name);
			else
				fprintf(out, "option\t%s\t%s\t%s\t", t->name, t->alias ? t->alias : "-",
					lists && t->list_arg ? t->list_arg : t->arg ? t->arg : "-");
			put_flat(lists && t->list_help ? t->list_help : t->help ? t->help : "", out);
			fputc('\n', out);
		}
	}
}

void opt_dump(const struct opt_cmd *c, FILE *out)
{
	dump_lines("usage", c->usage, out);
	dump_rows(c->opts, false, out);
	dump_lines("after", c->after, out);
	if (c->more) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (m) {
			c->more(m);
			fclose(m);
			dump_lines("after", buf, out);
			free(buf);
		}
	}
	/* The second form: a line that says it starts (its options may be
	 * named as the first form's), its usage as text, its options as rows. */
	if (c->also) {
		fprintf(out, "form\t%s\n", c->also->name);
		dump_lines("after", c->also->usage, out);
		dump_rows(c->also->opts, false, out);
		dump_lines("after", c->also->after, out);
	}
}
