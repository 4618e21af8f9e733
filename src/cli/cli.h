/* cli.h: what the command-line files share: option tables, messages, exit codes. */
#ifndef UT_CLI_H
#define UT_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "filter/candidates.h"
#include "graph/timings.h"
#include "minimize/coverage.h"
#include "model/suite.h"
#include "report/findings.h"
#include "runner/runner.h"
#include "shard/shard.h"
#include "util/buf.h"
#include "util/diag.h"

/* Documented exit codes (README, `untangle --help`). */
enum {
	UT_EXIT_OK = 0,      /* success */
	UT_EXIT_FOUND = 1,   /* the check found a problem */
	UT_EXIT_INPUT = 2,   /* bad usage or bad input (config, source, graph file) */
	UT_EXIT_ENV = 3,     /* the environment failed (runner, reset, base commit, memory) */
	UT_EXIT_INTERRUPTED = 130 /* Ctrl-C or SIGTERM: stopped cleanly, the journal kept */
};

/* Maps a library return code to the exit code. */
int ut_cli_exit_code(int rc);

/* UT_OPT_LIST is a value option that may repeat; its target is a ut_cli_rest * whose
 * items the caller frees. */
typedef enum { UT_OPT_FLAG, UT_OPT_VALUE, UT_OPT_REST, UT_OPT_LIST } ut_opt_kind;

typedef struct {
	ut_opt_kind kind;
	char short_name;        /* 0 when none */
	const char *long_name;  /* NULL for UT_OPT_REST */
	const char *value_name; /* shown in help: "DIR" */
	const char *help;
	void *target;           /* bool *, const char **, or ut_cli_rest * (REST, LIST) */
} ut_opt;

typedef struct {
	const char **items;
	size_t n;
} ut_cli_rest;

/* Options every command has. */
typedef struct {
	bool help;
	bool json;
	bool quiet;
	const char *dir; /* -C DIR */
	const char *jobs; /* --jobs N of the commands that parse the suite (UT_CLI_OPT_JOBS) */
} ut_cli_common;

/* The --jobs entry of the option table of a command that parses the suite. */
#define UT_CLI_OPT_JOBS(common)                                                            \
	{UT_OPT_VALUE, 'j', "jobs", "N",                                                   \
	 "threads that parse the sources, 0 to 64 (default 0: one per CPU)", &(common).jobs}

/* --jobs N (NULL: 0, one thread per CPU): 0 to 64. Prints and returns UT_EXIT_INPUT when
 * bad. */
int ut_cli_jobs(const char *arg, unsigned *out);

typedef struct {
	const char *name;
	const char *summary;
	const char *usage;
	int (*run)(int argc, char **argv);
} ut_cli_command;

/* Parses argv[1..] against the command's table plus the common options. Prints the error
 * and returns UT_EXIT_INPUT on bad usage, -1 when --help was printed, 0 otherwise. */
int ut_cli_parse(const ut_cli_command *cmd, const ut_opt *opts, ut_cli_common *common,
		 int argc, char **argv);

/* Messages go to stderr, lowercase, no final period. */
void ut_cli_quiet(bool quiet);
void ut_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ut_warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ut_infof(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints s on stdout in double quotes, with quotes, backslashes and control bytes escaped. */
void ut_cli_print_quoted(const char *s);
/* Prints the graph for Graphviz: every test, and the edges for which style(e, ctx, ...)
 * returns true, with the attributes it writes (none when it leaves attrs empty). */
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
/* Feature coverage of g's tests from the project's suite (minimize and detect --select);
 * prints what goes wrong and returns the exit code. */
int ut_cli_features(ut_coverage *cov, const ut_graph *g, const ut_cli_project *p,
		    ut_diags *warnings);

/* Fills the candidate options from --extract and --filter (NULL: untangle.json) and the
 * config's values and nlp sections; *extract and *filter become the canonical names.
 * Prints and returns UT_EXIT_INPUT for an unknown value. */
int ut_cli_candidates_opts(const ut_cli_project *p, const char **extract, const char **filter,
			   ut_candidates_opts *co);

/* While runs go on, SIGINT and SIGTERM call ut_proc_interrupt (signals.c). */
typedef struct {
	struct sigaction old_int, old_term;
} ut_cli_signals;
void ut_cli_signals_catch(ut_cli_signals *s);
void ut_cli_signals_restore(ut_cli_signals *s);

/* What untangle keeps in the project (DESIGN.md "Files it writes"), besides the graph. */
#define UT_CLI_STATE_DIR ".untangle"
#define UT_CLI_JOURNAL UT_CLI_STATE_DIR "/journal.jsonl"
#define UT_CLI_TIMINGS UT_CLI_STATE_DIR "/timings.json" /* durations of the latest runs */

/* Creates .untangle (runner reports go to .untangle/tmp) and the project's runner. Prints
 * what goes wrong; returns the exit code (0 on success). */
int ut_cli_runner_new(ut_runner **out, const ut_config *cfg);

/* What `shard`, `schedules` and `run` work on: the project, the stored graph (refused
 * when tests were added or removed since it was made), the durations and the plan. */
typedef struct {
	ut_cli_project p;
	ut_graph *g;
	double *durations; /* per graph test, seconds */
	ut_timings_info timings;
	ut_shard_plan plan;
	double plan_s; /* the time planning took */
} ut_cli_plan;

/* Loads and plans; prints what goes wrong and returns the exit code (0 on success). The
 * plan must be disposed of whatever the result. */
int ut_cli_plan_load(ut_cli_plan *pl, const ut_cli_common *common, const ut_shard_opts *opts);
void ut_cli_plan_dispose(ut_cli_plan *pl);
/* Parses "K/N" (1 <= K <= N <= UT_SHARD_MAX); prints and returns UT_EXIT_INPUT when bad. */
int ut_cli_parse_shard(const char *arg, size_t *k, size_t *n);

/* --workers N (NULL: detect.workers): 1 to 256. Prints and returns UT_EXIT_INPUT when bad. */
int ut_cli_workers(const char *arg, const ut_config *cfg, long *out);

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
int cmd_values(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
