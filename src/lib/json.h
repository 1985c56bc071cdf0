/* json.h - JSON string output shared by every --json writer. */
#ifndef PAGELAB_LIB_JSON_H
#define PAGELAB_LIB_JSON_H

#include <stdio.h>

/* Write s (NULL: "") as a JSON string.  Quote, backslash and control
 * characters are escaped; s is taken as UTF-8, and each byte that is not
 * part of a valid UTF-8 sequence (a Latin-1 file name, a truncated
 * character, an overlong form, a surrogate) becomes U+FFFD, the
 * replacement character, so the output is always valid JSON and UTF-8. */
void json_str(FILE *out, const char *s);

/* The length of the valid UTF-8 sequence at s (1-4), or 0 if the byte at
 * s does not start one.  s[0] must not be 0. */
int utf8_seq_len(const unsigned char *s);

#endif
