/* sigchain.h - handing a signal on to the handler that was there before.
 *
 * pagelab installs two crash handlers that each take only their own
 * signals: input.c's SIGBUS for a trace file that shrank under its
 * mapped window, plugin_guard.c's for a plugin that crashed.  Whichever
 * comes second must pass the other's signals on with their siginfo
 * intact: raise() would deliver a SIGBUS with no fault address, which the
 * first handler cannot match to its window (a truncated trace replayed
 * with a plugin loaded died of SIGBUS instead of its one line). */
#ifndef PAGELAB_SIGCHAIN_H
#define PAGELAB_SIGCHAIN_H

#include <signal.h>

/* From inside a handler of sig: put `before` back and let it take the
 * signal as if this handler had never been installed.  A fault the
 * kernel raised (si_code > 0) returns: the faulting instruction runs
 * again and faults again, into `before`, with the real siginfo.  A
 * signal sent by kill()/raise()/abort() (si_code <= 0) would be lost by
 * returning, so it is raised again. */
void sig_pass_on(int sig, const siginfo_t *si, const struct sigaction *before);

#endif
