/* profile_file.h - a machine profile read from a file: a preset to start
 * from and `NAME = VALUE` lines of the --set parameters, each beside a
 * comment saying where its value comes from (what `pagelab kernel
 * --calibrate` writes).  A --machine name with a '/' in it is such a file,
 * as a --policy with one is a plugin. */
#ifndef PAGELAB_PROFILE_FILE_H
#define PAGELAB_PROFILE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"

/* Is NAME a profile file's path rather than a preset's name? */
bool profile_is_file(const char *name);

/* Read PATH into *P: its first setting must be `machine = PRESET`, the
 * preset every later line changes; `#` starts a comment.  false with
 * "PATH:LINE: why" in err on a missing file, an unknown preset or
 * parameter, or a bad value.  P's name is PATH (the caller keeps it). */
bool profile_load_file(const char *path, struct profile *p, char *err, size_t errlen);

/* The profile of PATH, read once per process and kept (thread-safe): what
 * runspec_find_machine() hands out for a file. */
const struct profile *profile_file_find(const char *path, char *err, size_t errlen);

/* NAME's value in P as profile_param() prints it ("700ns"); false if
 * NAME is no parameter. */
bool profile_param_value(const struct profile *p, const char *name, char *buf, size_t len);

/* What a written parameter's comment says it comes from: SOURCE for
 * NAME into buf ("bench ...", "fit ...", "default, modern's"). */
typedef void profile_source_fn(const char *name, void *arg, char *buf, size_t len);

/* Write P as a profile file on PRESET (P is PRESET with some costs
 * changed): `machine = PRESET`, then every cost.* parameter's value in P,
 * each under a comment line "# NAME: SOURCE" wrapped to 80 columns.  The
 * caller writes the file's opening comment first. */
void profile_write_costs(FILE *out, const struct profile *p, const char *preset, profile_source_fn *source,
			 void *arg);

#endif
