/* main.c: the untangle command: dispatches to one cmd_<name>.c per subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/banned.h"

static const ut_cli_command commands[] = {
	{"candidates", "the candidate dependencies, with the values and filter verdicts behind them",
	 "[--extract string|order] [--filter none|values|verb|dobj|noun] [--dropped] [--json|--dot]\n"
	 "       [--explain-name NAME] [--jobs N] [-C DIR] [PATH...]", cmd_candidates},
	{"check", "the incremental pre-merge check: re-validate what a change affects, annotate",
	 "--base REF [--format text|github|markdown|sarif|gitlab|json] [--out FILE]\n"
	 "       [--summary FILE] [--post github] [--workers N] [--jobs N] [--json] [-C DIR]",
	 cmd_check},
	{"detect", "validate and recover the dependencies by running tests; write the graph",
	 "[--strategy tedd|fast] [--workers N] [--store file|notes] [--resume] [--json]\n"
	 "       [--jobs N] [-C DIR] [PATH...]",
	 cmd_detect},
	{"explain", "why a test depends on others: values, the runs that proved it, its schedule",
	 "TEST [--json] [-C DIR]", cmd_explain},
	{"graph", "the stored graph as json, dot or mermaid",
	 "[--format json|dot|mermaid] [--all] [-C DIR]", cmd_graph},
	{"init", "write untangle.json from what the suite shows: framework, preset, shared values",
	 "[--reset CMD...] [--force] [--jobs N] [--json] [-C DIR]", cmd_init},
	{"minimize", "the least-duration suite that keeps coverage and dependencies (Z3)",
	 "[--coverage FILE] [--time-limit S] [--keep TEST]... [--jobs N] [--json] [-C DIR]",
	 cmd_minimize},
	{"report", "a findings file as GitHub annotations, Markdown, SARIF, GitLab or JSON",
	 "--findings FILE [--format github|markdown|sarif|gitlab|json] [--post github] [-C DIR]",
	 cmd_report},
	{"run", "run one shard through the project's runner (what a CI matrix job calls)",
	 "--shard K/N [--worker W] [--list] [--jobs N] [--json] [-C DIR]", cmd_run},
	{"schedules", "the thesis' schedules: one per test without dependents, with speed-ups",
	 "[--format text|json|lines] [--out DIR] [--jobs N] [-C DIR]", cmd_schedules},
	{"shard", "dependency-safe lists for N CI jobs, balanced by duration",
	 "--shards N [--format text|json|github|lines] [--out DIR] [--per-sink] [--jobs N]\n"
	 "       [-C DIR]",
	 cmd_shard},
	{"tests", "the parsed suite in its original order: a line a test, or every action",
	 "[--actions] [--jobs N] [--json] [-C DIR] [PATH...]", cmd_tests},
	{"values", "string values ranked by how many tests use them (dependency-free candidates)",
	 "[--limit N|--all] [--jobs N] [--json] [-C DIR] [PATH...]", cmd_values},
	{"version", "untangle's version, its libraries and where its runner helpers are",
	 "[--json]", cmd_version},
};

const ut_cli_command *ut_cli_find(const char *name);

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
	fprintf(out, "\nEvery command takes --help, --json, -C DIR and --quiet.\n"
		     "exit codes: 0 success, 1 the check found a problem, 2 bad usage or input,\n"
		     "3 the environment failed, 130 interrupted\n");
}

int main(int argc, char **argv)
{
	const ut_cli_command *cmd;

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
	return cmd->run(argc - 1, argv + 1);
}
