/* cmd_graph.c: `untangle graph`: the stored graph as JSON, Graphviz dot or Mermaid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "graph/graph_json.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/banned.h"


static bool shown(const ut_edge *e, bool all)
{
	return e->status == UT_EDGE_MANIFEST || (all && ut_edge_active(e));
}

/* Names in labels: quotes and brackets would end a Mermaid or dot label; control and
 * bidirectional characters are shown escaped, as in text output. */
static void print_label(const char *s, bool mermaid)
{
	for (s = ut_cli_esc(s); *s; s++) {
		if (*s == '"')
			fputs(mermaid ? "#quot;" : "\\\"", stdout);
		else if (*s == '\\' && !mermaid)
			fputs("\\\\", stdout);
		else if ((unsigned char)*s < 0x20)
			putchar(' ');
		else
			putchar(*s);
	}
}

void ut_cli_print_dot(const ut_graph *g, const char *name,
		      bool (*style)(const ut_edge *e, void *ctx, char *attrs, size_t size),
		      void *ctx)
{
	char attrs[128];
	size_t i;

	printf("digraph %s {\n  rankdir=RL;\n  node [shape=box];\n", name);
	for (i = 0; i < g->ntests; i++) {
		printf("  t%zu [label=\"", i);
		print_label(g->tests[i].name, false);
		printf("\"%s];\n", g->tests[i].flaky ? ", style=dashed" : "");
	}
	for (i = 0; i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];

		attrs[0] = '\0';
		if (style(e, ctx, attrs, sizeof(attrs)))
			printf("  t%u -> t%u%s%s%s;\n", e->dependent, e->dependee, *attrs ? " [" : "",
			       attrs, *attrs ? "]" : "");
	}
	printf("}\n");
}

static bool graph_style(const ut_edge *e, void *all, char *attrs, size_t size)
{
	if (e->status != UT_EDGE_MANIFEST)
		snprintf(attrs, size, "style=dashed");
	return shown(e, *(bool *)all);
}

static void print_mermaid(const ut_graph *g, bool all)
{
	size_t i;

	printf("graph RL\n");
	for (i = 0; i < g->ntests; i++) {
		printf("  t%zu[\"", i);
		print_label(g->tests[i].name, true);
		printf("\"]\n");
	}
	for (i = 0; i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];

		if (shown(e, all))
			printf("  t%u %s t%u\n", e->dependent,
			       e->status == UT_EDGE_MANIFEST ? "-->" : "-.->", e->dependee);
	}
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
		rc = ut_graph_load(&g, p.cfg.store.graph);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
		goto done;
	}
	if (!strcmp(format, "dot")) {
		ut_cli_print_dot(g, "untangle", graph_style, &all);
	} else if (!strcmp(format, "mermaid")) {
		print_mermaid(g, all);
	} else {
		out.sink = ut_cli_stdout_sink;
		rc = ut_graph_write_json(&out, g);
		if (rc < 0) {
			ut_errorf("%s", ut_error_message());
			exit_code = UT_EXIT_ENV;
			goto done;
		}
	}
done:
	ut_buf_dispose(&out);
	ut_graph_free(g);
	ut_config_dispose(&p.cfg);
	return exit_code;
}
