/* progress.c: the line each run of detection shows on stderr (detect, check). */
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/banned.h"

static void fmt_time(char *buf, size_t size, double s)
{
	if (s < 0)
		snprintf(buf, size, "?");
	else if (s < 60)
		snprintf(buf, size, "%.0fs", s);
	else
		snprintf(buf, size, "%.0fm%02.0fs", s / 60 - 0.5 < 0 ? 0 : (double)(long)(s / 60),
			 s - 60 * (double)(long)(s / 60));
}

void ut_cli_progress_init(ut_cli_progress *p)
{
	p->tty = isatty(STDERR_FILENO);
}

void ut_cli_progress_event(void *ctx, const ut_detect_event *ev)
{
	ut_cli_progress *p = ctx;
	char elapsed[32], left[32];
	/* Each candidate edge costs one or two runs: a rough estimate of what is left. */
	double eta = ev->mean_run_s > 0 ? ev->mean_run_s * 1.5 * (double)ev->candidates_left : -1;

	fmt_time(elapsed, sizeof(elapsed), ev->elapsed_s);
	fmt_time(left, sizeof(left), eta);
	if (p->tty) {
		int done = (int)(20.0 * (double)ev->runs_done /
				 (double)(ev->runs_done + 1.5 * (double)ev->candidates_left + 1));

		ut_statusf("[%-20.*s] %ld runs, %ld candidates left, %s elapsed, ~%s left: %s%s", done,
			   "####################", ev->runs_done, ev->candidates_left, elapsed, left,
			   ev->passed ? "pass " : "FAIL ", ut_cli_esc(ev->purpose));
		return;
	}
	if (ev->error) {
		ut_infof("run %ld [%s] %s: no usable outcomes (%s); run again", ev->run,
			 ut_detect_phase_name(ev->phase), ut_cli_esc(ev->purpose), ev->error);
		return;
	}
	ut_infof("run %ld%s [%s] %s: %s%s%s (%zu tests; %ld candidates left, %s)", ev->run,
		 ev->replayed ? " (journal)" : "", ut_detect_phase_name(ev->phase),
		 ut_cli_esc(ev->purpose), ev->passed ? "pass" : "fail", ev->failed ? " at " : "",
		 ev->failed ? ut_cli_esc(ev->failed) : "", ev->tests, ev->candidates_left, elapsed);
}

void ut_cli_progress_end(ut_cli_progress *p)
{
	(void)p;
	ut_cli_status_end();
}
