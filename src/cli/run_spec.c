/* run_spec.c - see run_spec.h. */
#include "cli.h"
#include "run_spec.h"
#include "run_cache.h"
#include "../workload/wlist.h"
#include "../workload/wlshare.h"
#include "../report/report.h"
#include "../report/html_run.h"
#include "../lib/util.h"
#include "../lib/output.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char spec_err[512];

const char *run_spec(struct runspec *s, struct run_opts *o)
{
	const struct profile *base = runspec_find_machine(o->machine, spec_err, sizeof(spec_err));
	if (!base)
		return spec_err;
	const struct disk_params *d = o->disk ? runspec_find_disk(o->disk, spec_err, sizeof(spec_err)) : NULL;
	if (o->disk && !d)
		return spec_err;
	const struct policy_ops *pol = policy_lookup(o->policy, spec_err, sizeof(spec_err));
	if (!pol)
		return spec_err;
	runspec_init(s, base, pol);
	s->mo = *o->mo;
	if (o->ram)
		s->prof.ram = o->ram;
	s->ram_given = o->ram != 0;
	if (o->memcg)
		runspec_memcg(s, o->memcg);   /* sized once the --set are in */
	if (o->swap != UINT64_MAX)
		s->prof.swap = o->swap;
	if (o->cpus)
		s->prof.cpus = o->cpus;
	if (d)
		s->prof.disk = *d;
	for (int k = 0; k < o->nsets; k++) {
		enum runspec_set_kind sk = runspec_spec_set(s, o->sets[k].name, o->sets[k].value, spec_err,
							    sizeof(spec_err));
		if (sk == RS_SET_BAD) {
			runspec_free(s);
			return spec_err;
		}
		o->machine_sets |= (sk == RS_SET_MACHINE || sk == RS_SET_RUN) && strcmp(o->sets[k].name, "ram") != 0;
	}
	if (!runspec_size(s, spec_err, sizeof(spec_err))) {
		runspec_free(s);
		return spec_err;
	}
	return NULL;
}

/* The cache-only replay: a trace alone on the ideal machine as it is (no
 * other machine option), under a cache policy, with nothing that reads
 * the machine's time or state (--vmstat, --check, --json, --html; but
 * --json with --warmup or --window prints the replay's own figures). */
static bool cache_only(const struct runspec *s, const struct run_out *o, const struct wl_list *wl)
{
	struct runspec_cache_q cq = {
		.machine = o->machine, .pol = s->pol, .wl_name = wl->n == 1 ? wl->v[0].ops->name : NULL,
		.full_machine = o->full_machine,
		.machine_options = o->machine_options || s->mo.memcg_pages || s->mo.cgroups.n,
		/* --json with --warmup or --window: the replay's own JSON */
		.observed = s->mo.vmstat_ns || s->mo.check || (o->json && !o->warmup && !o->window) || o->html ||
			    o->make_inputs,
	};
	return runspec_cache_only(&cq);
}

static int run_trace_cache(const struct runspec *s, const struct run_out *o, const struct wl_list *wl)
{
	uint64_t reserve = profile_kernel_reserve(&s->prof);
	if (s->prof.ram <= reserve || (s->prof.ram - reserve) / PAGE_SIZE >= PFN_NONE)
		die_usage("RAM of %llu KiB: the cache-only replay takes 1 to %u pages",
			  (unsigned long long)(s->prof.ram / 1024), PFN_NONE - 1);
	struct run_cache_args ca = { .machine = o->machine, .policy = s->pol, .tun = s->tun,
				     .frames = (s->prof.ram - reserve) / PAGE_SIZE, .seed = s->mo.seed,
				     .progress = s->mo.progress, .argc = wl->v[0].argc, .argv = wl->v[0].argv,
				     .json = o->json, .warmup = o->warmup, .window = o->window };
	return run_cache(&ca);
}

/* --html FILE: opened once the machine is built, before it runs, so a
 * path that cannot be written is refused at once (exit 2), not after
 * hours of simulation. */
struct html_file { const char *path; struct atomic_file af; };

static bool open_html(void *arg, char *err, size_t errlen)
{
	struct html_file *h = arg;
	return atomic_open(&h->af, h->path, err, errlen);
}

/* The report of a run: text or JSON on stdout, the page in --html's
 * file; the exit status. */
static int report(const struct run_result *rr, const struct runspec *s, const struct run_out *o,
		  struct html_file *h)
{
	char err[512];
	if (rr->timed_out)
		fprintf(stderr, "pagelab: stopped at --max-time %.9g s of simulated time; the report covers what ran until then\n",
			(double)rr->max_time_ns / 1e9);
	if (rr->interrupted)
		fprintf(stderr, "pagelab: interrupted by %s; the report covers what ran until then\n",
			rr->interrupted == SIGTERM ? "SIGTERM" : "SIGINT");
	struct run_info ri = { .machine = o->machine, .policy = s->pol->name, .seed = s->mo.seed,
			       .argc = cli_argc, .argv = cli_argv };
	if (o->json)
		report_json(rr, &ri, stdout);
	else
		report_text(rr, &ri, stdout);
	int rc = rr->check_failed ? 1 : rr->interrupted ? 128 + rr->interrupted : rr->timed_out ? EXIT_MAX_TIME : 0;
	if (o->html) {
		report_html(rr, &ri, h->af.f);
		if (!atomic_commit(&h->af, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	return rc;
}

static int run_sim(struct runspec *s, const struct run_out *o, struct wl_list *wl)
{
	char err[512];
	for (int w = 0; w < wl->n; w++)
		if (!runspec_add_workload(s, wl->v[w].argc, wl->v[w].argv, err, sizeof(err)))
			die_usage("%s", err);
	wl_list_free(wl);
	if (o->html)
		runspec_sample_html(s);
	s->mo.make_inputs |= o->make_inputs;
	s->notes = stderr;
	struct html_file h = { .path = o->html };
	if (o->html) {
		s->before_run = open_html;
		s->before_arg = &h;
	}
	output_catch_interrupts();
	struct run_result rr = { 0 };
	runspec_run(s, &rr);
	if (!rr.available)
		die_usage("%s", rr.why);
	int rc = report(&rr, s, o, &h);
	run_result_free(&rr);
	return rc;
}

int run_workloads(struct runspec *s, const struct run_out *o, int argc, char **argv)
{
	char err[512];
	struct wl_list wl;
	if (!wl_list_parse(argc, argv, &wl, err, sizeof(err)))
		die_usage("%s", err);
	if (o->ram_share > 0 && !wl.help) {
		uint64_t share_pg;
		if (!wl_share_pages(&wl, o->ram_share, &share_pg, err, sizeof(err)))
			die_usage("--ram %s: %s", o->ram_arg, err);
		s->prof.ram = share_pg * PAGE_SIZE;
	}
	int rc;
	if (wl.help) {
		wl.help->help(stdout);
		rc = 0;
		wl_list_free(&wl);
	} else if (cache_only(s, o, &wl)) {
		rc = run_trace_cache(s, o, &wl);
		wl_list_free(&wl);
	} else {
		if (o->warmup || o->window)
			die_usage("--warmup and --window are for a trace on the cache-only replay (--machine ideal, "
				  "a cache policy, no --html, --check, --vmstat or --full-machine)");
		rc = run_sim(s, o, &wl);
	}
	runspec_free(s);
	return rc;
}
