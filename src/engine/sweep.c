/* sweep.c - resumable, shardable runs of a run matrix (sweep.h). */
#include "sweep.h"
#include "pool.h"
#include "kexec.h"
#include "cellmarks.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sweep_state {
	const struct matrix_cell *const *todo;
	const struct sweep_opts *o;
	char **lines;            /* formatted records, NULL until run */
	int n, next_write;
	FILE *file, *stream;
	bool write_failed;
	int write_errno;
	bool *keep;              /* written to the results file */
	bool refused;            /* a kernel cell was refused: no more cells */
	char why[512];           /* ... why */
};

static void run_cell(void *arg, int i)
{
	struct sweep_state *s = arg;
	const struct matrix_cell *mc = s->todo[i];
	struct run_result rr = { 0 };
	char why[512];
	/* Kernel cells run one at a time (jobs 1): nothing races here. */
	if (s->refused || !executor_run(&mc->c, &rr, why, sizeof(why))) {
		if (!s->refused)
			snprintf(s->why, sizeof(s->why), "%s", why);
		s->refused = true;
		run_result_free(&rr);
		return;
	}
	struct record_meta m = {
		.cell = mc->index, .cmd = mc->cmd, .design = mc->design, .config = mc->config,
		.seed = mc->seed, .nr_params = s->o->nr_axes, .param_names = s->o->axis_names,
		.param_values = mc->param_values, .kernel = mc->c.executor == EXEC_KERNEL,
	};
	struct marks mk = { .warmup = s->o->warmup, .window = s->o->window };
	char mwhy[512];
	if (s->o->marks && rr.available && rr.timed_out) {
		m.marks_why = "the run stopped at its time limit before the trace's end";
	} else if (s->o->marks && rr.available) {
		if (cell_marks_run(&mc->c, &mk, &m.marks_refs, &m.marks_misses, mwhy, sizeof(mwhy)))
			m.marks = &mk;
		else
			m.marks_why = mwhy;
	}
	/* A kernel run that failed or stopped at its time limit is no
	 * result to resume: it is not kept (the next sweep runs it again). */
	s->keep[i] = (rr.available && !rr.timed_out) || mc->c.executor != EXEC_KERNEL;
	s->lines[i] = record_format(&m, &rr);
	marks_free(&mk);
	run_result_free(&rr);
}

/* Under the pool's lock: write every record whose predecessors are out. */
static void cell_done(void *arg, int i)
{
	struct sweep_state *s = arg;
	(void)i;
	while (s->next_write < s->n && s->lines[s->next_write]) {
		bool keep = s->keep[s->next_write];
		const char *l = s->lines[s->next_write++];
		if (s->file && keep && !s->write_failed && (fputs(l, s->file) < 0 || fflush(s->file) != 0)) {
			s->write_failed = true;
			s->write_errno = errno;
		}
		if (s->stream) {
			fputs(l, s->stream);
			fflush(s->stream);
		}
	}
}

/* The cells to run on the host kernel run one at a time (jobs 1), and
 * only if the host takes every one (s->refused, s->why if not). */
static int kernel_jobs(struct sweep_state *s, int jobs)
{
	for (int i = 0; i < s->n; i++)
		if (s->todo[i]->c.executor == EXEC_KERNEL) {
			jobs = 1;
			if (!s->refused && !kexec_check(&s->todo[i]->c, s->why, sizeof(s->why)))
				s->refused = true;
		}
	return jobs;
}

static bool in_shard(const struct sweep_opts *o, int index)
{
	return o->nshards <= 1 || index % o->nshards == o->shard - 1;
}

/* The shard's records in cell order: from the file or just run. */
static void records_back(const struct matrix_cell *cells, int n, const struct sweep_opts *o,
			 const struct records *have, const struct sweep_state *s, struct records *rs)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (!in_shard(o, cells[i].index))
			continue;
		const struct record *old = records_find_cmd(have, cells[i].cmd);
		const char *line = old ? old->line : NULL;
		char *fresh = NULL;
		if (!old) {
			fresh = xstrdup(s->lines[k++]);
			fresh[strcspn(fresh, "\n")] = 0;
			line = fresh;
		}
		struct record r;
		char e[200];
		if (!record_parse(line, &r, e, sizeof(e)))
			panic("sweep: a record does not read back: %s", e);
		free(fresh);
		rs->r = xrealloc(rs->r, (size_t)(rs->n + 1) * sizeof(*rs->r));
		rs->r[rs->n++] = r;
	}
}

int sweep_run(const struct matrix_cell *cells, int n, const struct sweep_opts *o, struct records *rs,
	      char *err, size_t errlen)
{
	struct records have = { 0 };
	long partial = -1;
	/* Read back and appended to: a device or FIFO (/dev/full, /dev/zero)
	 * would be read without end, so only a regular file or a new one. */
	if (o->out && !output_regular_or_new(o->out, err, errlen))
		return 2;
	if (o->out && !records_load(o->out, &have, true, &partial, err, errlen))
		return 2;
	if (partial >= 0 && truncate(o->out, partial) != 0) {
		snprintf(err, errlen, "cannot cut the unfinished last line of %s: %s", o->out, strerror(errno));
		records_free(&have);
		return 1;
	}
	records_sort_cmd(&have);
	const struct matrix_cell **todo = xcalloc((size_t)n + 1, sizeof(*todo));
	int ntodo = 0, nshard = 0;
	for (int i = 0; i < n; i++) {
		if (!in_shard(o, cells[i].index))
			continue;
		nshard++;
		if (!records_find_cmd(&have, cells[i].cmd))
			todo[ntodo++] = &cells[i];
	}
	struct sweep_state s = { .todo = todo, .o = o, .n = ntodo, .stream = o->stream };
	s.lines = xcalloc((size_t)ntodo + 1, sizeof(char *));
	s.keep = xcalloc((size_t)ntodo + 1, sizeof(bool));
	if (o->resumed)
		*o->resumed = nshard - ntodo;
	int rc = 0, jobs = kernel_jobs(&s, o->jobs);
	if (s.refused) {
		snprintf(err, errlen, "%s", s.why);
		rc = 2;
	}
	if (!rc && o->out && ntodo) {
		s.file = output_append(o->out, err, errlen);
		if (!s.file)
			rc = 1;
	}
	if (o->progress)
		fprintf(stderr, "pagelab sweep: %d cells%s, %d to run%s%s\n", nshard,
			o->nshards > 1 ? " in this shard" : "", ntodo,
			o->out && nshard > ntodo ? ", the others already in " : "",
			o->out && nshard > ntodo ? o->out : "");
	if (!rc) {
		struct pool_job pj = { .run = run_cell, .done = cell_done, .arg = &s, .n = ntodo,
				       .jobs = jobs, .progress = o->progress ? "pagelab sweep" : NULL };
		pool_run(&pj);
	}
	if (s.file && fclose(s.file) != 0 && !s.write_failed) {
		s.write_failed = true;
		s.write_errno = errno;
	}
	if (!rc && s.refused) {
		snprintf(err, errlen, "%s", s.why);
		rc = 2;
	}
	if (!rc && s.write_failed) {
		snprintf(err, errlen, "error writing %s: %s", o->out, strerror(s.write_errno));
		rc = 1;
	}
	if (!rc)
		records_back(cells, n, o, &have, &s, rs);
	for (int i = 0; i < ntodo; i++)
		free(s.lines[i]);
	free(s.lines);
	free(s.keep);
	free(todo);
	records_free(&have);
	return rc;
}

static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* --warmup/--window's columns (records that have them: sweep_marks). */
static const char *const marks_cols[] = { "warmup", "warmup_misses", "counted_references", "counted_misses", NULL };

static void csv_marks(FILE *out, const struct record *r)
{
	double v = 0, refs = 0, misses = 0;
	for (int k = 0; marks_cols[k]; k++) {
		bool got = json_get_num(r->j, marks_cols[k], &v);
		fprintf(out, got ? ",%.0f" : ",", v);
		refs = k == 2 && got ? v : refs;
		misses = k == 3 && got ? v : misses;
	}
	if (refs > 0)
		fprintf(out, ",%.6f", misses / refs);
	else
		fputc(',', out);
}

static void csv_values(FILE *out, const struct record *r, const char *const *names, bool exact)
{
	for (int m = 0; names[m]; m++) {
		double v;
		if (record_metric(r, names[m], &v))
			fprintf(out, exact ? ",%.15g" : ",%.6g", v);
		else
			fputc(',', out);
	}
}

void sweep_csv(FILE *out, const struct records *rs, const char *const *axis_names, int nr_axes)
{
	double w;
	bool marks = rs->n && json_get_num(rs->r[0].j, "warmup", &w);
	fputs("cell", out);
	for (int a = 0; a < nr_axes; a++) {
		fputc(',', out);
		csv_field(out, axis_names[a]);
	}
	fputs(",seed,finished", out);
	/* --cgroup: a column per cgroup and figure some record has. */
	char **cg = record_cgroup_columns(rs, NULL, false);
	for (int m = 0; record_csv_metrics[m]; m++)
		fprintf(out, ",%s", record_csv_metrics[m]);
	for (int m = 0; cg[m]; m++)
		fprintf(out, ",%s", cg[m]);
	for (int k = 0; marks && marks_cols[k]; k++)
		fprintf(out, ",%s", marks_cols[k]);
	fputs(marks ? ",counted_miss_ratio\n" : "\n", out);
	for (int i = 0; i < rs->n; i++) {
		const struct record *r = &rs->r[i];
		fprintf(out, "%d", r->cell);
		const struct json *params = json_get(r->j, "params");
		for (int a = 0; a < nr_axes; a++) {
			const char *v = json_get_str(params, axis_names[a]);
			fputc(',', out);
			csv_field(out, v ? v : "");
		}
		bool fin = false;
		json_get_bool(r->j, "finished", &fin);
		fprintf(out, ",%llu,%d", (unsigned long long)r->seed, fin);
		csv_values(out, r, record_csv_metrics, false);
		/* bytes and counts, whole (33554432, not 3.35544e+07) */
		csv_values(out, r, (const char *const *)cg, true);
		if (marks)
			csv_marks(out, r);
		fputc('\n', out);
	}
	record_cgroup_columns_free(cg);
}
