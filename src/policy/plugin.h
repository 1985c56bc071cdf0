/* plugin.h - loading a policy plugin (include/pagelab_policy.h). */
#ifndef PAGELAB_PLUGIN_H
#define PAGELAB_PLUGIN_H

#include <stddef.h>
#include "policy.h"

/* The policy of the plugin at PATH (loaded once per process), or NULL
 * with a one-line reason in err: not loadable, not a plugin, or built for
 * another interface version. */
const struct policy_ops *policy_plugin_load(const char *path, char *err, size_t errlen);

#endif
