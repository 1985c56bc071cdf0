/* fmt_oracle.c - libCacheSim's oracleGeneral binary trace: 24-byte
 * little-endian records
 *   u32 clock_time, u64 obj_id, u32 obj_size, i64 next_access_vtime
 * (field order from libCacheSim's traceReader/customizedReader/oracle/
 * oracleGeneralBin.h).  Every request is a read of one object; the size
 * is not used (pagelab's objects are pages) and the next-access field is
 * not trusted: OPT computes its own next uses.  libCacheSim can skip
 * size-zero requests (ignore_size_zero_req); pagelab replays them. */
#include "format.h"
#include "../lib/util.h"

#include <string.h>

#define ORACLE_RECORD 24
#define ORACLE_BATCH 4096

static long oracle_batch(struct trace_reader *r, struct trace_ref *out, size_t max)
{
	uint8_t buf[ORACLE_RECORD * 256];
	size_t n = 0;
	while (n < max) {
		size_t want = MIN(max - n, sizeof(buf) / ORACLE_RECORD);
		long got = input_read(r->in, buf, want * ORACLE_RECORD);
		if (got < 0) {
			r->record += n + 1;
			return reader_fail(r, "%s", input_error(r->in));
		}
		size_t recs = (size_t)got / ORACLE_RECORD;
		for (size_t i = 0; i < recs; i++) {
			const uint8_t *p = buf + i * ORACLE_RECORD;
			memset(&out[n], 0, sizeof(out[n]));
			out[n].time = get_le32(p);
			out[n].page = get_le64(p + 4);
			n++;
		}
		r->record += recs;
		if ((size_t)got % ORACLE_RECORD) {
			r->record++;
			return reader_fail(r, "truncated record (%zu of %d bytes)", (size_t)got % ORACLE_RECORD, ORACLE_RECORD);
		}
		if (recs < want)
			break;
	}
	return (long)n;
}

const struct format_ops fmt_oracle = {
	.fmt = TRACE_FMT_ORACLE,
	.name = "oracle",
	.batch = oracle_batch,
};
