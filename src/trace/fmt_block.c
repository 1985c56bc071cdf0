/* fmt_block.c - block I/O traces: one request per csv row with a byte
 * offset and a size, split into the 4 KiB pages it covers (a 16 KiB read
 * at offset 6144 touches pages 1 to 5).  Without a spec or a header the
 * columns are those of the MSR Cambridge traces (SNIA IOTTA):
 * Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime, i.e.
 * time-col=1, op-col=4, offset-col=5, size-col=6.  Requests of size 0
 * touch nothing. */
#include "csvrow.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

static bool block_open(struct trace_reader *r, char *err, size_t errlen)
{
	struct csv_state *cs = xcalloc(1, sizeof(*cs));
	r->st = cs;
	cs->sp.has_header = -1;
	cs->sp.id_is_num = true;
	if (r->opts.spec && !csv_spec_parse(r->opts.spec, &cs->sp, err, errlen))
		return false;
	static const char *const ids[] = { "offset", "byte_offset", "address", "addr", NULL };
	/* No columns given: a header names them, else (a first line of more
	 * digits than letters, or has-header=false) the MSR layout. */
	struct csv_spec given = cs->sp;
	if (!given.id_col && !given.size_col && !given.op_col && !given.time_col && given.has_header != 1) {
		size_t n;
		const uint8_t *p = input_peek(r->in, 4096, &n);
		size_t letters = 0, digits = 0;
		for (size_t i = 0; i < n && p[i] != '\n'; i++) {
			letters += (p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'z';
			digits += p[i] >= '0' && p[i] <= '9';
		}
		if (digits > letters || given.has_header == 0) {
			cs->sp.time_col = 1;
			cs->sp.op_col = 4;
			cs->sp.id_col = 5;
			cs->sp.size_col = 6;
		}
	}
	if (!csv_setup(r, cs, ids, err, errlen))
		return false;
	if (!cs->sp.size_col) {
		snprintf(err, errlen, "%s: which column holds the request size? (--spec size-col=N)", input_name(r->in));
		return false;
	}
	return true;
}

static int block_record(struct trace_reader *r, struct span *s)
{
	struct csv_state *cs = r->st;
	for (;;) {
		size_t nf;
		int rc = csv_row(r, cs, &nf);
		if (rc <= 0)
			return rc;
		uint64_t off, size;
		memset(s, 0, sizeof(*s));
		if (!csv_num(r, cs, nf, cs->sp.id_col, "offset", &off) || !csv_num(r, cs, nf, cs->sp.size_col, "size", &size))
			return -1;
		int w;
		if (!csv_time_op(r, cs, nf, &s->ref.time, &w))
			return -1;
		if (size == 0)
			continue;
		if (size - 1 > UINT64_MAX - off)
			return reader_fail(r, "request runs past 2^64 bytes");
		s->ref.page = off >> 12;
		s->npages = ((off + size - 1) >> 12) - (off >> 12) + 1;
		s->mode = w ? SPAN_WRITE : SPAN_READ;
		return 1;
	}
}


const struct format_ops fmt_block = {
	.fmt = TRACE_FMT_BLOCK,
	.name = "block",
	.open = block_open,
	.record = block_record,
	.close = reader_free_state,
};
