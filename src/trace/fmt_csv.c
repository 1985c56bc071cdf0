/* fmt_csv.c - libCacheSim's csv traces: one request per row, columns
 * chosen as libCacheSim's -t option chooses them ("obj-id-col=5,
 * time-col=2, obj-size-col=4, delimiter=,, has-header=true"), given to
 * pagelab as --spec.  Columns the spec leaves out are found by the
 * header's names (obj_id, id, key, lbn, ... ; time; op), so libCacheSim's
 * own samples need no spec.  Every request is one object, a read unless
 * an op column says write.  A non-numeric id (or any id, with
 * obj-id-is-num=false) is hashed to 64 bits, as fmt_txt.c says. */
#include "csvrow.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

static bool csv_open(struct trace_reader *r, char *err, size_t errlen)
{
	struct csv_state *cs = xcalloc(1, sizeof(*cs));
	r->st = cs;
	cs->sp.has_header = -1;
	cs->sp.id_is_num = true;
	if (r->opts.spec && !csv_spec_parse(r->opts.spec, &cs->sp, err, errlen))
		return false;
	static const char *const ids[] = { "obj_id", "obj-id", "objid", "id", "key", "lbn", "lba", "block",
					   "page", "addr", "address", NULL };
	return csv_setup(r, cs, ids, err, errlen);
}

static int csv_record(struct trace_reader *r, struct span *s)
{
	struct csv_state *cs = r->st;
	size_t nf;
	int rc = csv_row(r, cs, &nf);
	if (rc <= 0)
		return rc;
	memset(s, 0, sizeof(*s));
	int col = cs->sp.id_col;
	if ((size_t)col > nf)
		return reader_fail(r, "no column %d (object id): the row has %zu", col, nf);
	const char *id = cs->field[col - 1];
	size_t idl = cs->flen[col - 1];
	if (idl == 0)
		return reader_fail(r, "empty object id");
	if (!cs->sp.id_is_num || !parse_id(id, idl, &s->ref.page))
		s->ref.page = hash_id(id, idl);
	int w;
	if (!csv_time_op(r, cs, nf, &s->ref.time, &w))
		return -1;
	s->npages = 1;
	s->mode = w ? SPAN_WRITE : SPAN_READ;
	return 1;
}


const struct format_ops fmt_csv = {
	.fmt = TRACE_FMT_CSV,
	.name = "csv",
	.open = csv_open,
	.record = csv_record,
	.close = reader_free_state,
};
