/* reader.c - the trace reader interface (trace_reader.h): format
 * detection, the batch loop that splits multi-page records, and the
 * helpers the formats share. */
#include "format.h"
#include "../lib/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const struct format_ops *const formats[TRACE_FMT_COUNT] = {
	[TRACE_FMT_TEXT] = &fmt_text,
	[TRACE_FMT_LACKEY] = &fmt_lackey,
	[TRACE_FMT_CSV] = &fmt_csv,
	[TRACE_FMT_TXT] = &fmt_txt,
	[TRACE_FMT_ORACLE] = &fmt_oracle,
	[TRACE_FMT_VSCSI] = &fmt_vscsi,
	[TRACE_FMT_BLOCK] = &fmt_block,
	[TRACE_FMT_BIN] = &fmt_bin,
};

const char *trace_format_name(enum trace_format f)
{
	if (f <= TRACE_FMT_AUTO || f >= TRACE_FMT_COUNT)
		return "auto";
	return formats[f]->name;
}

bool trace_format_parse(const char *name, enum trace_format *f)
{
	if (!strcmp(name, "auto")) {
		*f = TRACE_FMT_AUTO;
		return true;
	}
	if (!strcmp(name, "oracleGeneral")) {
		*f = TRACE_FMT_ORACLE;
		return true;
	}
	for (int i = TRACE_FMT_AUTO + 1; i < TRACE_FMT_COUNT; i++)
		if (!strcmp(name, formats[i]->name)) {
			*f = (enum trace_format)i;
			return true;
		}
	return false;
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && !strncmp(s + len - n, suffix, n);
}

/* The format a file name says, after a compression suffix. */
static enum trace_format by_extension(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	static const char *const codecs[] = { ".zst", ".zstd", ".gz" };
	for (size_t i = 0; i < ARRAY_SIZE(codecs); i++)
		if (ends_with(base, len, codecs[i])) {
			len -= strlen(codecs[i]);
			break;
		}
	static const struct { const char *ext; enum trace_format f; } ext[] = {
		{ ".csv", TRACE_FMT_CSV }, { ".txt", TRACE_FMT_TXT },
		{ ".oracleGeneral", TRACE_FMT_ORACLE }, { ".oracleGeneral.bin", TRACE_FMT_ORACLE },
		{ ".vscsi", TRACE_FMT_VSCSI }, { ".lackey", TRACE_FMT_LACKEY },
		{ ".pgtrace", TRACE_FMT_BIN }, { ".trace", TRACE_FMT_TEXT },
		{ ".block", TRACE_FMT_BLOCK }, { ".blk", TRACE_FMT_BLOCK },
	};
	for (size_t i = 0; i < ARRAY_SIZE(ext); i++)
		if (ends_with(base, len, ext[i].ext))
			return ext[i].f;
	return TRACE_FMT_AUTO;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The format the first bytes look like. */
static enum trace_format by_content(const uint8_t *p, size_t n)
{
	if (n >= 8 && !memcmp(p, "PGLTRACE", 8))
		return TRACE_FMT_BIN;
	/* vscsi: the version byte of the first two records (libCacheSim's test). */
	if (n >= 80 && (get_le16(p + 2) >> 8) == 2 && (get_le16(p + 42) >> 8) == 2)
		return TRACE_FMT_VSCSI;
	if (n >= 64 && (get_le16(p + 14) >> 8) == 1 && (get_le16(p + 46) >> 8) == 1)
		return TRACE_FMT_VSCSI;
	if (memchr(p, 0, n))
		return TRACE_FMT_AUTO;
	/* The first line that is not blank or a comment. */
	size_t i = 0;
	while (i < n) {
		size_t e = i;
		while (e < n && p[e] != '\n')
			e++;
		const char *l = (const char *)p + i;
		size_t len = e - i;
		size_t k = 0;
		if (len >= 2 && l[0] == '=' && l[1] == '=')
			return TRACE_FMT_LACKEY;
		if (len >= 3 && ((l[0] == 'I' && l[1] == ' ') ||
				 (l[0] == ' ' && strchr("LSM", l[1]) && l[1] && l[2] == ' ')))
			return TRACE_FMT_LACKEY;
		while (k < len && is_blank(l[k]))
			k++;
		if (k == len || l[k] == '#') {
			i = e + 1;
			continue;
		}
		if (memchr(l, ',', len) || memchr(l, '\t', len))
			return TRACE_FMT_CSV;
		size_t t0 = k;
		while (k < len && !is_blank(l[k]))
			k++;
		uint64_t v;
		if (!parse_id(l + t0, k - t0, &v))
			return TRACE_FMT_AUTO;
		while (k < len && is_blank(l[k]))
			k++;
		if (k == len)
			return TRACE_FMT_TXT;
		return TRACE_FMT_TEXT;
	}
	return TRACE_FMT_TEXT; /* nothing but comments: an empty text trace */
}

static struct trace_reader *reader_open(struct input *in, const char *path, const struct trace_opts *o,
					char *err, size_t errlen)
{
	enum trace_format f = o ? o->format : TRACE_FMT_AUTO;
	/* Refused at its first bytes (compressed by a library this build
	 * lacks, a read error): the file's error, not a record's. */
	if (input_error(in)[0]) {
		snprintf(err, errlen, "%s: %s", path, input_error(in));
		input_close(in);
		return NULL;
	}
	if (f == TRACE_FMT_AUTO) {
		size_t n;
		const uint8_t *p = input_peek(in, 4096, &n);
		if (n >= 8 && !memcmp(p, "PGLTRACE", 8))
			f = TRACE_FMT_BIN;
		if (f == TRACE_FMT_AUTO)
			f = by_extension(path);
		if (f == TRACE_FMT_AUTO)
			f = by_content(p, n);
		if (f == TRACE_FMT_AUTO && input_error(in)[0]) {
			snprintf(err, errlen, "%s: %s", path, input_error(in));
			input_close(in);
			return NULL;
		}
		if (f == TRACE_FMT_AUTO) {
			snprintf(err, errlen, "%s: cannot tell the trace format (give --format: %s)", path,
				 TRACE_FORMAT_NAMES);
			input_close(in);
			return NULL;
		}
	}
	struct trace_reader *r = xcalloc(1, sizeof(*r));
	r->in = in;
	r->ops = formats[f];
	if (o)
		r->opts = *o;
	r->opts.format = f;
	if (r->ops->open && !r->ops->open(r, err, errlen)) {
		/* A header that looked wrong because the data broke off (a
		 * truncated or corrupt stream) is reported as that. */
		if (input_error(in)[0])
			snprintf(err, errlen, "%s: %s", path, input_error(in));
		trace_close(r);
		return NULL;
	}
	return r;
}

struct trace_reader *trace_open(const char *path, const struct trace_opts *o, char *err, size_t errlen)
{
	struct input *in = input_open(path, err, errlen);
	return in ? reader_open(in, path, o, err, errlen) : NULL;
}

struct trace_reader *trace_open_file(FILE *f, const char *name, const struct trace_opts *o, char *err, size_t errlen)
{
	return reader_open(input_from_file(f, name), name, o, err, errlen);
}

void trace_close(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->ops && r->ops->close)
		r->ops->close(r);
	input_close(r->in);
	free(r);
}

const char *trace_reader_error(const struct trace_reader *r) { return r->err; }
enum trace_format trace_reader_format(const struct trace_reader *r) { return r->ops->fmt; }

bool trace_reader_counts(const struct trace_reader *r, uint64_t *nrefs, uint64_t *npages)
{
	return r->ops->counts && r->ops->counts(r, nrefs, npages);
}

size_t trace_reader_host_bytes(const struct trace_reader *r)
{
	return sizeof(*r) + input_host_bytes(r->in);
}

int reader_fail(struct trace_reader *r, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, sizeof(r->err), "%s:%llu: %s", input_name(r->in), (unsigned long long)r->record, msg);
	r->failed = true;
	return -1;
}

int reader_line(struct trace_reader *r, char **line, size_t *len)
{
	r->record++;
	int rc = input_line(r->in, line, len);
	if (rc < 0)
		return reader_fail(r, "%s", input_error(r->in));
	if (rc == 0)
		r->record--;
	if (rc > 0 && memchr(*line, 0, *len))
		return reader_fail(r, "NUL byte in trace");
	return rc;
}

void reader_free_state(struct trace_reader *r)
{
	free(r->st);
}

int reader_bytes(struct trace_reader *r, void *buf, size_t n)
{
	r->record++;
	long got = input_read(r->in, buf, n);
	if (got < 0)
		return reader_fail(r, "%s", input_error(r->in));
	if (got == 0) {
		r->record--;
		return 0;
	}
	if ((size_t)got < n)
		return reader_fail(r, "truncated record (%ld of %zu bytes)", got, n);
	return 1;
}

/* The pages one record may cover: checked here, where every multi-page
 * record (block, lackey) is split, so no format can forget it. */
static uint64_t request_bound(const struct trace_reader *r)
{
	return r->opts.max_request ? r->opts.max_request : TRACE_MAX_REQUEST_DEFAULT;
}

long trace_next(struct trace_reader *r, struct trace_ref *out, size_t max)
{
	if (r->failed)
		return -1;
	if (r->ops->batch)
		return r->ops->batch(r, out, max);
	size_t n = 0;
	while (n < max) {
		struct span *s = &r->pend;
		uint64_t total = s->mode == SPAN_MODIFY ? 2 * s->npages : s->npages;
		if (r->pend_done < total) {
			uint64_t k = r->pend_done++;
			out[n] = s->ref;
			if (s->mode == SPAN_MODIFY) {
				out[n].page += k / 2;
				out[n].write = (uint8_t)(k & 1);
			} else {
				out[n].page += k;
				out[n].write = s->mode == SPAN_WRITE;
			}
			n++;
			continue;
		}
		int rc = r->ops->record(r, s);
		r->pend_done = 0;
		if (rc > 0 && s->npages > request_bound(r)) {
			uint64_t pages = s->npages;
			s->npages = 0;
			return reader_fail(r, "request of %llu pages is larger than %llu (--max-request)",
					   (unsigned long long)pages, (unsigned long long)request_bound(r));
		}
		if (rc < 0)
			return -1;
		if (rc == 0) {
			s->npages = 0;
			break;
		}
	}
	return (long)n;
}

long trace_next_dense(struct trace_reader *r, uint32_t *pages, uint8_t *writes, size_t max)
{
	if (r->failed)
		return -1;
	if (!r->ops->dense)
		return reader_fail(r, "the %s format has no dense page ids", r->ops->name);
	return r->ops->dense(r, pages, writes, max);
}

bool trace_view_ok(const struct trace_reader *r) { return r->ops->view != NULL; }

long trace_view_dense(struct trace_reader *r, const uint8_t **recs, size_t max, uint64_t distinct)
{
	if (r->failed)
		return -1;
	return r->ops->view(r, recs, max, distinct);
}

long trace_view_misordered(struct trace_reader *r, size_t i, uint32_t page, uint64_t distinct)
{
	return r->ops->misordered(r, i, page, distinct);
}

bool parse_hex(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		unsigned d;
		if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
		else return false;
		if (x >> 60)
			return false;
		x = (x << 4) | d;
	}
	*v = x;
	return true;
}

bool parse_id(const char *s, size_t len, uint64_t *v)
{
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_hex(s + 2, len - 2, v);
	if (len == 0)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

uint64_t hash_id(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 33);
}
