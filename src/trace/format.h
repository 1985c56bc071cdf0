/* format.h - what a trace format implements (one fmt_*.c file each) and
 * the helpers reader.c gives them.  Internal to src/trace/. */
#ifndef PAGELAB_TRACE_FORMAT_H
#define PAGELAB_TRACE_FORMAT_H

#include "trace_reader.h"
#include "input.h"

/* One record's references: npages consecutive pages from ref.page, each
 * read, written, or (lackey's M) read then written. */
enum span_mode { SPAN_READ, SPAN_WRITE, SPAN_MODIFY };
struct span {
	struct trace_ref ref;
	uint64_t npages;
	enum span_mode mode;
};

struct trace_reader {
	struct input *in;
	const struct format_ops *ops;
	void *st;                /* the format's state */
	struct trace_opts opts;
	uint64_t record;         /* number of the record being read (line for text) */
	struct span pend;        /* what is left of the last record */
	uint64_t pend_done;      /* references of pend already handed out */
	bool failed;
	char err[320];
};

struct format_ops {
	enum trace_format fmt;
	const char *name;
	/* Set up r->st (may peek at the input); false with err on failure. */
	bool (*open)(struct trace_reader *r, char *err, size_t errlen);
	/* The next record: 1 with *s filled, 0 at the end, -1 after
	 * reader_fail().  Records with npages == 0 are skipped. */
	int (*record)(struct trace_reader *r, struct span *s);
	/* Optional fast path used instead of record(): whole batches. */
	long (*batch)(struct trace_reader *r, struct trace_ref *out, size_t max);
	/* Optional, formats with dense ids (bin): trace_next_dense(). */
	long (*dense)(struct trace_reader *r, uint32_t *pages, uint8_t *writes, size_t max);
	/* Optional, with dense: trace_view_dense(), trace_view_misordered(). */
	long (*view)(struct trace_reader *r, const uint8_t **recs, size_t max, uint64_t distinct);
	long (*misordered)(struct trace_reader *r, size_t i, uint32_t page, uint64_t distinct);
	bool (*counts)(const struct trace_reader *r, uint64_t *nrefs, uint64_t *npages);
	void (*close)(struct trace_reader *r);
};

extern const struct format_ops fmt_text, fmt_lackey, fmt_csv, fmt_txt, fmt_oracle, fmt_vscsi, fmt_block, fmt_bin;

/* Record an error "NAME:RECORD: message" and return -1. */
int reader_fail(struct trace_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The next line (record counted), as input_line; errors already reported.
 * A line holding a NUL byte (a binary file) is an error. */
int reader_line(struct trace_reader *r, char **line, size_t *len);
/* free(r->st): the close of every format whose state is one allocation. */
void reader_free_state(struct trace_reader *r);
/* Exactly n bytes of the next binary record: 1, 0 at a clean end, -1 after
 * reporting a truncated record or read error. */
int reader_bytes(struct trace_reader *r, void *buf, size_t n);

/* Number parsing shared by the text formats: decimal or 0x hex, whole
 * token, no overflow. */
bool parse_id(const char *s, size_t len, uint64_t *v);
bool parse_hex(const char *s, size_t len, uint64_t *v);
/* A 64-bit hash of a non-numeric id (FNV-1a then a finaliser). */
uint64_t hash_id(const char *s, size_t len);

static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}
static inline uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

#endif
