/* cmd_init.c: `untangle init`: writes untangle.json from what the suite shows, and says
 * what it found and what to run next. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "init/init.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/banned.h"


#define UT_INIT_FILE "untangle.json"
#define UT_INIT_SHOW 10 /* proposed values listed */

static void print_found(const ut_init *in)
{
	size_t i;

	printf("found %zu tests in %zu file%s: %s, %s\n", in->ntests, in->nfiles,
	       in->nfiles == 1 ? "" : "s", in->languages,
	       in->framework ? in->framework : "no known framework");
	printf("  tests in      %s\n", in->path ? in->path : ". (the whole folder)");
	if (in->preset)
		printf("  runner        preset %s (what %s tests run with)\n", in->preset,
		       in->framework);
	else
		printf("  runner        none fits %s: write runner.command (DESIGN.md's runner "
		       "contract: run the given ids in the given order, write a JUnit report)\n",
		       in->framework ? in->framework : "these tests");
	if (in->python)
		printf("  python        the python3 first on PATH has no pytest, %s has: "
		       "runner.python\n", in->python);
	if (in->classpath)
		printf("  classpath     %zu folder%s of compiled classes, %zu jar%s of the project, "
		       "%zu from /usr/share/java: runner.env CLASSPATH\n",
		       in->class_roots, in->class_roots == 1 ? "" : "s", in->project_jars,
		       in->project_jars == 1 ? "" : "s", in->system_jars);
	if (in->nreset) {
		printf("  reset        ");
		for (i = 0; i < in->nreset; i++) {
			putchar(' ');
			ut_cli_print_quoted(in->reset[i]);
		}
		putchar('\n');
	} else {
		printf("  reset         none given. detect runs tests out of their order and needs "
		       "every schedule to start from a clean application: give the command that "
		       "restores one for a worker, e.g. untangle init --force --reset ./reset "
		       "{worker}\n");
	}
	if (!in->nvalues) {
		printf("  values        no value is shared by (nearly) every test\n");
		return;
	}
	printf("  values        shared by (nearly) every test, proposed as dependency-free "
	       "(values.ignore: read them, remove what one test creates for others):\n");
	printf("      %5s %5s  %s\n", "users", "subm", "value");
	for (i = 0; i < in->nvalues && i < UT_INIT_SHOW; i++) {
		printf("      %5zu %5zu  ", in->values[i].users, in->values[i].submitters);
		ut_cli_print_quoted(in->values[i].value);
		putchar('\n');
	}
	if (in->nvalues > UT_INIT_SHOW)
		printf("      ... %zu more in %s\n", in->nvalues - UT_INIT_SHOW, UT_INIT_FILE);
}

/* How untangle.json differs from the proposal, and whether it was written. */
static void print_changes(const ut_init_change *changes, size_t nchanges, bool written)
{
	for (size_t i = 0; i < nchanges; i++) {
		if (i == 0)
			printf("%s differs from this proposal:\n", UT_INIT_FILE);
		printf("  %-22s %s -> %s\n", changes[i].key,
		       changes[i].was ? changes[i].was : "(not set)",
		       changes[i].then ? changes[i].then : "(not proposed)");
	}
	if (written)
		printf("wrote %s\n", UT_INIT_FILE);
	else if (nchanges)
		printf("%s is kept: 'untangle init --force' writes the proposal (what it does not "
		       "propose is dropped: copy it over after)\n", UT_INIT_FILE);
	else
		printf("%s already holds this proposal\n", UT_INIT_FILE);
}

/* The commands to run next. */
static void print_next(const ut_init *in)
{
	printf("\nnext:\n");
	if (!in->nreset)
		printf("  untangle init --force --reset CMD...   # first: the reset detect needs\n");
	printf("  untangle tests        # the suite as the runner lists it, a line a test\n");
	printf("  untangle candidates   # the dependencies the values suggest\n");
	printf("  untangle detect       # proves them by running the tests; writes the graph\n");
	printf("  untangle shard --shards 4\n");
}

int cmd_init(int argc, char **argv)
{
	ut_cli_common common = {0};
	ut_cli_rest rest = {0};
	bool reset = false, force = false;
	ut_opt opts[] = {
	    UT_OPT_ROW(UT_OPT_FLAG, 0, "reset", NULL,
	     "the arguments after the options are runner.reset: the command that gives a "
	     "worker a clean application ({worker} is its number); use -- before one that "
	     "has options",
	     &reset),
	    UT_OPT_ROW(UT_OPT_FLAG, 0, "force", NULL,
	     "replace an existing untangle.json (without it, init shows what it would change)",
	     &force),
	    UT_OPT_ROW(UT_OPT_REST, 0, NULL, "CMD", "the reset command, with --reset", &rest),
	    UT_CLI_OPT_JOBS(common),
	    UT_OPT_END,
	};
	ut_init_opts io;
	ut_init *in = NULL;
	const ut_init_change *changes = NULL;
	size_t nchanges = 0;
	bool written = false;
	ut_diags diags;
	ut_buf out = UT_BUF_INIT;
	int rc, exit_code = UT_EXIT_OK;

	ut_diags_init(&diags);
	if (!ut_cli_parse("init", opts, &common, argc, argv, &exit_code))
		goto done;
	if (rest.n && !reset) {
		ut_errorf("'%s': init takes no paths (a reset command follows --reset)",
			  rest.items[0]);
		exit_code = UT_EXIT_INPUT;
		goto done;
	}
	if (reset && !rest.n) {
		ut_errorf("--reset: the command is missing (e.g. --reset ./reset {worker})");
		exit_code = UT_EXIT_INPUT;
		goto done;
	}
	memset(&io, 0, sizeof(io));
	io.jobs = (unsigned)common.jobs;
	exit_code = ut_cli_chdir(&common);
	if (exit_code)
		goto done;
	io.config_path = UT_INIT_FILE;
	io.force = force;
	io.reset = (const char *const *)rest.items;
	io.nreset = rest.n;
	io.probe_python = true;
	rc = ut_init_project(&in, &io, &diags, &changes, &nchanges, &written);
	ut_cli_print_diags(&diags);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
		goto done;
	}
	if (common.json) {
		out.sink = ut_cli_stdout_sink;
		if (ut_init_survey_json(in, &out) < 0 || ut_buf_flush(&out) < 0) {
			ut_errorf("%s", ut_error_message());
			exit_code = UT_EXIT_ENV;
		}
		goto done;
	}
	print_found(in);
	print_changes(changes, nchanges, written);
	print_next(in);
done:
	ut_buf_dispose(&out);
	ut_init_free(in);
	ut_diags_dispose(&diags);
	free(rest.items);
	return exit_code;
}
