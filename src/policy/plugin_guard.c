/* plugin_guard.c - a plugin that hangs, spins or crashes ends the run
 * with one line instead of hanging pagelab or killing it by a signal.
 *
 * The watchdog: one thread per process, started with the first plugin
 * instance, wakes every TICK_MS of host time and looks at each live
 * instance's call counter (plugin_inst.h: bumped at every callback's
 * entry and exit, so a callback costs two relaxed stores and no clock
 * read).  A callback that has been running with the counter unchanged
 * for the bound (PAGELAB_PLUGIN_TIMEOUT, 10 s of host time by default,
 * 0 for none) ends the process: "pagelab: plugin PATH: CALL: did not
 * return ...", exit 1.  After SIGINT or SIGTERM (output_catch_interrupts
 * only sets a flag, which the simulation reads between events and a
 * stuck callback never reaches) a callback still running two ticks later
 * ends the process at once with 130 or 143, as the signal would have.
 *
 * Crashes: SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT inside a callback
 * end the process with one line and exit 1; outside one, the handler
 * that was there before (the default, or a sanitizer's) takes them.
 *
 * The process cannot go on after either: the stuck or crashed call is in
 * the middle of the simulation, so no report is written. */
#define _DEFAULT_SOURCE /* nanosleep under -std=c11 */
#include "plugin_inst.h"
#include "../lib/output.h"
#include "../lib/sigchain.h"
#include "../lib/util.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TICK_MS 100
#define DEFAULT_TIMEOUT_MS 10000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct plugin_inst *live;
static uint64_t timeout_ms = DEFAULT_TIMEOUT_MS;
static bool started;

/* write(2) of a few strings: all a signal handler or the watchdog may do
 * while another thread is stuck holding who knows which lock. */
static void say(const char *const *parts)
{
	for (; *parts; parts++) {
		ssize_t r = write(2, *parts, strlen(*parts));
		(void)r;
	}
}

static _Noreturn void end(const struct plugin_inst *in, const char *call, const char *what, int status)
{
	const char *parts[] = { "pagelab: plugin ", in->path, ": ", call ? call : "?", ": ", what, "\n", NULL };
	say(parts);
	_exit(status);
}

/* What the watchdog remembers of one instance between ticks. */
struct watch_state {
	const struct plugin_inst *in;
	uint_fast64_t seq;
	uint64_t stalled_ms;
};

static void tick(struct watch_state *w, const struct plugin_inst *in)
{
	const char *call = atomic_load_explicit(&in->call, memory_order_relaxed);
	uint_fast64_t seq = atomic_load_explicit(&in->seq, memory_order_relaxed);
	if (w->in != in || !call || seq != w->seq) {
		*w = (struct watch_state){ in, seq, 0 };
		return;
	}
	w->stalled_ms += TICK_MS;
	int sig = output_interrupted();
	if (sig && w->stalled_ms >= 2 * TICK_MS)
		end(in, call, sig == SIGTERM ? "interrupted by SIGTERM while this call had not returned"
					     : "interrupted by SIGINT while this call had not returned", 128 + sig);
	if (timeout_ms && w->stalled_ms >= timeout_ms) {
		char what[160];
		snprintf(what, sizeof(what), "did not return within %.3g s of host time (PAGELAB_PLUGIN_TIMEOUT)",
			 (double)timeout_ms / 1000);
		end(in, call, what, EXIT_PLUGIN);
	}
}

#define MAX_WATCHED 64

static void *watchdog(void *arg)
{
	(void)arg;
	struct watch_state ws[MAX_WATCHED] = { { 0 } };
	for (;;) {
		struct timespec ts = { 0, TICK_MS * 1000000L };
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&lock);
		int i = 0;
		for (const struct plugin_inst *in = live; in && i < MAX_WATCHED; in = in->next_live, i++)
			tick(&ws[i], in);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

/* --- Crashes ------------------------------------------------------------ */

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static struct sigaction previous[ARRAY_SIZE(crash_signals)];

static void on_crash(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	const struct plugin_inst *in = plugin_current;
	for (size_t i = 0; i < ARRAY_SIZE(crash_signals); i++) {
		if (crash_signals[i] != sig)
			continue;
		if (in)
			end(in, atomic_load_explicit(&in->call, memory_order_relaxed),
			    sig == SIGABRT ? "aborted (SIGABRT)" : sig == SIGSEGV ? "crashed (SIGSEGV)"
			    : sig == SIGBUS ? "crashed (SIGBUS)" : sig == SIGFPE ? "crashed (SIGFPE)"
			    : "crashed (SIGILL)", EXIT_PLUGIN);
		/* Not the plugin's: as if this handler were not there. */
		sig_pass_on(sig, si, &previous[i]);
		return;
	}
}

static void catch_crashes(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_crash;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER | SA_SIGINFO;
	for (size_t i = 0; i < ARRAY_SIZE(crash_signals); i++)
		sigaction(crash_signals[i], &sa, &previous[i]);
}

/* The bound, read at every init (outside the lock: a bad value is bad
 * input, exit 2, which in the library longjmps). */
static uint64_t read_timeout_ms(void)
{
	const char *env = getenv("PAGELAB_PLUGIN_TIMEOUT");
	uint64_t ns;
	if (!env)
		return DEFAULT_TIMEOUT_MS;
	if (!parse_duration_ns(env, &ns))
		die_usage("PAGELAB_PLUGIN_TIMEOUT=%s: not a duration (e.g. 10s, 500ms; 0 for no bound)", env);
	return ns / 1000000 + (ns % 1000000 != 0);
}

static void start(void)
{
	catch_crashes();
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* Without the thread plugins still run, only unwatched. */
	if (pthread_create(&t, &attr, watchdog, NULL))
		fputs("pagelab: warning: no plugin watchdog (cannot start its thread)\n", stderr);
	started = true;
	pthread_attr_destroy(&attr);
}

void plugin_guard_watch(struct plugin_inst *in)
{
	uint64_t ms = read_timeout_ms();
	pthread_mutex_lock(&lock);
	timeout_ms = ms;
	if (!started)
		start();
	in->next_live = live;
	live = in;
	pthread_mutex_unlock(&lock);
}

void plugin_guard_unwatch(struct plugin_inst *in)
{
	pthread_mutex_lock(&lock);
	struct plugin_inst **pp = &live;
	while (*pp && *pp != in)
		pp = &(*pp)->next_live;
	if (*pp)
		*pp = in->next_live;
	pthread_mutex_unlock(&lock);
}
