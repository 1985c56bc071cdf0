/* registry.c - every policy, in listing order. */
#include "policy.h"
#include "plugin.h"

#include <stdio.h>
#include <string.h>

extern const struct policy_ops fifo_policy, clock_policy, lru_policy, opt_policy;
extern const struct policy_ops linux22_policy, vhand_policy, riel24_policy, aa24_policy;
extern const struct policy_ops linux26_policy, splitlru_policy, workingset_policy;
extern const struct policy_ops mglru_policy, linux6_policy;
extern const struct policy_ops arc_policy, twoq_policy, s3fifo_policy, sieve_policy;
extern const struct policy_ops lfu_policy, lirs_policy, lruk_policy, clockpro_policy;

const struct policy_ops *const policy_registry[] = {
	&fifo_policy,
	&clock_policy,
	&lru_policy,
	&opt_policy,
	&linux22_policy,
	&vhand_policy,
	&riel24_policy,
	&aa24_policy,
	&linux26_policy,
	&splitlru_policy,
	&workingset_policy,
	&linux6_policy,
	&mglru_policy,
	&arc_policy,
	&twoq_policy,
	&s3fifo_policy,
	&lirs_policy,
	&clockpro_policy,
	&sieve_policy,
	&lfu_policy,
	&lruk_policy,
	NULL,
};

const struct policy_ops *policy_find(const char *name)
{
	for (int i = 0; policy_registry[i]; i++)
		if (!strcmp(policy_registry[i]->name, name))
			return policy_registry[i];
	return NULL;
}

const struct policy_ops *policy_lookup(const char *name, char *err, size_t errlen)
{
	/* A path (it has a '/': "./lifo.so") names a plugin. */
	if (strchr(name, '/'))
		return policy_plugin_load(name, err, errlen);
	const struct policy_ops *p = policy_find(name);
	if (!p)
		snprintf(err, errlen, "unknown policy '%s' (see pagelab policies)", name);
	return p;
}

int policy_nr_tunables(const struct policy_ops *ops)
{
	int n = 0;
	while (ops->tunables && ops->tunables[n].name)
		n++;
	return n;
}

bool policy_frames_ok(const struct policy_ops *ops, uint64_t frames, bool cache, const double *tun, char *err,
		      size_t errlen)
{
	return !ops->frames_ok || ops->frames_ok(frames, cache, tun, err, errlen);
}

int policy_tunable_index(const struct policy_ops *ops, const char *name)
{
	for (int i = 0; i < policy_nr_tunables(ops); i++)
		if (!strcmp(ops->tunables[i].name, name))
			return i;
	return -1;
}
