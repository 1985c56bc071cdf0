/* agent.c - see agent.h. */
#include "agent.h"

#include <stdio.h>
#include <string.h>

bool agent_path(struct wl_agent *a, const char *name, const char *arg, char *err, size_t errlen)
{
	if (arg[0] == '/' && !a->cg[0] && strlen(arg) < sizeof(a->cg)) {
		snprintf(a->cg, sizeof(a->cg), "%s", arg);
		return true;
	}
	snprintf(err, errlen, "%s: unexpected argument '%s'", name, arg);
	return false;
}

bool agent_has_path(const struct wl_agent *a, const char *name, const char *what, char *err, size_t errlen)
{
	if (a->cg[0])
		return true;
	snprintf(err, errlen, "%s: give the CGROUP it %s (a --cgroup path like /a)", name, what);
	return false;
}

bool agent_next_op(struct wl_agent *a, struct op *op)
{
	switch (a->next) {
	case AGENT_READ:
		*op = (struct op){ .kind = OP_CG_READ, .name = a->cg };
		return true;
	case AGENT_SLEEP:
		*op = (struct op){ .kind = OP_SLEEP, .ns = 1000000000ULL };
		a->next = AGENT_READ;
		return true;
	case AGENT_ACT:
		*op = a->act;
		return true;
	case AGENT_DONE:
		break;
	}
	return false;
}

const char *agent_target(void *w, bool *reads_pressure)
{
	*reads_pressure = true;
	return ((struct wl_agent *)w)->cg;
}
