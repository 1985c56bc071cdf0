/* json.h - a small JSON reader for the engine's own results files (one
 * object per line).  Whole RFC 8259 values: objects keep their keys in
 * order, numbers are doubles, strings are UTF-8 with escapes decoded.
 * Nesting deeper than JSON_MAX_DEPTH is refused, so no input can exhaust
 * the stack. */
#ifndef PAGELAB_JSON_H
#define PAGELAB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ };

struct json {
	enum json_type type;
	bool b;
	double num;
	char *str;              /* JSON_STR */
	int n;                  /* JSON_ARR / JSON_OBJ: items */
	char **keys;            /* JSON_OBJ */
	struct json *items;
};

/* Parse exactly one value (surrounding blanks allowed) from s[0..len);
 * NULL with a message ("column 12: expected ':'") in err on bad input. */
struct json *json_parse(const char *s, size_t len, char *err, size_t errlen);
void json_free(struct json *v);
/* Member key of an object, or NULL (also when v is no object). */
const struct json *json_get(const struct json *v, const char *key);
/* Typed members: false when missing or of another type. */
bool json_get_num(const struct json *v, const char *key, double *out);
const char *json_get_str(const struct json *v, const char *key);
bool json_get_bool(const struct json *v, const char *key, bool *out);

/* Write s as a JSON string (quotes, escapes). */
void json_put_str(FILE *out, const char *s);

#endif
