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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define BATCH 4096

static void usage(FILE *out)
{
	fputs(
"usage: pagelab record [-o FILE] [--no-instructions] -- CMD [ARGS]\n"
"Run CMD under valgrind's lackey tool (valgrind --tool=lackey --trace-mem=yes,\n"
"Debian's valgrind package) and write every memory reference it makes as a\n"
"pagelab text trace, as it runs: \"PAGE r|w pid=PID\" with 4 KiB pages in hex,\n"
"an access crossing a page boundary giving each page, a modify a read and a\n"
"write.  Replay it with pagelab run ... trace FILE.\n"
"  -o FILE            write the trace to FILE (default: stdout; CMD's own\n"
"                     stdout then goes to stderr): to FILE.tmp.PID, renamed\n"
"                     over FILE at the end; a FIFO is written in place\n"
"  --no-instructions  leave out instruction fetches (data references only)\n"
"Exit status: 0 when CMD exited 0, 1 when it did not (the trace is still\n"
"written), 2 when valgrind cannot run or its output cannot be read.\n", out);
}

int cmd_record(int argc, char **argv)
{
	const char *outpath = NULL;
	bool no_instr = false;
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "-o")) {
			if (i + 1 >= argc || !argv[i + 1][0])
				die_usage("record: -o needs a file name");
			outpath = argv[++i];
		} else if (!strcmp(a, "--no-instructions")) {
			no_instr = true;
		} else {
			die_usage("record: unexpected '%s' (the program comes after --; see pagelab record --help)", a);
		}
	}
	if (i >= argc)
		die_usage("record: no program to run (pagelab record [-o FILE] -- CMD [ARGS])");
	FILE *out = stdout;
	struct atomic_file af = { 0 };
	char err[320];
	if (outpath && strcmp(outpath, "-")) {
		/* FILE.tmp.PID renamed at the end; a FIFO is written in place,
		 * as the program runs. */
		out = atomic_open(&af, outpath, err, sizeof(err));
		if (!out)
			die_usage("record: %s", err);
	}
	int fds[2];
	if (pipe(fds) != 0)
		die_usage("record: pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die_usage("record: fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		if (out == stdout)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		char logfd[32];
		snprintf(logfd, sizeof(logfd), "--log-fd=%d", fds[1]);
		int n = argc - i;
		char **av = xcalloc((size_t)n + 5, sizeof(*av));
		av[0] = "valgrind";
		av[1] = "--tool=lackey";
		av[2] = "--trace-mem=yes";
		av[3] = logfd;
		for (int k = 0; k < n; k++)
			av[4 + k] = argv[i + k];
		execvp(av[0], av);
		fprintf(stderr, "pagelab: record: cannot run valgrind (Debian's valgrind package): %s\n", strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	FILE *lackey = fdopen(fds[0], "r");
	if (!lackey)
		die_usage("record: fdopen: %s", strerror(errno));
	struct trace_opts o = { .format = TRACE_FMT_LACKEY, .no_instructions = no_instr };
	struct trace_reader *rd = trace_open_file(lackey, "valgrind", &o, err, sizeof(err));
	if (!rd)
		die_usage("record: %s", err);
	struct trace_ref *b = xmalloc(BATCH * sizeof(*b));
	uint64_t nrefs = 0;
	uint32_t seen_pid = 0;
	long n;
	bool read_ok = true;
	while ((n = trace_next(rd, b, BATCH)) != 0) {
		if (n < 0) {
			read_ok = false;
			snprintf(err, sizeof(err), "%s", trace_reader_error(rd));
			break;
		}
		for (long k = 0; k < n; k++) {
			if (b[k].pid)
				fprintf(out, "%#llx %c pid=%u\n", (unsigned long long)b[k].page, b[k].write ? 'w' : 'r', b[k].pid);
			else
				fprintf(out, "%#llx %c\n", (unsigned long long)b[k].page, b[k].write ? 'w' : 'r');
			seen_pid = b[k].pid;
		}
		nrefs += (uint64_t)n;
	}
	free(b);
	trace_close(rd);
	fclose(lackey);
	if (!read_ok)
		kill(pid, SIGTERM);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	bool write_ok = true;
	char werr[400] = "";
	if (out == stdout) {
		write_ok = fflush(out) == 0 && !ferror(out);
		if (!write_ok)
			snprintf(werr, sizeof(werr), "cannot write the trace to stdout: %s", strerror(errno ? errno : EIO));
	} else if (!read_ok || nrefs == 0) {
		atomic_abort(&af); /* an existing FILE stays */
	} else {
		write_ok = atomic_commit(&af, werr, sizeof(werr));
	}
	if (!read_ok)
		die_usage("record: %s", err);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && nrefs == 0)
		return EXIT_USAGE; /* valgrind did not start; the child said why */
	if (!write_ok) {
		fprintf(stderr, "pagelab: record: %s\n", werr);
		return 1;
	}
	if (nrefs == 0)
		die_usage("record: valgrind reported no memory references (is it lackey's output?)");
	fprintf(stderr, "pagelab: recorded %llu references of pid %u%s%s\n", (unsigned long long)nrefs, seen_pid,
		outpath ? " to " : "", outpath ? outpath : "");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "pagelab: record: %s was killed by signal %d\n", argv[i], WTERMSIG(status));
		else
			fprintf(stderr, "pagelab: record: %s exited with status %d\n", argv[i], WEXITSTATUS(status));
		return 1;
	}
	return 0;
}
