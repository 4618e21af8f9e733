/* cmd_explain.c: `untangle explain TEST`: why a test depends on others (report/explain.h),
 * as text or --json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/explain.h"
#include "store/journal.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/banned.h"


int cmd_explain(int argc, char **argv)
{
	ut_cli_common common = {0};
	ut_cli_rest rest = {0};
	ut_opt opts[] = {
		{.kind = UT_OPT_REST, .value_name = "TEST", .help = "a test id, name, or the end of an id",
		 .target = &rest, .max = 1, .required = true},
		UT_OPT_END,
	};
	ut_config cfg;
	ut_graph *g = NULL;
	ut_journal *j = NULL;
	ut_buf out = UT_BUF_INIT;
	bool ambiguous = false;
	long t;
	int rc, exit_code = UT_EXIT_OK;

	ut_config_init(&cfg);
	if (!ut_cli_parse("explain", opts, &common, argc, argv, &exit_code))
		goto done;
	exit_code = ut_cli_chdir_project(&common, NULL);
	if (exit_code)
		goto done;
	rc = ut_config_load(&cfg, "untangle.json", true);
	if (rc == 0)
		rc = ut_store_graph_load(&g, cfg.store.graph);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
		goto done;
	}
	t = ut_graph_find_test(g, rest.items[0], &ambiguous);
	if (t < 0) {
		ut_errorf("'%s' %s in %s", rest.items[0],
			  ambiguous ? "names more than one test" : "is no test", cfg.store.graph);
		exit_code = UT_EXIT_INPUT;
		goto done;
	}
	if (ut_journal_load(&j, UT_STORE_JOURNAL) < 0)
		j = NULL; /* explain what the graph holds; runs are shown when the journal is there */
	rc = ut_report_explain(&out, g, (uint32_t)t, j, common.json);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
	} else {
		fwrite(out.ptr, 1, out.len, stdout);
	}
done:
	ut_buf_dispose(&out);
	ut_journal_close(j);
	ut_graph_free(g);
	free(rest.items);
	ut_config_dispose(&cfg);
	return exit_code;
}
