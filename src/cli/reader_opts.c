/* reader_opts.c - the trace reader's options group (reader_opts.h). */
#include "reader_opts.h"
#include "../trace/trace_reader.h"
#include "../lib/util.h"

/* trace_reader_option() on the option and its value: its rules and its
 * messages, after the command's prefix ("mrc: "). */
static int reader_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	char *av[2] = { (char *)typed, (char *)value };
	char err[240];
	int i = 0;
	(void)o;
	if (trace_reader_option(value ? 2 : 1, av, &i, dest, err, sizeof(err)) < 0)
		die_usage("%s%s", opt_prefix(), err);
	return OPT_GO;
}

#define RO(name_, arg_, help_) \
	{ .name = name_, .kind = OPT_CALL, .arg = arg_, .help = help_, .call = reader_opt, \
	  .missing = "%s" name_ " needs a value" }

const struct opt reader_opts[] = {
	{ .name = "Reader options:", .kind = OPT_SECTION },
	RO("--format", "F", TRACE_FORMAT_NAMES "\n(default: detect)"),
	RO("--spec", "SPEC", "csv/block columns: \"obj-id-col=5, time-col=2, op-col=3\""),
	{ .name = "--no-instructions", .kind = OPT_CALL, .help = "lackey: leave out instruction fetches",
	  .call = reader_opt },
	RO("--max-request", "SIZE", "the most pages one record (a block request, a lackey\n"
	   "access) may cover: pages (4096p) or bytes (16M); a\n"
	   "larger one is an error (default 262144p, 1G)"),
	{ .kind = OPT_END },
};
