/* exp_output.c - what `pagelab reproduce` prints: per experiment a header,
 * the thread-shaped table (the experiment's own printer), the verdicts; or
 * all of it as one JSON object. */
#include "experiment.h"
#include "exp_text.h"
#include "cpu_claim.h"
#include "exp_file.h"
#include "../engine/json.h"
#include "../lib/util.h"

#include <math.h>
#include <string.h>

static const char *const kind_names[] = { "thread", "modern", "reference" };

void exp_print_header(const struct exp_result *r, FILE *out)
{
	const struct experiment *e = r->e;
	const struct profile *p = &r->prof;
	exp_wrap(out, "==", 3, "Experiment %d: %s ==", e->id, e->title);
	exp_wrap(out, "thread:", 10, "%s (%s)", e->thread, e->who);
	char mode[96];
	if (r->full)
		snprintf(mode, sizeof(mode), "(the thread's sizes)");
	else
		snprintf(mode, sizeof(mode), "(quick mode: machine and sizes x%g; --full for the thread's)", r->scale);
	exp_wrap(out, "machine:", 10, "%s: %llu CPU%s, %llu MiB RAM, %llu MiB swap, disk %s %s",
		 e->profile, (unsigned long long)p->cpus, p->cpus == 1 ? "" : "s",
		 (unsigned long long)(p->ram >> 20), (unsigned long long)(p->swap >> 20), p->disk.model, mode);
	static const char *const kind_left[] = { "designs:", "modern:", "reference:" };
	static const int kind_col[] = { 10, 10, 11 };
	for (int k = 0; k < 3; k++) {
		char line[1024];
		size_t n = 0;
		line[0] = 0;
		for (int d = 0; d < e->nr_designs; d++) {
			const struct exp_design *ds = &e->designs[d];
			if ((int)ds->kind != k || n >= sizeof(line))
				continue;
			const char *sep = n ? "; " : "";
			if (strcmp(ds->label, ds->policy) || ds->sets)
				n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s = %s%s%s", sep, ds->label, ds->policy,
						      ds->sets ? " --set " : "", ds->sets ? ds->sets : "");
			else
				n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s", sep, ds->label);
		}
		if (n)
			exp_wrap(out, kind_left[k], kind_col[k], "%s", line);
	}
	char missing[1024];
	size_t n = 0;
	missing[0] = 0;
	for (int d = 0; d < e->nr_designs && n < sizeof(missing); d++) {
		bool dup = false;
		for (int k = 0; k < d; k++)
			dup |= !r->design_ok[k] && !strcmp(r->design_why[k], r->design_why[d] ? r->design_why[d] : "");
		if (r->design_ok[d] || dup)
			continue;
		/* "policy X not available in this build" -> "X" */
		const char *w = r->design_why[d], *tail = " not available in this build";
		size_t wn = strlen(w), t = strlen(tail);
		const char *sep = n ? ", " : "";
		if (!strncmp(w, "policy ", 7) && wn > 7 + t && !strcmp(w + wn - t, tail))
			n += (size_t)snprintf(missing + n, sizeof(missing) - n, "%s%.*s", sep, (int)(wn - 7 - t), w + 7);
		else
			n += (size_t)snprintf(missing + n, sizeof(missing) - n, "%s%s", sep, w);
	}
	if (n)
		exp_wrap(out, "not in this build:", 19, "%s", missing);
	fputc('\n', out);
}

void exp_print_unavailable(const struct exp_result *r, int design, int run, const char *indent, FILE *out)
{
	const struct run_result *rr = exp_rr(r, design, run, 0);
	char left[64];
	snprintf(left, sizeof(left), "%spagelab", indent);
	exp_wrap(out, left, (int)strlen(indent) + 10, "not available: %s", rr->why ? rr->why : "not run");
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, "inf");
	else if (fabs(v) >= 1000 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

#define VERDICT_THREAD "              thread"
#define VERDICT_PAGELAB "              pagelab"

/* A verdict whose runs an OOM kill or the time limit cut short says so,
 * even when the figure it compares exists (major faults of a killed
 * build): "killed by OOM: workingset (1 of 1 runs)". */
static void print_cut_note(const struct exp_result *r, const struct exp_comparison *cm,
			   const struct exp_metric *mt, FILE *out)
{
	const struct experiment *e = r->e;
	int run = exp_run_index(e, mt->run);
	const char *lab[2] = { cm->a, cm->b };
	for (int kind = 0; kind < 2; kind++) {
		char buf[512];
		size_t o = 0;
		buf[0] = 0;
		for (int i = 0; i < 2; i++) {
			int d = exp_design_index(e, lab[i]);
			if (d < 0 || (i == 1 && cm->a && !strcmp(cm->a, cm->b)))
				continue;
			int n = 0, reps = exp_reps(r, run);
			for (int k = 0; k < reps; k++) {
				const struct run_result *rr = exp_rr(r, d, run, k);
				n += kind == 0 ? exp_run_oom_killed(rr) : rr->available && rr->timed_out;
			}
			if (!n)
				continue;
			if (o >= sizeof(buf))
				break;
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s (%d of %d runs)",
					      o ? ", " : kind == 0 ? "killed by OOM: " : "stopped at the time limit: ",
					      lab[i], n, reps);
		}
		if (o)
			exp_wrap(out, "", 14, "%s", buf);
	}
}

void exp_print_verdicts(const struct exp_result *r, FILE *out, int *counts)
{
	const struct experiment *e = r->e;
	exp_wrap(out, "", 0, "verdicts (ratio = second design / first; agree = same winner and a ratio within the tolerance):");
	for (int c = 0; c < e->nr_cmps; c++) {
		const struct exp_comparison *cm = &e->cmps[c];
		const struct exp_metric *mt = &e->metrics[exp_metric_index(e, cm->metric)];
		struct cmp_outcome o;
		exp_compare(r, c, &o);
		char v[16];
		snprintf(v, sizeof(v), "[%s]", verdict_names[o.v]);
		char left[24];
		snprintf(left, sizeof(left), "  %s", v);
		exp_wrap(out, left, 14, "%s: %s%s%s", mt->name, cm->b, cm->a ? " vs " : "", cm->a ? cm->a : "");
		char x[32], y[32], z[32];
		if (cm->kind == CMP_RATIO) {
			const struct exp_published *pa = exp_published_find(e, cm->a, cm->metric);
			const struct exp_published *pb = exp_published_find(e, cm->b, cm->metric);
			fmt_num(x, sizeof(x), pb->value);
			fmt_num(y, sizeof(y), pa->value);
			fmt_num(z, sizeof(z), o.pub_ratio);
			exp_wrap(out, VERDICT_THREAD, 22, "%s / %s = %s  (%s)", x, y, z, cm->source);
		} else if (cm->kind == CMP_FIGURE) {
			fmt_num(x, sizeof(x), exp_published_find(e, cm->b, cm->metric)->value);
			exp_wrap(out, VERDICT_THREAD, 22, "%s: \"%s\"  (%s)", x, cm->statement, cm->source);
		} else {
			exp_wrap(out, VERDICT_THREAD, 22, "\"%s\"  (%s)", cm->statement, cm->source);
		}
		if (o.v == V_NA) {
			exp_wrap(out, VERDICT_PAGELAB, 22, "n/a: %s", o.note);
		} else if (cm->kind == CMP_ZERO || cm->kind == CMP_NONZERO) {
			exp_wrap(out, VERDICT_PAGELAB, 22, "%s", o.note);
		} else {
			fmt_num(x, sizeof(x), o.sim_b);
			fmt_num(y, sizeof(y), o.sim_a);
			fmt_num(z, sizeof(z), o.sim_ratio);
			char iv[96] = "";
			if (o.nr_seeds > 1) {
				char l[32], h[32];
				fmt_num(l, sizeof(l), o.lo);
				fmt_num(h, sizeof(h), o.hi);
				snprintf(iv, sizeof(iv), " (95%%: %s-%s, %d seeds)", l, h, o.nr_seeds);
			} else if (o.nr_seeds == 1) {
				snprintf(iv, sizeof(iv), " (1 seed)");
			}
			if (cm->kind == CMP_FIGURE)
				exp_wrap(out, VERDICT_PAGELAB, 22, "%s, x%s the thread's%s: %s", x, z, iv, o.note);
			else
				exp_wrap(out, VERDICT_PAGELAB, 22, "%s / %s = %s%s: %s", x, y, z, iv, o.note);
		}
		print_cut_note(r, cm, mt, out);
		if (cm->quick_note && !r->full)
			exp_wrap(out, "", 14, "quick mode: %s", cm->quick_note);
		counts[o.v]++;
	}
}

void exp_print_text_start(bool full, FILE *out)
{
	exp_wrap(out, "", 0, "pagelab reproduce: the five threads' experiments, %s",
		 full ? "at the threads' sizes (--full)" : "quick mode (machines and sizes scaled down together; --full for the threads' sizes)");
	fputc('\n', out);
}

/* The runs an OOM kill or the time limit cut short, one line per design
 * and run, so that no table hides them. */
static void print_cut_short(const struct exp_result *r, FILE *out)
{
	const struct experiment *e = r->e;
	for (int d = 0; d < e->nr_designs; d++)
		for (int run = 0; run < e->nr_runs; run++) {
			int oom = 0, to = 0, n = exp_reps(r, run);
			for (int k = 0; k < n; k++) {
				const struct run_result *rr = exp_rr(r, d, run, k);
				oom += exp_run_oom_killed(rr);
				to += rr->available && rr->timed_out;
			}
			if (oom)
				exp_wrap(out, "cut short:", 11, "killed by OOM: %s, %s (%d of %d runs)", e->designs[d].label,
					 e->runs[run].key, oom, n);
			if (to)
				exp_wrap(out, "cut short:", 11, "stopped at the time limit: %s, %s (%d of %d runs)",
					 e->designs[d].label, e->runs[run].key, to, n);
		}
}

void exp_print_experiment(const struct exp_result *r, FILE *out, int *counts)
{
	exp_print_header(r, out);
	r->e->print(r, out);
	fputc('\n', out);
	struct exp_cut c = exp_cut_short(r);
	if (c.oom || c.timed_out) {
		print_cut_short(r, out);
		fputc('\n', out);
	}
	int k[4] = { 0 };
	exp_print_verdicts(r, out, k);
	cpu_claim_print(r, out);
	fprintf(out, "experiment %d: %d agree, %d disagree, %d too noisy to tell, %d n/a\n", r->e->id,
		k[V_AGREE], k[V_DISAGREE], k[V_NOISY], k[V_NA]);
	if (c.oom || c.timed_out)
		fprintf(out, "experiment %d: runs cut short: %d by OOM, %d by the time limit\n", r->e->id, c.oom,
			c.timed_out);
	fputc('\n', out);
	for (int v = 0; v < 4; v++)
		counts[v] += k[v];
	counts[4]++;
	counts[5] += c.oom;
	counts[6] += c.timed_out;
}

void exp_print_text_end(const int *counts, FILE *out)
{
	int na = counts[V_AGREE], nd = counts[V_DISAGREE], nn = counts[V_NA], nz = counts[V_NOISY], ne = counts[4];
	exp_wrap(out, "summary:", 9, "%d experiment%s, %d comparisons: %d agree, %d disagree, %d too noisy to tell, %d n/a",
		 ne, ne == 1 ? "" : "s", na + nd + nn + nz, na, nd, nz, nn);
	if (counts[5] || counts[6])
		fprintf(out, "runs cut short: %d killed by OOM, %d stopped at the time limit\n", counts[5], counts[6]);
}

/* A newcomer's first question after the summary: is this tally what it
 * should be?  The answer lives with the docs, not in the binary: the
 * expected verdict of every comparison (a test compares it with this
 * output) and the cause of every disagreement. */
const char exp_expectations[] =
	"these verdicts are this version's expected result, not a failure: "
	"docs/reproduce.md lists every comparison's verdict in quick and full mode "
	"(\"Quick and full side by side\") and explains each disagreement and OOM kill "
	"(\"Why each disagreement\"); docs/fidelity.md sets the designs beside a real kernel.";

void exp_print_expectations(FILE *out)
{
	exp_wrap(out, "expected:", 10, "%s", exp_expectations);
}

void exp_print_text(struct exp_result **res, FILE *out)
{
	int counts[EXP_COUNTS] = { 0 };
	bool full = false;
	for (int i = 0; res[i]; i++)
		full = res[i]->full;
	exp_print_text_start(full, out);
	for (int i = 0; res[i]; i++)
		exp_print_experiment(res[i], out, counts);
	exp_print_text_end(counts, out);
}

/* ---- JSON --------------------------------------------------------------- */

static void json_num(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else
		fprintf(out, "%.6g", v);
}

static void json_run(const struct exp_result *r, int d, int run, int k, FILE *out)
{
	const struct run_result *rr = exp_rr(r, d, run, k);
	fprintf(out, "{\"design\": ");
	json_put_str(out, r->e->designs[d].label);
	fprintf(out, ", \"repeat\": %d, \"available\": %s", k + 1, rr->available ? "true" : "false");
	if (!rr->available) {
		fprintf(out, ", \"why\": ");
		json_put_str(out, rr->why);
		fputc('}', out);
		return;
	}
	fprintf(out, ", \"oom_killed\": %s", exp_run_oom_killed(rr) ? "true" : "false");
	fprintf(out, ", \"finished\": %s, \"timed_out\": %s, \"simulated_s\": %.6f, \"swap_peak_kb\": %llu, \"kthread_cpu_s\": %.6f, \"workloads\": [",
		rr->finished ? "true" : "false", rr->timed_out ? "true" : "false", (double)rr->sim_ns / 1e9,
		(unsigned long long)rr->swap_peak_kb, rr->kthread_cpu_s);
	for (int w = 0; w < rr->nr_wl; w++) {
		const struct wl_result *x = &rr->wl[w];
		fprintf(out, "%s{\"command\": ", w ? ", " : "");
		json_put_str(out, x->cmd);
		fprintf(out, ", \"start_s\": %.6f, \"user_s\": %.6f, \"system_s\": %.6f, \"elapsed_s\": %.6f, \"cpu_pct\": %u, \"majflt\": %llu, \"minflt\": %llu, \"swaps\": %llu, \"killed\": %s, \"output\": ",
			(double)x->start_ns / 1e9, x->tf.user, x->tf.sys, x->tf.elapsed, x->tf.cpu_pct,
			(unsigned long long)x->tf.majflt, (unsigned long long)x->tf.minflt,
			(unsigned long long)x->tf.swaps, x->tf.killed ? "true" : "false");
		json_put_str(out, x->output);
		fputc('}', out);
	}
	fprintf(out, "], \"kernel_messages\": ");
	json_put_str(out, rr->kmsgs);
	fprintf(out, ", \"counters\": {");
	for (int i = 0; i < NR_VM_EVENTS; i++)
		fprintf(out, "%s\"%s\": %llu", i ? ", " : "", vm_event_names[i], (unsigned long long)rr->ev[i]);
	fprintf(out, "}, \"vmstat_interval_s\": %.6f, \"vmstat\": [", (double)rr->vmstat_ns / 1e9);
	for (uint64_t i = 0; i < rr->nr_samples; i++) {
		const struct vmstat_sample *s = &rr->samples[i];
		fprintf(out, "%s[%.3f, %llu, %llu, %llu, %llu, %llu, %llu, %llu, %u, %u, %u, %u",
			i ? ", " : "", (double)s->t / 1e9, (unsigned long long)s->swpd, (unsigned long long)s->free,
			(unsigned long long)s->cache, (unsigned long long)s->si, (unsigned long long)s->so,
			(unsigned long long)s->bi, (unsigned long long)s->bo, s->us, s->sy, s->id, s->wa);
		fprintf(out, ", %llu", (unsigned long long)s->scan);
		if (rr->resident_kb)
			fprintf(out, ", %llu", (unsigned long long)rr->resident_kb[i]);
		fputc(']', out);
	}
	fprintf(out, "]}");
}

static void json_experiment(const struct exp_result *r, FILE *out)
{
	const struct experiment *e = r->e;
	fprintf(out, "    {\"id\": %d, \"slug\": ", e->id);
	json_put_str(out, e->slug);
	fprintf(out, ", \"title\": ");
	json_put_str(out, e->title);
	fprintf(out, ", \"thread\": ");
	json_put_str(out, e->thread);
	fprintf(out, ", \"scale\": %g,\n     \"machine\": {\"profile\": ", r->scale);
	json_put_str(out, e->profile);
	fprintf(out, ", \"cpus\": %llu, \"ram_bytes\": %llu, \"swap_bytes\": %llu, \"disk\": ",
		(unsigned long long)r->prof.cpus, (unsigned long long)r->prof.ram, (unsigned long long)r->prof.swap);
	json_put_str(out, r->prof.disk.model);
	fprintf(out, ", \"params\": ");
	profile_json(&r->prof, out);
	fprintf(out, "},\n     \"designs\": [");
	for (int d = 0; d < e->nr_designs; d++) {
		const struct exp_design *ds = &e->designs[d];
		fprintf(out, "%s{\"label\": ", d ? ", " : "");
		json_put_str(out, ds->label);
		fprintf(out, ", \"policy\": ");
		json_put_str(out, ds->policy);
		fprintf(out, ", \"set\": ");
		if (ds->sets)
			json_put_str(out, ds->sets);
		else
			fputs("null", out);
		fprintf(out, ", \"kind\": \"%s\", \"available\": %s", kind_names[ds->kind], r->design_ok[d] ? "true" : "false");
		if (!r->design_ok[d]) {
			fprintf(out, ", \"why\": ");
			json_put_str(out, r->design_why[d]);
		}
		fputc('}', out);
	}
	fprintf(out, "],\n     \"runs\": [");
	for (int run = 0; run < e->nr_runs; run++) {
		const struct exp_run *x = &e->runs[run];
		fprintf(out, "%s\n      {\"key\": ", run ? "," : "");
		json_put_str(out, x->key);
		fprintf(out, ", \"title\": ");
		json_put_str(out, x->title);
		fprintf(out, ", \"commands\": [");
		for (int w = 0; w < EXP_MAX_WL && x->wl[w]; w++) {
			char buf[512];
			exp_expand(r, x->wl[w], buf, sizeof(buf));
			fprintf(out, "%s", w ? ", " : "");
			json_put_str(out, buf);
		}
		fprintf(out, "], \"vmstat_columns\": [\"t\", \"swpd\", \"free\", \"cache\", \"si\", \"so\", \"bi\", \"bo\", \"us\", \"sy\", \"id\", \"wa\", \"scan\"%s],\n       \"results\": [",
			x->residency_wl >= 0 ? ", \"resident_kb\"" : "");
		bool first = true;
		for (int d = 0; d < e->nr_designs; d++)
			for (int k = 0; k < exp_reps(r, run); k++) {
				fprintf(out, "%s\n        ", first ? "" : ",");
				json_run(r, d, run, k, out);
				first = false;
			}
		fprintf(out, "]}");
	}
	fprintf(out, "],\n     \"metrics\": [");
	for (int m = 0; m < e->nr_metrics; m++) {
		const struct exp_metric *mt = &e->metrics[m];
		fprintf(out, "%s\n      {\"key\": ", m ? "," : "");
		json_put_str(out, mt->key);
		fprintf(out, ", \"name\": ");
		json_put_str(out, mt->name);
		fprintf(out, ", \"higher_is_better\": %s, \"simulated\": {", mt->higher_better ? "true" : "false");
		for (int d = 0; d < e->nr_designs; d++) {
			double v;
			fprintf(out, "%s", d ? ", " : "");
			json_put_str(out, e->designs[d].label);
			fputs(": ", out);
			if (exp_metric_value(r, d, m, &v))
				json_num(out, v);
			else
				fputs("null", out);
		}
		fprintf(out, "}, \"published\": {");
		bool first = true;
		for (int p = 0; p < e->nr_published; p++) {
			const struct exp_published *pb = &e->published[p];
			if (strcmp(pb->metric, mt->key))
				continue;
			fprintf(out, "%s", first ? "" : ", ");
			json_put_str(out, pb->design);
			fprintf(out, ": {\"value\": ");
			json_num(out, pb->value);
			fprintf(out, ", \"text\": ");
			json_put_str(out, pb->text);
			fprintf(out, ", \"source\": ");
			json_put_str(out, pb->source);
			fputc('}', out);
			first = false;
		}
		fprintf(out, "}}");
	}
	fprintf(out, "],\n     \"comparisons\": [");
	for (int c = 0; c < e->nr_cmps; c++) {
		const struct exp_comparison *cm = &e->cmps[c];
		struct cmp_outcome o;
		exp_compare(r, c, &o);
		static const char *const kinds[] = { "ratio", "worse", "not_worse", "zero", "figure", "nonzero" };
		_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == NR_EXP_CMP_WORDS, "a JSON name per kind");
		fprintf(out, "%s\n      {\"metric\": ", c ? "," : "");
		json_put_str(out, cm->metric);
		fprintf(out, ", \"a\": ");
		if (cm->a)
			json_put_str(out, cm->a);
		else
			fputs("null", out);
		fprintf(out, ", \"b\": ");
		json_put_str(out, cm->b);
		fprintf(out, ", \"kind\": \"%s\", \"tolerance\": %g, \"tie\": %g, \"statement\": ", kinds[cm->kind], cm->tol, cm->tie);
		if (cm->statement)
			json_put_str(out, cm->statement);
		else
			fputs("null", out);
		fprintf(out, ", \"source\": ");
		json_put_str(out, cm->source);
		fprintf(out, ", \"published_ratio\": ");
		json_num(out, o.pub_ratio);
		fprintf(out, ", \"simulated_ratio\": ");
		json_num(out, o.sim_ratio);
		fprintf(out, ", \"interval\": [");
		json_num(out, o.v == V_NA ? NAN : o.lo);
		fprintf(out, ", ");
		json_num(out, o.v == V_NA ? NAN : o.hi);
		fprintf(out, "], \"seeds\": %d", o.nr_seeds);
		fprintf(out, ", \"verdict\": \"%s\", \"note\": ", verdict_names[o.v]);
		json_put_str(out, o.note);
		if (cm->quick_note && !r->full) {
			fprintf(out, ", \"quick_note\": ");
			json_put_str(out, cm->quick_note);
		}
		fputc('}', out);
	}
	fputc(']', out);
	cpu_claim_json(r, out);
	fputc('}', out);
}

void exp_print_json_start(bool full, FILE *out)
{
	fprintf(out, "{\n  \"mode\": \"%s\",\n  \"experiments\": [\n", full ? "full" : "quick");
}

void exp_print_json_experiment(const struct exp_result *r, FILE *out, int *counts)
{
	fprintf(out, "%s", counts[4] ? ",\n" : "");
	json_experiment(r, out);
	for (int c = 0; c < r->e->nr_cmps; c++) {
		struct cmp_outcome o;
		exp_compare(r, c, &o);
		counts[o.v]++;
	}
	struct exp_cut cut = exp_cut_short(r);
	counts[4]++;
	counts[5] += cut.oom;
	counts[6] += cut.timed_out;
}

void exp_print_json_end(const int *counts, FILE *out)
{
	fprintf(out, "\n  ],\n  \"summary\": {\"agree\": %d, \"disagree\": %d, \"too_noisy\": %d, \"n/a\": %d, \"runs_oom_killed\": %d, \"runs_timed_out\": %d}\n}\n",
		counts[V_AGREE], counts[V_DISAGREE], counts[V_NOISY], counts[V_NA], counts[5], counts[6]);
}

void exp_print_json(struct exp_result **res, FILE *out)
{
	int counts[EXP_COUNTS] = { 0 };
	bool full = false;
	for (int i = 0; res[i]; i++)
		full = res[i]->full;
	exp_print_json_start(full, out);
	for (int i = 0; res[i]; i++)
		exp_print_json_experiment(res[i], out, counts);
	exp_print_json_end(counts, out);
}

/* ---- helpers for the thread-shaped tables ------------------------------- */

static void gnu_time_two_lines(char *buf, size_t len, const struct time_figures *tf);

void exp_print_times(const struct exp_result *r, int design, int run, int wl, enum time_shape sh,
		     const char *indent, FILE *out)
{
	for (int k = 0; k < exp_reps(r, run); k++) {
		const struct run_result *rr = exp_rr(r, design, run, k);
		if (!rr->available) {
			exp_print_unavailable(r, design, run, indent, out);
			return;
		}
		if (wl >= rr->nr_wl)
			return;
		const struct wl_result *x = &rr->wl[wl];
		char buf[600];
		if (x->tf.killed) {
			fprintf(out, "%spagelab   zsh: killed     %s\n", indent, x->cmd);
			continue;
		}
		if (sh == SHAPE_BASH) {
			int um = (int)(x->tf.user / 60), sm = (int)(x->tf.sys / 60), em = (int)(x->tf.elapsed / 60);
			fprintf(out, "%spagelab   real %dm%.3fs  user %dm%.3fs  sys %dm%.3fs%s\n", indent,
				em, x->tf.elapsed - em * 60, um, x->tf.user - um * 60, sm, x->tf.sys - sm * 60,
				rr->finished ? "" : rr->timed_out ? "  (stopped at the time limit)" : "  (did not finish)");
			continue;
		}
		if (sh == SHAPE_ZSH)
			format_zsh_time(buf, sizeof(buf), x->cmd, &x->tf);
		else if (sh == SHAPE_ZSH_PROG) {
			char prog[64];
			snprintf(prog, sizeof(prog), "%.*s", (int)strcspn(x->cmd, " "), x->cmd);
			format_zsh_time(buf, sizeof(buf), prog, &x->tf);
		}
		else
			gnu_time_two_lines(buf, sizeof(buf), &x->tf);
		size_t n = strlen(buf);
		snprintf(buf + n, sizeof(buf) - n, "%s", rr->finished ? "" : rr->timed_out ? "  (stopped at the time limit)" : "  (did not finish)");
		exp_block(out, indent, "pagelab", buf);
	}
}

const char *exp_wl_cmd(const struct exp_result *r, int run, int wl)
{
	for (int d = 0; d < r->e->nr_designs; d++)
		for (int k = 0; k < exp_reps(r, run); k++) {
			const struct run_result *rr = exp_rr(r, d, run, k);
			if (rr->available && wl < rr->nr_wl)
				return rr->wl[wl].cmd;
		}
	return r->e->runs[run].wl[wl];
}

/* GNU time writes its default format on two lines, the page faults on the
 * second ("...78%CPU\n(329363major+240410minor)pagefaults 42103swaps",
 * 003_0155de3220ccaa78.txt:28-29); format_gnu_time gives them as one. */
static void gnu_time_two_lines(char *buf, size_t len, const struct time_figures *tf)
{
	format_gnu_time(buf, len, tf);
	char *faults = strstr(buf, "CPU (");
	if (faults)
		faults[3] = '\n';
}

void exp_print_output(const struct exp_result *r, int design, int run, int rep, int wl,
		      const char *indent, FILE *out)
{
	const struct run_result *rr = exp_rr(r, design, run, rep);
	if (!rr->available) {
		exp_print_unavailable(r, design, run, indent, out);
		return;
	}
	if (wl >= rr->nr_wl || !rr->wl[wl].output)
		return;
	exp_block(out, indent, "pagelab", rr->wl[wl].output);
}
