/* machine_opts.c - the machine options group (machine_opts.h): one table,
 * its help in a run's form (one value) and a sweep's (a list), and the one
 * handler that splits --set and hands each option to the command. */
#include "machine_opts.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int machine_opt(void *dest, const struct opt *o, const char *typed, const char *value);

#define MO(name_, arg_, help_, list_arg_, list_help_) \
	{ .name = name_, .kind = OPT_CALL, .arg = arg_, .help = help_, .call = machine_opt, \
	  .list_arg = list_arg_, .list_help = list_help_ }

const struct opt machine_opts[] = {
	MO("--policy", "NAME", "reclaim policy (default clock; see pagelab policies);\n"
	   "a path (./lifo.so) loads a policy plugin",
	   "LIST", "reclaim policies (default clock); a path (./lifo.so)\nis a policy plugin"),
	MO("--machine", "NAME", "profile (default vmm-2008; see pagelab machines); a\n"
	   "path (./host.profile) is a profile file (kernel\n--calibrate writes one)",
	   "LIST", "machine profiles (default vmm-2008); a path\n(./host.profile) is a profile file"),
	MO("--ram", "SIZE", "physical memory (K/M/G/T suffixes are powers of 1024;\n"
	   "a 'p' suffix counts 4 KiB pages); N% with a trace\n"
	   "replay alone: N% of the trace's distinct pages\n"
	   "(10%, 0.5%; 0 < N <= 100), the pages counted first",
	   "LIST", "physical memory sizes; with a trace replay alone, shares\n"
	   "of its distinct pages too (10%,50%; 1%:64%:x2)"),
	MO("--swap", "SIZE", "swap space; zram:SIZE[,algo=lz4|lzo-rle|zstd] a\n"
	   "compressed RAM device, ,backing=SIZE,wb=T with a\n"
	   "backing device its idle pages are written back to\n"
	   "every T (wb_mode=idle|huge|huge_idle, wb_limit=N\n"
	   "pages, wb_age=T; bd_stat); --set zswap=1 (2 lzo-rle, 3\n"
	   "zstd) puts zswap in front of a disk area, --set\n"
	   "swap.cluster=1 allocates its slots by clusters as 6.18\n"
	   "(swap.discard=1 as swapon --discard=pages; docs/zram.md)",
	   "LIST", "swap sizes (zram: --swap SIZE --set zram=0,1,2,3)"),
	MO("--cpus", "N", "number of CPUs", "LIST", "CPU counts"),
	MO("--disk", "MODEL", "disk model (see pagelab machines)", "LIST", "disk models"),
	MO("--memcg", "LIMIT", "run the workloads in one memory cgroup of LIMIT bytes:\n"
	   "limit reclaim by the charging task, no kswapd\n"
	   "(--ram defaults to at least LIMIT * 5/4 + 64M;\n"
	   "--set memcg.v1=1: cgroup v1, reclaim waits on\n"
	   "writeback); prints memory.stat",
	   "LIST", "memory cgroup limits, as pagelab run --memcg (each\n"
	   "cell's RAM at least LIMIT * 5/4 + 64M without --ram)"),
	MO("--cgroup", "PATH[:K=V,...]", "a memory cgroup of a tree (repeatable), PATH like\n"
	   "/a/b; keys max=, high=, low=, min=, swap.max=,\n"
	   "swap.high=, zswap.max= (SIZE or max),\n"
	   "zswap.writeback=0, swappiness=N, oom.group=1;\n"
	   "parents not given are implied, without limits.  A\n"
	   "workload's last word @PATH runs it there (else in\n"
	   "the root).  Prints each cgroup's\n"
	   "memory.current, peak, events, stat (docs/cgroups.md);\n"
	   "not with --memcg.  One key alone: --set\n"
	   "cgroup.PATH.KEY=VALUE.  --set memory_recursiveprot=1:\n"
	   "the cgroup2 mount's option (a parent's unclaimed\n"
	   "low/min float down).\n"
	   "The workloads memreclaim, senpai and oomd write a\n"
	   "cgroup's memory.reclaim / cgroup.kill (senpai and\n"
	   "oomd read memory.pressure: --set psi=1).",
	   "PATH[:K=V,...]", "a memory cgroup of a tree, as pagelab run --cgroup\n"
	   "(repeatable; the same in every cell; one key as an\n"
	   "axis: --set cgroup.PATH.KEY=LIST, cgroup./b.high=8M,16M)"),
	MO("--set", "NAME=VALUE", "any machine parameter or policy tunable (memcg=LIMIT\n"
	   "is --memcg LIMIT; disk=, vmstat=, make-inputs=1 are\n"
	   "--disk, --vmstat, --make-inputs; start.K=SECONDS:\n"
	   "workload K, from 0, starts SECONDS into the run;\n"
	   "residency=K: --json's vmstat samples give workload\n"
	   "K's resident set, resident_kb; psi=1: the machine's\n"
	   "/proc/pressure/memory, docs/psi.md)",
	   "NAME=LIST", "a machine parameter or policy tunable (repeatable);\n"
	   "memcg.v1=0,1: cgroup v1 or v2 with --memcg"),
	{ .kind = OPT_END },
};

static enum machine_opt_kind kind_of(const char *name)
{
	if (!strcmp(name, "--cpus"))
		return MO_NUMBER;
	if (!strcmp(name, "--disk") || !strcmp(name, "--cgroup"))
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
	if (strcmp(o->name, "--set"))
		return ma->take(ma, &a);
	/* NAME=VALUE (a sweep: NAME=LIST); NAME a copy of any length (a
	 * fixed buffer cut a long one, and "unknown parameter" then named
	 * another) */
	const char *eq = strchr(value, '=');
	if (!eq || eq == value)
		die_usage("--set wants %s, got '%s'", ma->lists ? o->list_arg : o->arg, value);
	char *name = xstrdup(value);
	name[eq - value] = 0;
	a = (struct machine_arg){ .name = name, .value = eq + 1, .typed = value, .kind = MO_SET };
	int rc = ma->take(ma, &a);
	free(name);
	return rc;
}
