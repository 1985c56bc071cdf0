/* fmt_vscsi.c - VMware's vscsi block traces, as libCacheSim reads them
 * (traceReader/customizedReader/vscsi.h): fixed records, little-endian,
 *   version 1 (32 bytes): u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver,
 *                         u64 lbn, u64 ts
 *   version 2 (40 bytes): u16 cmd, u16 ver, u32 sn, u32 len, u32 nSG,
 *                         u64 lbn, u64 ts, u64 rt
 * the version being ver >> 8, told from the first two records.  Like
 * libCacheSim, each request is one object, its lbn (the byte length is not
 * split into pages), so the fault counts match its miss counts.  Unlike
 * it, the SCSI opcode is read: WRITE(6/10/12/16) are writes; and every
 * record must carry the trace's version, so garbage is an error, not a
 * request. */
#include "format.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

struct vscsi { int ver; size_t recsize; };

static int version_at(const uint8_t *p, int ver)
{
	return (get_le16(p + (ver == 1 ? 14 : 2)) >> 8) == ver;
}

static bool vscsi_open(struct trace_reader *r, char *err, size_t errlen)
{
	size_t n;
	const uint8_t *p = input_peek(r->in, 80, &n);
	struct vscsi *v = xcalloc(1, sizeof(*v));
	r->st = v;
	if (n >= 40 && version_at(p, 2) && (n < 80 || version_at(p + 40, 2)))
		v->ver = 2;
	else if ((n >= 32 && version_at(p, 1) && (n < 64 || version_at(p + 32, 1))) || n == 0)
		v->ver = 1;
	else {
		snprintf(err, errlen, "%s:1: not a vscsi trace (no version 1 or 2 record)", input_name(r->in));
		return false;
	}
	v->recsize = v->ver == 1 ? 32 : 40;
	return true;
}

static bool scsi_write(unsigned cmd)
{
	return cmd == 0x0a || cmd == 0x2a || cmd == 0xaa || cmd == 0x8a;
}

static int vscsi_record(struct trace_reader *r, struct span *s)
{
	struct vscsi *v = r->st;
	uint8_t b[40];
	int rc = reader_bytes(r, b, v->recsize);
	if (rc <= 0)
		return rc;
	if (!version_at(b, v->ver))
		return reader_fail(r, "record of another vscsi version than the trace's (%d)", v->ver);
	memset(s, 0, sizeof(*s));
	unsigned cmd = v->ver == 1 ? get_le16(b + 12) : get_le16(b);
	s->ref.page = get_le64(b + 16);
	s->ref.time = get_le64(b + 24);
	s->npages = 1;
	s->mode = scsi_write(cmd & 0xff) ? SPAN_WRITE : SPAN_READ;
	return 1;
}


const struct format_ops fmt_vscsi = {
	.fmt = TRACE_FMT_VSCSI,
	.name = "vscsi",
	.open = vscsi_open,
	.record = vscsi_record,
	.close = reader_free_state,
};
