/* machine_opts.c - the machine options group (machine_opts.h): one table,
 * its help in a run's form (one value) and a sweep's (a list), and the one
 * handler that splits --set and hands each option to the command. */
#include "machine_opts.h"
#include "../lib/util.h"

#include <stdio.h>
#include <string.h>

static int machine_opt(void *dest, const struct opt *o, const char *typed, const char *value);

#define MO(name_, arg_, help_, list_arg_, list_help_) \
	{ .name = name_, .kind = OPT_CALL, .arg = arg_, .help = help_, .call = machine_opt, \
	  .list_arg = list_arg_, .list_help = list_help_ }

const struct opt machine_opts[] = {
	MO("--policy", "NAME", "reclaim policy (default clock; see pagelab policies);\n"
	   "a path (./lifo.so) loads a policy plugin",
	   "LIST", "reclaim policies (default clock); a path (./lifo.so)\nis a policy plugin"),
	MO("--machine", "NAME", "profile (default vmm-2008; see pagelab machines)",
	   "LIST", "machine profiles (default vmm-2008)"),
	MO("--ram", "SIZE", "physical memory (K/M/G/T suffixes are powers of 1024;\n"
	   "a 'p' suffix counts 4 KiB pages); N% with a trace\n"
	   "replay alone: N% of the trace's distinct pages\n"
	   "(10%, 0.5%; 0 < N <= 100), the pages counted first",
	   "LIST", "physical memory sizes; with a trace replay alone, shares\n"
	   "of its distinct pages too (10%,50%; 1%:64%:x2)"),
	MO("--swap", "SIZE", "swap space", "LIST", "swap sizes"),
	MO("--cpus", "N", "number of CPUs", "LIST", "CPU counts"),
	MO("--disk", "MODEL", "disk model (see pagelab machines)", "LIST", "disk models"),
	MO("--memcg", "LIMIT", "run the workloads in one memory cgroup of LIMIT bytes:\n"
	   "limit reclaim by the charging task, no kswapd\n"
	   "(--ram defaults to at least LIMIT * 5/4 + 64M;\n"
	   "--set memcg.v1=1: cgroup v1, reclaim waits on\n"
	   "writeback); prints memory.stat",
	   "LIST", "memory cgroup limits, as pagelab run --memcg (each\n"
	   "cell's RAM at least LIMIT * 5/4 + 64M without --ram)"),
	MO("--set", "NAME=VALUE", "any machine parameter or policy tunable (memcg=LIMIT\nis --memcg LIMIT)",
	   "NAME=LIST", "a machine parameter or policy tunable (repeatable);\n"
	   "memcg.v1=0,1: cgroup v1 or v2 with --memcg"),
	{ .kind = OPT_END },
};

static enum machine_opt_kind kind_of(const char *name)
{
	if (!strcmp(name, "--cpus"))
		return MO_NUMBER;
	if (!strcmp(name, "--disk"))
		return MO_WORD;
	return MO_SIZE;
}

static int machine_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	struct machine_args *ma = dest;
	(void)typed;
	if (!strcmp(o->name, "--policy") || !strcmp(o->name, "--machine")) {
		*(o->name[2] == 'p' ? &ma->policy : &ma->machine) = value;
		return OPT_GO;
	}
	struct machine_arg a = { .name = o->name + 2, .value = value, .typed = o->name, .kind = kind_of(o->name) };
	char name[128];
	if (!strcmp(o->name, "--set")) {
		/* NAME=VALUE (a sweep: NAME=LIST) */
		const char *eq = strchr(value, '=');
		if (!eq || eq == value)
			die_usage("--set wants %s, got '%s'", ma->lists ? o->list_arg : o->arg, value);
		snprintf(name, sizeof(name), "%.*s", (int)(eq - value), value);
		a = (struct machine_arg){ .name = name, .value = eq + 1, .typed = value, .kind = MO_SET };
	}
	return ma->take(ma, &a);
}
