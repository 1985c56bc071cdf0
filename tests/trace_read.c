/* trace_read.c - see trace_read.h. */
#include "trace_read.h"

#include <string.h>

long trace_read_all(FILE *in, const struct trace_opts *o, struct trace_ref *out, size_t max, char *err,
		    size_t errlen)
{
	err[0] = 0;
	struct trace_reader *r = trace_open_file(in, "t", o, err, errlen);
	if (!r)
		return -1;
	struct trace_ref b[256];
	long total = 0, n;
	while ((n = trace_next(r, b, 256)) > 0) {
		for (long i = 0; out && i < n && (size_t)(total + i) < max; i++)
			out[total + i] = b[i];
		total += n;
	}
	if (n < 0) {
		snprintf(err, errlen, "%s", trace_reader_error(r));
		total = -1;
	}
	trace_close(r);
	return total;
}
