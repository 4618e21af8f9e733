/* cmd_graph.c: `untangle graph`: the stored graph as JSON, Graphviz dot or Mermaid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "graph/graph_json.h"
#include "report/report.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/banned.h"


static bool shown(const ut_edge *e, bool all)
{
	return e->status == UT_EDGE_MANIFEST || (all && ut_edge_active(e));
}

static bool graph_style(const ut_edge *e, void *all, char *attrs, size_t size)
{
	if (e->status != UT_EDGE_MANIFEST)
		snprintf(attrs, size, "style=dashed");
	return shown(e, *(bool *)all);
}

static bool mermaid_shown(const ut_edge *e, void *all)
{
	return shown(e, *(bool *)all);
}

int cmd_graph(int argc, char **argv)
{
	ut_cli_common common = {0};
	const char *format = NULL;
	bool all = false;
	ut_opt opts[] = {
		UT_OPT_ROW(UT_OPT_VALUE, 'f', "format", "json|dot|mermaid", "output format (default json)",
		 &format),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "all", NULL,
		 "dot and mermaid: also the edges not validated yet (dashed)", &all),
		UT_OPT_END,
	};
	ut_cli_project p;
	ut_graph *g = NULL;
	ut_buf out = UT_BUF_INIT;
	int rc, exit_code = UT_EXIT_OK;

	memset(&p, 0, sizeof(p));
	if (!ut_cli_parse("graph", opts, &common, argc, argv, &exit_code))
		return exit_code;
	if (common.json)
		format = "json";
	if (!format)
		format = "json";
	if (strcmp(format, "json") && strcmp(format, "dot") && strcmp(format, "mermaid")) {
		ut_errorf("--format: '%s' is not one of json, dot, mermaid", format);
		return UT_EXIT_INPUT;
	}
	exit_code = ut_cli_chdir_project(&common, NULL);
	if (exit_code)
		return exit_code;
	ut_config_init(&p.cfg);
	rc = ut_config_load(&p.cfg, "untangle.json", true);
	if (rc == 0)
		rc = ut_store_graph_load(&g, p.cfg.store.graph);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
		goto done;
	}
	out.sink = ut_cli_stdout_sink;
	if (!strcmp(format, "dot"))
		rc = ut_report_dot(&out, g, "untangle", graph_style, &all);
	else if (!strcmp(format, "mermaid"))
		rc = ut_report_mermaid(&out, g, mermaid_shown, &all);
	else
		rc = ut_graph_write_json(&out, g);
	if (rc == 0)
		rc = ut_buf_flush(&out);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = UT_EXIT_ENV;
		goto done;
	}
done:
	ut_buf_dispose(&out);
	ut_graph_free(g);
	ut_config_dispose(&p.cfg);
	return exit_code;
}
