/* output.h - output that is never silently lost: standard output checked
 * when the program ends (a full disk, a closed descriptor: exit 1 with the
 * reason on stderr), files written atomically (FILE.tmp.PID, fsync, rename:
 * an existing file is replaced only by a complete one), and SIGINT/SIGTERM
 * turned into a flag that long loops poll so they can write what finished. */
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
 * complete.  atomic_open() returns NULL with a reason in err on failure. */
struct atomic_file {
	FILE *f;
	char *path, *tmp;
};
FILE *atomic_open(struct atomic_file *af, const char *path, char *err, size_t errlen);
/* Flush, fsync, close and rename; on any failure remove the temporary
 * file, put "cannot write PATH: REASON" in err and return false. */
bool atomic_commit(struct atomic_file *af, char *err, size_t errlen);
/* Give up: close and remove the temporary file (PATH is untouched). */
void atomic_abort(struct atomic_file *af);

/* SIGINT and SIGTERM set a flag instead of killing the process (a second
 * one kills it as usual); output_interrupted() returns the signal number
 * once one arrived, else 0.  Exit status for it: 128 + signal, as a shell
 * reports a process killed by it (130 for SIGINT, 143 for SIGTERM). */
void output_catch_interrupts(void);
/* The same flag for a process that must clean up whatever comes (pagelab
 * kernel: its cgroup and swapfile): SIGHUP too, every signal caught, and
 * no SA_RESTART, so that a blocking flock() or wait() returns EINTR. */
void output_catch_stop_signals(void);
int output_interrupted(void);

#endif
