/* fmt_txt.c - libCacheSim's txt trace: one object id per line, every
 * request a read.  Follows libCacheSim's txt reader (traceReader/
 * generalReader/txt.c): empty lines are skipped; a numeric id is the
 * object (decimal or 0x hex here, where libCacheSim's strtoull base 0
 * would also read a leading 0 as octal); any other id is a string, which
 * libCacheSim interns exactly and pagelab hashes to 64 bits (a collision
 * among 10^8 distinct strings has odds near 3e-4). */
#include "format.h"

#include <string.h>

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static int txt_record(struct trace_reader *r, struct span *s)
{
	char *line;
	size_t len;
	for (;;) {
		int rc = reader_line(r, &line, &len);
		if (rc <= 0)
			return rc;
		while (len && is_space(line[len - 1]))
			len--;
		size_t i = 0;
		while (i < len && is_space(line[i]))
			i++;
		if (i == len)
			continue;
		memset(s, 0, sizeof(*s));
		if (!parse_id(line + i, len - i, &s->ref.page)) {
			bool digits = line[i] >= '0' && line[i] <= '9';
			size_t k = i;
			while (k < len && line[k] >= '0' && line[k] <= '9')
				k++;
			/* All digits but too long is an overflow, not a name. */
			if (digits && k == len)
				return reader_fail(r, "object id overflows 64 bits");
			s->ref.page = hash_id(line + i, len - i);
		}
		s->npages = 1;
		s->mode = SPAN_READ;
		return 1;
	}
}

const struct format_ops fmt_txt = {
	.fmt = TRACE_FMT_TXT,
	.name = "txt",
	.record = txt_record,
};
