/* profile_file.c - machine profiles read from files (profile_file.h).
 *
 * The format is the one `machines --show` prints, so a printed profile
 * edited by hand loads back: `NAME = VALUE`, or `NAME VALUE` as that
 * listing aligns it, `#` to the end of a line a comment.  The first
 * setting names the preset the file starts from (`machine = modern`);
 * every parameter the file does not set keeps the preset's value. */
#include "profile_file.h"
#include "../lib/util.h"
#include "../lib/wrap.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool profile_is_file(const char *name)
{
	return name && strchr(name, '/') != NULL;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

/* Split "NAME = VALUE" or "NAME VALUE" at *value; false: no value. */
static bool split_setting(char *line, char **value)
{
	char *sep = line + strcspn(line, "= \t");
	if (!*sep)
		return false;
	bool eq = *sep == '=';
	*sep = 0;
	char *v = trim(sep + 1);
	if (!eq && *v == '=')
		v = trim(v + 1);
	*value = v;
	return *v != 0;
}

/* One setting, the first of which names the preset. */
static bool apply_setting(struct profile *p, bool *based, const char *name, const char *value, char *err,
			  size_t errlen)
{
	if (!*based) {
		const struct profile *base = strcmp(name, "machine") ? NULL : profile_find(value);
		if (!base) {
			if (strcmp(name, "machine"))
				snprintf(err, errlen, "the first setting must be 'machine = PRESET', not '%s'", name);
			else
				snprintf(err, errlen, "unknown machine '%s' (see pagelab machines)", value);
			return false;
		}
		*p = *base;
		*based = true;
		return true;
	}
	return profile_set(p, name, value, err, errlen);
}

bool profile_load_file(const char *path, struct profile *p, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read machine profile %s: %s", path, strerror(errno));
		return false;
	}
	char line[1024], why[400];
	bool based = false, ok = true;
	for (int no = 1; ok && fgets(line, sizeof(line), f); no++) {
		/* A longer line would be read as two: the rest of a comment
		 * taken for a setting. */
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: a line longer than %zu bytes", path, no, sizeof(line) - 2);
			ok = false;
			break;
		}
		line[strcspn(line, "#\n")] = 0;
		char *s = trim(line), *value;
		if (!*s)
			continue;
		ok = split_setting(s, &value);
		if (!ok)
			snprintf(why, sizeof(why), "'%s' has no value (NAME = VALUE)", s);
		else
			ok = apply_setting(p, &based, s, value, why, sizeof(why));
		if (!ok)
			snprintf(err, errlen, "%s:%d: %s", path, no, why);
	}
	fclose(f);
	if (ok && !based) {
		snprintf(err, errlen, "%s: no settings (the first must be 'machine = PRESET')", path);
		ok = false;
	}
	if (ok) {
		p->name = path;
		p->description = "a profile file: its preset, with the file's settings";
	}
	return ok;
}

/* The files read so far: a sweep's cells ask from several threads, and a
 * file read once gives every cell the same profile. */
struct loaded {
	struct loaded *next;
	char *path;
	struct profile p;
};
static struct loaded *loaded;
static pthread_mutex_t loaded_lock = PTHREAD_MUTEX_INITIALIZER;

const struct profile *profile_file_find(const char *path, char *err, size_t errlen)
{
	pthread_mutex_lock(&loaded_lock);
	struct loaded *l = loaded;
	while (l && strcmp(l->path, path))
		l = l->next;
	if (!l) {
		l = xcalloc(1, sizeof(*l));
		l->path = xstrdup(path);
		if (profile_load_file(l->path, &l->p, err, errlen)) {
			l->next = loaded;
			loaded = l;
		} else {
			free(l->path);
			free(l);
			l = NULL;
		}
	}
	pthread_mutex_unlock(&loaded_lock);
	return l ? &l->p : NULL;
}

void profile_write_costs(FILE *out, const struct profile *p, const char *preset, profile_source_fn *source,
			 void *arg)
{
	fprintf(out, "machine = %s\n", preset);
	char buf[64], why[400], line[500];
	const char *name;
	for (int i = 0; (name = profile_param(p, i, buf, sizeof(buf))); i++) {
		if (strncmp(name, "cost.", 5))
			continue;
		source(name, arg, why, sizeof(why));
		snprintf(line, sizeof(line), "# %s: %s", name, why);
		wrap_row(out, "", 0, line, "#   ", WRAP_WIDTH);
		fprintf(out, "%s = %s\n", name, buf);
	}
}

bool profile_param_value(const struct profile *p, const char *name, char *buf, size_t len)
{
	const char *n;
	for (int i = 0; (n = profile_param(p, i, buf, len)); i++)
		if (!strcmp(n, name))
			return true;
	return false;
}
