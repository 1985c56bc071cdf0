/* sigchain.c - see sigchain.h. */
#include "sigchain.h"

#include <stddef.h>

void sig_pass_on(int sig, const siginfo_t *si, const struct sigaction *before)
{
	sigaction(sig, before, NULL);
	if (si && si->si_code > 0)
		return;
	raise(sig);
}
