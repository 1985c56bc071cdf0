/* run.c - pagelab run: parse the options by run's table (opt.h, the
 * machine options group of machine_opts.h) into a run spec (run_spec.c,
 * src/engine/runspec.h), run it and report. */
#include "cli.h"
#include "machine_opts.h"
#include "run_spec.h"
#include "../lib/share.h"
#include "../lib/util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set by main(); see cli.h.  Here, not in main.c, so that the harnesses
 * linking the commands without main() have them. */
int cli_argc;
char **cli_argv;

struct run_args {
	struct machine_args ma;
	struct run_opts ro;       /* the machine options, as run_take() took them */
	struct machine_opts mo;   /* seed, limits, sampling, check */
	struct run_out out;       /* --json, --html, ...; --ram as given */
	struct run_set *sets;     /* --set NAME=VALUE, in order */
	int nsets;
	bool vmstat_a;            /* --vmstat -a seen: its next argument is the value */
};

static int vmstat_opt(void *dest, const struct opt *o, const char *typed, const char *value);

#define AT(f) offsetof(struct run_args, f)
static const struct opt run_table[] = {
	{ "Machine and policy:", .kind = OPT_SECTION },
	{ .kind = OPT_GROUP, .group = machine_opts, .at = AT(ma) },
	{ "Run:", .kind = OPT_SECTION },
	{ "--seed", NULL, OPT_U64, AT(mo.seed), "N", 0, (double)UINT64_MAX,
	  .help = "random seed (default 1); same inputs, same output" },
	{ "--vmstat", NULL, OPT_CALL, 0, "[-a] SECONDS", .call = vmstat_opt,
	  .range = "(seconds, at least 0.001)",
	  .help = "print a vmstat line every SECONDS of simulated time\n(-a: inact/active columns, as vmstat -a)" },
	{ "--check", NULL, OPT_FLAG, AT(mo.check), .help = "verify the mm invariants after every step (slow)" },
	{ "--json", NULL, OPT_FLAG, AT(out.json), .help = "print everything as one JSON object" },
	{ "--html", NULL, OPT_STR, AT(out.html), "FILE", .help =
	  "also write the run as a self-contained HTML page:\n"
	  "time figures, timelines (sampled every 0.05 s, or at\n"
	  "a shorter --vmstat), OOM kill and --max-time markers,\n"
	  "counters; FILE is replaced only when complete" },
	{ "--max-time", NULL, OPT_DURATION, AT(mo.max_time_ns), "SECONDS",
	  .help = "stop after this much simulated time (default 100000)" },
	{ "--progress", NULL, OPT_FLAG, AT(mo.progress), .help = "progress on stderr (default: on a terminal)" },
	{ "--no-progress", NULL, OPT_UNFLAG, AT(mo.progress), .flags = OPT_JOINED },
	{ "--make-inputs", NULL, OPT_FLAG, AT(out.make_inputs), .help =
	  "make each file a workload opens and none creates (dd\n"
	  "if=FILE), as large as the workloads read it, on the\n"
	  "disk and uncached, before the run: what pagelab kernel\n"
	  "does (without it, such a file is bad input)" },
	{ "--full-machine", NULL, OPT_FLAG, AT(out.full_machine), .help =
	  "replay a trace on the whole machine even where the\n"
	  "cache-only replay would do (--machine ideal with only\n"
	  "--ram, --policy of a cache policy and its --set, and\n"
	  "one trace workload: docs/trace-format.md)" },
	/* Short: run --help stays under 4096 bytes, the size below which a
	 * write error on stdout is reported with its reason (output.c). */
	{ "--warmup", NULL, OPT_STR, AT(out.warmup), "N|F", .help = "first N (or share F) refs uncounted" },
	{ "--window", NULL, OPT_U64, AT(out.window), "N", 1, (double)UINT64_MAX, "(references, at least 1)",
	  .help = "miss ratio per N refs too" },
	{ .kind = OPT_END },
};

const struct opt_cmd run_cmd = {
	.name = "run",
	.usage =
"usage: pagelab run [OPTIONS] WORKLOAD [ARGS] [+ WORKLOAD [ARGS]]...\n"
"Run workloads together on one simulated machine under a reclaim policy.\n"
"\n",
	.opts = run_table,
	.col = 22,
	.after =
"\n"
"Exit status: 0 on success; 1 if --check found a broken invariant or the\n"
"output could not be written; 2 on bad input; 3 if the run was stopped at\n"
"--max-time (the report covers what ran until then); 130 / 143 if it was\n"
"interrupted by SIGINT / SIGTERM (the report is still printed).\n",
	.prefix = "",
	.unknown = "unknown option '%s' (see pagelab run --help)",
	.mode = OPT_LEADING,
};

static uint64_t size_arg(const char *opt, const char *v)
{
	uint64_t b;
	if (!parse_size(v, &b))
		die_usage("bad size '%s' for %s%s", v, opt,
			  strchr(v, '%') && !strcmp(opt, "--ram") ? " (a share of a trace's pages is N%, 0 < N <= 100)" : "");
	if (b > (1ULL << 50))
		die_usage("%s %s is more than 1P (1024T), the most pagelab takes", opt, v);
	return b;
}

/* --vmstat [-a] SECONDS: "-a" (vmstat -a's inact/active columns) once,
 * then the value. */
static int vmstat_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	struct run_args *ra = dest;
	(void)typed;
	if (!ra->vmstat_a && !strcmp(value, "-a")) {
		ra->vmstat_a = ra->mo.vmstat_active = true;
		return OPT_AGAIN;
	}
	ra->vmstat_a = false;
	if (!parse_duration_ns(value, &ra->mo.vmstat_ns) || ra->mo.vmstat_ns < 1000000)
		opt_bad(o, value);
	return OPT_GO;
}

/* One --set NAME=VALUE more: both copied (profile_zram_wb_opts() hands
 * them out of its buffer), freed when run_spec() has read them. */
static void push_set(struct run_args *ra, const char *name, const char *value)
{
	ra->sets = xrealloc(ra->sets, (size_t)(ra->nsets + 1) * sizeof(*ra->sets));
	ra->sets[ra->nsets++] = (struct run_set){ xstrdup(name), xstrdup(value) };
}

/* profile_zram_wb_opts()'s callback. */
static bool add_set(void *arg, const char *name, const char *value, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	push_set(arg, name, value);
	return true;
}

/* The machine group's options but --machine and --policy, by run's rules:
 * one value each, the last given wins; a --set's NAME and VALUE are
 * copied (push_set()). */
static int run_take(struct machine_args *ma, const struct machine_arg *a)
{
	struct run_args *ra = ma->ctx;
	struct run_opts *ro = &ra->ro;
	if (a->kind == MO_SET || !strcmp(a->name, "cgroup")) {   /* --cgroup SPEC is --set cgroup=SPEC */
		push_set(ra, a->name, a->value);
	} else if (!strcmp(a->name, "ram")) {
		ra->out.ram_arg = a->value;
		ro->ram = parse_share(a->value, &ra->out.ram_share) ? 1 : size_arg(a->typed, a->value);
		if (!ro->ram)
			die_usage("--ram 0: a machine needs memory");
	} else if (!strcmp(a->name, "swap") && !strncmp(a->value, "zram:", 5)) {
		/* a zram device: its size, and the device as --set zram=N */
		static const char *const algo[] = { "0", "1", "2", "3" };
		char err[160];
		unsigned z;
		if (!profile_zram_parse(a->value, &ro->swap, &z, err, sizeof(err)))
			die_usage("--swap: %s", err);
		push_set(ra, "zram", algo[z]);
		/* backing=, wb=...: their --set zram.* parameters */
		if (!profile_zram_wb_opts(a->value, add_set, ra, err, sizeof(err)))
			die_usage("--swap: %s", err);
	} else if (!strcmp(a->name, "swap")) {
		ro->swap = size_arg(a->typed, a->value);
	} else if (!strcmp(a->name, "cpus")) {
		if (!parse_u64(a->value, &ro->cpus) || !ro->cpus || ro->cpus > 1024)
			die_usage("bad --cpus '%s' (1..1024)", a->value);
	} else if (!strcmp(a->name, "disk")) {
		ro->disk = a->value;
	} else if (!strcmp(a->name, "memcg")) {
		ro->memcg = size_arg(a->typed, a->value);
		if (ro->memcg < RUNSPEC_MIN_MEMCG)
			die_usage("--memcg %s: a cgroup needs at least 16 pages", a->value);
	}
	return OPT_GO;
}

/* --ram and --set ram= (and swap, cpus, ...) say the same thing: one of
 * them, or which wins would depend on an order nobody sees. */
static void given_once(const struct run_args *ra)
{
	const struct run_opts *ro = &ra->ro;
	for (int s = 0; s < ra->nsets; s++) {
		const char *n = ra->sets[s].name;
		if ((ro->ram && !strcmp(n, "ram")) || (ro->swap != UINT64_MAX && !strcmp(n, "swap")) ||
		    (ro->cpus && !strcmp(n, "cpus")) || (ro->memcg && !strcmp(n, "memcg")) ||
		    (ro->disk && !strcmp(n, "disk")) || (ra->mo.vmstat_ns && !strcmp(n, "vmstat")) ||
		    (ra->out.make_inputs && !strcmp(n, "make-inputs")))
			die_usage("give --%s or --set %s=, not both", n, n);
	}
}

int cmd_run(int argc, char **argv)
{
	struct run_args ra = {
		.mo = { .seed = 1, .max_time_ns = 100000ULL * 1000000000ULL, .progress = isatty(2),
			.spill_samples = true },
		.ro = { .swap = UINT64_MAX },
	};
	ra.ma = (struct machine_args){ .policy = "clock", .machine = "vmm-2008", .take = run_take, .ctx = &ra };
	int i, rc = opt_parse(&run_cmd, argc, argv, &ra, &i);
	if (rc != OPT_GO)
		return rc;
	if (i >= argc)
		die_usage("run: no workload given (see pagelab workloads)");
	given_once(&ra);
	struct runspec spec;
	ra.ro.machine = ra.out.machine = ra.ma.machine;
	ra.ro.policy = ra.ma.policy;
	ra.ro.mo = &ra.mo;
	ra.ro.sets = ra.sets;
	ra.ro.nsets = ra.nsets;
	const char *err = run_spec(&spec, &ra.ro);
	for (int s = 0; s < ra.nsets; s++) {
		free((char *)ra.sets[s].name);
		free((char *)ra.sets[s].value);
	}
	free(ra.sets);
	if (err)
		die_usage("%s", err);
	ra.out.machine_options = ra.ro.swap != UINT64_MAX || ra.ro.cpus || ra.ro.disk || ra.ro.machine_sets;
	return run_workloads(&spec, &ra.out, argc - i, argv + i);
}
