/* args.c - the arguments of the trace workload (trace_reader.h), parsed
 * once for the full machine's replay and the cache-only one. */
#include "trace_reader.h"

#include <string.h>

bool trace_parse_args(int argc, char **argv, struct trace_opts *o, const char **path, char *err, size_t errlen)
{
	*o = (struct trace_opts){ .format = TRACE_FMT_AUTO };
	*path = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--format") || !strcmp(a, "--spec")) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "trace: %s needs a value", a);
				return false;
			}
			const char *v = argv[++i];
			if (a[2] == 'f' && !trace_format_parse(v, &o->format)) {
				snprintf(err, errlen, "trace: unknown format '%s' (%s)", v, TRACE_FORMAT_NAMES);
				return false;
			}
			if (a[2] == 's')
				o->spec = v;
		} else if (!strcmp(a, "--no-instructions")) {
			o->no_instructions = true;
		} else if (a[0] == '-' && a[1]) {
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
