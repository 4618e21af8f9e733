/* cli.h: what the command-line files share: option tables, messages, exit codes. */
#ifndef UT_CLI_H
#define UT_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "collect/collect.h"
#include "config/config.h"
#include "detect/detect.h"
#include "filter/candidates.h"
#include "graph/timings.h"
#include "minimize/coverage.h"
#include "model/suite.h"
#include "report/findings.h"
#include "runner/runner.h"
#include "shard/shard.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/diag.h"

/* Documented exit codes (README "Exit codes"; `untangle --help` and every command's help
 * print ut_cli_exit_codes). */
enum {
	UT_EXIT_OK = 0,      /* success */
	UT_EXIT_FOUND = 1,   /* the check found a problem */
	UT_EXIT_INPUT = 2,   /* bad usage or bad input (config, source, graph file) */
	UT_EXIT_ENV = 3,     /* the environment failed (runner, reset, base commit, memory) */
	UT_EXIT_INTERRUPTED = 130 /* Ctrl-C or SIGTERM: stopped cleanly, the journal kept */
};

/* The exit codes as the help prints them, one line each. */
extern const char *const ut_cli_exit_codes;

/* Maps a library return code to the exit code. */
int ut_cli_exit_code(int rc);

/* Option kinds. UT_OPT_LIST is a value option that may repeat; its target is a
 * ut_cli_rest * whose items the caller frees. UT_OPT_REST takes the positional arguments
 * (value_name names them). UT_OPT_INT's target is a long, checked against min..max;
 * UT_OPT_NUMBER's a double, which must be positive. */
typedef enum {
	UT_OPT_FLAG,
	UT_OPT_VALUE,
	UT_OPT_REST,
	UT_OPT_LIST,
	UT_OPT_INT,
	UT_OPT_NUMBER
} ut_opt_kind;

typedef struct {
	ut_opt_kind kind;
	char short_name;        /* 0 when none */
	const char *long_name;  /* NULL for UT_OPT_REST */
	const char *value_name; /* shown in help: "DIR" */
	const char *help;
	void *target;           /* bool *, const char **, long *, double *, or ut_cli_rest * */
	long min, max;          /* UT_OPT_INT: the accepted range; UT_OPT_REST: max arguments (0: any) */
	bool required;          /* the command needs it: parsing fails without it */
} ut_opt;

typedef struct {
	const char **items;
	size_t n;
} ut_cli_rest;

/* A row of an option table; UT_OPT_INT_ROW adds the range, UT_OPT_REQUIRED marks an option
 * the command needs; UT_OPT_END ends the table. */
#define UT_OPT_ROW(k, s, l, v, h, t)                                                           \
	{.kind = (k), .short_name = (s), .long_name = (l), .value_name = (v), .help = (h),     \
	 .target = (t)}
#define UT_OPT_INT_ROW(s, l, v, h, t, lo, hi)                                                  \
	{.kind = UT_OPT_INT, .short_name = (s), .long_name = (l), .value_name = (v), .help = (h), \
	 .target = (t), .min = (lo), .max = (hi)}
#define UT_OPT_REQUIRED(k, s, l, v, h, t)                                                      \
	{.kind = (k), .short_name = (s), .long_name = (l), .value_name = (v), .help = (h),     \
	 .target = (t), .required = true}
#define UT_OPT_END {.kind = UT_OPT_REST}

/* Options every command has. */
typedef struct {
	bool help;
	bool json;
	bool quiet;
	const char *dir; /* -C DIR */
	long jobs; /* --jobs N of the commands that parse the suite (UT_CLI_OPT_JOBS); 0: a
		      thread per CPU */
	const char *collect; /* --collect auto|runner|static (UT_CLI_OPT_JOBS too); NULL:
				suite.collect */
} ut_cli_common;

/* The --jobs entry of the option table of a command that parses the suite (init). */
#define UT_CLI_OPT_JOBS(common)                                                            \
	UT_OPT_INT_ROW('j', "jobs", "N", "threads that parse the sources (default 0: one per CPU)", \
		       &(common).jobs, 0, 64)
/* --jobs and --collect, for a command that reads the suite through ut_cli_project_load. */
#define UT_CLI_OPT_SUITE(common)                                                           \
	UT_CLI_OPT_JOBS(common),                                                               \
	UT_OPT_ROW(UT_OPT_VALUE, 0, "collect", "HOW",                                          \
		   "which tests, ids and order: runner (the runner's list joined with the "     \
		   "sources), static (the sources alone) or auto (default: suite.collect, "     \
		   "runner when untangle.json configures one)",                                 \
		   &(common).collect)

typedef struct {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
} ut_cli_command;

/* The command called name, or NULL (main.c holds the list). */
const ut_cli_command *ut_cli_find(const char *name);

/* Parses argv[1..] against command's option table (ending with an all-zero UT_OPT_REST
 * entry; NULL for none) plus the common options. Returns true when the command goes on;
 * false when it stops, with *exit_code UT_EXIT_OK after --help (printed, with a usage line
 * made from the table) or UT_EXIT_INPUT on bad usage (the error printed). */
bool ut_cli_parse(const char *command, const ut_opt *opts, ut_cli_common *common, int argc,
		  char **argv, int *exit_code);

/* Messages go to stderr, lowercase, no final period. */
void ut_cli_quiet(bool quiet);
void ut_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ut_warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ut_infof(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* More lines of an error just printed ("untangle: " and the text): shown even with --quiet,
 * as the error is. */
void ut_detailf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A status line for a terminal: replaces the one before it, without a newline; the next
 * message or ut_cli_status_end ends it. Nothing when quiet. */
void ut_statusf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ut_cli_status_end(void);
/* A test name or id as text output shows it: s itself when it holds no control byte, else
 * a copy with newlines, tabs, carriage returns, other control bytes and DEL escaped (\n,
 * \t, \r, \xNN) and backslashes doubled, so that a name can never break a line or drive
 * the terminal. Use it wherever a name reaches text output (JSON escapes on its own).
 * The copy lives until 16 more escaped copies are made; NULL gives "". */
const char *ut_cli_esc(const char *s);
/* Prints s on stdout in double quotes, with quotes, backslashes and control bytes escaped. */
void ut_cli_print_quoted(const char *s);
/* Prints the graph for Graphviz on stdout (ut_report_dot): every test, and the edges for
 * which style(e, ctx, ...) returns true, with the attributes it writes. */
void ut_cli_print_dot(const ut_graph *g, const char *name,
		      bool (*style)(const ut_edge *e, void *ctx, char *attrs, size_t size),
		      void *ctx);
/* Prints the JSON document in out and a newline on stdout, then disposes of out.
 * 0, or UT_ENOMEM (nothing printed) when the buffer ran out of memory. */
int ut_cli_emit(ut_buf *out);
/* A ut_buf sink writing to stdout (streamed JSON): 0, or UT_EENV when stdout fails. */
int ut_cli_stdout_sink(void *ctx, const char *p, size_t n);
/* Prints the diagnostics as "file:line: warning: message". */
void ut_cli_print_diags(const ut_diags *d);
/* Changes into -C DIR; prints and returns UT_EXIT_INPUT when it cannot. */
int ut_cli_chdir(const ut_cli_common *common);
/* ut_cli_chdir, then into the project folder: the nearest folder from there up that holds
 * untangle.json (not past a repository's root), so that ids and files do not depend on
 * the folder untangle runs from; says so when it moves. *sub (the caller's, may be NULL)
 * is where it started relative to the project folder ("" or "a/b/"). Returns the exit
 * code. */
int ut_cli_chdir_project(const ut_cli_common *common, char **sub);

/* The project a command works on: untangle.json (defaults when absent) and the suite. */
typedef struct {
	ut_config cfg;
	ut_diags diags;
	ut_suite *suite;
	unsigned jobs; /* parse threads from --jobs (0: one per CPU), for later parses */
} ut_cli_project;

/* Changes into -C DIR, loads untangle.json and parses the suite (PATHs from the command
 * line override suite.paths). Prints what goes wrong; returns the exit code (0 on
 * success). The project must be disposed of whatever the result. */
int ut_cli_project_load(ut_cli_project *p, const ut_cli_common *common, ut_cli_rest *paths);
void ut_cli_project_dispose(ut_cli_project *p);
/* The first half of ut_cli_project_load: -C DIR, the project folder, untangle.json; the
 * suite left unparsed (p->suite NULL). *sub as ut_cli_chdir_project (may be NULL). */
int ut_cli_config_load(ut_cli_project *p, const ut_cli_common *common, char **sub);
/* The rest of ut_cli_project_load after ut_cli_config_load: the suite parsed and collected
 * (sub: what config_load gave, freed here). */
int ut_cli_project_read(ut_cli_project *p, const ut_cli_common *common, ut_cli_rest *paths,
			char *sub);
/* The fingerprint of the project's sources as graph.json's "sources" holds it, into hex,
 * when p->suite was read whole (every source file read): run and shard then take a graph
 * validated from it for the suite while the project matches it. False otherwise. */
bool ut_cli_sources_hex(const ut_cli_project *p, char hex[17]);
/* The project folder (the working directory, after -C) as an absolute path without
 * symbolic links, ending in '/'. NULL with the error set (UT_EENV, UT_ENOMEM) when it
 * cannot be read. The caller frees it. */
char *ut_cli_project_dir(void);
/* A path given on the command line made absolute as the user meant it (relative to -C
 * DIR, else to the folder untangle started in), before the command moves into the
 * project folder. NULL after printing why (memory, an unreadable current folder); the
 * caller frees it. */
char *ut_cli_path_from_start(const ut_cli_common *common, const char *path);
/* Feature coverage of g's tests from the project's suite (minimize and detect --select);
 * prints what goes wrong and returns the exit code. */
int ut_cli_features(ut_coverage *cov, const ut_graph *g, const ut_cli_project *p,
		    ut_diags *warnings);

/* Fills the candidate options from --extract and --filter (NULL: untangle.json) and the
 * config's values and nlp sections; *extract and *filter become the canonical names.
 * Prints and returns UT_EXIT_INPUT for an unknown value. */
int ut_cli_candidates_opts(const ut_cli_project *p, const char **extract, const char **filter,
			   ut_candidates_opts *co);

/* The progress of detect's runs (detect, check), one line per run through the message
 * family (--quiet silences it); on a terminal, one status line with a bar instead. */
typedef struct {
	bool tty; /* stderr is a terminal */
} ut_cli_progress;
void ut_cli_progress_init(ut_cli_progress *p);
/* A ut_detect_opts.progress callback; ctx is a ut_cli_progress. */
void ut_cli_progress_event(void *ctx, const ut_detect_event *ev);
/* Ends the status line, if any (after the runs). */
void ut_cli_progress_end(ut_cli_progress *p);

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT end untangle with exit code 130 (signals.c):
 * at once, except between ut_cli_signals_catch and ut_cli_signals_restore, while runs go
 * on, where they call ut_proc_interrupt and the command ends cleanly. main installs it. */
typedef struct {
	bool was_deferred;
} ut_cli_signals;
void ut_cli_signals_install(void);
void ut_cli_signals_catch(ut_cli_signals *s);
void ut_cli_signals_restore(ut_cli_signals *s);

/* The command under way ("detect"), as main dispatched it: the lock names it. */
void ut_cli_set_command(const char *name);
/* One untangle at a time on a project (guard.c): takes the lock UT_STORE_LOCK (the second
 * one is told who holds it), kills the runner processes a dead untangle left (recorded in
 * UT_STORE_PGROUPS) and records this one's from now on, with a supervisor that kills them
 * if untangle dies. Creates .untangle. Every command that runs tests or writes .untangle
 * calls it: detect and run through ut_cli_runner_new, check at its start; later calls do
 * nothing. Prints what goes wrong; returns the exit code (0, or 3). */
int ut_cli_guard(void);
/* After the command, guarded or not: stops every process the runs left behind
 * (ut_proc_stop_strays), saying how many. */
void ut_cli_guard_end(void);

/* Creates .untangle (runner reports go to .untangle/tmp) and the project's runner. Prints
 * what goes wrong; returns the exit code (0 on success). */
int ut_cli_runner_new(ut_runner **out, const ut_config *cfg);
/* Says which preset runs the tests when untangle.json names none (ut_cli_runner_new
 * does; check, whose library makes the runner, calls it on its own). */
void ut_cli_runner_note(const ut_config *cfg);

/* What `shard`, `schedules` and `run` work on: the project, the stored graph (refused
 * when tests were added or removed since it was made), the durations and the plan. */
typedef struct {
	ut_cli_project p;
	ut_graph *g;
	double *durations; /* per graph test, seconds */
	ut_timings_info timings;
	ut_shard_plan plan;
	double plan_s; /* the time planning took */
	bool verified; /* plan is the one `shard --verify` published (ut_store_verified_plan_path) */
} ut_cli_plan;

/* Loads and plans; prints what goes wrong and returns the exit code (0 on success). The
 * plan must be disposed of whatever the result. With use_verified, a plan of as many
 * shards that `shard --verify` published replaces the one made, while the project and the
 * graph are as they were when it passed (one that cannot be read is a warning). */
int ut_cli_plan_load(ut_cli_plan *pl, const ut_cli_common *common, const ut_shard_opts *opts,
		     bool use_verified);
void ut_cli_plan_dispose(ut_cli_plan *pl);
/* Writes the plan file (shard/plan_file.h) of pl to path, with the fingerprint of the
 * project as it is now. Prints what goes wrong; returns the exit code. */
int ut_cli_plan_write(const ut_cli_plan *pl, const char *path);
/* What `run --plan` works on instead of ut_cli_plan_load: untangle.json and the plan file
 * at path, no parse and no planning: pl->g holds the plan's tests, pl->plan its shards
 * (pl->durations stays NULL). The plan must have nshards shards. The project's
 * fingerprint is checked against the plan's: a drift is an error (UT_EXIT_INPUT naming
 * the first file that changed), or a warning with allow_drift. Prints what goes wrong;
 * returns the exit code. Dispose of pl with ut_cli_plan_dispose whatever the result. */
int ut_cli_plan_read(ut_cli_plan *pl, const ut_cli_common *common, const char *path,
		     size_t nshards, bool allow_drift);
/* The --select option of `run --list` and `shard --format lines`. */
#define UT_CLI_SELECT_HELP                                                                   \
	"the tests in a runner's own selection syntax, one argument per line: ids (default), " \
	"pytest, surefire (-Dtest), testng (-methods), mocha (--grep), or preset (the one "   \
	"runner.preset reads)"
/* Appends shard sh's tests to out as `select` says (ut_runner_selection; "preset": the
 * style of runner.preset), each line escaped for text output; warns when the selection is
 * not exact. Prints an error and returns the exit code. */
int ut_cli_selection(ut_buf *out, const ut_cli_plan *pl, const ut_shard *sh, const char *select);
/* Parses "K/N" (1 <= K <= N <= UT_SHARD_MAX); prints and returns UT_EXIT_INPUT when bad. */
int ut_cli_parse_shard(const char *arg, size_t *k, size_t *n);

/* The report writer for a --format name (github, markdown, sarif, gitlab, json), or NULL. */
typedef int (*ut_cli_report_writer)(ut_buf *out, const ut_findings *fs);
ut_cli_report_writer ut_cli_report_format(const char *name);
/* Posts the findings to GitHub (a check run and a pull-request comment, configured from
 * the environment); says what it posted. 0 or the library's error. */
int ut_cli_post_github(const ut_findings *fs);

int cmd_candidates(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_detect(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_minimize(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_schedules(int argc, char **argv);
int cmd_shard(int argc, char **argv);
int cmd_tests(int argc, char **argv);
int cmd_timings(int argc, char **argv);
int cmd_values(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
