/* compare_run.c - see compare_run.h. */
#define _GNU_SOURCE
#include "compare_run.h"
#include "../native/native.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Start this binary with args; its stdout and stderr go to temp files. */
pid_t spawn_self(char **args, FILE **out, FILE **err)
{
	*out = tmpfile();
	*err = tmpfile();
	if (!*out || !*err)
		die_usage("compare: cannot create temporary files");
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		die_usage("compare: fork failed");
	if (pid == 0) {
		dup2(fileno(*out), 1);
		dup2(fileno(*err), 2);
		execv("/proc/self/exe", args);
		_exit(127);
	}
	return pid;
}

/* Wait for a spawned run; its files rewound.  Returns the exit status
 * (128 + signal if killed). */
int wait_self(pid_t pid, FILE *out, FILE *err)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		;
	rewind(out);
	rewind(err);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int run_self(char **args, FILE **out, FILE **err)
{
	pid_t pid = spawn_self(args, out, err);
	return wait_self(pid, *out, *err);
}

void first_line(FILE *f, char *buf, size_t len)
{
	buf[0] = 0;
	if (!fgets(buf, (int)len, f))
		snprintf(buf, len, "(no message)");
	buf[strcspn(buf, "\n")] = 0;
}

void argv_push(struct argv_buf *a, const char *s)
{
	a->v = xrealloc(a->v, (size_t)(a->n + 2) * sizeof(char *));
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

void argv_free(struct argv_buf *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

/* FNV-1a: a file name for a cache key. */
uint64_t fnv1a64(const char *s)
{
	uint64_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The kernel cache: DIR/kernel.N holds run N's report after a first line
 * naming the command that made it and the executor's revision; a report
 * of another command (other options or workloads) or of an older executor
 * (NATIVE_EXECUTOR_REV) is not reused.  Not keyed on pagelab's version:
 * the point is to rerun the simulator side of a changed pagelab. */
static FILE *cache_open(const char *path, const char *key)
{
	char line[4096];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	if (fgets(line, sizeof(line), f) && !strncmp(line, "# cache: ", 9) && !strcmp(line + 9, key))
		return f;
	fclose(f);
	return NULL;
}

bool cache_load(const char *path, const char *key, struct counters *c, bool with_cgroup)
{
	FILE *f = cache_open(path, key);
	if (!f)
		return false;
	counters_parse(c, f, with_cgroup);
	fclose(f);
	return true;
}

void cache_store(const char *path, const char *key, FILE *out)
{
	char err[4400], buf[8192];
	struct atomic_file af;
	FILE *f = atomic_open(&af, path, err, sizeof(err));
	if (!f)
		die_usage("compare: %s", err);
	fprintf(f, "# cache: %s", key);
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), out)) > 0)
		fwrite(buf, 1, n, f);
	rewind(out);
	if (!atomic_commit(&af, err, sizeof(err)))
		die_usage("compare: %s", err);
}

bool cache_times(const char *path, const char *key, double *user, double *sys)
{
	FILE *f = cache_open(path, key);
	if (!f)
		return false;
	bool ok = report_cpu_times(f, user, sys);
	fclose(f);
	return ok;
}

bool report_warmed(FILE *f)
{
	char line[1024];
	bool warmed = false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "pagelab: memcg ", 15))
			continue;
		line[strcspn(line, "\n")] = 0;
		size_t n = strlen(line);
		warmed = n >= 8 && !strcmp(line + n - 8, "; warmed");
		break;
	}
	rewind(f);
	return warmed;
}

bool report_cpu_times(FILE *f, double *user, double *sys)
{
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		char *u = strstr(line, "user "), *s = strstr(line, "system ");
		if (!u || !s || !strstr(line, "elapsed"))
			continue;
		/* The figures run up to the words: "9.63user 4.92system". */
		char *end;
		while (u > line && (u[-1] == '.' || (u[-1] >= '0' && u[-1] <= '9')))
			u--;
		while (s > line && (s[-1] == '.' || (s[-1] >= '0' && s[-1] <= '9')))
			s--;
		*user = strtod(u, &end);
		if (end == u)
			continue;
		*sys = strtod(s, &end);
		if (end == s)
			continue;
		/* Digits alone, but a report is input (a cache directory the
		 * user names): 400 of them would be infinite. */
		if (!(*user <= 1e9 && *sys <= 1e9))
			continue;
		return true;
	}
	return false;
}

FILE *kernel_report(const struct kernel_cmd *k, const char *cache, const char *name, uint64_t r, uint64_t of,
		    bool progress, bool *cached)
{
	struct argv_buf a = { 0 };
	argv_push(&a, "pagelab");
	argv_push(&a, "kernel");
	argv_push(&a, "--memcg"); argv_push(&a, k->memcg);
	argv_push(&a, "--swap"); argv_push(&a, k->swap);
	argv_push(&a, "--seed"); argv_push(&a, k->seed);
	argv_push(&a, "--timeout"); argv_push(&a, k->timeout);
	for (int w = 0; w < k->nwl; w++)
		argv_push(&a, k->wl[w]);
	*cached = false;
	char *key = NULL, path[4096];
	if (cache) {
		char *words = join_words(a.n, a.v);
		key = xmalloc(strlen(words) + 32);
		sprintf(key, "%s [executor %d]\n", words, NATIVE_EXECUTOR_REV);
		free(words);
		snprintf(path, sizeof(path), "%s/%s.%llu", cache, name, (unsigned long long)r + 1);
		FILE *f = cache_open(path, key);
		if (f) {
			*cached = true;
			free(key);
			argv_free(&a);
			return f;
		}
	}
	if (progress)
		fprintf(stderr, "compare: %spagelab kernel --memcg %s, run %llu of %llu...\n", k->tag, k->memcg,
			(unsigned long long)r + 1, (unsigned long long)of);
	FILE *out, *err;
	int rc = run_self(a.v, &out, &err);
	/* Freed before a failure exits: LeakSanitizer's exit status would
	 * replace ours (the sanitizer build's tests check it). */
	argv_free(&a);
	if (rc) {
		free(key);
		char msg[512];
		first_line(err, msg, sizeof(msg));
		if (rc == 2)
			die_usage("compare: %skernel: %s", k->tag, msg);
		fprintf(stderr, "pagelab: compare: %skernel run %llu exited %d: %s\n", k->tag,
			(unsigned long long)r + 1, rc, msg);
		exit(1);
	}
	if (key)
		cache_store(path, key, out);
	free(key);
	fclose(err);
	return out;
}
