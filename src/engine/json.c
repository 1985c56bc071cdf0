/* json.c - a recursive-descent JSON reader (json.h).  Written for the
 * results files the engine writes itself, but strict about the grammar so
 * that a hand-edited or truncated file is refused with a position rather
 * than misread. */
#include "json.h"
#include "../lib/json.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *s;
	size_t len, pos;
	char *err;
	size_t errlen;
	bool failed;
};

static bool fail(struct parser *p, const char *what)
{
	if (!p->failed)
		snprintf(p->err, p->errlen, "column %zu: %s", p->pos + 1, what);
	p->failed = true;
	return false;
}

static void skip_blanks(struct parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
				   p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static int peek(const struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static bool literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);
	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return fail(p, "unknown literal");
	p->pos += n;
	return true;
}

static int hex4(struct parser *p)
{
	if (p->len - p->pos < 4)
		return -1;
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p->s[p->pos + (size_t)i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	p->pos += 4;
	return v;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at p->pos (the opening quote); decoded into a new buffer, which
 * is never longer than the source text. */
static char *string(struct parser *p)
{
	p->pos++;
	char *o = xmalloc(p->len - p->pos + 1);
	size_t n = 0;
	for (;;) {
		if (p->pos >= p->len) {
			free(o);
			fail(p, "unterminated string");
			return NULL;
		}
		unsigned char c = (unsigned char)p->s[p->pos++];
		if (c == '"')
			break;
		if (c < 0x20) {
			free(o);
			fail(p, "control character in a string");
			return NULL;
		}
		if (c != '\\') {
			o[n++] = (char)c;
			continue;
		}
		int e = peek(p);
		p->pos++;
		switch (e) {
		case '"': o[n++] = '"'; break;
		case '\\': o[n++] = '\\'; break;
		case '/': o[n++] = '/'; break;
		case 'b': o[n++] = '\b'; break;
		case 'f': o[n++] = '\f'; break;
		case 'n': o[n++] = '\n'; break;
		case 'r': o[n++] = '\r'; break;
		case 't': o[n++] = '\t'; break;
		case 'u': {
			int cp = hex4(p);
			if (cp < 0) {
				free(o);
				fail(p, "bad \\u escape");
				return NULL;
			}
			/* A surrogate pair is one code point; a lone surrogate
			 * becomes U+FFFD rather than invalid UTF-8.  Six source
			 * bytes give at most four output bytes, twelve at most
			 * four: the buffer stays large enough. */
			unsigned u = (unsigned)cp;
			if (u >= 0xd800 && u < 0xdc00 && p->len - p->pos >= 6 && p->s[p->pos] == '\\' &&
			    p->s[p->pos + 1] == 'u') {
				size_t save = p->pos;
				p->pos += 2;
				int lo = hex4(p);
				if (lo >= 0xdc00 && lo < 0xe000)
					u = 0x10000 + ((u - 0xd800) << 10) + ((unsigned)lo - 0xdc00);
				else
					p->pos = save;
			}
			if (u >= 0xd800 && u < 0xe000)
				u = 0xfffd;
			n += put_utf8(o + n, u);
			break;
		}
		default:
			free(o);
			fail(p, "bad escape in a string");
			return NULL;
		}
	}
	o[n] = 0;
	return o;
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool number(struct parser *p, double *v)
{
	size_t start = p->pos;
	if (peek(p) == '-')
		p->pos++;
	if (peek(p) == '0') {
		p->pos++;
	} else if (is_digit(peek(p))) {
		while (is_digit(peek(p)))
			p->pos++;
	} else {
		return fail(p, "bad number");
	}
	if (peek(p) == '.') {
		p->pos++;
		if (!is_digit(peek(p)))
			return fail(p, "bad number");
		while (is_digit(peek(p)))
			p->pos++;
	}
	if (peek(p) == 'e' || peek(p) == 'E') {
		p->pos++;
		if (peek(p) == '+' || peek(p) == '-')
			p->pos++;
		if (!is_digit(peek(p)))
			return fail(p, "bad number");
		while (is_digit(peek(p)))
			p->pos++;
	}
	char buf[64];
	size_t n = p->pos - start;
	if (n >= sizeof(buf))
		return fail(p, "number too long");
	memcpy(buf, p->s + start, n);
	buf[n] = 0;
	*v = strtod(buf, NULL);
	return true;
}

static bool value(struct parser *p, struct json *v, int depth);

static bool array(struct parser *p, struct json *v, int depth)
{
	v->type = JSON_ARR;
	p->pos++;
	skip_blanks(p);
	if (peek(p) == ']') {
		p->pos++;
		return true;
	}
	for (;;) {
		v->items = xrealloc(v->items, (size_t)(v->n + 1) * sizeof(*v->items));
		memset(&v->items[v->n], 0, sizeof(*v->items));
		v->n++;
		if (!value(p, &v->items[v->n - 1], depth + 1))
			return false;
		skip_blanks(p);
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) == ']') {
			p->pos++;
			return true;
		}
		return fail(p, "expected ',' or ']'");
	}
}

static bool object(struct parser *p, struct json *v, int depth)
{
	v->type = JSON_OBJ;
	p->pos++;
	skip_blanks(p);
	if (peek(p) == '}') {
		p->pos++;
		return true;
	}
	for (;;) {
		skip_blanks(p);
		if (peek(p) != '"')
			return fail(p, "expected a key");
		char *k = string(p);
		if (!k)
			return false;
		v->items = xrealloc(v->items, (size_t)(v->n + 1) * sizeof(*v->items));
		v->keys = xrealloc(v->keys, (size_t)(v->n + 1) * sizeof(*v->keys));
		memset(&v->items[v->n], 0, sizeof(*v->items));
		v->keys[v->n] = k;
		v->n++;
		skip_blanks(p);
		if (peek(p) != ':')
			return fail(p, "expected ':'");
		p->pos++;
		if (!value(p, &v->items[v->n - 1], depth + 1))
			return false;
		skip_blanks(p);
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) == '}') {
			p->pos++;
			return true;
		}
		return fail(p, "expected ',' or '}'");
	}
}

static bool value(struct parser *p, struct json *v, int depth)
{
	if (depth > JSON_MAX_DEPTH)
		return fail(p, "nested too deeply");
	skip_blanks(p);
	switch (peek(p)) {
	case '{': return object(p, v, depth);
	case '[': return array(p, v, depth);
	case '"':
		v->type = JSON_STR;
		v->str = string(p);
		return v->str != NULL;
	case 't': v->type = JSON_BOOL; v->b = true; return literal(p, "true");
	case 'f': v->type = JSON_BOOL; v->b = false; return literal(p, "false");
	case 'n': v->type = JSON_NULL; return literal(p, "null");
	case -1: return fail(p, "unexpected end");
	default:
		v->type = JSON_NUM;
		return number(p, &v->num);
	}
}

static void free_members(struct json *v)
{
	for (int i = 0; i < v->n; i++) {
		free_members(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
}

void json_free(struct json *v)
{
	if (!v)
		return;
	free_members(v);
	free(v);
}

struct json *json_parse(const char *s, size_t len, char *err, size_t errlen)
{
	struct parser p = { .s = s, .len = len, .err = err, .errlen = errlen };
	struct json *v = xcalloc(1, sizeof(*v));
	if (value(&p, v, 0)) {
		skip_blanks(&p);
		if (p.pos < p.len)
			fail(&p, "text after the value");
	}
	if (p.failed) {
		json_free(v);
		return NULL;
	}
	return v;
}

const struct json *json_get(const struct json *v, const char *key)
{
	if (!v || v->type != JSON_OBJ)
		return NULL;
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

bool json_get_num(const struct json *v, const char *key, double *out)
{
	const struct json *x = json_get(v, key);
	if (!x || x->type != JSON_NUM)
		return false;
	*out = x->num;
	return true;
}

const char *json_get_str(const struct json *v, const char *key)
{
	const struct json *x = json_get(v, key);
	return x && x->type == JSON_STR ? x->str : NULL;
}

bool json_get_bool(const struct json *v, const char *key, bool *out)
{
	const struct json *x = json_get(v, key);
	if (!x || x->type != JSON_BOOL)
		return false;
	*out = x->b;
	return true;
}

/* One writer of JSON strings for the whole program: lib/json.c's, which
 * also keeps the output valid UTF-8 (U+FFFD for bytes that are not). */
void json_put_str(FILE *out, const char *s)
{
	json_str(out, s);
}
