/* main.c: the untangle command: dispatches to one cmd_<name>.c per subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "post/github.h"
#include "util/env.h"
#include "util/banned.h"

static const ut_cli_command commands[] = {
	{"candidates", "the candidate dependencies, with the values and filter verdicts behind them",
	 cmd_candidates},
	{"check", "the incremental pre-merge check: re-validate what a change affects, annotate",
	 cmd_check},
	{"detect", "validate and recover the dependencies by running tests; write the graph",
	 cmd_detect},
	{"explain", "why a test depends on others: values, the runs that proved it, its schedule",
	 cmd_explain},
	{"graph", "the stored graph as json, dot or mermaid",
	 cmd_graph},
	{"init", "write untangle.json from what the suite shows: framework, preset, shared values",
	 cmd_init},
	{"minimize", "the least-duration suite that keeps coverage and dependencies (Z3)",
	 cmd_minimize},
	{"report", "a findings file as GitHub annotations, Markdown, SARIF, GitLab or JSON",
	 cmd_report},
	{"run", "run one shard through the project's runner (what a CI matrix job calls)",
	 cmd_run},
	{"schedules", "the thesis' schedules: one per test without dependents, with speed-ups",
	 cmd_schedules},
	{"shard", "dependency-safe lists for N CI jobs, balanced by duration",
	 cmd_shard},
	{"tests", "the parsed suite in its original order: a line a test, or every action",
	 cmd_tests},
	{"timings", "import durations from JUnit XML or pytest-split's .test_durations",
	 cmd_timings},
	{"values", "string values ranked by how many tests use them (dependency-free candidates)",
	 cmd_values},
	{"version", "untangle's version, its libraries and where its runner helpers are",
	 cmd_version},
};

const ut_cli_command *ut_cli_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: untangle <command> [options]\n\n"
		     "untangle finds the hidden dependencies between end-to-end browser tests.\n\n"
		     "commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nEvery command takes --help, --json, -C DIR and --quiet.\n%s",
		ut_cli_exit_codes);
}

int main(int argc, char **argv)
{
	static const char *const secrets[] = {UT_GITHUB_TOKEN, NULL};
	const ut_cli_command *cmd;
	int rc;

	/* before anything starts a child: no test reads our secrets in /proc/PPID/environ */
	if (ut_env_seal(secrets) < 0) {
		ut_errorf("out of memory");
		return UT_EXIT_ENV;
	}
	if (argc < 2) {
		usage(stderr);
		return UT_EXIT_INPUT;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return UT_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0)
		return cmd_version(1, argv);
	cmd = ut_cli_find(argv[1]);
	if (!cmd) {
		ut_errorf("'%s' is not an untangle command (see 'untangle --help')", argv[1]);
		return UT_EXIT_INPUT;
	}
	ut_cli_signals_install();
	ut_cli_set_command(cmd->name);
	rc = cmd->run(argc - 1, argv + 1);
	ut_cli_guard_end();
	return rc;
}
