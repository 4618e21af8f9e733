/* progress.c: the line each run of detection shows on stderr (detect, check). */
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/banned.h"

static void fmt_time(char *buf, size_t size, double s)
{
	if (s < 0)
		snprintf(buf, size, "?");
	else if (s < 10)
		snprintf(buf, size, "%.1fs", s);
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

/* "5 of 14 tests settled" (strategy fast) or "23 candidates left" (tedd). */
static void work_left(char *buf, size_t size, const ut_detect_event *ev)
{
	if (ev->tests_settled >= 0)
		snprintf(buf, size, "%ld of %ld tests settled", ev->tests_settled, ev->tests_total);
	else
		snprintf(buf, size, "%ld candidate%s left", ev->candidates_left,
			 ev->candidates_left == 1 ? "" : "s");
}

void ut_cli_progress_event(void *ctx, const ut_detect_event *ev)
{
	ut_cli_progress *p = ctx;
	char elapsed[32], left[32], took[32], work[64];

	fmt_time(elapsed, sizeof(elapsed), ev->elapsed_s);
	fmt_time(left, sizeof(left), ev->eta_s);
	fmt_time(took, sizeof(took), ev->run_s);
	work_left(work, sizeof(work), ev);
	if (p->tty) {
		double frac = ev->tests_settled >= 0 && ev->tests_total > 0
				      ? (double)ev->tests_settled / (double)ev->tests_total
				      : (double)ev->runs_done /
						(double)(ev->runs_done + 1.5 * (double)ev->candidates_left + 1);
		int done = (int)(20.0 * frac);

		ut_statusf("[%-20.*s] %ld runs, %s, %s elapsed, ~%s left: %s%s", done,
			   "####################", ev->runs_done, work, elapsed, left,
			   ev->error ? "ERROR " : ev->passed ? "pass " : "FAIL ", ut_cli_esc(ev->purpose));
		return;
	}
	if (ev->error) {
		ut_infof("run %ld [%s] %s: no usable outcomes (%s); run again (%s; %ld runs, %s "
			 "elapsed)", ev->run, ut_detect_phase_name(ev->phase), ut_cli_esc(ev->purpose),
			 ev->error, work, ev->runs_done, elapsed);
		return;
	}
	ut_infof("run %ld%s [%s] %s: %s%s%s (%zu test%s, %s; %s; %ld runs, %s elapsed, ~%s left)",
		 ev->run, ev->replayed ? " (journal)" : "", ut_detect_phase_name(ev->phase),
		 ut_cli_esc(ev->purpose), ev->passed ? "pass" : "fail", ev->failed ? " at " : "",
		 ev->failed ? ut_cli_esc(ev->failed) : "", ev->tests, ev->tests == 1 ? "" : "s", took,
		 work, ev->runs_done, elapsed, left);
}

void ut_cli_progress_end(ut_cli_progress *p)
{
	(void)p;
	ut_cli_status_end();
}
