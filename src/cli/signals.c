/* signals.c: Ctrl-C and SIGTERM during runs: the children are stopped, nothing new
 * starts, and the command ends cleanly with what it has (exit code 130). */
#include <signal.h>
#include <string.h>

#include "cli/cli.h"
#include "runner/process.h"
#include "util/banned.h"

static void on_signal(int sig)
{
	(void)sig;
	ut_proc_interrupt();
}

void ut_cli_signals_catch(ut_cli_signals *s)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &s->old_int);
	sigaction(SIGTERM, &sa, &s->old_term);
}

void ut_cli_signals_restore(ut_cli_signals *s)
{
	sigaction(SIGINT, &s->old_int, NULL);
	sigaction(SIGTERM, &s->old_term, NULL);
}
