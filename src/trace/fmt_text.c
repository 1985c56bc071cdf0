/* fmt_text.c - pagelab's text trace (docs/trace-format.md):
 *   PAGE r|w [pid=N] [anon|file]   # comment
 * PAGE decimal or 0x hex.  The optional fields came with the streaming
 * readers: a pid gives each process its own page numbers (what `pagelab
 * record` writes), anon/file says what the page holds. */
#include "format.h"

#include <string.h>

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static int text_record(struct trace_reader *r, struct span *s)
{
	char *line;
	size_t len;
	for (;;) {
		int rc = reader_line(r, &line, &len);
		if (rc <= 0)
			return rc;
		char *hash = memchr(line, '#', len);
		if (hash)
			*hash = 0;
		char *p = line;
		while (is_space(*p))
			p++;
		if (!*p)
			continue;
		char *q = p;
		while (*q && !is_space(*q))
			q++;
		uint64_t pg;
		if (!parse_id(p, (size_t)(q - p), &pg))
			return reader_fail(r, "bad page number");
		while (is_space(*q))
			q++;
		char rw = *q;
		if (rw != 'r' && rw != 'w' && rw != 'R' && rw != 'W')
			return reader_fail(r, "expected 'r' or 'w' after the page number");
		q++;
		if (*q && !is_space(*q))
			return reader_fail(r, "trailing text");
		memset(s, 0, sizeof(*s));
		s->ref.page = pg;
		s->npages = 1;
		s->mode = (rw == 'w' || rw == 'W') ? SPAN_WRITE : SPAN_READ;
		bool have_pid = false, have_kind = false;
		for (;;) {
			while (is_space(*q))
				q++;
			if (!*q)
				break;
			char *t = q;
			while (*q && !is_space(*q))
				q++;
			size_t tl = (size_t)(q - t);
			uint64_t pid;
			if (tl > 4 && !strncmp(t, "pid=", 4) && !have_pid) {
				if (!parse_id(t + 4, tl - 4, &pid) || pid == 0 || pid > UINT32_MAX)
					return reader_fail(r, "bad pid (1 to 4294967295)");
				s->ref.pid = (uint32_t)pid;
				have_pid = true;
			} else if (tl == 4 && !strncmp(t, "anon", 4) && !have_kind) {
				s->ref.kind = TRACE_KIND_ANON;
				have_kind = true;
			} else if (tl == 4 && !strncmp(t, "file", 4) && !have_kind) {
				s->ref.kind = TRACE_KIND_FILE;
				have_kind = true;
			} else {
				return reader_fail(r, "trailing text");
			}
		}
		return 1;
	}
}

const struct format_ops fmt_text = {
	.fmt = TRACE_FMT_TEXT,
	.name = "text",
	.record = text_record,
};
