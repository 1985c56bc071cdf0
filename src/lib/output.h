/* output.h - output that is never silently lost: standard output checked
 * when the program ends (a full disk, a closed descriptor: exit 1 with the
 * reason on stderr), files written atomically (FILE.tmp.PID, fsync, rename:
 * an existing file is replaced only by a complete one), and SIGINT/SIGTERM
 * turned into a flag that long loops poll so they can write what finished.
 *
 * Every file a command writes goes through here (tests/cli.d/outputs.sh
 * fails when a write outside this file appears), so that every output
 * follows the same rules:
 *  - a regular file (or a new one) is replaced by renaming a complete
 *    temporary file over it; a symbolic link has its target replaced,
 *    never the link itself; a link to nothing is refused;
 *  - a device, a FIFO or /dev/stdout is never renamed over: it is written
 *    in place, or refused (one line, exit 2) when the output must be a
 *    regular file (OUTPUT_REGULAR: a binary trace, rewritten at its end;
 *    a results file, read back by a resumed sweep);
 *  - the temporary file is removed on every error, at exit, and when a
 *    signal kills the process (SIGINT, SIGTERM, SIGHUP, SIGPIPE, ...:
 *    output_init() installs the handlers); SIGXFSZ (`ulimit -f`) makes
 *    the write fail with "File too large" instead of killing. */
#ifndef PAGELAB_OUTPUT_H
#define PAGELAB_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

/* Exit status of a run stopped by --max-time (issue 15). */
#define EXIT_MAX_TIME 3

/* Call first in main(): refuses to start (exit 1, one line) when standard
 * output is closed, so no file opened later can take descriptor 1, and
 * registers the check of standard output at exit: if flushing or closing
 * it fails, "pagelab: cannot write standard output: REASON" and exit 1. */
void output_init(void);

/* Flush and close standard output now; false (with the stderr line
 * printed) if anything written to it was lost. */
bool output_close_stdout(void);

/* A file written under a temporary name and renamed over PATH only when
 * complete (tmp is NULL for a device or FIFO written in place).
 * atomic_open() returns NULL with a reason in err on failure. */
struct atomic_file {
	FILE *f;
	char *path, *tmp;
};
FILE *atomic_open(struct atomic_file *af, const char *path, char *err, size_t errlen);
/* The same with flags: OUTPUT_REGULAR refuses a PATH that exists and is
 * not a regular file (nor a link to one). */
#define OUTPUT_REGULAR 1u
FILE *output_open(struct atomic_file *af, const char *path, unsigned flags, char *err, size_t errlen);
/* True if PATH is missing or a regular file (or a link to one); else
 * false with "cannot write PATH: not a regular file" in err. */
bool output_regular_or_new(const char *path, char *err, size_t errlen);
/* A results file opened for appending (a resumed sweep): PATH must be
 * a regular file or new. */
FILE *output_append(const char *path, char *err, size_t errlen);
/* Flush, fsync, close and rename; on any failure remove the temporary
 * file, put "cannot write PATH: REASON" in err and return false. */
bool atomic_commit(struct atomic_file *af, char *err, size_t errlen);
/* Give up: close and remove the temporary file (PATH is untouched). */
void atomic_abort(struct atomic_file *af);

/* SIGINT and SIGTERM set a flag instead of killing the process (a second
 * one kills it, the temporary files removed); output_interrupted() returns the signal number
 * once one arrived, else 0.  Exit status for it: 128 + signal, as a shell
 * reports a process killed by it (130 for SIGINT, 143 for SIGTERM). */
void output_catch_interrupts(void);
/* The same flag for a process that must clean up whatever comes (pagelab
 * kernel: its cgroup and swapfile): SIGHUP too, every signal caught, and
 * no SA_RESTART, so that a blocking flock() or wait() returns EINTR. */
void output_catch_stop_signals(void);
int output_interrupted(void);

#endif
