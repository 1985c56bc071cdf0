/* plugin.h - loading a policy plugin (include/pagelab_policy.h). */
#ifndef PAGELAB_PLUGIN_H
#define PAGELAB_PLUGIN_H

#include <stddef.h>
#include "policy.h"

/* The policy of the plugin at PATH (loaded once per process), or NULL
 * with a one-line reason in err: not loadable, not a plugin, or built for
 * another interface version. */
const struct policy_ops *policy_plugin_load(const char *path, char *err, size_t errlen);

/* The same for a struct in memory (libpagelab's pagelab_set_policy_struct:
 * hooks made at run time, a Python class's through ctypes), registered
 * once per address under the name "memory:NAME" and held to the same
 * rules; it must outlive every run that uses it. */
struct pagelab_policy;
const struct policy_ops *policy_plugin_struct(const struct pagelab_policy *pub, char *err, size_t errlen);

#endif
