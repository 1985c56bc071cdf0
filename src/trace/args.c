/* args.c - the arguments of the trace workload (trace_reader.h), parsed
 * once for the full machine's replay and the cache-only one, and the
 * reader options the trace commands share. */
#include "trace_reader.h"
#include "../lib/util.h"

#include <string.h>

int trace_reader_option(int argc, char **argv, int *i, struct trace_opts *o, char *err, size_t errlen)
{
	const char *a = argv[*i];
	if (!strcmp(a, "--no-instructions")) {
		o->no_instructions = true;
		return 1;
	}
	if (strcmp(a, "--format") && strcmp(a, "--spec") && strcmp(a, "--max-request"))
		return 0;
	if (*i + 1 >= argc) {
		snprintf(err, errlen, "%s needs a value", a);
		return -1;
	}
	const char *v = argv[++*i];
	if (!strcmp(a, "--spec")) {
		o->spec = v;
	} else if (!strcmp(a, "--format")) {
		if (!trace_format_parse(v, &o->format)) {
			snprintf(err, errlen, "unknown format '%s' (%s)", v, TRACE_FORMAT_NAMES);
			return -1;
		}
	} else {
		uint64_t bytes;
		if (!parse_size(v, &bytes) || bytes < PAGE_SIZE) {
			snprintf(err, errlen, "bad --max-request '%s' (a size of at least 1p: 4096p, 16M)", v);
			return -1;
		}
		o->max_request = bytes / PAGE_SIZE;
	}
	return 1;
}

bool trace_parse_args(int argc, char **argv, struct trace_opts *o, const char **path, char *err, size_t errlen)
{
	*o = (struct trace_opts){ .format = TRACE_FMT_AUTO };
	*path = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char why[240];
		int rc = trace_reader_option(argc, argv, &i, o, why, sizeof(why));
		if (rc < 0) {
			snprintf(err, errlen, "trace: %s", why);
			return false;
		}
		if (rc > 0)
			continue;
		if (a[0] == '-' && a[1]) {
			snprintf(err, errlen, "trace: unknown option '%s' (see trace --help)", a);
			return false;
		} else if (*path) {
			snprintf(err, errlen, "trace: expected exactly one FILE argument");
			return false;
		} else {
			*path = a;
		}
	}
	if (!*path) {
		snprintf(err, errlen, "trace: expected exactly one FILE argument");
		return false;
	}
	return true;
}
