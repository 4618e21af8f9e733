/* signals.c: SIGINT, SIGTERM, SIGHUP and SIGQUIT. While runs go on, the children are
 * stopped, nothing new starts, and the command ends cleanly with what it has; at any
 * other time (parsing the sources, say) there is nothing to save and untangle exits at
 * once. Either way the exit code is 130. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "proc/process.h"
#include "util/banned.h"

static volatile sig_atomic_t deferred;

static void on_signal(int sig)
{
	(void)sig;
	if (!deferred)
		_exit(UT_EXIT_INTERRUPTED);
	ut_proc_interrupt();
}

void ut_cli_signals_install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void ut_cli_signals_catch(ut_cli_signals *s)
{
	s->was_deferred = deferred != 0;
	deferred = 1;
}

void ut_cli_signals_restore(ut_cli_signals *s)
{
	deferred = s->was_deferred;
}
