/* opt.h - the one option parser of pagelab's commands.  A command is a
 * table of its options ({name, kind, destination, range, help}) and a few
 * words around them; one loop parses every command's arguments by its
 * table, and the same table gives its --help text, its part of the man
 * page and of the shell completion (`pagelab --dump-options CMD`, read by
 * tools/genman.sh and tools/gencompletion.sh), so none can drift from
 * what the command accepts.
 *
 * A destination is an offset into the command's own argument struct (the
 * tables are static: --dump-options reads them without running anything);
 * a group (the machine options several commands share) is a table of its
 * own at an offset of that struct. */
#ifndef PAGELAB_CLI_OPT_H
#define PAGELAB_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPT_END,       /* closes a table */
	OPT_FLAG,      /* bool = true */
	OPT_UNFLAG,    /* bool = false */
	OPT_STR,       /* const char * = the value (the last one given wins) */
	OPT_U64,       /* uint64_t, min <= v <= max */
	OPT_INT,       /* int, min <= v <= max */
	OPT_DOUBLE,    /* double, min < v <= max */
	OPT_DURATION,  /* uint64_t nanoseconds, more than 0 (30, 10m, 2h) */
	OPT_CALL,      /* call(): anything the kinds above do not say */
	OPT_GROUP,     /* the options of `group`, its struct at `at` */
	OPT_SECTION,   /* --help only: a heading line (name) */
	OPT_POS,       /* --help only: a positional argument (name), its help */
};

/* An OPT_CALL's work: `value` the option's value (NULL for one without
 * an argument), `typed` the option as given (an alias or the name).
 * Returns OPT_GO on, or the exit status the command returns at once
 * (an option that is a whole command: --print-file, --tlb-cost). */
#define OPT_GO (-1)
/* ... or OPT_AGAIN: the value was a prefix of the option (run's
 * --vmstat [-a] SECONDS: "-a"); the next argument is its value, given to
 * the same call (missing: "option -a needs a value"). */
#define OPT_AGAIN (-2)
struct opt;
typedef int opt_call_fn(void *dest, const struct opt *o, const char *typed, const char *value);

/* flags */
#define OPT_NONEMPTY 1u   /* an empty value is missing (record -o '') */
#define OPT_JOINED   2u   /* --help: on the line of the entry before ("A / B") */
#define OPT_LISTS    4u   /* an OPT_GROUP of lists: its entries' list_arg
			     and list_help in --help (sweep's machine options) */

struct opt {
	const char *name;        /* "--jobs": also the name in its messages */
	const char *alias;       /* "-j", or NULL */
	enum opt_kind kind;
	size_t at;               /* offset of the destination in the struct */
	const char *arg;         /* the value's name in --help ("N"); NULL: none */
	double min, max;         /* OPT_U64, OPT_INT, OPT_DOUBLE */
	const char *range;       /* after "bad --NAME 'VALUE'": "(1..256)" */
	const char *help;        /* lines joined by \n */
	opt_call_fn *call;       /* OPT_CALL */
	const struct opt *group; /* OPT_GROUP */
	const char *missing;     /* the line when the value is missing, if
				    not "option NAME needs a value" (a format:
				    %s the command's prefix) */
	const char *list_arg, *list_help;  /* in an OPT_LISTS group */
	unsigned flags;
};

/* Where the options end. */
enum opt_mode {
	OPT_LEADING,   /* at the first argument that is no option ("-" is one) */
	OPT_DASHDASH,  /* at "--" (every argument before it is an option) */
	OPT_ANYWHERE,  /* options and positional arguments mixed: pos() takes
			  each of these ("-" is one) */
};

struct opt_cmd {
	const char *name;         /* "sweep"; "trace info" */
	const char *usage;        /* the usage lines and the text before the options */
	const struct opt *opts;
	int col;                  /* the column the options' help starts at */
	const char *after;        /* the text after the options */
	void (*more)(FILE *out);  /* then this, if any (a listing) */
	const char *prefix;       /* before "bad --NAME": "mrc: " or "" */
	const char *unknown;      /* the line for an unknown option, one %s */
	enum opt_mode mode;
	int (*pos)(void *dest, const char *arg);  /* OPT_ANYWHERE: OPT_GO or an exit status */
};

/* Parse argv[1..] by c's table into dest.  OPT_GO when the options are
 * parsed, *next then the index of the first argument they leave (OPT_DASHDASH:
 * the "--", or argc); else the exit status the command returns at once
 * (0 after --help, printed on stdout).  Bad input: one line, exit 2. */
int opt_parse(const struct opt_cmd *c, int argc, char **argv, void *dest, int *next);

/* --help, generated from the table. */
void opt_usage(const struct opt_cmd *c, FILE *out);

/* pagelab --dump-options CMD: one line per entry, fields joined by tabs:
 *   usage TEXT | section TEXT | arg NAME HELP |
 *   option NAME ALIAS ARG HELP (ALIAS and ARG "-" when none) | after TEXT
 * (a help's line breaks become spaces), for the man page and completion. */
void opt_dump(const struct opt_cmd *c, FILE *out);

/* die_usage() in the table's words: the command's prefix, "bad NAME
 * 'VALUE'" and the option's range (for an OPT_CALL, while parsing). */
_Noreturn void opt_bad(const struct opt *o, const char *value);
/* The prefix of the command being parsed: "mrc: ", or "". */
const char *opt_prefix(void);

#endif
