/* csvrow.c - see csvrow.h.  Delimiter and header detection follow
 * libCacheSim's traceReader/generalReader/csv.c: the delimiter is the most
 * frequent of tab, comma, pipe and colon in the first line, weighted 4, 3,
 * 2, 1; the first line is a header unless it holds more digits than
 * letters (hex digits a-f counting as either). */
#include "csvrow.h"
#include "../lib/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

bool csv_spec_parse(const char *s, struct csv_spec *sp, char *err, size_t errlen)
{
	while (*(s = skip_blank(s))) {
		const char *eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errlen, "bad trace spec near '%s' (expected key=value)", s);
			return false;
		}
		size_t klen = (size_t)(eq - s);
		while (klen && (s[klen - 1] == ' ' || s[klen - 1] == '\t'))
			klen--;
		const char *v = eq + 1;
		const char *next;
		char val[32];
		if (klen == 9 && !strncmp(s, "delimiter", 9)) {
			/* The delimiter may itself be a comma: take one character
			 * (or "\t", "tab"). */
			if (!strncmp(v, "\\t", 2)) {
				sp->delim = '\t';
				next = v + 2;
			} else if (!strncmp(v, "tab", 3)) {
				sp->delim = '\t';
				next = v + 3;
			} else if (*v && *v != '\n' && *v != '"') {
				sp->delim = *v;
				next = v + 1;
			} else {
				snprintf(err, errlen, "bad trace spec: delimiter needs a character");
				return false;
			}
		} else {
			v = skip_blank(v);
			size_t vl = strcspn(v, ",");
			next = v + vl;
			while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
				vl--;
			if (vl == 0 || vl >= sizeof(val)) {
				snprintf(err, errlen, "bad trace spec: bad value for '%.*s'", (int)klen, s);
				return false;
			}
			memcpy(val, v, vl);
			val[vl] = 0;
			int *col = NULL;
			if ((klen == 10 && !strncmp(s, "obj-id-col", 10)) || (klen == 10 && !strncmp(s, "offset-col", 10)))
				col = &sp->id_col;
			else if (klen == 8 && !strncmp(s, "time-col", 8))
				col = &sp->time_col;
			else if ((klen == 12 && !strncmp(s, "obj-size-col", 12)) || (klen == 8 && !strncmp(s, "size-col", 8)))
				col = &sp->size_col;
			else if (klen == 6 && !strncmp(s, "op-col", 6))
				col = &sp->op_col;
			bool *flag = NULL;
			int *tri = NULL;
			if (klen == 10 && !strncmp(s, "has-header", 10))
				tri = &sp->has_header;
			else if (klen == 13 && !strncmp(s, "obj-id-is-num", 13))
				flag = &sp->id_is_num;
			if (col) {
				uint64_t c;
				if (!parse_u64(val, &c) || c < 1 || c > CSV_MAX_FIELDS) {
					snprintf(err, errlen, "bad trace spec: %.*s must be a column from 1 to %d",
						 (int)klen, s, CSV_MAX_FIELDS);
					return false;
				}
				*col = (int)c;
			} else if (flag || tri) {
				bool b;
				if (!strcmp(val, "true") || !strcmp(val, "1") || !strcmp(val, "yes"))
					b = true;
				else if (!strcmp(val, "false") || !strcmp(val, "0") || !strcmp(val, "no"))
					b = false;
				else {
					snprintf(err, errlen, "bad trace spec: %.*s must be true or false", (int)klen, s);
					return false;
				}
				if (flag)
					*flag = b;
				else
					*tri = b;
			} else {
				snprintf(err, errlen, "bad trace spec: unknown key '%.*s' (obj-id-col, time-col, obj-size-col, op-col, "
					 "delimiter, has-header, obj-id-is-num)", (int)klen, s);
				return false;
			}
		}
		next = skip_blank(next);
		if (*next == ',')
			next++;
		else if (*next) {
			snprintf(err, errlen, "bad trace spec near '%s' (pairs are separated by commas)", next);
			return false;
		}
		s = next;
	}
	return true;
}

/* Split line (modified in place) at delim; fields may be double-quoted. */
static size_t split(char *line, size_t len, char delim, char **f, size_t *fl)
{
	size_t nf = 0, i = 0;
	while (len && (line[len - 1] == '\r'))
		line[--len] = 0;
	for (;;) {
		if (nf == CSV_MAX_FIELDS)
			return nf + 1;
		if (i < len && line[i] == '"') {
			size_t o = ++i, w = i;
			while (i < len) {
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						line[w++] = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				line[w++] = line[i++];
			}
			f[nf] = line + o;
			fl[nf++] = w - o;
			while (i < len && line[i] != delim)
				i++;
		} else {
			size_t o = i;
			while (i < len && line[i] != delim)
				i++;
			f[nf] = line + o;
			fl[nf++] = i - o;
		}
		if (i >= len)
			return nf;
		i++; /* the delimiter */
	}
}

static char detect_delim(const char *l, size_t len)
{
	static const char cand[4] = { '\t', ',', '|', ':' };
	int best = 0;
	char d = ',';
	for (int i = 0; i < 4; i++) {
		int c = 0;
		for (size_t k = 0; k < len; k++)
			c += l[k] == cand[i];
		if (c * (4 - i) > best) {
			best = c * (4 - i);
			d = cand[i];
		}
	}
	return d;
}

static bool looks_like_header(const char *l, size_t len)
{
	int digit = 0, letter = 0, af = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)l[i];
		if (isdigit(c))
			digit++;
		else if (isalpha(c)) {
			letter++;
			af += (c | 0x20) >= 'a' && (c | 0x20) <= 'f';
		}
	}
	(void)af; /* libCacheSim: more digits than letters means data; else a header */
	return !(digit > letter);
}

static int find_col(char **f, size_t *fl, size_t nf, const char *const *names)
{
	for (const char *const *n = names; *n; n++)
		for (size_t i = 0; i < nf && i < CSV_MAX_FIELDS; i++) {
			size_t k = strlen(*n);
			const char *s = f[i];
			size_t sl = fl[i];
			while (sl && *s == ' ') {
				s++;
				sl--;
			}
			while (sl && s[sl - 1] == ' ')
				sl--;
			if (sl == k && !strncasecmp(s, *n, k))
				return (int)i + 1;
		}
	return 0;
}

bool csv_setup(struct trace_reader *r, struct csv_state *cs, const char *const *id_names,
	       char *err, size_t errlen)
{
	size_t n;
	const uint8_t *p = input_peek(r->in, 1 << 16, &n);
	const char *l = (const char *)p;
	size_t len = 0;
	while (len < n && l[len] != '\n')
		len++;
	char *first = xmalloc(len + 1);
	memcpy(first, l, len);
	first[len] = 0;
	if (!cs->sp.delim)
		cs->sp.delim = detect_delim(first, len);
	if (cs->sp.has_header < 0)
		cs->sp.has_header = len > 0 && looks_like_header(first, len);
	cs->skip_header = cs->sp.has_header;
	if (cs->sp.has_header) {
		size_t nf = split(first, len, cs->sp.delim, cs->field, cs->flen);
		static const char *const tnames[] = { "time", "timestamp", "ts", "clock_time", NULL };
		static const char *const snames[] = { "size", "obj_size", "len", "length", "bytes", NULL };
		static const char *const onames[] = { "op", "type", "cmd", "rw", "operation", NULL };
		if (!cs->sp.id_col)
			cs->sp.id_col = find_col(cs->field, cs->flen, nf, id_names);
		if (!cs->sp.time_col)
			cs->sp.time_col = find_col(cs->field, cs->flen, nf, tnames);
		if (!cs->sp.size_col)
			cs->sp.size_col = find_col(cs->field, cs->flen, nf, snames);
		if (!cs->sp.op_col)
			cs->sp.op_col = find_col(cs->field, cs->flen, nf, onames);
	}
	free(first);
	if (!cs->sp.id_col) {
		snprintf(err, errlen, "%s: which column holds the %s? (--spec %s=N)", input_name(r->in),
			 r->opts.format == TRACE_FMT_BLOCK ? "byte offset" : "object id",
			 r->opts.format == TRACE_FMT_BLOCK ? "offset-col" : "obj-id-col");
		return false;
	}
	return true;
}

int csv_row(struct trace_reader *r, struct csv_state *cs, size_t *nf)
{
	char *l;
	size_t len;
	for (;;) {
		int rc = reader_line(r, &l, &len);
		if (rc <= 0)
			return rc;
		if (cs->skip_header) {
			cs->skip_header = false;
			continue;
		}
		size_t k = 0;
		while (k < len && (l[k] == ' ' || l[k] == '\t' || l[k] == '\r'))
			k++;
		if (k == len)
			continue;
		*nf = split(l, len, cs->sp.delim, cs->field, cs->flen);
		if (*nf > CSV_MAX_FIELDS)
			return reader_fail(r, "more than %d fields", CSV_MAX_FIELDS);
		return 1;
	}
}

bool csv_num(struct trace_reader *r, struct csv_state *cs, size_t nf, int col, const char *what, uint64_t *v)
{
	if ((size_t)col > nf) {
		reader_fail(r, "no column %d (%s): the row has %zu", col, what, nf);
		return false;
	}
	const char *s = cs->field[col - 1];
	size_t len = cs->flen[col - 1];
	while (len && *s == ' ') {
		s++;
		len--;
	}
	while (len && s[len - 1] == ' ')
		len--;
	/* Timestamps may carry a fraction; the integer part is kept. */
	if (!strcmp(what, "time")) {
		const char *dot = memchr(s, '.', len);
		if (dot) {
			for (const char *q = dot + 1; q < s + len; q++)
				if (*q < '0' || *q > '9') {
					reader_fail(r, "bad %s '%.*s'", what, (int)MIN(len, 40), s);
					return false;
				}
			len = (size_t)(dot - s);
		}
	}
	if (!parse_id(s, len, v)) {
		reader_fail(r, "bad %s '%.*s'", what, (int)MIN(len, 40), s);
		return false;
	}
	return true;
}

bool csv_time_op(struct trace_reader *r, struct csv_state *cs, size_t nf, uint64_t *time, int *write)
{
	*write = 0;
	if (cs->sp.time_col && !csv_num(r, cs, nf, cs->sp.time_col, "time", time))
		return false;
	return !cs->sp.op_col || (*write = csv_op(r, cs, nf)) >= 0;
}

int csv_op(struct trace_reader *r, struct csv_state *cs, size_t nf)
{
	if ((size_t)cs->sp.op_col > nf)
		return reader_fail(r, "no column %d (op): the row has %zu", cs->sp.op_col, nf);
	const char *s = cs->field[cs->sp.op_col - 1];
	size_t len = cs->flen[cs->sp.op_col - 1];
	while (len && *s == ' ') {
		s++;
		len--;
	}
	while (len && s[len - 1] == ' ')
		len--;
	static const char *const reads[] = { "r", "read", "get", "gets", "28", "0x28", "88", "0x88", "a8", "0xa8", "8", "08", "0x08", NULL };
	static const char *const writes[] = { "w", "write", "set", "put", "add", "replace", "2a", "0x2a", "8a", "0x8a",
					      "aa", "0xaa", "0a", "0x0a", NULL };
	for (int i = 0; reads[i]; i++)
		if (strlen(reads[i]) == len && !strncasecmp(s, reads[i], len))
			return 0;
	for (int i = 0; writes[i]; i++)
		if (strlen(writes[i]) == len && !strncasecmp(s, writes[i], len))
			return 1;
	return reader_fail(r, "unknown op '%.*s' (reads: r, read, get, SCSI 28; writes: w, write, set, put, SCSI 2a)",
			   (int)MIN(len, 40), s);
}
