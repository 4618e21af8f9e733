/* guard.c: one untangle at a time on a project, and no runner process that outlives it. */
#include <stdio.h>

#include "check/check.h"
#include "cli/cli.h"
#include "proc/process.h"
#include "runner/runner.h"
#include "util/error.h"
#include "util/banned.h"

static const char *command = "";
static int lock_fd = -1;

void ut_cli_set_command(const char *name)
{
	command = name ? name : "";
}

int ut_cli_guard(void)
{
	size_t killed = 0, removed = 0, reports = 0, bases = 0;
	int rc;

	if (lock_fd >= 0)
		return UT_EXIT_OK;
	/* the lock, and the temporary files a killed untangle was writing */
	rc = ut_store_lock(&lock_fd, command, &removed);
	if (rc == 0)
		rc = ut_proc_kill_orphans(UT_STORE_PGROUPS, &killed);
	if (rc == 0 && killed)
		ut_warnf("stopped %zu runner process%s that an earlier untangle left running (%s)",
			 killed, killed == 1 ? "" : "es", UT_STORE_PGROUPS);
	/* and its reports, lists and base copies */
	if (rc == 0)
		rc = ut_runner_remove_leftovers(UT_STORE_TMP, &reports);
	if (rc == 0)
		rc = ut_check_remove_leftovers(UT_STORE_TMP, &bases);
	if (rc == 0 && bases)
		ut_infof("removed %zu folder%s of a killed check in %s/tmp", bases,
			 bases == 1 ? "" : "s", UT_STORE_DIR);
	if (rc == 0 && removed + reports)
		ut_infof("removed %zu temporary file%s that an earlier untangle left in %s",
			 removed + reports, removed + reports == 1 ? "" : "s", UT_STORE_DIR);
	if (rc == 0)
		rc = ut_proc_track(UT_STORE_PGROUPS);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return UT_EXIT_ENV;
	}
	return UT_EXIT_OK;
}

void ut_cli_guard_end(void)
{
	size_t killed = 0;

	if (lock_fd < 0)
		return;
	if (ut_proc_stop_strays(&killed) < 0)
		ut_warnf("%s", ut_error_message());
	else if (killed)
		ut_infof("stopped %zu process%s the tests left running", killed,
			 killed == 1 ? "" : "es");
}
