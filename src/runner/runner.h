/* runner.h: running one schedule through the project's own test command (DESIGN.md,
 * "Runner contract"): reset, command, JUnit report, an outcome per test id. */
#ifndef UT_RUNNER_H
#define UT_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "model/suite.h"
#include "runner/junit.h"
#include "proc/process.h"
#include "util/buf.h"

typedef struct ut_runner ut_runner;

/* Creates a runner from cfg->runner. Copies what it needs: cfg may be disposed after.
 * - The command is runner.command, or when that is empty the preset's (ut_runner_preset).
 * - Templates, in command, reset and env values: "{tests}" must be a whole element of
 *   command (or reset) and becomes one element per test id, in schedule order; "{report}"
 *   (the absolute path of the JUnit XML file the command must write: work_dir/report-PID-wW.xml,
 *   removed before each attempt), "{worker}" (the worker index) and "{runners}"
 *   (ut_runner_helpers_dir) may sit inside an element or an env value. Other braces stay
 *   as written.
 * - Children run with cwd = root_dir (the folder of untangle.json), so relative paths in
 *   command and reset are relative to it; env is the caller's environment as the
 *   allow-list keeps it (ut_env_allowed: PATH, HOME, LANG, ..., never a secret's name) and
 *   the names or globs of runner.pass_env, with runner.env applied: a name given a string
 *   is set to it (templates expanded), a name given null keeps the caller's value, a secret
 *   included (PATH from runner.env also decides where argv[0] is found).
 * - Reports go to work_dir (created when missing, ut_fs_state_dir: no link in its path),
 *   one file per worker, the pid in its name.
 * Returns UT_EINPUT (message names the key) when there is neither a command nor a preset,
 * when "{tests}" is missing from the command or not a whole element, or "{report}" appears
 * in neither the command nor env; UT_EENV when a preset's helper in the runners folder is
 * missing or work_dir cannot be created or is a link; UT_ENOMEM. *out belongs to the
 * caller. */
int ut_runner_new(ut_runner **out, const ut_config *cfg, const char *root_dir,
		  const char *work_dir);

/* Accepts NULL. Removes this process's reports and lists from the work folder. */
void ut_runner_free(ut_runner *r);

/* Removes from work_dir the reports and lists of runners whose untangle is no longer
 * alive (killed mid-run); *removed (may be NULL) counts them. 0 or UT_EENV. */
int ut_runner_remove_leftovers(const char *work_dir, size_t *removed);

/* The command template in use (after the preset), NULL-terminated; borrowed. */
const char *const *ut_runner_command(const ut_runner *r);

/* The command template of a preset ("pytest", "mocha", "junit4", "junit5", "testng"),
 * NULL-terminated, static; NULL for an unknown preset:
 *   pytest: {python} -m pytest -p no:randomly -p no:cacheprovider --junitxml={report} --
 *           {tests}
 *   mocha:  node {runners}/mocha-ordered.js --report {report} -- {tests}
 *   junit4: java {runners}/OrderedRunner.java --report {report} -- {tests}
 *   junit5: java {runners}/OrderedPlatformRunner.java --report {report} -- {tests}
 *   testng: java {runners}/OrderedTestNG.java --report {report} -- {tests}
 * The JUnit helpers take the class path from the CLASSPATH variable: set it in runner.env. */
const char *const *ut_runner_preset(const char *preset);

/* The folder of the ordered-runner helpers: $UNTANGLE_RUNNERS when set, else
 * ../share/untangle/runners beside the executable when the helpers are there (an installed
 * untangle), else the source tree's ci/runners (compiled in). Borrowed. */
const char *ut_runner_helpers_dir(void);
/* Which of the three ut_runner_helpers_dir chose, in words ("$UNTANGLE_RUNNERS",
 * "installed beside the executable", "the source tree it was built from"). Static. */
const char *ut_runner_helpers_origin(void);

typedef enum {
	UT_RUN_OK,           /* the report was read; tests it lacks are not-run */
	UT_RUN_NO_REPORT,    /* no report (the command ended, or was stopped by the timeout) */
	UT_RUN_BAD_REPORT,   /* a report that is not valid JUnit XML, or was refused */
	UT_RUN_RESET_FAILED, /* the reset failed twice: ut_runner_run returned UT_EENV */
	UT_RUN_NOSTART,      /* the command could not start: UT_EENV */
	UT_RUN_INTERRUPTED   /* ut_proc_interrupt(): UT_EINTR; outcomes from what was reported */
} ut_run_status;

typedef struct {
	ut_outcome outcome;
	double duration_s; /* the report's time; 0 when not run */
	char *message;     /* first line of the failure/error/skip message (<= 500 bytes), or NULL */
	bool flaky;        /* passed after a failed attempt inside the run (runner reruns) */
	/* not-run although the command ended by itself and wrote a report: the runner did not
	 * know the id or chose not to run it (e.g. a failing hook); false when the run was cut
	 * short (timeout, signal, interrupt) or produced no report */
	bool absent;
} ut_test_result;

typedef struct {
	ut_run_status status;
	size_t n;
	ut_test_result *tests;  /* n, in schedule order */
	size_t unmatched;       /* report testcases that matched no id (hooks, class fixtures) */
	char *unmatched_first;  /* "classname name: message" of the first such failing one, or NULL */
	char *report_error;     /* why the report could not be read (NO_REPORT, BAD_REPORT), or NULL */
	ut_proc_result proc;    /* the last command run (the reset's when RESET_FAILED): state,
				 * exit status, signal, wall time, output tail. Recorded, never
				 * used for outcomes. */
	double reset_s;         /* wall time spent in resets, the reset's retry included */
	double start, end;      /* wall clock, seconds since the epoch */
	int worker;
} ut_run_result;

/* Runs one schedule on a worker once: reset (a failing reset is retried once), the command
 * with runner.timeout_s, the report. A run without a usable report is not repeated here:
 * the result classifies it (status, proc) and the caller decides; detection alone runs
 * such a run again (detect/exec.c), so that retries never multiply across layers.
 * *out is always filled (dispose it whatever the return code).
 * Returns 0 when the command ran (res->status: OK, NO_REPORT or BAD_REPORT),
 * UT_EENV when the reset failed twice (the message quotes the reset and its output tail)
 * or the command could not start, UT_EINTR when interrupted, UT_EINPUT for n == 0 or a
 * negative worker. Thread-safe for distinct workers on one runner (one report file per
 * worker: never run two schedules on the same worker at once). */
int ut_runner_run(ut_runner *r, int worker, const char *const *ids, size_t n,
		  ut_run_result *out);

/* runner.timeout_s. */
double ut_runner_timeout_s(const ut_runner *r);
/* runner.preflight_s, at most runner.timeout_s; 0 when there is no preflight. */
double ut_runner_preflight_s(const ut_runner *r);

/* Whether the runner has a list command: runner.list, or the preset's (docs/collection.md). */
bool ut_runner_can_list(const ut_runner *r);
/* Whether runner.reset gives each worker its own application ({worker} in it) while the
 * tests are never told which one is theirs (no {worker} in runner.command or runner.env,
 * and no source or settings file below the runner's root names UNTANGLE_WORKER, which
 * every run gets): with several workers, every worker's tests then reach the same
 * instance. */
bool ut_runner_worker_untold(const ut_runner *r);
/* The program the list command runs (its first element, templates expanded), for
 * messages; NULL when there is none. In r's arena. */
const char *ut_runner_list_program(ut_runner *r);

/* Runs the list command (docs/collection.md) in the project folder with the runner's
 * environment, {roots} expanded to roots and {list} to work_dir/list-PID.jsonl, no reset,
 * at most timeout_s (<= 0: none). On success *list_path (the caller's: free, and remove
 * the file) names the file the command wrote. *proc is always filled (dispose it).
 * Returns 0; UT_ENOTFOUND when there is no list command; UT_EENV when the command could
 * not start, failed, ran past the timeout or wrote no file (the message quotes the command
 * and the end of its output); UT_EINTR; UT_ENOMEM. */
int ut_runner_list(ut_runner *r, const char *const *roots, size_t nroots, double timeout_s,
		   char **list_path, ut_proc_result *proc);

/* The selection style a preset's runner reads: "surefire" (junit4, junit5), "pytest",
 * "testng", "mocha", else "ids". Static. */
const char *ut_runner_select_style(const char *preset);

/* Appends to out the ids as the runner's own command line selects them, one argument per
 * line: "ids" and "pytest" the ids (pytest node ids); "surefire" -Dtest=Class#m1+m2,Other#m3;
 * "testng" -methods and Class.m1,Class.m2; "mocha" the spec files, --grep and an anchored
 * pattern of the full titles. *exact is false when the selection may run more than the ids
 * (mocha: two files share a full title). Returns 0, UT_EINPUT for an unknown style (the
 * message lists the styles), UT_ENOMEM. */
int ut_runner_selection(ut_buf *out, const char *style, const char *const *ids, size_t n,
			bool *exact);

/* ut_runner_run with the command's timeout set to timeout_s instead of runner.timeout_s
 * (the reset keeps runner.timeout_s): detect's preflight. */
int ut_runner_run_timed(ut_runner *r, int worker, const char *const *ids, size_t n,
			double timeout_s, ut_run_result *out);

/* The preflight of detect, check and run: the reset, then test `id` alone on `worker`
 * within runner.preflight_s (nothing when it is 0). Whatever the test's outcome, 0 when
 * the runner ran it and reported it; else UT_EENV saying what went wrong (could not start,
 * the reset failed, no report, the id unknown to the runner, past the deadline), the end
 * of the runner's output and what to change (the class path, the python, npm ci, the
 * application...); UT_EINTR, UT_ENOMEM. */
int ut_runner_preflight(ut_runner *r, int worker, const char *id);

/* The Java sources of s's tests (their files and the files their actions come from: base
 * classes, page objects), copied into the runner: after its reset, the preflight compares
 * each with its class on the runner's class path (runner.env CLASSPATH or the command's
 * -cp), and stops with UT_EENV when the class is more than 10 s older than the source
 * (ut_runner_stale_class): the runs would
 * exercise the code of the last build, not the code untangle read. 0 or UT_ENOMEM. */
int ut_runner_watch_sources(ut_runner *r, const ut_suite *s);

/* A source newer than its compiled class. */
typedef struct {
	char source[1024];     /* as the suite names it */
	char class_file[2048]; /* the class path folder joined with the class's path */
	double behind_s;       /* the source's mtime minus the class's */
} ut_stale_class;

/* The first watched source whose class is more than 10 s older than it: 1 with *out filled; 0 when none
 * (or nothing is watched, or the class path has no folder holding them); UT_ENOMEM or a
 * read error (UT_ERROR naming the file). */
int ut_runner_stale_class(const ut_runner *r, ut_stale_class *out);
/* The start of the last n lines of a runner's output tail (NULL gives ""). Borrowed. */
const char *ut_runner_last_lines(const char *tail, size_t n);

/* Frees what the result owns. Accepts NULL. */
void ut_run_result_dispose(ut_run_result *res);

/* "ok", "no-report", "bad-report", "reset-failed", "could-not-start", "interrupted". */
const char *ut_run_status_name(ut_run_status s);

#endif
