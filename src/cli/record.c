/* record.c - pagelab record [-o FILE] [--no-instructions] -- CMD [ARGS]:
 * run a real program under valgrind's lackey tool (--trace-mem=yes) and
 * write its memory references as a pagelab text trace while it runs.
 * Lackey's output comes through a pipe (--log-fd), is parsed by the lackey
 * reader and written out line by line: nothing is buffered whole and no
 * intermediate log is kept. */
#include "cli.h"
#include "../trace/trace_reader.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define BATCH 4096

struct record_args {
	const char *outpath;
	bool no_instr;
};

#define AT(f) offsetof(struct record_args, f)
static const struct opt record_table[] = {
	{ "-o", NULL, OPT_STR, AT(outpath), "FILE", .missing = "record: -o needs a file name", .flags = OPT_NONEMPTY,
	  .help = "write the trace to FILE (default: stdout; CMD's own\nstdout then goes to stderr): to FILE.tmp.PID, "
	  "renamed\nover FILE at the end; a FIFO is written in place" },
	{ "--no-instructions", NULL, OPT_FLAG, AT(no_instr), .help = "leave out instruction fetches (data references only)" },
	{ .kind = OPT_END },
};

const struct opt_cmd record_cmd = {
	.name = "record",
	.usage =
"usage: pagelab record [-o FILE] [--no-instructions] -- CMD [ARGS]\n"
"Run CMD under valgrind's lackey tool (valgrind --tool=lackey --trace-mem=yes,\n"
"Debian's valgrind package) and write every memory reference it makes as a\n"
"pagelab text trace, as it runs: \"PAGE r|w pid=PID\" with 4 KiB pages in hex,\n"
"an access crossing a page boundary giving each page, a modify a read and a\n"
"write.  Replay it with pagelab run ... trace FILE.\n",
	.opts = record_table,
	.col = 21,
	.after =
"Exit status: 0 when CMD exited 0, 1 when it did not (the trace is still\n"
"written), 2 when valgrind cannot run or its output cannot be read.\n",
	.prefix = "record: ",
	.unknown = "record: unexpected '%s' (the program comes after --; see pagelab record --help)",
	.mode = OPT_DASHDASH,
};

/* valgrind --tool=lackey --trace-mem=yes CMD, its log on fds[1]; CMD's
 * stdout on stderr when the trace goes to stdout. */
static pid_t record_spawn(char **cmd, int n, int fds[2], bool to_stdout)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die_usage("record: fork: %s", strerror(errno));
	if (pid)
		return pid;
	close(fds[0]);
	if (to_stdout)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	char logfd[32];
	snprintf(logfd, sizeof(logfd), "--log-fd=%d", fds[1]);
	char **av = xcalloc((size_t)n + 5, sizeof(*av));
	av[0] = "valgrind";
	av[1] = "--tool=lackey";
	av[2] = "--trace-mem=yes";
	av[3] = logfd;
	for (int k = 0; k < n; k++)
		av[4 + k] = cmd[k];
	execvp(av[0], av);
	fprintf(stderr, "pagelab: record: cannot run valgrind (Debian's valgrind package): %s\n", strerror(errno));
	_exit(127);
}

struct copied {
	uint64_t nrefs;
	uint32_t pid;           /* the last reference's */
	bool read_ok;
	char err[320];
};

/* Every reference lackey reports, written to out as it comes. */
static void record_copy(struct trace_reader *rd, FILE *out, struct copied *c)
{
	struct trace_ref *b = xmalloc(BATCH * sizeof(*b));
	long n;
	c->read_ok = true;
	while ((n = trace_next(rd, b, BATCH)) != 0) {
		if (n < 0) {
			c->read_ok = false;
			snprintf(c->err, sizeof(c->err), "%s", trace_reader_error(rd));
			break;
		}
		for (long k = 0; k < n; k++) {
			if (b[k].pid)
				fprintf(out, "%#llx %c pid=%u\n", (unsigned long long)b[k].page, b[k].write ? 'w' : 'r', b[k].pid);
			else
				fprintf(out, "%#llx %c\n", (unsigned long long)b[k].page, b[k].write ? 'w' : 'r');
			c->pid = b[k].pid;
		}
		c->nrefs += (uint64_t)n;
	}
	free(b);
}

/* The trace written out (renamed into place) or dropped: false with why
 * in werr when it could not be written. */
static bool record_close(FILE *out, struct atomic_file *af, const struct copied *c, char *werr, size_t len)
{
	if (out == stdout) {
		bool ok = fflush(out) == 0 && !ferror(out);
		if (!ok)
			snprintf(werr, len, "cannot write the trace to stdout: %s", strerror(errno ? errno : EIO));
		return ok;
	}
	if (!c->read_ok || c->nrefs == 0) {
		atomic_abort(af); /* an existing FILE stays */
		return true;
	}
	return atomic_commit(af, werr, len);
}

/* How the program and the trace ended: the exit status. */
static int record_status(int status, const struct copied *c, bool write_ok, const char *werr,
			 const struct record_args *ra, const char *prog)
{
	if (!c->read_ok)
		die_usage("record: %s", c->err);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && c->nrefs == 0)
		return EXIT_USAGE; /* valgrind did not start; the child said why */
	if (!write_ok) {
		fprintf(stderr, "pagelab: record: %s\n", werr);
		return 1;
	}
	if (c->nrefs == 0)
		die_usage("record: valgrind reported no memory references (is it lackey's output?)");
	fprintf(stderr, "pagelab: recorded %llu references of pid %u%s%s\n", (unsigned long long)c->nrefs, c->pid,
		ra->outpath ? " to " : "", ra->outpath ? ra->outpath : "");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "pagelab: record: %s was killed by signal %d\n", prog, WTERMSIG(status));
		else
			fprintf(stderr, "pagelab: record: %s exited with status %d\n", prog, WEXITSTATUS(status));
		return 1;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_args ra = { 0 };
	int i, rc = opt_parse(&record_cmd, argc, argv, &ra, &i);
	if (rc != OPT_GO)
		return rc;
	if (i < argc)
		i++;    /* the "--" */
	if (i >= argc)
		die_usage("record: no program to run (pagelab record [-o FILE] -- CMD [ARGS])");
	FILE *out = stdout;
	struct atomic_file af = { 0 };
	char err[320];
	if (ra.outpath && strcmp(ra.outpath, "-")) {
		/* FILE.tmp.PID renamed at the end; a FIFO is written in place,
		 * as the program runs. */
		out = atomic_open(&af, ra.outpath, err, sizeof(err));
		if (!out)
			die_usage("record: %s", err);
	}
	int fds[2];
	if (pipe(fds) != 0)
		die_usage("record: pipe: %s", strerror(errno));
	pid_t pid = record_spawn(argv + i, argc - i, fds, out == stdout);
	close(fds[1]);
	FILE *lackey = fdopen(fds[0], "r");
	if (!lackey)
		die_usage("record: fdopen: %s", strerror(errno));
	struct trace_opts o = { .format = TRACE_FMT_LACKEY, .no_instructions = ra.no_instr };
	struct trace_reader *rd = trace_open_file(lackey, "valgrind", &o, err, sizeof(err));
	if (!rd)
		die_usage("record: %s", err);
	struct copied c = { 0 };
	record_copy(rd, out, &c);
	trace_close(rd);
	fclose(lackey);
	if (!c.read_ok)
		kill(pid, SIGTERM);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	char werr[400] = "";
	bool write_ok = record_close(out, &af, &c, werr, sizeof(werr));
	return record_status(status, &c, write_ok, werr, &ra, argv[i]);
}
